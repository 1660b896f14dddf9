"""Node objects for a cluster without kubelets: labels, capacity, Ready, and optional NUMA zones.

Pure builders: ``node_manifest`` and ``nrt_manifest`` return the JSON a kubelet (and the NFD
topology-updater) would have written. ``paper_cluster`` is ARCHITECTURE.md section 3's
reconstruction of the paper's eight workers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from shared.labels import HOSTNAME, NETWORK_GBPS, RACK, REGION, ZONE


@dataclass(frozen=True, slots=True)
class NumaZone:
    """One NUMA node of a NodeResourceTopology object (quantities as Kubernetes strings)."""

    name: str
    cpu: str
    memory: str
    gpus: int = 0


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """What a test says about a node; everything else gets a sensible default."""

    name: str
    labels: dict[str, str] = field(default_factory=dict)
    cpu: str = "16"
    memory: str = "64Gi"
    pods: str = "110"
    gpus: int = 0
    ephemeral_storage: str = "200Gi"
    taints: tuple[dict[str, str], ...] = ()
    numa: tuple[NumaZone, ...] = ()


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def node_manifest(spec: NodeSpec) -> dict[str, Any]:
    """A v1 Node with status as a kubelet reports it: capacity = allocatable, Ready=True, no pressure."""
    labels = {HOSTNAME: spec.name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", **spec.labels}
    resources = {"cpu": spec.cpu, "memory": spec.memory, "pods": spec.pods, "ephemeral-storage": spec.ephemeral_storage}
    if spec.gpus:
        resources["nvidia.com/gpu"] = str(spec.gpus)
    now = _now()

    def condition(kind: str, status: str, reason: str) -> dict[str, str]:
        return {
            "type": kind,
            "status": status,
            "reason": reason,
            "message": reason,
            "lastHeartbeatTime": now,
            "lastTransitionTime": now,
        }

    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": spec.name, "labels": labels},
        "spec": {"taints": list(spec.taints)} if spec.taints else {},
        "status": {
            "capacity": resources,
            "allocatable": dict(resources),
            "conditions": [
                condition("Ready", "True", "KubeletReady"),
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory"),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure"),
                condition("PIDPressure", "False", "KubeletHasSufficientPID"),
            ],
            "addresses": [{"type": "Hostname", "address": spec.name}],
            "phase": "Running",
        },
    }


def nrt_manifest(spec: NodeSpec) -> dict[str, Any] | None:
    """The NodeResourceTopology object (topology.node.k8s.io/v1alpha2) of a node with NUMA data."""
    if not spec.numa:
        return None
    zones = []
    for zone in spec.numa:
        resources = [
            {"name": "cpu", "capacity": zone.cpu, "allocatable": zone.cpu, "available": zone.cpu},
            {"name": "memory", "capacity": zone.memory, "allocatable": zone.memory, "available": zone.memory},
        ]
        if zone.gpus:
            gpus = str(zone.gpus)
            resources.append({"name": "nvidia.com/gpu", "capacity": gpus, "allocatable": gpus, "available": gpus})
        costs = [{"name": other.name, "value": 10 if other.name == zone.name else 21} for other in spec.numa]
        zones.append({"name": zone.name, "type": "Node", "costs": costs, "resources": resources})
    return {
        "apiVersion": "topology.node.k8s.io/v1alpha2",
        "kind": "NodeResourceTopology",
        "metadata": {"name": spec.name},
        "topologyPolicies": ["SingleNUMANodeContainerLevel"],
        "attributes": [
            {"name": "topologyManagerPolicy", "value": "single-numa-node"},
            {"name": "topologyManagerScope", "value": "container"},
        ],
        "zones": zones,
    }


GPU_LABELS = {
    "nvidia.com/gpu.count": "1",
    "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
    "nvidia.com/gpu.memory": "81920",
    "nvidia.com/gpu.family": "ampere",
    "feature.node.kubernetes.io/pci-10de.present": "true",
}

_PAPER = (
    ("m02", "us-east-1a", "rack-1"),
    ("m03", "us-east-1a", "rack-1"),
    ("m04", "us-east-1a", "rack-2"),
    ("m05", "us-east-1a", "rack-5"),
    ("m06", "us-east-1b", "rack-3"),
    ("m07", "us-east-1b", "rack-3"),
    ("m08", "us-east-1b", "rack-4"),
    ("m09", "us-east-1b", "rack-4"),
)


def paper_cluster(prefix: str = "") -> list[NodeSpec]:
    """The eight workers of ARCHITECTURE.md section 3 (m02 has the GPU, m07 the 100 Gbps NIC).

    Every node reports network speed (10 Gbps except m07) and two NUMA zones, so NUMA- and
    network-aware intents have data everywhere. ``prefix`` renames nodes (``<prefix>m02``) so several
    clusters can share one API server.
    """
    specs = []
    for name, zone, rack in _PAPER:
        labels = {REGION: "us-east-1", ZONE: zone, RACK: rack, NETWORK_GBPS: "100" if name == "m07" else "10"}
        gpus = 1 if name == "m02" else 0
        if gpus:
            labels.update(GPU_LABELS)
        numa = (NumaZone("node-0", "8", "32Gi", gpus), NumaZone("node-1", "8", "32Gi"))
        specs.append(NodeSpec(prefix + name, labels=labels, gpus=gpus, numa=numa))
    return specs
