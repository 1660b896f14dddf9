"""The scorer's cluster state cache: node facts, NUMA zones, DRA GPUs, the effective pod set and live metrics.

Informers and the metrics poller write here (raw objects are parsed once, on receipt); the request
path only reads. Everything runs on the event loop thread, so no locks are needed: a request that
does not await sees one consistent state.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from scorer.dra import DraIndex, implicit_gpu_requests, pod_claim_names
from scorer.facts import (
    DEFAULT_TOPOLOGY,
    LiveMetrics,
    NodeFacts,
    NumaZone,
    PodRecord,
    Topology,
    node_facts,
    numa_zones,
    pod_record,
    with_gpu_sources,
)
from scorer.podset import PodSet
from scorer.table import NodeTable

RESOURCES = ("nodes", "pods", "noderesourcetopologies", "resourceslices", "resourceclaims")


class ClusterState:
    """What the scorer knows about the cluster. ``clock`` drives the ledger TTL (monotonic seconds)."""

    def __init__(self, topology: Topology = DEFAULT_TOPOLOGY, ledger_ttl_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic, dra: DraIndex | None = None,
                 staleness_s: float = 60.0) -> None:
        self.topology = topology
        self.dra = dra or DraIndex()
        self.staleness_s = staleness_s  # DCGM P2P samples older than this no longer decide NVLink
        self.gpu_epoch = 0  # bumped whenever ResourceSlices, ResourceClaims or DCGM P2P change some node's facts
        self.nodes: dict[str, NodeFacts] = {}
        self._base: dict[str, NodeFacts] = {}  # facts from the Node object (and NRT) alone
        self._p2p: dict[str, bool] = {}  # NVLink from DCGM's P2P status, per node
        self.pods = PodSet(self.nodes, ttl_s=ledger_ttl_s, clock=clock)
        self.table = NodeTable(requested=self.pods.requested)  # the same nodes in columns, for the hot path
        self.pods.listener = self.table.set_requested
        self.live: dict[str, LiveMetrics] = {}
        self.live_polled_at: float | None = None  # wall time of the last successful metrics poll
        self.synced_at: dict[str, float] = {}  # resource -> wall time of its last full list
        self._numa: dict[str, tuple[NumaZone, ...]] = {}
        self._pod_versions: dict[str, tuple[str, PodRecord]] = {}  # uid -> (resourceVersion, its record)
        self._wall = time.time

    # --- readiness --------------------------------------------------------------------------------

    def mark_synced(self, resource: str) -> None:
        self.synced_at[resource] = self._wall()

    def not_ready(self) -> str | None:
        """None once nodes and pods have been fully listed, else why not (for /readyz)."""
        missing = [r for r in ("nodes", "pods") if r not in self.synced_at]
        return f"waiting for the first full list of {', '.join(missing)}" if missing else None

    # --- nodes --------------------------------------------------------------------------------------

    def facts_for(self, raw: Mapping[str, Any]) -> NodeFacts:
        """Parse a Node object (from an informer or a request) with our NUMA zones, DRA GPUs and DCGM NVLink."""
        base = self._base_facts(raw)
        return with_gpu_sources(base, self.dra.node(base.name), self._p2p.get(base.name))

    def _base_facts(self, raw: Mapping[str, Any]) -> NodeFacts:
        name = str((raw.get("metadata") or {}).get("name", ""))
        return node_facts(raw, self.topology, self._numa.get(name))

    def _publish(self, names: Iterable[str]) -> None:
        """Recompose the facts of ``names`` from their Node and the other GPU sources (nodes without a Node
        object are skipped: a slice may arrive before its Node)."""
        for name in names:
            base = self._base.get(name)
            if base is None:
                continue
            facts = with_gpu_sources(base, self.dra.node(name), self._p2p.get(name))
            old = self.nodes.get(name)
            self.nodes[name] = facts
            self.table.put(facts)
            if old is None or (old.rack, old.zone, old.region) != (facts.rack, facts.zone, facts.region):
                self.pods.node_changed(name)

    def upsert_node(self, raw: Mapping[str, Any]) -> None:
        base = self._base_facts(raw)
        self._base[base.name] = base
        self._publish((base.name,))

    def delete_node(self, raw: Mapping[str, Any]) -> None:
        name = str((raw.get("metadata") or {}).get("name", ""))
        self._base.pop(name, None)
        if self.nodes.pop(name, None) is not None:
            self.table.remove(name)
            self.pods.node_changed(name)

    def replace_nodes(self, items: Iterable[Mapping[str, Any]]) -> None:
        """A full re-list. A node at the resourceVersion we hold is not parsed again: at thousands of nodes the
        periodic re-list would otherwise hold the event loop (and every /prioritize) for a long moment."""
        fresh = {}
        held, self._base = self._base, {}
        for raw in items:
            metadata = raw.get("metadata") or {}
            base = held.get(str(metadata.get("name", "")))
            version = str(metadata.get("resourceVersion", ""))
            if base is None or not version or base.resource_version != version:
                base = self._base_facts(raw)
            self._base[base.name] = base
            fresh[base.name] = with_gpu_sources(base, self.dra.node(base.name), self._p2p.get(base.name))
        changed = [n for n in self.nodes.keys() | fresh.keys()
                   if (a := self.nodes.get(n)) is None or (b := fresh.get(n)) is None
                   or (a.rack, a.zone, a.region) != (b.rack, b.zone, b.region)]
        self.nodes.clear()  # the PodSet holds this very dict: update in place
        self.nodes.update(fresh)
        self.table.replace(fresh.values())
        for name in changed:
            self.pods.node_changed(name)
        self.mark_synced("nodes")

    # --- NodeResourceTopology -----------------------------------------------------------------------

    def upsert_nrt(self, raw: Mapping[str, Any]) -> None:
        name = str((raw.get("metadata") or {}).get("name", ""))
        self._numa[name] = numa_zones(raw)
        self._refresh_numa(name)

    def delete_nrt(self, raw: Mapping[str, Any]) -> None:
        name = str((raw.get("metadata") or {}).get("name", ""))
        if self._numa.pop(name, None) is not None:
            self._refresh_numa(name)

    def replace_nrts(self, items: Iterable[Mapping[str, Any]]) -> None:
        old = set(self._numa)
        self._numa = {str((raw.get("metadata") or {}).get("name", "")): numa_zones(raw) for raw in items}
        for name in old | set(self._numa):
            self._refresh_numa(name)
        self.mark_synced("noderesourcetopologies")

    def _refresh_numa(self, name: str) -> None:
        base = self._base.get(name)
        if base is not None:
            self._base[name] = replace(base, numa_zones=self._numa.get(name))
            self._publish((name,))

    # --- DRA: ResourceSlices and ResourceClaims (scorer.dra) ----------------------------------------

    def _gpus_changed(self, names: set[str]) -> None:
        if names:
            self.gpu_epoch += 1
            self._publish(names)

    def upsert_slice(self, raw: Mapping[str, Any]) -> None:
        self._gpus_changed(self.dra.upsert_slice(raw))

    def delete_slice(self, raw: Mapping[str, Any]) -> None:
        self._gpus_changed(self.dra.delete_slice(raw))

    def replace_slices(self, items: Iterable[Mapping[str, Any]]) -> None:
        self._gpus_changed(self.dra.replace_slices(items))
        self.mark_synced("resourceslices")

    def upsert_claim(self, raw: Mapping[str, Any]) -> None:
        self._gpus_changed(self.dra.upsert_claim(raw))

    def delete_claim(self, raw: Mapping[str, Any]) -> None:
        self._gpus_changed(self.dra.delete_claim(raw))

    def replace_claims(self, items: Iterable[Mapping[str, Any]]) -> None:
        self._gpus_changed(self.dra.replace_claims(items))
        self.mark_synced("resourceclaims")

    def pod_to_place(self, raw: Mapping[str, Any]) -> PodRecord:
        """The pod kube-scheduler asks about, with the GPUs its not-yet-allocated ResourceClaims ask for (its
        prediction takes them from the node it is sent to; kube-scheduler sends no allocation to extenders)."""
        record = pod_record(raw)
        names = pod_claim_names(raw)
        demand = self.dra.claim_demand(record.namespace, names) if names else 0.0
        demand += implicit_gpu_requests(raw, self.dra.gpu_classes)
        return replace(record, claimed_gpus=demand) if demand else record

    # --- pods ---------------------------------------------------------------------------------------

    def upsert_pod(self, raw: Mapping[str, Any]) -> None:
        record = pod_record(raw)
        self._remember_pod(raw, record)
        self.pods.upsert(record)

    def delete_pod(self, raw: Mapping[str, Any]) -> None:
        key = pod_record(raw).key
        self._pod_versions.pop(key, None)
        self.pods.delete(key)

    def replace_pods(self, items: Iterable[Mapping[str, Any]]) -> None:
        """A full re-list; a pod at the resourceVersion we hold keeps its record (no second parse)."""
        known, self._pod_versions = self._pod_versions, {}
        records = []
        for raw in items:
            metadata = raw.get("metadata") or {}
            version = str(metadata.get("resourceVersion", ""))
            held = known.get(str(metadata.get("uid", "")))
            record = held[1] if held is not None and version and held[0] == version else pod_record(raw)
            self._remember_pod(raw, record)
            records.append(record)
        self.pods.replace_all(records)
        self.mark_synced("pods")

    def _remember_pod(self, raw: Mapping[str, Any], record: PodRecord) -> None:
        version = str((raw.get("metadata") or {}).get("resourceVersion", ""))
        if version and record.uid:
            self._pod_versions[record.uid] = (version, record)

    # --- live metrics -------------------------------------------------------------------------------

    def set_live(self, metrics: dict[str, LiveMetrics], polled_at: float) -> None:
        self.live = metrics
        self.live_polled_at = polled_at
        self.table.set_live(metrics)
        fresh_after = polled_at - self.staleness_s
        p2p = {node: m.nvlink_p2p for node, m in metrics.items()
               if m.nvlink_p2p is not None and m.nvlink_p2p_at >= fresh_after}
        if p2p != self._p2p:
            changed = {n for n in p2p.keys() | self._p2p.keys() if p2p.get(n) != self._p2p.get(n)}
            self._p2p = p2p
            self._gpus_changed(changed)
