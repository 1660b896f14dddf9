"""Simulated nodes beside the real one: KWOK (sigs.k8s.io/kwok) keeps Node objects alive.

KWOK heartbeats the nodes it manages (Leases and Ready conditions) and moves pods bound to them
through the states a kubelet would report (Running with a pod IP, Job pods Succeeded, deleted pods
gone), with no container behind them. It manages only nodes with the annotation ``MANAGED``, so the
real node stays the kubelet's. hack/build-kwok.sh builds it and its stage definitions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from localcluster.binaries import REPO
from localcluster.kube import wait_for
from localcluster.nodes import NodeSpec, node_manifest
from localcluster.processes import Process, free_port

if TYPE_CHECKING:
    from localcluster.controlplane import ControlPlane

BUILD_SCRIPT = REPO / "hack" / "build-kwok.sh"
MANAGED = "kwok.x-k8s.io/node"
# Fake pod IPs for pods on simulated nodes: apart from the bridge's and the Service range.
POD_CIDR = "10.244.0.0/16"


def ensure_kwok() -> Path:
    """The directory with ``kwok`` and ``stages.yaml`` (built once by hack/build-kwok.sh)."""
    override = os.environ.get("SEMAFF_KWOK_BIN")
    if override:
        return Path(override)
    done = subprocess.run(["bash", str(BUILD_SCRIPT)], stdout=subprocess.PIPE, stderr=sys.stderr, text=True, check=True)
    return Path(done.stdout.strip().splitlines()[-1])


def kwok_node_manifest(spec: NodeSpec) -> dict[str, object]:
    """The Node as the harness builds it, marked for KWOK (which then keeps it Ready)."""
    manifest = node_manifest(spec)
    manifest["metadata"]["annotations"] = {MANAGED: "fake"}  # type: ignore[index]
    return manifest


def start_kwok(plane: ControlPlane) -> Process:
    """Start kwok against the control plane; it manages only nodes annotated ``MANAGED=fake``."""
    bin_dir = ensure_kwok()
    proc = Process.start(
        "kwok",
        [
            str(bin_dir / "kwok"),
            f"--config={bin_dir / 'stages.yaml'}",
            f"--kubeconfig={plane.kubeconfig}",
            f"--manage-nodes-with-annotation-selector={MANAGED}=fake",
            f"--cidr={POD_CIDR}",
            "--node-ip=10.244.255.254",
            f"--server-address=127.0.0.1:{free_port()}",
            "--node-lease-duration-seconds=40",
        ],
        plane.log_dir,
        cwd=plane.dir,
    )
    plane.procs["kwok"] = proc
    return proc


def create_kwok_nodes(plane: ControlPlane, specs: Iterable[NodeSpec]) -> list[str]:
    """Create the nodes (and NRT objects) for KWOK, and wait until each holds a KWOK Lease."""
    specs = list(specs)
    names = plane.create_nodes(specs, manifest_of=kwok_node_manifest)
    proc = plane.procs["kwok"]

    def leased() -> bool:
        proc.check_alive()
        held = {
            lease["metadata"]["name"]
            for lease in plane.kube.items("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases")
        }
        return set(names) <= held

    wait_for("KWOK node leases", leased, 60, interval=0.5)
    return names
