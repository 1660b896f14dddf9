"""One evaluator per intent kind (shared.catalogue.Kind): φ_i(n) for every candidate node.

An evaluator is a pure function ``evaluate(intent, spec, view, ctx) -> np.ndarray`` giving φ for each
candidate node of ``view`` (a ``scorer.table.NodeView``, same order as the request); NaN means the
fact is unknown and the intent stays neutral on that node (a metric counts it). It works on the
whole candidate list at once: several φ are relative to the other candidates (colocate and nearby
divide by the maximum), and array operations over the node table's columns are what keeps a
request at thousands of nodes within milliseconds.

Kinds in ``STATIC`` read only node facts (labels, allocatable): their φ is computed once over the
whole node table per (intent, table version) and a request only gathers its candidates' rows. The
others read the effective pod set, live metrics or the pod itself and run per request; their
histogram lookups pass a token so the per-domain arrays are reused while the histogram is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from scorer.facts import LiveMetrics, NodeFacts, PodRecord
from scorer.podset import Requested
from scorer.table import NodeTable, NodeView
from shared.catalogue import BY_NAME, IntentSpec, Kind
from shared.intents import Intent

Phi = list[float | None]


class PodSetView(Protocol):
    """What evaluators read from the effective pod set (scorer.podset.PodSet)."""

    def histogram(self, workload_key: str, level: str) -> Mapping[str, int]: ...
    def total(self, workload_key: str) -> int: ...
    def name_histogram(self, name: str, level: str) -> Mapping[str, int]: ...
    def requested(self, node: str) -> Requested | None: ...
    def histogram_token(self, workload_key: str, level: str) -> Hashable: ...
    def name_token(self, name: str, level: str) -> Hashable: ...


@dataclass(frozen=True, slots=True)
class Context:
    """Everything besides the nodes an evaluator may read: the pod being placed, P_eff and live metrics."""

    pod: PodRecord
    pods: PodSetView
    live: Mapping[str, LiveMetrics] = field(default_factory=dict)  # used when a view is built from facts
    fresh_after: float = 0.0  # live samples taken before this (unix seconds) are unknown


Evaluator = Callable[[Intent, IntentSpec, NodeView, Context], np.ndarray]


def fresh(view: NodeView, column: str, ctx: Context) -> np.ndarray:
    """A live metric column with samples older than the staleness bound (or missing) as NaN."""
    values, taken = view.column(column), view.column(column + "_at")
    with np.errstate(invalid="ignore"):
        return np.where(taken >= ctx.fresh_after, values, np.nan)


def _registry() -> dict[Kind, Evaluator]:
    from scorer.evaluators import (
        avoid_domain,
        avoid_gpu,
        avoid_near_workloads,
        colocate,
        cpu,
        ephemeral_storage,
        gpu_count,
        gpu_memory,
        gpu_model,
        least_loaded,
        memory,
        nearby,
        network_speed,
        numa_aligned,
        nvlink,
        prefer_domain,
        prefer_near_workloads,
        spread,
        ssd,
    )

    modules = (avoid_domain, avoid_gpu, avoid_near_workloads, colocate, cpu, ephemeral_storage, gpu_count,
               gpu_memory, gpu_model, least_loaded, memory, nearby, network_speed, numa_aligned, nvlink,
               prefer_domain, prefer_near_workloads, spread, ssd)
    return {module.KIND: module.evaluate for module in modules}


REGISTRY: dict[Kind, Evaluator] = _registry()

# φ depends on node facts only (never on the pod, P_eff, live metrics or the clock)
STATIC = frozenset({Kind.PREFER_DOMAIN, Kind.AVOID_DOMAIN, Kind.AVOID_GPU, Kind.CPU, Kind.MEMORY,
                    Kind.EPHEMERAL_STORAGE, Kind.GPU_MODEL, Kind.NETWORK_SPEED, Kind.NVLINK, Kind.SSD})


def _memo_key(intent: Intent) -> Hashable | None:
    """What a static φ depends on: the intent's name and metadata (not its confidence or strength)."""
    try:
        key = (intent.name, tuple(sorted(intent.metadata.items())))
        hash(key)
    except TypeError:
        return None
    return key


def view_of(nodes: Sequence[NodeFacts] | NodeView, ctx: Context) -> NodeView:
    """A view over either a ready NodeView or plain facts (offline use, full Node objects, tests)."""
    if isinstance(nodes, NodeView):
        return nodes
    return NodeTable.of(nodes, requested=ctx.pods.requested, live=ctx.live)


def evaluate_view(intent: Intent, view: NodeView, ctx: Context) -> np.ndarray:
    """φ of one intent on every candidate (NaN = unknown); an intent outside the catalogue is neutral."""
    spec = BY_NAME.get(intent.name)
    if spec is None:
        return np.full(len(view), np.nan)
    evaluator = REGISTRY[spec.kind]
    if spec.kind in STATIC and (key := _memo_key(intent)) is not None:
        whole = view.table.memo(key, lambda full: _masked(evaluator(intent, spec, full, ctx), full))
        return whole[view.index]
    return _masked(evaluator(intent, spec, view, ctx), view)


def _masked(phi: np.ndarray, view: NodeView) -> np.ndarray:
    """φ as float64 with NaN (unknown) on the names the cache does not know."""
    phi = np.asarray(phi, dtype=np.float64)
    return np.where(view.known, phi, np.nan) if view.unknown_count else phi


def evaluate(intent: Intent, nodes: Sequence[NodeFacts] | NodeView, ctx: Context) -> Phi:
    """φ as a list with None for unknown: the readable form of ``evaluate_view``."""
    return [None if math.isnan(p) else p for p in evaluate_view(intent, view_of(nodes, ctx), ctx).tolist()]
