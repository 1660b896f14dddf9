"""Child processes of the harness: own session, own log file, stopped by PID (SIGTERM, then SIGKILL).

On Linux each child also gets PR_SET_PDEATHSIG=SIGKILL, so a harness that is itself killed (CI
timeout, kill -9) takes its children with it instead of leaving a listening API server behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    """A port that was free a moment ago (bind to 0, read, close: envtest's way; the race is small)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


@dataclass
class Process:
    """One running component and where its output goes."""

    name: str
    argv: Sequence[str]
    log_path: Path
    popen: subprocess.Popen[bytes]

    @classmethod
    def start(
        cls,
        name: str,
        argv: Sequence[str],
        log_dir: Path,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
    ) -> Process:
        log_path = log_dir / f"{name}.log"
        with open(log_path, "ab") as log:
            log.write(f"$ {' '.join(argv)}\n".encode())
            log.flush()
            popen = subprocess.Popen(
                list(argv),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        return cls(name, argv, log_path, popen)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def running(self) -> bool:
        return self.popen.poll() is None

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM by PID, wait, then SIGKILL; returns the exit code."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.popen.pid, signal.SIGKILL)
                self.popen.wait(10)
        return self.popen.returncode

    def tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return ""
        return "\n".join(text[-lines:])

    def check_alive(self) -> None:
        """Raise with the log tail when the process has exited (a start failure)."""
        if self.popen.poll() is not None:
            raise RuntimeError(
                f"{self.name} exited with code {self.popen.returncode}; last log lines:\n{self.tail(40)}"
            )
