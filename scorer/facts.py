"""Small frozen records the scorer works on, built once from raw API objects on receipt.

Raw Node/Pod/NodeResourceTopology dicts never travel past the informers (``scorer/sources``) or
the request decoder: they become ``NodeFacts`` and ``PodRecord`` here, with quantities parsed and
topology resolved, so the hot path only reads attributes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorer.nvlink import hami_nvlink
from shared import labels
from shared.normalise import coerce_number

# --- well-known labels (research/k8s-contracts.md 4.1, 4.4) ---------------------------------------
REGION_LABEL = labels.REGION
ZONE_LABEL = labels.ZONE
LEGACY_REGION_LABEL = labels.LEGACY_REGION
LEGACY_ZONE_LABEL = labels.LEGACY_ZONE
GPU_RESOURCE = "nvidia.com/gpu"
GFD_COUNT = "nvidia.com/gpu.count"
GFD_PRODUCT = "nvidia.com/gpu.product"
GFD_MEMORY = "nvidia.com/gpu.memory"  # MiB per GPU
GFD_CLIQUE = "nvidia.com/gpu.clique"  # multi-node NVLink domain
HAMI_SCORE = "hami.io/node-nvidia-score"  # HAMi's per-GPU-pair link scores (NVLink pairs score ≥ 100)
SSD_LABEL = "feature.node.kubernetes.io/storage-nonrotationaldisk"
NFD_PREFIX = "feature.node.kubernetes.io/"
POD_TEMPLATE_HASH = "pod-template-hash"

GIB = float(1 << 30)
# GPU vendors market memory in (near-)decimal GB: an "80GB" H100 reports 81559 MiB (79.6 GiB) and a
# "16GB" T4 15360 MiB (15 GiB). Converting MiB to decimal GB makes "≥ 80 GB" match the 80GB part.
MIB_TO_GPU_GB = 1.048576 / 1000.0


@dataclass(frozen=True, slots=True)
class Topology:
    """Which labels carry rack, network speed and NVLink (SEMAFF_*_LABEL settings)."""

    rack_label: str = labels.RACK
    network_label: str = labels.NETWORK_GBPS
    nvlink_label: str = labels.NVLINK


DEFAULT_TOPOLOGY = Topology()


@dataclass(frozen=True, slots=True)
class NumaZone:
    """One NUMA zone from a NodeResourceTopology object: what it can still hold."""

    name: str
    cpu_cores: float = 0.0
    memory_gb: float = 0.0
    gpus: float = 0.0


@dataclass(frozen=True, slots=True)
class NodeGpus:
    """GPUs a DRA driver publishes in ResourceSlices for one node (``scorer.dra``), newest pool generations only."""

    gpus: int = 0  # devices of type gpu
    mig_devices: int = 0  # devices of type mig (their own kind: never counted as GPUs)
    product: str | None = None  # productName of the GPUs (the most common one)
    memory_gb: float | None = None  # largest capacity.memory of a GPU, decimal GB
    pcie_roots: tuple[str, ...] = ()  # distinct resource.kubernetes.io/pcieRoot of the GPUs
    allocated: int = 0  # GPUs busy because of allocated ResourceClaims


@dataclass(frozen=True, slots=True)
class NodeFacts:
    """What the scorer knows about one node. ``None`` means unknown (the evaluator stays neutral)."""

    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    region: str | None = None
    zone: str | None = None
    rack: str | None = None
    cpu_cores: float = 0.0  # allocatable
    memory_gb: float = 0.0  # allocatable, GiB
    ephemeral_storage_gb: float | None = None  # allocatable, GiB; None when the node does not report it
    gpu_count: float = 0.0  # ResourceSlice GPUs, else allocatable nvidia.com/gpu, else GFD gpu.count
    gpu_product: str | None = None  # ResourceSlice productName, else GFD nvidia.com/gpu.product
    gpu_memory_gb: float | None = None  # per GPU: ResourceSlice capacity.memory, else GFD gpu.memory, decimal GB
    nvlink: bool | None = None
    ssd: bool | None = None
    network_gbps: float | None = None
    numa_zones: tuple[NumaZone, ...] | None = None  # None: no NodeResourceTopology for this node
    gpu_tokens: tuple[str, ...] = ()  # gpu_product split into lower-case tokens, for model matching
    known: bool = True  # False: a name kube-scheduler sent that our cache has never seen
    resource_version: str = ""
    gpu_source: str = ""  # where gpu_count came from: resourceslice, allocatable, gfd-label ("" none)
    nvlink_source: str = ""  # dcgm-p2p, hami, gfd-clique, label, no-gpus ("" unknown)
    mig_devices: float = 0.0  # MIG devices in ResourceSlices (their own kind, not in gpu_count)
    gpu_pcie_roots: tuple[str, ...] = ()  # PCIe roots of the ResourceSlice GPUs
    gpu_claimed: float = 0.0  # GPUs that allocated ResourceClaims hold (subtracted from the free GPUs)

    @property
    def has_gpus(self) -> bool:
        return self.gpu_count > 0 or self.gpu_product is not None or self.mig_devices > 0

    @classmethod
    def unknown(cls, name: str) -> NodeFacts:
        """A placeholder for a node name that is not in the cache: every fact unknown."""
        return cls(name=name, known=False)


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
    active: bool = True  # False when terminating or finished: it no longer holds a place
    # GPUs its ResourceClaims ask for and no allocation holds yet: set only for the pod being placed, so its
    # prediction takes them from the node; once allocated, the claim's allocation counts instead
    claimed_gpus: float = 0.0

    @property
    def workload_key(self) -> str:
        """Identity of the workload inside the cluster (``ns/Kind/name``); "" for a pod without one."""
        return f"{self.namespace}/{self.workload_kind}/{self.workload}" if self.workload else ""

    @property
    def key(self) -> str:
        """The uid, or ``ns/name`` for pods that have none yet (offline files)."""
        return self.uid or f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class LiveMetrics:
    """Live load of one node from Prometheus; each value carries its sample time (unix seconds)."""

    gpu_util: float | None = None  # 0..1, mean over the node's GPUs
    gpu_util_at: float = 0.0
    gpu_fb_free_gb: float | None = None  # largest free framebuffer of any GPU, decimal GB
    gpu_fb_free_at: float = 0.0
    gpu_fb_used_gb: float | None = None  # smallest used framebuffer of any GPU, decimal GB
    gpu_fb_used_at: float = 0.0
    nvlink_p2p: bool | None = None  # NVLink from DCGM_EXP_P2P_STATUS (scorer.nvlink.p2p_nvlink)
    nvlink_p2p_at: float = 0.0
    cpu_load: float | None = None  # 0..1
    cpu_load_at: float = 0.0
    memory_load: float | None = None  # 0..1
    memory_load_at: float = 0.0


# --- quantities -----------------------------------------------------------------------------------

_QUANTITY = re.compile(
    r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$"
)
_SUFFIX = {
    "Ki": 1024.0, "Mi": 1024.0**2, "Gi": 1024.0**3, "Ti": 1024.0**4, "Pi": 1024.0**5, "Ei": 1024.0**6,
    "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
}


def parse_quantity(value: Any) -> float | None:
    """A Kubernetes resource.Quantity (``"64Gi"``, ``"500m"``, ``"1Ti"``, ``"1e3"``, 4) as a float; None if invalid."""
    if type(value) is str:  # the usual case first: a string seen before
        known = _PARSED.get(value, _MISSING)
        if known is not _MISSING:
            return known  # type: ignore[return-value]
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    known = _PARSED.get(value, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[return-value]
    if len(_PARSED) >= 4096:
        _PARSED.clear()
    parsed = _PARSED[value] = _parse(value)
    return parsed


_PARSED: dict[str, float | None] = {}  # pods and nodes repeat a few quantity strings ("100m", "64Mi") endlessly
_MISSING = object()


def _parse(value: str) -> float | None:
    match = _QUANTITY.match(value.strip())
    if not match:
        return None
    number = float(match.group(1))
    if match.group(2):
        return number * 10.0 ** int(match.group(2)[1:])
    if match.group(3):
        return number * _SUFFIX[match.group(3)]
    return number


def json_object(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else empty: a field of the wrong type reads as absent."""
    if type(value) is dict:  # what orjson decodes; the Mapping ABC check costs several times more per call
        return value
    return value if isinstance(value, Mapping) else {}


