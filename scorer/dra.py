"""GPUs as Dynamic Resource Allocation publishes them: ResourceSlices and ResourceClaims (resource.k8s.io/v1).

A node served by the NVIDIA DRA driver has no ``nvidia.com/gpu`` in its allocatable: its GPUs are
devices in ResourceSlices (research/gpu-facts-and-anchors.md 1). ``DraIndex`` keeps, for one driver
(``gpu.nvidia.com`` by default):

- the devices of the newest generation of every pool (a pool's slices are replaced by a higher
  ``spec.pool.generation``; older slices linger until the driver deletes them and never count),
  per node: ``spec.nodeName`` of the slice, or a device's own ``nodeName``;
- which devices allocated ResourceClaims hold (``status.allocation.devices.results``); a full GPU is
  busy when a claim holds it or any device that consumes one of its shared counter sets (a MIG
  partition of it, with partitionable devices);
- what each not-yet-allocated claim asks for (``spec.devices.requests``: count per DeviceClass), so
  the pod being placed can add its claims to the node the scorer predicts for it.

``NodeGpus`` is the summary of one node. Attribute names drifted between driver releases (v25.3:
``minor``/``index``/``pcieBusID``; v25.12+: ``resource.kubernetes.io/pciBusID``); only ``type``,
``productName``, ``capacity.memory`` and ``resource.kubernetes.io/pcieRoot`` are read, each either
bare or qualified with the driver's domain. A device without ``type`` (very old or hand-written
slices) is classified by its name (``gpu-0``; MIG ``gpu-0-mig-1g10gb-19-0``, v25.8 ``gpu-0-mig-19-0-1``).
The v1beta1 shape, with attributes under ``basic``, is accepted too (offline files for older clusters).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorer.facts import NodeGpus, json_array, json_object, parse_quantity

DEFAULT_DRIVER = "gpu.nvidia.com"
DEFAULT_GPU_CLASSES = ("gpu.nvidia.com",)  # the driver's DeviceClass for whole GPUs (type == "gpu")
STANDARD = "resource.kubernetes.io/"
BYTES_TO_GPU_GB = 1e-9  # decimal GB, as MIB_TO_GPU_GB: an "80GB" part matches "≥ 80 GB"
# Raw objects come from orjson or YAML, so they are dicts: isinstance(x, dict) costs a fraction of the ABC
# check against Mapping, which matters at 40,000 devices in the first list.
_MIG_NAME = re.compile(r"^gpu-\d+-mig-")
_GPU_NAME = re.compile(r"^gpu-\d+$")


@dataclass(frozen=True, slots=True)
class Device:
    """One device of a ResourceSlice, as far as scoring cares."""

    name: str
    kind: str  # "gpu", "mig", "vfio", or whatever the driver's ``type`` says
    product: str | None = None
    memory_bytes: float | None = None
    pcie_root: str | None = None
    counter_sets: tuple[str, ...] = ()  # shared counter sets it consumes (partitionable devices)


@dataclass(frozen=True, slots=True)
class _Slice:
    driver: str
    pool: str
    generation: int
    devices: tuple[tuple[str, Device], ...]  # (node, device)
    version: str = ""  # metadata.resourceVersion: a re-list skips slices it has already parsed


@dataclass(frozen=True, slots=True)
class _Claim:
    allocated: tuple[tuple[str, str], ...]  # (pool, device) of this driver
    demand: float  # GPUs requested from the GPU classes, counted only while not allocated
    version: str = ""  # metadata.resourceVersion


def _attribute(attributes: Mapping[str, Any], driver: str, name: str) -> Any:
    """An attribute's value (``{"string": ...}`` / ``int`` / ``bool`` / ``version``), bare or qualified."""
    value = attributes.get(name)
    if value is None:
        value = attributes.get(f"{driver}/{name}")
    if isinstance(value, dict):
        for key in ("string", "int", "bool", "version"):
            if key in value:
                return value[key]
        return None
    return value


def _capacity(capacity: Mapping[str, Any], driver: str, name: str) -> float | None:
    value = capacity.get(name)
    if value is None:
        value = capacity.get(f"{driver}/{name}")
    if isinstance(value, dict):  # v1: {"value": "80Gi"}; v1alpha3 had the bare quantity
        value = value.get("value")
    return parse_quantity(value)


