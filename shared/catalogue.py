"""The intent catalogue (ARCHITECTURE.md 2.3) as data.

Every other piece reads intents through this table: the JSON Schemas, the normaliser, the LLM
prompt, the embedded analyser and the scorer's evaluator registry. Adding an intent means adding
one row here and one evaluator in ``scorer/evaluators``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MetaType(StrEnum):
    """Metadata value types. Numbers are always floats on the wire; lists are lists of strings."""

    FLOAT = "float"
    LIST = "list"


class Group(StrEnum):
    SAME_WORKLOAD = "same workload"
    TOPOLOGY = "topology"
    NODE = "node"
    OTHER_WORKLOADS = "other workloads"
    RESOURCE = "resource"
    LOAD = "load"


class Kind(StrEnum):
    """How the scorer evaluates an intent (one evaluator per kind, parameterised by the spec)."""

    COLOCATE = "colocate"  # pods of this workload on n / max over nodes
    NEARBY = "nearby"  # 2.0*k_rack + 0.5*k_zone + 0.2*k_region, / max
    SPREAD = "spread"  # (M - k_d + 1) / (M + 1) per topology domain
    PREFER_DOMAIN = "prefer_domain"  # 1 if n's domain is listed
    AVOID_DOMAIN = "avoid_domain"  # -2 if n's domain is listed
    PREFER_NEAR_WORKLOADS = "prefer_near_workloads"  # 1 if a listed workload shares n's domain
    AVOID_NEAR_WORKLOADS = "avoid_near_workloads"  # -2 if a listed workload shares n's domain
    GPU_COUNT = "gpu_count"
    GPU_MEMORY = "gpu_memory"
    GPU_MODEL = "gpu_model"
    NVLINK = "nvlink"
    NUMA_ALIGNED = "numa_aligned"
    AVOID_GPU = "avoid_gpu"
    CPU = "cpu"
    MEMORY = "memory"
    SSD = "ssd"
    EPHEMERAL_STORAGE = "ephemeral_storage"
    NETWORK_SPEED = "network_speed"
    LEAST_LOADED = "least_loaded"


@dataclass(frozen=True, slots=True)
class MetaSpec:
    """One metadata field of an intent: its exact key, type and the paper's default."""

    key: str
    type: MetaType
    unit: str = ""  # GB, Gbps, cores, GPUs: the unit the number is expressed in

    @property
    def default(self) -> float | tuple[str, ...]:
        """Numbers default to 1.0, lists to [] (the paper's rule)."""
        return 1.0 if self.type is MetaType.FLOAT else ()


@dataclass(frozen=True, slots=True)
class IntentSpec:
    """One catalogue row. ``domain`` is the topology level for spread/prefer/avoid kinds."""

    name: str
    group: Group
    kind: Kind
    description: str
    metadata: tuple[MetaSpec, ...] = ()
    domain: str = ""  # node | rack | zone | region

    @property
    def list_key(self) -> str | None:
        """The key of this intent's list metadata, if it has one (such intents need a non-empty list)."""
        for meta in self.metadata:
            if meta.type is MetaType.LIST:
                return meta.key
        return None


def _list(key: str) -> tuple[MetaSpec, ...]:
    return (MetaSpec(key, MetaType.LIST),)


def _num(key: str, unit: str) -> tuple[MetaSpec, ...]:
    return (MetaSpec(key, MetaType.FLOAT, unit),)


_DEPLOYMENTS = _list("deployments")