def json_array(value: Any) -> list[Any]:
    """``value`` if it is a JSON array, else empty."""
    return value if isinstance(value, list) else []


def _quantity(resources: Mapping[str, Any] | None, name: str) -> float | None:
    if not resources:
        return None
    return parse_quantity(resources.get(name))


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "1", "on", "enabled"):
        return True
    if lowered in ("false", "no", "0", "off", "disabled", "none"):
        return False
    return None


_TOKEN_SPLIT = re.compile(r"[^a-z0-9]+")


def gpu_tokens(text: str) -> tuple[str, ...]:
    """``"NVIDIA-H100-80GB-HBM3"`` -> ``("nvidia", "h100", "80gb", "hbm3")``: how GPU models are matched."""
    return tuple(token for token in _TOKEN_SPLIT.split(text.lower()) if token)


# --- nodes ----------------------------------------------------------------------------------------


def node_facts(raw: Mapping[str, Any], topology: Topology = DEFAULT_TOPOLOGY,
               numa_zones: tuple[NumaZone, ...] | None = None) -> NodeFacts:
    """Parse a v1.Node (JSON dict) once into NodeFacts (GPU sources outside the Node: ``with_gpu_sources``).

    NVLink from the Node itself, in order of trust: HAMi's pair scores (annotation), GFD's clique label, the
    NVLink label (written by the node agent or by hand).
    """
    metadata = json_object(raw.get("metadata"))
    labels: dict[str, str] = {k: v for k, v in json_object(metadata.get("labels")).items() if isinstance(v, str)}
    status = json_object(raw.get("status"))
    allocatable = json_object(status.get("allocatable")) or json_object(status.get("capacity"))

    cpu = _quantity(allocatable, "cpu") or 0.0
    memory = (_quantity(allocatable, "memory") or 0.0) / GIB
    ephemeral = _quantity(allocatable, "ephemeral-storage")
    gpus = _quantity(allocatable, GPU_RESOURCE)
    source = "allocatable" if gpus is not None else ""
    if gpus is None:
        gpus = parse_quantity(labels.get(GFD_COUNT))
        source = "gfd-label" if gpus is not None else ""
    product = labels.get(GFD_PRODUCT) or None
    gpu_mib = parse_quantity(labels.get(GFD_MEMORY))

    nvlink, nvlink_source = hami_nvlink((metadata.get("annotations") or {}).get(HAMI_SCORE)), "hami"
    if nvlink is None and labels.get(GFD_CLIQUE):
        nvlink, nvlink_source = True, "gfd-clique"
    if nvlink is None:
        nvlink, nvlink_source = _flag(labels.get(topology.nvlink_label)), "label"
    if nvlink is None and not gpus and product is None:
        nvlink, nvlink_source = False, "no-gpus"  # no GPUs: certainly no NVLink between them

    ssd = _flag(labels.get(SSD_LABEL))
    if ssd is None and any(key.startswith(NFD_PREFIX) for key in labels):
        ssd = False  # NFD runs on this node and only labels non-rotational disks when present

    network = labels.get(topology.network_label)
    return NodeFacts(
        name=str(metadata.get("name", "")),
        labels=labels,
        region=labels.get(REGION_LABEL) or labels.get(LEGACY_REGION_LABEL),
        zone=labels.get(ZONE_LABEL) or labels.get(LEGACY_ZONE_LABEL),
        rack=labels.get(topology.rack_label),
        cpu_cores=cpu,
        memory_gb=memory,
        ephemeral_storage_gb=ephemeral / GIB if ephemeral is not None else None,
        gpu_count=gpus or 0.0,
        gpu_product=product,
        gpu_memory_gb=gpu_mib * MIB_TO_GPU_GB if gpu_mib is not None else None,
        nvlink=nvlink,
        ssd=ssd,
        network_gbps=coerce_number(network, "Gbps") if network is not None else None,
        numa_zones=numa_zones,
        gpu_tokens=gpu_tokens(product) if product else (),
        resource_version=str(metadata.get("resourceVersion", "")),
        gpu_source=source,
        nvlink_source=nvlink_source if nvlink is not None else "",
    )