def parse_device(raw: Mapping[str, Any], driver: str) -> Device:
    """A v1 (or v1beta1 ``basic``) ResourceSlice device."""
    body = raw.get("basic") if isinstance(raw.get("basic"), dict) else raw
    name = str(raw.get("name", ""))
    attributes = body.get("attributes") or {}
    capacity = body.get("capacity") or {}
    kind = _attribute(attributes, driver, "type")
    if not isinstance(kind, str) or not kind:
        kind = "mig" if _MIG_NAME.match(name) else "gpu" if _GPU_NAME.match(name) else "unknown"
    product = _attribute(attributes, driver, "productName")
    root = attributes.get(STANDARD + "pcieRoot")
    root = root.get("string") if isinstance(root, dict) else None
    counters = tuple(str(c.get("counterSet")) for c in body.get("consumesCounters") or ()
                     if isinstance(c, dict) and c.get("counterSet"))
    return Device(name=name, kind=kind, product=product if isinstance(product, str) and product else None,
                  memory_bytes=_capacity(capacity, driver, "memory"), pcie_root=root or None, counter_sets=counters)


def parse_slice(raw: Mapping[str, Any]) -> _Slice | None:
    """A ResourceSlice's pool and per-node devices; None for slices of no single node (nodeSelector, allNodes)."""
    spec = raw.get("spec") or {}
    driver = str(spec.get("driver", ""))
    pool = spec.get("pool") or {}
    node = spec.get("nodeName") or None
    per_device = bool(spec.get("perDeviceNodeSelection"))
    devices = []
    for item in spec.get("devices") or ():
        if not isinstance(item, dict):
            continue
        where = item.get("nodeName") if per_device else node
        if where:
            devices.append((str(where), parse_device(item, driver)))
    if node is None and not per_device:
        return None
    try:
        generation = int(pool.get("generation") or 0)
    except (TypeError, ValueError):
        generation = 0
    version = str((raw.get("metadata") or {}).get("resourceVersion", ""))
    return _Slice(driver, str(pool.get("name", "")), generation, tuple(devices), version)


def _requests_count(request: Mapping[str, Any], classes: frozenset[str]) -> float:
    """GPUs one v1 DeviceRequest asks for from the GPU classes: ``exactly`` or the first ``firstAvailable``."""
    exact = request.get("exactly")
    if not isinstance(exact, dict):
        options = request.get("firstAvailable") or ()
        exact = options[0] if options and isinstance(options[0], dict) else None
    if exact is None and "deviceClassName" in request:  # v1beta1 flat request
        exact = request
    if exact is None or exact.get("deviceClassName") not in classes:
        return 0.0
    if exact.get("allocationMode") == "All":
        return 1.0  # "every matching device" is unknowable before allocation: at least one
    try:
        return float(exact.get("count") or 1)
    except (TypeError, ValueError):
        return 1.0


def parse_claim(raw: Mapping[str, Any], driver: str, classes: frozenset[str]) -> _Claim:
    """A ResourceClaim's allocated devices of ``driver`` and, while unallocated, its GPU demand."""
    allocation = (raw.get("status") or {}).get("allocation") or {}
    results = (allocation.get("devices") or {}).get("results") or ()
    allocated = tuple((str(r.get("pool", "")), str(r.get("device", ""))) for r in results
                      if isinstance(r, dict) and r.get("driver") == driver)
    demand = 0.0
    if not allocation:
        requests = ((raw.get("spec") or {}).get("devices") or {}).get("requests") or ()
        demand = sum(_requests_count(r, classes) for r in requests if isinstance(r, dict))
    return _Claim(allocated, demand, str((raw.get("metadata") or {}).get("resourceVersion", "")))


def _key(raw: Mapping[str, Any], namespaced: bool = False) -> str:
    metadata = raw.get("metadata") or {}
    name = str(metadata.get("name", ""))
    return f"{metadata.get('namespace') or 'default'}/{name}" if namespaced else name


IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/"  # KEP-5004: a DeviceClass requested as an extended resource


def implicit_gpu_requests(pod: Mapping[str, Any], classes: frozenset[str]) -> float:
    """GPUs a pod requests as ``deviceclass.resource.kubernetes.io/<GPU class>`` extended resources (KEP-5004),
    which kube-scheduler serves from DRA devices: the sum over containers, at least each init container."""
    spec = json_object(pod.get("spec"))
    total = sum(_implicit_gpus(c, classes) for c in json_array(spec.get("containers")))
    return max([total, *(_implicit_gpus(c, classes) for c in json_array(spec.get("initContainers")))])