CATALOGUE: tuple[IntentSpec, ...] = (
    # --- same workload -------------------------------------------------------------------------
    IntentSpec("prefer_colocate_same_deployment", Group.SAME_WORKLOAD, Kind.COLOCATE,
               "Put the pods of this workload together on the same node (collocate, pack, keep together)."),
    IntentSpec("prefer_nearby_nodes_same_deployment", Group.SAME_WORKLOAD, Kind.NEARBY,
               "Keep the pods of this workload close to each other (same rack, else same zone, else same "
               "region) for low latency between replicas, without requiring one node."),
    IntentSpec("spread_nodes", Group.SAME_WORKLOAD, Kind.SPREAD,
               "Spread the pods of this workload across different nodes (anti-affinity between replicas, "
               "keep replicas apart, one per node).", domain="node"),
    IntentSpec("spread_zones", Group.TOPOLOGY, Kind.SPREAD,
               "Spread the pods of this workload evenly across availability zones (high availability, "
               "zone outage tolerance).", domain="zone"),
    IntentSpec("spread_racks", Group.TOPOLOGY, Kind.SPREAD,
               "Spread the pods of this workload across server racks (rack failure tolerance).", domain="rack"),
    IntentSpec("spread_regions", Group.TOPOLOGY, Kind.SPREAD,
               "Spread the pods of this workload across regions (geo-redundancy).", domain="region"),
    # --- topology ------------------------------------------------------------------------------
    IntentSpec("prefer_zones", Group.TOPOLOGY, Kind.PREFER_DOMAIN,
               "Place the pods in the named availability zones. MUST list every zone named, as written "
               "(e.g. [\"us-east-1a\", \"us-east-1b\"]).", _list("prefer_zones"), "zone"),
    IntentSpec("prefer_racks", Group.TOPOLOGY, Kind.PREFER_DOMAIN,
               "Place the pods in the named racks. MUST list every rack named (e.g. [\"rack-3\"]).",
               _list("prefer_racks"), "rack"),
    IntentSpec("prefer_regions", Group.TOPOLOGY, Kind.PREFER_DOMAIN,
               "Place the pods in the named regions or geographies (e.g. [\"eu-west-1\"] or [\"europe\"]). "
               "MUST list every region named.", _list("prefer_regions"), "region"),
    IntentSpec("avoid_zones", Group.TOPOLOGY, Kind.AVOID_DOMAIN,
               "Keep the pods out of the named availability zones. MUST list every zone named.",
               _list("avoid_zones"), "zone"),
    IntentSpec("avoid_racks", Group.TOPOLOGY, Kind.AVOID_DOMAIN,
               "Keep the pods out of the named racks. MUST list every rack named.", _list("avoid_racks"), "rack"),
    IntentSpec("avoid_regions", Group.TOPOLOGY, Kind.AVOID_DOMAIN,
               "Keep the pods out of the named regions. MUST list every region named.",
               _list("avoid_regions"), "region"),
    # --- node ----------------------------------------------------------------------------------
    IntentSpec("prefer_nodes", Group.NODE, Kind.PREFER_DOMAIN,
               "Place the pods on the named nodes (by node name, e.g. [\"m07\", \"gpu-node-7\"]). MUST list "
               "every node named.", _list("prefer_nodes"), "node"),
    IntentSpec("avoid_nodes", Group.NODE, Kind.AVOID_DOMAIN,
               "Keep the pods off the named nodes. MUST list every node named.", _list("avoid_nodes"), "node"),
    # --- other workloads -----------------------------------------------------------------------
    IntentSpec("prefer_same_node_as_deployments", Group.OTHER_WORKLOADS, Kind.PREFER_NEAR_WORKLOADS,
               "Place the pods on the same node as pods of the named other deployments/workloads. "
               "`deployments` MUST list every workload named.", _DEPLOYMENTS, "node"),
    IntentSpec("prefer_same_zone_as_deployments", Group.OTHER_WORKLOADS, Kind.PREFER_NEAR_WORKLOADS,
               "Place the pods in the same availability zone as the named other deployments/workloads.",
               _DEPLOYMENTS, "zone"),
    IntentSpec("prefer_same_region_as_deployments", Group.OTHER_WORKLOADS, Kind.PREFER_NEAR_WORKLOADS,
               "Place the pods in the same region as the named other deployments/workloads.",
               _DEPLOYMENTS, "region"),
    IntentSpec("avoid_same_node_as_deployments", Group.OTHER_WORKLOADS, Kind.AVOID_NEAR_WORKLOADS,
               "Keep the pods off nodes that run pods of the named other deployments/workloads.",
               _DEPLOYMENTS, "node"),
    IntentSpec("avoid_same_zone_as_deployments", Group.OTHER_WORKLOADS, Kind.AVOID_NEAR_WORKLOADS,
               "Keep the pods out of availability zones that run the named other deployments/workloads.",
               _DEPLOYMENTS, "zone"),
    # --- resources -----------------------------------------------------------------------------
    IntentSpec("prefer_gpu", Group.RESOURCE, Kind.GPU_COUNT,
               "Run on a node with (at least N free) GPUs. Only when GPUs are requested; a GPU model, GPU "
               "memory or NVLink alone does not imply it. `prefer_gpu_cores` MUST be a float count of GPUs "
               "(\"needs a GPU\" -> 1.0, \"4 GPUs\" -> 4.0).", _num("prefer_gpu_cores", "GPUs")),
    IntentSpec("prefer_gpu_memory_gb", Group.RESOURCE, Kind.GPU_MEMORY,
               "Run on a node whose GPUs have at least this much memory each, in GB (float, \"80GB "
               "GPU\" -> 80.0).", _num("prefer_gpu_memory_gb", "GB")),
    IntentSpec("prefer_gpu_models", Group.RESOURCE, Kind.GPU_MODEL,
               "Run on a node with one of the named GPU models (e.g. [\"A100\", \"H100\"]). MUST list every "
               "model named.", _list("prefer_gpu_models")),
    IntentSpec("prefer_nvlink", Group.RESOURCE, Kind.NVLINK,
               "Run on a node whose GPUs are connected with NVLink (fast GPU-to-GPU interconnect)."),
    IntentSpec("prefer_numa_aligned", Group.RESOURCE, Kind.NUMA_ALIGNED,
               "Run where the pod's CPUs, memory and GPUs fit in one NUMA zone (NUMA/topology alignment, "
               "same socket)."),
    IntentSpec("avoid_gpu_nodes", Group.RESOURCE, Kind.AVOID_GPU,
               "Stay off GPU nodes (the workload does not need GPUs and should leave them free)."),
    IntentSpec("prefer_cpu_cores", Group.RESOURCE, Kind.CPU,
               "Run on a node with at least this many CPU cores. `prefer_cpu_cores` MUST be a float "
               "(\"16 cores\" -> 16.0).", _num("prefer_cpu_cores", "cores")),
    IntentSpec("prefer_memory_gb", Group.RESOURCE, Kind.MEMORY,
               "Run on a node with at least this much memory (RAM), in GB. `prefer_memory_gb` MUST be a "
               "float (\"64GB RAM\" -> 64.0).", _num("prefer_memory_gb", "GB")),
    IntentSpec("prefer_ssd_storage", Group.RESOURCE, Kind.SSD,
               "Run on a node with SSD / NVMe (non-rotational) local disks."),
    IntentSpec("prefer_ephemeral_storage", Group.RESOURCE, Kind.EPHEMERAL_STORAGE,
               "Run on a node with at least this much local ephemeral (scratch) disk space, in GB. "
               "`prefer_ephemeral_storage_gb` MUST be a float.", _num("prefer_ephemeral_storage_gb", "GB")),
    IntentSpec("prefer_network_speed", Group.RESOURCE, Kind.NETWORK_SPEED,
               "Run on a node with at least this network bandwidth, in Gbps. `prefer_network_speed_gbps` "
               "MUST be a float (\"100 Gbps\" -> 100.0).", _num("prefer_network_speed_gbps", "Gbps")),
    # --- load ----------------------------------------------------------------------------------
    IntentSpec("prefer_least_loaded_nodes", Group.LOAD, Kind.LEAST_LOADED,
               "Run on the least busy nodes (lowest CPU, memory and GPU utilisation)."),
)

