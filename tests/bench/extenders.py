"""The extenders the throughput benchmark compares ours with, and what it reads from processes.

- the floor (``floor_extender/main.go``): fixed scores from Go's net/http, built once with the local Go
  toolchain into the control-plane cache (``SEMAFF_CACHE``, as hack/build-control-plane.sh), keyed by
  the source's hash so an edit rebuilds it;
- ``cpu_seconds(pid)``: user + system time of a process, all its threads, from /proc/PID/stat.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

from localcluster.kube import wait_for
from localcluster.processes import Process, free_port

SOURCE = Path(__file__).with_name("floor_extender") / "main.go"
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cache() -> Path:
    return Path(os.environ.get("SEMAFF_CACHE") or Path.home() / ".cache" / "semantic-affinity")


def build_floor() -> Path:
    """The floor extender's binary, compiled now unless this very source was compiled before."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    binary = _cache() / "floor-extender" / digest / "floor-extender"
    if os.access(binary, os.X_OK):
        return binary
    go = shutil.which("go")
    if go is None:
        raise RuntimeError("Go is not installed: the floor extender cannot be built")
    binary.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GOTOOLCHAIN": "local", "CGO_ENABLED": "0", "GOFLAGS": "-buildvcs=false",
           "GOCACHE": str(_cache() / "go" / "build")}
    partial = binary.with_suffix(".partial")
    subprocess.run(["nice", go, "build", "-trimpath", "-o", str(partial), str(SOURCE)], env=env, check=True,
                   cwd=SOURCE.parent)
    partial.rename(binary)
    return binary


def start_floor(log_dir: Path) -> tuple[Process, str]:
    """The floor extender on a free loopback port; (process, base URL) once it answers /healthz."""
    port = free_port()
    proc = Process.start("floor-extender", [str(build_floor()), f"-listen=127.0.0.1:{port}"], log_dir)
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        proc.check_alive()
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as r:
            return r.status == 200

    wait_for("floor extender /healthz", healthy, 30, 0.2)
    return proc, url


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` (every thread of it) in seconds."""
    return sum(cpu_times(pid))


def cpu_times(pid: int) -> tuple[float, float]:
    """(utime, stime) of ``pid`` in seconds, every thread included: fields 14 and 15 of /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # the command name may hold spaces: cut after it
    return int(fields[11]) / _TICKS, int(fields[12]) / _TICKS
