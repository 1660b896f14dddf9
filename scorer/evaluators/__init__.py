"""One evaluator per intent kind (shared.catalogue.Kind): φ_i(n) for every candidate node.

An evaluator is a pure function ``evaluate(intent, spec, nodes, ctx) -> list[float | None]`` giving φ
for each node in ``nodes`` (same order); ``None`` means the fact is unknown and the intent stays
neutral on that node (a metric counts it). It works on the whole candidate list at once because
several φ are relative to the other candidates (colocate and nearby divide by the maximum) and
because one list comprehension over cheap attribute reads is the fast path at thousands of nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from scorer.facts import LiveMetrics, NodeFacts, PodRecord
from scorer.podset import Requested
from shared.catalogue import BY_NAME, IntentSpec, Kind
from shared.intents import Intent

Phi = list[float | None]


class PodSetView(Protocol):
    """What evaluators read from the effective pod set (scorer.podset.PodSet)."""

    def histogram(self, workload_key: str, level: str) -> Mapping[str, int]: ...
    def total(self, workload_key: str) -> int: ...
    def name_histogram(self, name: str, level: str) -> Mapping[str, int]: ...
    def requested(self, node: str) -> Requested | None: ...
    @property
    def requested_by_node(self) -> Mapping[str, Requested]: ...


@dataclass(frozen=True, slots=True)
class Context:
    """Everything besides the node an evaluator may read: the pod being placed, P_eff and live metrics."""

    pod: PodRecord
    pods: PodSetView
    live: Mapping[str, LiveMetrics] = field(default_factory=dict)
    fresh_after: float = 0.0  # live samples taken before this (unix seconds) are unknown


Evaluator = Callable[[Intent, IntentSpec, Sequence[NodeFacts], Context], Phi]


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


def evaluate(intent: Intent, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """φ of one intent on every node; an intent outside the catalogue is neutral everywhere."""
    spec = BY_NAME.get(intent.name)
    if spec is None:
        return [None] * len(nodes)
    return REGISTRY[spec.kind](intent, spec, nodes, ctx)
