"""The effective pod set P_eff = P_api ∪ P_local (the paper's Eq. 11–12, ARCHITECTURE.md 2.5).

P_api are the pods the API shows bound to a node; P_local are the placements this scorer predicted
in /prioritize during the last ``ttl_s`` seconds that the API has not confirmed yet. A confirmation
(the pod appears bound) or a deletion replaces the prediction. Without P_local a burst of pods
scored before any binding is visible would all see the same empty cluster: colocate would scatter
them and spread would pile them up.

Counts per workload per node/rack/zone/region (and per bare workload name, for the "other
workloads" intents) and the resources requested per node are kept incrementally on every change,
so a request only reads them. All methods run on the event loop thread; the scoring path does not
await, so it sees one consistent state.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from scorer.facts import NodeFacts, PodRecord

LEVELS = ("node", "rack", "zone", "region")
_EMPTY: dict[str, int] = {}


@dataclass(slots=True)
class Requested:
    """Resources the effective pods on one node request."""

    cpu_cores: float = 0.0
    memory_gb: float = 0.0
    gpus: float = 0.0
    pods: int = 0


@dataclass(frozen=True, slots=True)
class _Placement:
    record: PodRecord
    node: str
    domains: tuple[str | None, str | None, str | None, str | None]  # node, rack, zone, region
    name_key: str  # workload name, case-folded, for the "other workloads" index


class PodSet:
    """Bound pods from the API plus recent predictions, with incremental per-domain counts."""

    def __init__(self, nodes: Mapping[str, NodeFacts], ttl_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._nodes = nodes  # the live node cache (read only here)
        self._ttl = ttl_s
        self._clock = clock
        self._bound: dict[str, PodRecord] = {}
        self._predicted: dict[str, tuple[PodRecord, float]] = {}  # key -> (record with node, expires at)
        self._expiry: deque[tuple[float, str]] = deque()
        self._effective: dict[str, _Placement] = {}
        self._by_node: dict[str, set[str]] = {}
        # (level index, workload key) -> domain -> count; (level index, name) -> domain -> count
        self._counts: dict[tuple[int, str], dict[str, int]] = {}
        self._name_counts: dict[tuple[int, str], dict[str, int]] = {}
        self._totals: dict[str, int] = {}
        # (0 = workload / 1 = name, (level index, key)) -> the change that last touched that histogram; absent
        # while it is empty. A histogram's token names its contents, so callers may cache what they derive from it.
        self._stamps: dict[tuple[int, tuple[int, str]], int] = {}
        self._tick = 0
        self._requested: dict[str, Requested] = {}
        self.listener: Callable[[str, Requested | None], None] | None = None  # told when a node's requests change

    # --- reads (hot path) -------------------------------------------------------------------------

    def histogram(self, workload_key: str, level: str) -> Mapping[str, int]:
        """Pods of ``workload_key`` per domain at ``level`` (node name, rack, zone or region)."""
        return self._counts.get((LEVELS.index(level), workload_key), _EMPTY)

    def histogram_token(self, workload_key: str, level: str) -> tuple[int, int, str, int]:
        """A value that changes whenever ``histogram(workload_key, level)`` does (equal tokens: equal contents)."""
        key = (LEVELS.index(level), workload_key)
        return (0, key[0], workload_key, self._stamps.get((0, key), 0))

    def name_token(self, name: str, level: str) -> tuple[int, int, str, int]:
        """As ``histogram_token``, for ``name_histogram(name, level)``."""
        key = (LEVELS.index(level), name.casefold())
        return (1, key[0], key[1], self._stamps.get((1, key), 0))

    def total(self, workload_key: str) -> int:
        """Pods of ``workload_key`` in the effective set."""
        return self._totals.get(workload_key, 0)

    def name_histogram(self, name: str, level: str) -> Mapping[str, int]:
        """Pods of any workload called ``name`` (any namespace or kind, case-insensitive) per domain."""
        return self._name_counts.get((LEVELS.index(level), name.casefold()), _EMPTY)

    def requested(self, node: str) -> Requested | None:
        return self._requested.get(node)

    def __len__(self) -> int:
        return len(self._effective)

    @property
    def predictions(self) -> int:
        return len(self._predicted)

    # --- API side -----------------------------------------------------------------------------------

    def upsert(self, record: PodRecord) -> None:
        """A pod from the API (informer event). Bound and active: it is in P_api and replaces any prediction."""
        key = record.key
        if not record.active:
            self.delete(key)
            return
        if record.node is None:
            self._bound.pop(key, None)  # not placed (yet): a prediction, if any, still stands
            self._refresh(key)
            return
        self._bound[key] = record
        self._predicted.pop(key, None)
        self._refresh(key)

    def delete(self, key: str) -> None:
        """The pod is gone (or finished): it leaves P_api and P_local."""
        self._bound.pop(key, None)
        self._predicted.pop(key, None)
        self._refresh(key)

    def replace_all(self, records: Iterable[PodRecord]) -> None:
        """A full re-list: the API's set replaces P_api; predictions for pods now bound are dropped."""
        fresh = {r.key: r for r in records if r.active and r.node is not None}
        for key in [k for k in self._bound if k not in fresh]:
            del self._bound[key]
            self._refresh(key)
        for key, record in fresh.items():
            if self._bound.get(key) != record:
                self._bound[key] = record
                self._predicted.pop(key, None)
                self._refresh(key)

    def node_changed(self, name: str) -> None:
        """A node's topology labels may have changed: re-index the pods on it."""
        for key in list(self._by_node.get(name, ())):
            self._place(key, None)
            self._refresh(key)

    # --- scorer side (P_local) ----------------------------------------------------------------------

    def predict(self, record: PodRecord, node: str) -> None:
        """Remember that /prioritize sent this pod to ``node``; forgotten after the TTL unless confirmed."""
        key = record.key
        if key in self._bound:
            return  # the API already knows better
        expires = self._clock() + self._ttl
        r = record  # the constructor directly: dataclasses.replace costs several times more on this path
        placed = PodRecord(r.namespace, r.name, r.uid, node, r.workload_kind, r.workload, r.cpu_cores, r.memory_gb,
                           r.gpus, r.active, r.claimed_gpus)
        self._predicted[key] = (placed, expires)
        self._expiry.append((expires, key))
        self._refresh(key)

    def forget_prediction(self, key: str) -> None:
        """Drop our own earlier guess for a pod being scored again (it must not attract or repel itself)."""
        if self._predicted.pop(key, None) is not None:
            self._refresh(key)

    def expire(self) -> int:
        """Drop predictions older than the TTL; returns how many were dropped. O(1) when nothing expired."""
        now = self._clock()
        dropped = 0
        while self._expiry and self._expiry[0][0] <= now:
            expires, key = self._expiry.popleft()
            entry = self._predicted.get(key)
            if entry is not None and entry[1] == expires:
                del self._predicted[key]
                self._refresh(key)
                dropped += 1
        return dropped

    # --- bookkeeping --------------------------------------------------------------------------------

    def _refresh(self, key: str) -> None:
        """Make the counted placement of ``key`` match what P_eff says now."""
        bound = self._bound.get(key)
        if bound is not None and bound.node is not None:
            target: tuple[PodRecord, str] | None = (bound, bound.node)
        else:
            predicted = self._predicted.get(key)
            target = (predicted[0], predicted[0].node) if predicted and predicted[0].node else None
        current = self._effective.get(key)
        if current is not None and target is not None and current.node == target[1]:
            if current.record is target[0]:
                return
            if current.record == target[0]:
                # The API confirms our own prediction (same pod, same node, same requests): every count and
                # histogram token stays as it is, so what callers derived from them stays valid.
                self._effective[key] = _Placement(target[0], current.node, current.domains, current.name_key)
                return
        self._place(key, target)

    def _place(self, key: str, target: tuple[PodRecord, str] | None) -> None:
        current = self._effective.pop(key, None)
        if current is not None:
            self._count(current, -1)
            on_node = self._by_node.get(current.node)
            if on_node is not None:
                on_node.discard(key)
                if not on_node:
                    del self._by_node[current.node]
        if target is None:
            return
        record, node = target
        facts = self._nodes.get(node)
        domains = (node, facts.rack, facts.zone, facts.region) if facts is not None else (node, None, None, None)
        placement = _Placement(record, node, domains, record.workload.casefold())
        self._effective[key] = placement
        self._by_node.setdefault(node, set()).add(key)
        self._count(placement, +1)

    def _count(self, placement: _Placement, delta: int) -> None:
        record = placement.record
        workload = record.workload_key
        if workload:
            self._totals[workload] = self._totals.get(workload, 0) + delta
            if not self._totals[workload]:
                del self._totals[workload]
            self._tick += 1
            stamps, tick = self._stamps, self._tick
            for level, domain in enumerate(placement.domains):
                if domain is None:
                    continue
                key = (level, workload)
                stamps[0, key] = tick
                if _bump(self._counts, key, domain, delta):
                    del stamps[0, key]
                key = (level, placement.name_key)
                stamps[1, key] = tick
                if _bump(self._name_counts, key, domain, delta):
                    del stamps[1, key]
        requested = self._requested.get(placement.node)
        if requested is None:
            requested = self._requested[placement.node] = Requested()
        requested.cpu_cores += delta * record.cpu_cores
        requested.memory_gb += delta * record.memory_gb
        requested.gpus += delta * (record.gpus + record.claimed_gpus)
        requested.pods += delta
        if requested.pods <= 0:
            del self._requested[placement.node]
            requested = None
        if self.listener is not None:
            self.listener(placement.node, requested)


def _bump(index: dict[tuple[int, str], dict[str, int]], key: tuple[int, str], domain: str, delta: int) -> bool:
    """Add ``delta`` to one count; True when that left the histogram empty (and removed it)."""
    counts = index.get(key)
    if counts is None:
        counts = index[key] = {}
    value = counts.get(domain, 0) + delta
    if value:
        counts[domain] = value
        return False
    counts.pop(domain, None)
    if not counts:
        del index[key]
        return True
    return False