BY_NAME: dict[str, IntentSpec] = {spec.name: spec for spec in CATALOGUE}
INTENT_NAMES: tuple[str, ...] = tuple(sorted(BY_NAME))


def spec(name: str) -> IntentSpec:
    """The catalogue row for ``name``; raises KeyError for an unknown intent."""
    return BY_NAME[name]


# --- polarity --------------------------------------------------------------------------------------
# Pairs of intents of opposite polarity: reading one for the other puts the pod where the user asked it
# not to go (avoid read as prefer, spread read as colocate). The analysers never emit both from one
# clause; evaluation counts a prediction of the opposite of an expected intent as a polarity flip.
SPREADS: tuple[str, ...] = ("spread_nodes", "spread_racks", "spread_regions", "spread_zones")
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("prefer_zones", "avoid_zones"),
    ("prefer_racks", "avoid_racks"),
    ("prefer_regions", "avoid_regions"),
    ("prefer_nodes", "avoid_nodes"),
    ("prefer_same_node_as_deployments", "avoid_same_node_as_deployments"),
    ("prefer_same_zone_as_deployments", "avoid_same_zone_as_deployments"),
    ("prefer_gpu", "avoid_gpu_nodes"),
    *(("prefer_colocate_same_deployment", s) for s in SPREADS),
    *(("prefer_nearby_nodes_same_deployment", s) for s in SPREADS if s != "spread_nodes"),
)


def opposites(name: str) -> frozenset[str]:
    """The intents of opposite polarity to ``name`` (empty for one without a polarity)."""
    return frozenset({b for a, b in OPPOSITES if a == name} | {a for a, b in OPPOSITES if b == name})