def _implicit_gpus(container: Any, classes: frozenset[str]) -> float:
    resources = json_object(json_object(container).get("resources"))
    requests, limits = json_object(resources.get("requests")), json_object(resources.get("limits"))
    total = 0.0
    for name in {*requests, *limits}:
        if isinstance(name, str) and name.startswith(IMPLICIT_PREFIX) and name[len(IMPLICIT_PREFIX):] in classes:
            total += parse_quantity(requests.get(name, limits.get(name))) or 0.0
    return total


def pod_claim_names(pod: Mapping[str, Any]) -> list[str]:
    """The ResourceClaim names a pod uses: ``resourceClaimName`` or, for templates, the generated name in
    ``status.resourceClaimStatuses`` (research/gpu-facts-and-anchors.md 1: what the extender receives)."""
    statuses = json_array(json_object(pod.get("status")).get("resourceClaimStatuses"))
    generated = {s.get("name"): s.get("resourceClaimName") for s in statuses if isinstance(s, dict)}
    names = []
    for entry in json_array(json_object(pod.get("spec")).get("resourceClaims")):
        if not isinstance(entry, dict):
            continue
        name = entry.get("resourceClaimName") or generated.get(entry.get("name"))
        if isinstance(name, str) and name:
            names.append(name)
    return names


