"""Where the control-plane binaries live, and building them when they are missing.

hack/build-control-plane.sh is the single source of the versions and the cache path; it prints the
bin directory as its last line and returns at once when the binaries are already there.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILD_SCRIPT = REPO / "hack" / "build-control-plane.sh"
COMPONENTS = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler")


class BinariesMissing(RuntimeError):
    """The binaries are not built and building was not allowed."""


def _complete(bin_dir: Path) -> bool:
    return all(os.access(bin_dir / c, os.X_OK) for c in COMPONENTS)


def ensure_binaries(build: bool = True) -> Path:
    """The bin directory with etcd, kube-apiserver, kube-controller-manager and kube-scheduler.

    ``SEMAFF_K8S_BIN`` overrides the location. Otherwise the build script is asked (it only builds
    when something is missing, printing progress to stderr, which is passed through).
    """
    override = os.environ.get("SEMAFF_K8S_BIN")
    if override:
        path = Path(override)
        if not _complete(path):
            raise BinariesMissing(f"SEMAFF_K8S_BIN={override} lacks one of {', '.join(COMPONENTS)}")
        return path
    if not build:
        raise BinariesMissing("control-plane binaries not built: run hack/build-control-plane.sh")
    done = subprocess.run(
        ["bash", str(BUILD_SCRIPT)], stdout=subprocess.PIPE, stderr=sys.stderr, text=True, check=False
    )
    if done.returncode != 0:
        raise BinariesMissing(f"hack/build-control-plane.sh failed with exit code {done.returncode}")
    path = Path(done.stdout.strip().splitlines()[-1])
    if not _complete(path):
        raise BinariesMissing(f"build script printed {path}, which lacks one of {', '.join(COMPONENTS)}")
    return path


def k8s_version(bin_dir: Path) -> str:
    """The Kubernetes version of the built binaries (the build script's cache directory names it)."""
    match = re.search(r"k8s-(v\d+\.\d+\.\d+)", str(bin_dir))
    if not match:
        raise ValueError(f"cannot tell the Kubernetes version from {bin_dir}")
    return match.group(1)
