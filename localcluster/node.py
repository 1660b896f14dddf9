"""One real Kubernetes node on this machine: containerd + runc + a CNI bridge, kubelet, kube-proxy.

Recipe, measurements and the host's three quirks: research/real-node.md. In short:
- containerd runs as a child process with a private config, root, state and socket, and with
  ``restrict_oom_score_adj = true`` (root here lacks CAP_SYS_RESOURCE, so runc cannot set the
  negative oom_score_adj containerd would ask for); runc with cgroupfs; images are imported from
  the tarballs localcluster/images.py builds (no registry is reachable);
- one CNI conflist (bridge ``BRIDGE`` + host-local on ``POD_CIDR`` + portmap) in a private directory;
- kubelet v1.36 with ``failCgroupV1: false`` and ``cgroupDriver: cgroupfs`` (the host has cgroup v1),
  registered with the control-plane taint so that only pods that tolerate it (the chart's) run here;
- kube-proxy in iptables mode, which makes the ``kubernetes`` Service reachable from pods.

Everything lives under ``NODE_ROOT/<run>``. :func:`cleanup` undoes it in the order the recipe
requires (pods, kubelet, kube-proxy rules, containerd and its shims, mounts, iptables chains,
bridge, ip_forward) and is also run at start, so a run that crashed leaves nothing behind for long.
Processes are only ever stopped by the PIDs this module started or that containerd recorded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from localcluster.images import PAUSE_REF, Image
from localcluster.kube import ApiError, wait_for
from localcluster.processes import Process, free_port

if TYPE_CHECKING:
    from localcluster.controlplane import ControlPlane

NODE_ROOT = Path(os.environ.get("SEMAFF_NODE_ROOT", "/var/lib/semaff-node"))
BRIDGE = "semaff0"
POD_CIDR = "10.88.0.0/16"
NODE_IP = "10.88.0.1"  # the bridge's gateway address: the node's InternalIP and the apiserver's address
CNI_BIN = Path("/usr/lib/cni")
CONTROL_PLANE_ROLE = "node-role.kubernetes.io/control-plane"
# The kubelet's own chains (kube-proxy --cleanup removes KUBE-SERVICES & co.) and the CNI plugins'.
CHAIN_PREFIXES = ("KUBE-", "CNI-")
CGROUP_ROOT = Path("/sys/fs/cgroup")
NODE_START_TIMEOUT_S = 120.0


def create_bridge() -> str:
    """Create the pod bridge with its gateway address and return that address (the node's IP).

    Made before the control plane starts, so the apiserver can listen on the bridge's address: pods
    reach it there (127.0.0.1 is their own), and nothing listens on the machine's external interface.
    The CNI bridge plugin adopts the existing bridge and gateway.
    """
    if not Path(f"/sys/class/net/{BRIDGE}").exists():
        _run("ip", "link", "add", BRIDGE, "type", "bridge", check=True)
    _run("ip", "addr", "replace", f"{NODE_IP}/{POD_CIDR.split('/')[1]}", "dev", BRIDGE, check=True)
    _run("ip", "link", "set", BRIDGE, "up", check=True)
    return NODE_IP


def normalized(repository: str) -> str:
    """The fully qualified name the CRI looks an image up by (``semantic-affinity`` is Docker Hub's)."""
    first, _, rest = repository.partition("/")
    if not rest:
        return f"docker.io/library/{repository}"
    if "." not in first and ":" not in first and first != "localhost":
        return f"docker.io/{repository}"
    return repository


def _log(message: str) -> None:
    print(f"[node] {message}", file=sys.stderr, flush=True)


def _run(*argv: str | Path, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, check=check)


class RealNode:
    """``RealNode(plane, name).start(images)``; ``stop()`` cleans up everything (LocalCluster also at exit)."""

    def __init__(self, plane: ControlPlane, name: str = "node-real") -> None:
        self.plane = plane
        self.name = name
        self.node_ip = NODE_IP
        NODE_ROOT.mkdir(parents=True, exist_ok=True)
        self.dir = run_dir()
        self.socket = self.dir / "containerd" / "containerd.sock"
        self.log_dir = self.dir / "logs"
        self.procs: dict[str, Process] = {}

    # -- life cycle -------------------------------------------------------------------------

    def start(self, images: Iterable[Image]) -> RealNode:
        """Start containerd, import ``images``, start kubelet and kube-proxy, wait until the node is Ready.

        Call :func:`prepare` (cleanup + bridge) before the control plane starts.
        """
        self.log_dir.mkdir(parents=True, exist_ok=True)
        try:
            self._start_containerd()
            began = time.monotonic()
            for image in images:
                self.import_image(image)
            _log(f"images imported in {time.monotonic() - began:.1f}s")
            self._start_kubelet()
            self._start_kube_proxy()
            self._wait_ready()
        except BaseException:
            sys.stderr.write(self.logs())
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Pods first (CNI DEL), then kubelet, kube-proxy, containerd; then :func:`cleanup`."""
        began = time.monotonic()
        kubelet = self.procs.get("kubelet")
        if kubelet is not None and kubelet.running() and self.plane.started:
            with contextlib.suppress(Exception):
                self._drain()
        for name in ("kubelet", "kube-proxy", "containerd"):
            proc = self.procs.pop(name, None)
            if proc is not None:
                proc.stop()
            if name == "kube-proxy" and proc is not None:
                # Its own rules (KUBE-SERVICES & co.); cleanup() then removes every chain left.
                _run(self.plane.bin / "kube-proxy", "--cleanup", f"--config={self.dir / 'kube-proxy.yaml'}")
        cleanup()
        _log(f"{self.name} stopped and cleaned up in {time.monotonic() - began:.1f}s")

    def logs(self, lines: int = 40) -> str:
        return "".join(
            f"\n===== {p.name} (pid {p.pid}) {p.log_path} =====\n{p.tail(lines)}\n" for p in self.procs.values()
        )

    def _spawn(self, name: str, argv: list[str]) -> Process:
        env = {k: v for k, v in os.environ.items() if k.lower() not in {"http_proxy", "https_proxy", "kubeconfig"}}
        proc = Process.start(name, argv, self.log_dir, env=env, cwd=self.dir)
        self.procs[name] = proc
        (self.dir / f"{name}.pid").write_text(str(proc.pid))
        return proc

    # -- containerd -------------------------------------------------------------------------

    def containerd_config(self) -> str:
        """containerd 1.6 config (version 2): private paths, runc + cgroupfs, local pause, private CNI dir."""
        base = self.dir / "containerd"
        cri = 'plugins."io.containerd.grpc.v1.cri"'
        return f"""version = 2
root = "{base / "root"}"
state = "{base / "state"}"
[grpc]
  address = "{self.socket}"
[ttrpc]
  address = "{base / "containerd.sock.ttrpc"}"
[{cri}]
  sandbox_image = "{PAUSE_REF}"
  restrict_oom_score_adj = true
  enable_cdi = false
  [{cri}.containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [{cri}.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [{cri}.containerd.runtimes.runc.options]
        SystemdCgroup = false
  [{cri}.cni]
    bin_dir = "{CNI_BIN}"
    conf_dir = "{self.dir / "cni" / "net.d"}"
"""

    def cni_config(self) -> dict[str, object]:
        return {
            "cniVersion": "1.0.0",
            "name": "semaff",
            "plugins": [
                {
                    "type": "bridge",
                    "bridge": BRIDGE,
                    "isGateway": True,
                    "ipMasq": True,
                    "hairpinMode": True,
                    "ipam": {
                        "type": "host-local",
                        "ranges": [[{"subnet": POD_CIDR}]],
                        "routes": [{"dst": "0.0.0.0/0"}],
                        "dataDir": str(self.dir / "cni" / "ipam"),
                    },
                },
                {"type": "portmap", "capabilities": {"portMappings": True}},
            ],
        }

    def _start_containerd(self) -> None:
        for sub in ("containerd", "cni/net.d", "cni/ipam"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        config = self.dir / "containerd" / "config.toml"
        config.write_text(self.containerd_config())
        (self.dir / "cni" / "net.d" / "10-semaff.conflist").write_text(json.dumps(self.cni_config(), indent=2))
        proc = self._spawn("containerd", ["containerd", "--config", str(config), "--log-level", "warn"])

        def up() -> bool:
            proc.check_alive()
            return self.socket.exists() and self.ctr("version").returncode == 0

        wait_for("containerd socket", up, 30, interval=0.2)

    def ctr(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return _run("ctr", "--address", self.socket, "--namespace", "k8s.io", *args)

    def import_image(self, image: Image) -> None:
        """Import an OCI layout tarball under its reference (the CRI finds it; no pull ever happens)."""
        repository = normalized(image.repository)
        done = self.ctr("images", "import", "--base-name", repository, image.tarball)
        if done.returncode != 0:
            raise RuntimeError(f"ctr images import {image.tarball} failed: {done.stderr.strip()}")
        listed = self.ctr("images", "list", "--quiet").stdout.split()
        if f"{repository}:{image.tag}" not in listed:
            raise RuntimeError(f"{image.ref} not in containerd after import (have: {', '.join(listed)})")

    # -- kubelet and kube-proxy -------------------------------------------------------------

    def kubelet_config(self, port: int, healthz: int) -> dict[str, object]:
        return {
            "apiVersion": "kubelet.config.k8s.io/v1beta1",
            "kind": "KubeletConfiguration",
            # 1.36 refuses cgroup v1 unless told; this host has only v1 hierarchies.
            "failCgroupV1": False,
            # containerd 1.6 has no RuntimeConfig RPC: the kubelet falls back to this setting.
            "cgroupDriver": "cgroupfs",
            "failSwapOn": False,
            "containerRuntimeEndpoint": f"unix://{self.socket}",
            "address": self.node_ip,
            "port": port,
            "readOnlyPort": 0,
            "healthzBindAddress": "127.0.0.1",
            "healthzPort": healthz,
            "authentication": {
                "anonymous": {"enabled": False},
                "webhook": {"enabled": False},
                "x509": {"clientCAFile": str(self.plane.ca_file)},
            },
            "authorization": {"mode": "AlwaysAllow"},
            "registerWithTaints": [{"key": CONTROL_PLANE_ROLE, "effect": "NoSchedule"}],
            "podLogsDir": str(self.dir / "pod-logs"),
            "serializeImagePulls": False,
            "imageGCHighThresholdPercent": 100,
            "imageGCLowThresholdPercent": 99,
            # A shared development disk: do not evict the chart's pods because the disk is 75 % full.
            "evictionHard": {
                "memory.available": "100Mi",
                "nodefs.available": "1%",
                "imagefs.available": "1%",
                "nodefs.inodesFree": "1%",
            },
            "maxPods": 30,
            "resolvConf": "/etc/resolv.conf",
            "shutdownGracePeriod": "0s",
        }

    def _start_kubelet(self) -> None:
        port, healthz = free_port(), free_port()
        config = self.dir / "kubelet.yaml"
        config.write_text(yaml.safe_dump(self.kubelet_config(port, healthz)))
        (self.dir / "pod-logs").mkdir(exist_ok=True)
        self._spawn(
            "kubelet",
            [
                str(self.plane.bin / "kubelet"),
                f"--config={config}",
                f"--kubeconfig={self.plane.kubeconfig}",
                f"--root-dir={self.dir / 'kubelet'}",
                f"--hostname-override={self.name}",
                f"--node-ip={self.node_ip}",
                "--v=1",
            ],
        )

    def _start_kube_proxy(self) -> None:
        config = self.dir / "kube-proxy.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "apiVersion": "kubeproxy.config.k8s.io/v1alpha1",
                    "kind": "KubeProxyConfiguration",
                    "clientConnection": {"kubeconfig": str(self.plane.kubeconfig)},
                    "hostnameOverride": self.name,
                    "mode": "iptables",
                    "clusterCIDR": POD_CIDR,
                    "bindAddress": self.node_ip,
                    "metricsBindAddress": f"127.0.0.1:{free_port()}",
                    "healthzBindAddress": f"127.0.0.1:{free_port()}",
                    # Leave the host's conntrack sysctls alone (shared machine).
                    "conntrack": {"maxPerCore": 0},
                }
            )
        )
        self._spawn("kube-proxy", [str(self.plane.bin / "kube-proxy"), f"--config={config}", "--v=1"])

    def _wait_ready(self) -> None:
        kube = self.plane.kube

        def ready() -> bool:
            for name in ("kubelet", "kube-proxy", "containerd"):
                self.procs[name].check_alive()
            try:
                node = kube.get(f"/api/v1/nodes/{self.name}")
            except ApiError:
                return False
            conditions = {c["type"]: c["status"] for c in node.get("status", {}).get("conditions", [])}
            return conditions.get("Ready") == "True"

        began = time.monotonic()
        wait_for(f"node {self.name} Ready", ready, NODE_START_TIMEOUT_S, interval=0.5)
        # Labels under kubernetes.io cannot come from --node-labels; the admin sets the role.
        kube.patch(f"/api/v1/nodes/{self.name}", {"metadata": {"labels": {CONTROL_PLANE_ROLE: ""}}})
        _log(f"{self.name} Ready in {time.monotonic() - began:.1f}s ({self.node_ip}, containerd {self.socket})")

    def _drain(self, timeout: float = 10.0) -> None:
        """Cordon, force-delete the node's pods, wait until the kubelet has stopped their sandboxes (CNI DEL).

        Cordoned first, so their controllers' replacements stay Pending instead of starting here again.
        """
        kube = self.plane.kube
        kube.patch(f"/api/v1/nodes/{self.name}", {"spec": {"unschedulable": True}})
        for pod in kube.items("/api/v1/pods", fieldSelector=f"spec.nodeName={self.name}"):
            meta = pod["metadata"]
            kube.delete(f"/api/v1/namespaces/{meta['namespace']}/pods/{meta['name']}", gracePeriodSeconds=0)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and _shim_pids(self.dir):
            time.sleep(0.5)


# -- cleanup (module level: also for what an earlier, crashed run left) -------------------------


def run_dir() -> Path:
    """This process's node directory (one node per process; the PID names it, for cleanup)."""
    return NODE_ROOT / f"run-{os.getpid()}"


def prepare() -> str:
    """Clean up what an earlier (crashed) run left, remember ip_forward, create the bridge; the node IP."""
    cleanup()
    run_dir().mkdir(parents=True, exist_ok=True)
    (run_dir() / "ip_forward").write_text(Path("/proc/sys/net/ipv4/ip_forward").read_text())
    return create_bridge()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill(pids: Iterable[int], sig: int = signal.SIGKILL) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def _read_pids(paths: Iterable[Path]) -> list[int]:
    out = []
    for path in paths:
        with contextlib.suppress(OSError, ValueError):
            out.append(int(path.read_text().strip()))
    return out


def _shim_pids(run_dir: Path) -> list[int]:
    """This run's containerd shims (their argv names its socket) and the container processes it recorded."""
    tasks = run_dir / "containerd" / "state" / "io.containerd.runtime.v2.task"
    pids = _read_pids(tasks.glob("*/*/init.pid"))
    address = f"-address\0{run_dir / 'containerd' / 'containerd.sock'}\0".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            if address in (proc / "cmdline").read_bytes():
                pids.append(int(proc.name))
    return [p for p in pids if _pid_alive(p)]


def _pod_cgroups() -> list[Path]:
    """Every ``kubepods`` cgroup the cgroupfs driver created, deepest first (for rmdir)."""
    found: list[Path] = []
    for hierarchy in CGROUP_ROOT.iterdir():
        top = hierarchy / "kubepods"
        if top.is_dir():
            found.extend(p for p in top.rglob("*") if p.is_dir())
            found.append(top)
    return sorted(found, key=lambda p: len(p.parts), reverse=True)


def _mounts_under(prefixes: Iterable[str]) -> list[str]:
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        if any(point == p or point.startswith(p.rstrip("/") + "/") for p in prefixes):
            points.append(point)
    return sorted(points, key=len, reverse=True)


def _remove_chains(tool: str) -> None:
    """Delete every chain whose name starts with ``CHAIN_PREFIXES``, and the jumps into them."""
    if shutil.which(tool) is None:
        return
    for table in ("filter", "nat", "mangle"):
        listed = _run(tool, "-w", "-t", table, "-S")
        if listed.returncode != 0:
            continue
        chains = [line.split()[1] for line in listed.stdout.splitlines() if line.startswith("-N ")]
        ours = [c for c in chains if c.startswith(CHAIN_PREFIXES)]
        if not ours:
            continue
        for line in listed.stdout.splitlines():
            parts = shlex.split(line)  # comments are quoted
            if parts[:1] == ["-A"] and parts[1] not in ours and "-j" in parts:
                target = parts[parts.index("-j") + 1]
                if target in ours:
                    _run(tool, "-w", "-t", table, "-D", *parts[1:])
        for chain in ours:
            _run(tool, "-w", "-t", table, "-F", chain)
        for chain in ours:
            _run(tool, "-w", "-t", table, "-X", chain)


def cleanup() -> None:
    """Undo every node this module ever started on this machine (idempotent; safe while none runs).

    Order: processes recorded in each run directory (kubelet, kube-proxy, containerd), containerd's
    shims and container processes (by recorded PID, then the pods' cgroups), mounts under the run
    directories and the CNI network namespaces, iptables chains, the bridge, ip_forward.
    """
    if not NODE_ROOT.exists():
        return
    runs = [d for d in NODE_ROOT.glob("run-*") if d.is_dir()]
    for run in runs:
        owner = int(run.name.removeprefix("run-"))
        if owner != os.getpid() and _pid_alive(owner):
            raise RuntimeError(f"a local node of process {owner} is running ({run}): stop that one first")
    for run in runs:
        pids = [p for p in _read_pids(run.glob("*.pid")) if _pid_alive(p)]
        if run.name != f"run-{os.getpid()}":
            # A pid file of a dead run may name a recycled pid: only kill what still runs our binaries.
            pids = [p for p in pids if _cmdline_mentions(p, run)]
        _kill(pids, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_pid_alive(p) for p in pids):
            time.sleep(0.2)
        _kill(pids)
        shims = _shim_pids(run)
        _kill(shims)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_pid_alive(p) for p in shims):
            time.sleep(0.1)
    for cgroup in _pod_cgroups():
        _kill(_cgroup_procs(cgroup))
    time.sleep(0.2)
    for cgroup in _pod_cgroups():
        with contextlib.suppress(OSError):
            cgroup.rmdir()
    for point in _mounts_under([str(NODE_ROOT), "/run/netns", "/var/run/netns"]):
        _run("umount", "-l", point)
    for netns in list(Path("/run/netns").glob("cni-*")):
        with contextlib.suppress(OSError):
            netns.unlink()
    for tool in ("iptables", "ip6tables"):
        _remove_chains(tool)
    if Path(f"/sys/class/net/{BRIDGE}").exists():
        _run("ip", "link", "delete", BRIDGE)
    for run in runs:
        saved = run / "ip_forward"
        if saved.exists():
            with contextlib.suppress(OSError):
                Path("/proc/sys/net/ipv4/ip_forward").write_text(saved.read_text())
        shutil.rmtree(run, ignore_errors=True)


def _cgroup_procs(cgroup: Path) -> list[int]:
    try:
        return [int(x) for x in (cgroup / "cgroup.procs").read_text().split()]
    except OSError:
        return []


def _cmdline_mentions(pid: int, path: Path) -> bool:
    try:
        return str(path).encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
