"""Small frozen records the scorer works on, built once from raw API objects on receipt.

Raw Node/Pod dicts never travel past the informers (``scorer/sources``) or the request decoder:
they become ``NodeFacts`` and ``PodRecord`` here, with quantities parsed and topology resolved,
so the hot path only reads attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class NumaZone:
    """One NUMA zone from a NodeResourceTopology object: what it can still hold."""

    name: str
    cpu_cores: float = 0.0
    memory_gb: float = 0.0
    gpus: float = 0.0


@dataclass(frozen=True, slots=True)
class NodeFacts:
    """What the scorer knows about one node. ``None`` means unknown (the evaluator stays neutral)."""

    name: str
    labels: dict[str, str] = field(default_factory=dict)
    region: str | None = None
    zone: str | None = None
    rack: str | None = None
    cpu_cores: float = 0.0  # allocatable
    memory_gb: float = 0.0  # allocatable, GiB
    ephemeral_storage_gb: float = 0.0  # allocatable, GiB
    gpu_count: float = 0.0  # allocatable nvidia.com/gpu (GFD gpu.count when allocatable is absent)
    gpu_product: str | None = None  # GFD nvidia.com/gpu.product
    gpu_memory_gb: float | None = None  # per GPU, GFD nvidia.com/gpu.memory (MiB) / 1024
    nvlink: bool | None = None
    ssd: bool | None = None
    network_gbps: float | None = None
    numa_zones: tuple[NumaZone, ...] | None = None  # None: no NodeResourceTopology for this node


@dataclass(frozen=True, slots=True)
class PodRecord:
    """A pod as the effective pod set sees it."""

    namespace: str
    name: str
    uid: str
    node: str | None  # spec.nodeName; None while unbound
    workload_kind: str  # top owner kind: Deployment, StatefulSet, Job, DaemonSet, ReplicaSet, "App" (label), ""
    workload: str  # top owner name (Deployment via its ReplicaSet) or app label; "" when none
    cpu_cores: float = 0.0  # requests
    memory_gb: float = 0.0
    gpus: float = 0.0