class DraIndex:
    """ResourceSlices and ResourceClaims of one driver, summarised per node. Mutations return the names of the
    nodes whose summary may have changed, so the caller refreshes only those."""

    def __init__(self, driver: str = DEFAULT_DRIVER, gpu_classes: Iterable[str] = DEFAULT_GPU_CLASSES) -> None:
        self.driver = driver
        self.gpu_classes = frozenset(gpu_classes)
        self._slices: dict[str, _Slice] = {}
        self._pools: dict[str, set[str]] = {}  # pool -> slice names
        self._devices: dict[str, dict[tuple[str, str], Device]] = {}  # node -> (pool, device) -> device
        self._located: dict[tuple[str, str], str] = {}  # (pool, device) -> node
        self._pool_keys: dict[str, set[tuple[str, str]]] = {}  # pool -> its located (pool, device) keys
        self._claims: dict[str, _Claim] = {}
        self._holders: dict[tuple[str, str], int] = {}  # (pool, device) -> allocated claims holding it
        self._summary: dict[str, NodeGpus] = {}

    # --- reads ------------------------------------------------------------------------------------

    def node(self, name: str) -> NodeGpus | None:
        """What the driver publishes for ``name``; None when it publishes nothing there."""
        summary = self._summary.get(name)
        if summary is None and name in self._devices:
            summary = self._summary[name] = self._summarise(name)
        return summary

    def nodes(self) -> list[str]:
        return list(self._devices)

    def claim_demand(self, namespace: str, names: Iterable[str]) -> float:
        """GPUs the named claims still ask for (allocated claims are already counted on their node)."""
        claims = self._claims
        return sum(c.demand for n in names if (c := claims.get(f"{namespace}/{n}")) is not None)

    # --- ResourceSlices ---------------------------------------------------------------------------

    def upsert_slice(self, raw: Mapping[str, Any]) -> set[str]:
        name = _key(raw)
        parsed = parse_slice(raw)
        old = self._slices.pop(name, None)
        pools = {s.pool for s in (old, parsed) if s is not None and s.driver == self.driver}
        if parsed is not None and parsed.driver == self.driver:
            self._slices[name] = parsed
            self._pools.setdefault(parsed.pool, set()).add(name)
        if old is not None and old.driver == self.driver and (parsed is None or parsed.pool != old.pool):
            self._pools.get(old.pool, set()).discard(name)
        return self._rebuild(pools)

    def delete_slice(self, raw: Mapping[str, Any]) -> set[str]:
        old = self._slices.pop(_key(raw), None)
        if old is None:
            return set()
        self._pools.get(old.pool, set()).discard(_key(raw))
        return self._rebuild({old.pool})

    def replace_slices(self, items: Iterable[Mapping[str, Any]]) -> set[str]:
        """A full list. Slices at a resourceVersion already parsed are kept as they are and only the pools with a
        new, changed or vanished slice are rebuilt: the periodic re-list of thousands of slices stays cheap."""
        fresh: dict[str, _Slice] = {}
        for raw in items:
            name = _key(raw)
            known = self._slices.get(name)
            version = str((raw.get("metadata") or {}).get("resourceVersion", ""))
            if known is not None and version and known.version == version:
                fresh[name] = known
                continue
            parsed = parse_slice(raw)
            if parsed is not None and parsed.driver == self.driver:
                fresh[name] = parsed
        changed = {s.pool for n, s in self._slices.items() if fresh.get(n) is not s}
        changed |= {s.pool for n, s in fresh.items() if self._slices.get(n) is not s}
        self._slices = fresh
        self._pools = {}
        for name, parsed in fresh.items():
            self._pools.setdefault(parsed.pool, set()).add(name)
        return self._rebuild(changed)

    def _rebuild(self, pools: set[str]) -> set[str]:
        """Re-derive the devices of ``pools`` from their newest generation; the nodes touched."""
        touched: set[str] = set()
        for pool in pools:
            for key in self._pool_keys.pop(pool, ()):
                node = self._located.pop(key)
                self._devices.get(node, {}).pop(key, None)
                touched.add(node)
            names = self._pools.get(pool) or set()
            if not names:
                self._pools.pop(pool, None)
                continue
            newest = max(self._slices[n].generation for n in names)
            for slice_name in names:
                parsed = self._slices[slice_name]
                if parsed.generation != newest:
                    continue  # superseded: the driver will delete it
                for node, device in parsed.devices:
                    key = (pool, device.name)
                    self._devices.setdefault(node, {})[key] = device
                    self._located[key] = node
                    self._pool_keys.setdefault(pool, set()).add(key)
                    touched.add(node)
        for node in touched:
            self._summary.pop(node, None)
            if not self._devices.get(node):
                self._devices.pop(node, None)
        return touched

    # --- ResourceClaims ---------------------------------------------------------------------------

    def upsert_claim(self, raw: Mapping[str, Any]) -> set[str]:
        return self._set_claim(_key(raw, namespaced=True), parse_claim(raw, self.driver, self.gpu_classes))

    def delete_claim(self, raw: Mapping[str, Any]) -> set[str]:
        return self._set_claim(_key(raw, namespaced=True), None)

    def replace_claims(self, items: Iterable[Mapping[str, Any]]) -> set[str]:
        fresh: dict[str, _Claim] = {}
        for raw in items:
            key = _key(raw, namespaced=True)
            known = self._claims.get(key)
            version = str((raw.get("metadata") or {}).get("resourceVersion", ""))
            fresh[key] = known if known is not None and version and known.version == version else parse_claim(
                raw, self.driver, self.gpu_classes)
        touched: set[str] = set()
        for key in [k for k in self._claims if k not in fresh]:
            touched |= self._set_claim(key, None)
        for key, claim in fresh.items():
            touched |= self._set_claim(key, claim)
        return touched

    def _set_claim(self, key: str, claim: _Claim | None) -> set[str]:
        old = self._claims.pop(key, None) if claim is None else self._claims.get(key)
        if claim is not None:
            self._claims[key] = claim
        if old is claim or (old is not None and claim is not None
                            and (old.allocated, old.demand) == (claim.allocated, claim.demand)):
            return set()  # e.g. only reservedFor changed: nothing the scorer counts
        touched: set[str] = set()
        for held, delta in ((old, -1), (claim, +1)):
            for device in held.allocated if held is not None else ():
                count = self._holders.get(device, 0) + delta
                if count > 0:
                    self._holders[device] = count
                else:
                    self._holders.pop(device, None)
                node = self._located.get(device)
                if node is not None:
                    touched.add(node)
        for node in touched:
            self._summary.pop(node, None)
        return touched

    # --- summary ----------------------------------------------------------------------------------

    def _summarise(self, node: str) -> NodeGpus:
        devices = self._devices.get(node) or {}
        gpus = [(key, d) for key, d in devices.items() if d.kind == "gpu"]
        busy_sets = {s for key, d in devices.items() if key in self._holders for s in d.counter_sets}
        allocated = sum(1 for key, d in gpus if key in self._holders or busy_sets.intersection(d.counter_sets))
        products: dict[str, int] = {}
        for _, d in gpus:
            if d.product:
                products[d.product] = products.get(d.product, 0) + 1
        if not products:  # MIG-only nodes still name their GPU model
            for d in devices.values():
                if d.product:
                    products[d.product] = products.get(d.product, 0) + 1
        memories = [d.memory_bytes for _, d in gpus if d.memory_bytes is not None]
        return NodeGpus(
            gpus=len(gpus),
            mig_devices=sum(1 for d in devices.values() if d.kind == "mig"),
            product=max(sorted(products), key=products.__getitem__) if products else None,
            memory_gb=max(memories) * BYTES_TO_GPU_GB if memories else None,
            pcie_roots=tuple(sorted({d.pcie_root for _, d in gpus if d.pcie_root})),
            allocated=allocated,
        )