def with_gpu_sources(facts: NodeFacts, dra: NodeGpus | None, p2p_nvlink: bool | None) -> NodeFacts:
    """A node's facts with the GPU sources outside its Node object laid over them (scorer/README.md, Facts).

    ``dra`` (the DRA driver's ResourceSlices) wins over allocatable ``nvidia.com/gpu`` and the GFD labels for
    count, product and memory: the driver reads the devices, the labels are copies. ``p2p_nvlink`` (DCGM's
    per-pair P2P status) wins over every NVLink source on the Node. Without either, ``facts`` is returned as is.
    """
    if dra is None and p2p_nvlink is None:
        return facts
    changes: dict[str, Any] = {}
    if dra is not None:
        product = dra.product or facts.gpu_product
        changes.update(
            gpu_count=float(dra.gpus), gpu_product=product, gpu_tokens=gpu_tokens(product) if product else (),
            gpu_memory_gb=dra.memory_gb if dra.memory_gb is not None else facts.gpu_memory_gb,
            gpu_source="resourceslice", mig_devices=float(dra.mig_devices), gpu_pcie_roots=dra.pcie_roots,
            gpu_claimed=float(dra.allocated))
        if facts.nvlink_source == "no-gpus" and (dra.gpus or dra.mig_devices):
            changes.update(nvlink=None, nvlink_source="")  # "no GPUs" held for the Node object alone
    if p2p_nvlink is not None:
        changes.update(nvlink=p2p_nvlink, nvlink_source="dcgm-p2p")
    return replace(facts, **changes)


def numa_zones(raw: Mapping[str, Any]) -> tuple[NumaZone, ...]:
    """The NUMA zones (type ``Node``) of a NodeResourceTopology v1alpha2 object, with what is still available."""
    zones = []
    for zone in raw.get("zones") or ():
        if not isinstance(zone, Mapping) or zone.get("type", "Node") != "Node":
            continue
        values: dict[str, float] = {}
        for resource in zone.get("resources") or ():
            if not isinstance(resource, Mapping):
                continue
            amount = parse_quantity(resource.get("available"))
            if amount is None:
                amount = parse_quantity(resource.get("allocatable"))
            if amount is not None:
                values[str(resource.get("name"))] = amount
        zones.append(NumaZone(
            name=str(zone.get("name", "")),
            cpu_cores=values.get("cpu", 0.0),
            memory_gb=values.get("memory", 0.0) / GIB,
            gpus=values.get(GPU_RESOURCE, 0.0),
        ))
    return tuple(zones)


# --- pods -----------------------------------------------------------------------------------------


def workload_of(metadata: Mapping[str, Any]) -> tuple[str, str]:
    """(kind, name) of a pod's top owner: Deployment via its ReplicaSet, StatefulSet, Job, DaemonSet; a bare
    pod's ``app.kubernetes.io/name`` or ``app`` label as kind ``App``; ("", "") when it has none."""
    labels = json_object(metadata.get("labels"))
    owners = json_array(metadata.get("ownerReferences"))
    owner = next((o for o in owners if isinstance(o, dict | Mapping) and o.get("controller")), None)
    if owner is None and owners and isinstance(owners[0], dict | Mapping):
        owner = owners[0]
    if owner is not None:
        kind, name = str(owner.get("kind", "")), str(owner.get("name", ""))
        if kind == "ReplicaSet":
            template_hash = labels.get(POD_TEMPLATE_HASH)
            if isinstance(template_hash, str) and template_hash and name.endswith("-" + template_hash):
                return "Deployment", name[: -len(template_hash) - 1]
        if name:
            return kind, name
    app = labels.get("app.kubernetes.io/name") or labels.get("app")
    if isinstance(app, str) and app:
        return "App", app
    return "", ""


def _container_requests(container: Mapping[str, Any]) -> tuple[float, float, float]:
    resources = json_object(json_object(container).get("resources"))
    requests = json_object(resources.get("requests"))
    limits = json_object(resources.get("limits"))
    return (_requested(requests, limits, "cpu"), _requested(requests, limits, "memory") / GIB,
            _requested(requests, limits, GPU_RESOURCE))


def _requested(requests: Mapping[str, Any], limits: Mapping[str, Any], name: str) -> float:
    """Kubernetes defaults requests to limits when only limits are set; extended resources need limits."""
    value = parse_quantity(requests.get(name))
    if value is None:
        value = parse_quantity(limits.get(name))
    return value or 0.0


def pod_requests(spec: Mapping[str, Any]) -> tuple[float, float, float]:
    """Effective (cpu cores, memory GiB, GPUs) a pod requests: sum of containers, at least each init container."""
    cpu = memory = gpus = 0.0
    for container in json_array(spec.get("containers")):
        c, m, g = _container_requests(container)
        cpu, memory, gpus = cpu + c, memory + m, gpus + g
    for container in json_array(spec.get("initContainers")):
        c, m, g = _container_requests(container)
        cpu, memory, gpus = max(cpu, c), max(memory, m), max(gpus, g)
    overhead = json_object(spec.get("overhead"))
    cpu += _quantity(overhead, "cpu") or 0.0
    memory += (_quantity(overhead, "memory") or 0.0) / GIB
    return cpu, memory, gpus


def _gpus_served_by_dra(status: Mapping[str, Any]) -> bool:
    """KEP-5004: kube-scheduler allocated this pod's ``nvidia.com/gpu`` from DRA devices through a claim of its
    own (``status.extendedResourceClaimStatus``), which the ResourceClaim informer counts like any other."""
    mappings = json_array(json_object(status.get("extendedResourceClaimStatus")).get("requestMappings"))
    return any(isinstance(m, Mapping) and m.get("resourceName") == GPU_RESOURCE for m in mappings)


def pod_record(raw: Mapping[str, Any]) -> PodRecord:
    """Parse a v1.Pod (JSON dict) once into a PodRecord."""
    metadata = json_object(raw.get("metadata"))
    spec = json_object(raw.get("spec"))
    status = json_object(raw.get("status"))
    kind, name = workload_of(metadata)
    cpu, memory, gpus = pod_requests(spec)
    if gpus and _gpus_served_by_dra(status):
        gpus = 0.0  # the scheduler's extended-resource ResourceClaim holds them: counted with the claims
    finished = status.get("phase") in ("Succeeded", "Failed")
    node = spec.get("nodeName")
    return PodRecord(
        namespace=str(metadata.get("namespace") or "default"),
        name=str(metadata.get("name") or ""),
        uid=str(metadata.get("uid") or ""),
        node=node if isinstance(node, str) and node else None,
        workload_kind=kind,
        workload=name,
        cpu_cores=cpu,
        memory_gb=memory,
        gpus=gpus,
        active=not finished and not metadata.get("deletionTimestamp"),
    )
