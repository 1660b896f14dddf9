"""Small builders for scorer tests: nodes, pods, intents, a cluster state with an injected clock."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorer.evaluators import Context
from scorer.facts import LiveMetrics, NodeFacts, NumaZone, PodRecord
from scorer.podset import PodSet
from shared.intents import Intent


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def node(name: str, zone: str | None = "zone-a", rack: str | None = None, region: str | None = "region-1",
         **facts: Any) -> NodeFacts:
    return NodeFacts(name=name, zone=zone, rack=rack, region=region, **facts)


def pod(name: str, workload: str = "web", node_name: str | None = None, kind: str = "Deployment",
        namespace: str = "default", **requests: float) -> PodRecord:
    return PodRecord(namespace=namespace, name=name, uid=f"uid-{namespace}-{name}", node=node_name,
                     workload_kind=kind if workload else "", workload=workload, **requests)


def intent(name: str, confidence: float = 1.0, strength: float = 1.0, **metadata: Any) -> Intent:
    meta = {k: tuple(v) if isinstance(v, list | tuple) else float(v) for k, v in metadata.items()}
    return Intent(name=name, confidence=confidence, strength=strength, metadata=meta)


def podset(nodes: Iterable[NodeFacts], placed: Iterable[PodRecord] = (), clock: Clock | None = None,
           ttl_s: float = 10.0) -> tuple[PodSet, dict[str, NodeFacts]]:
    by_name = {n.name: n for n in nodes}
    pods = PodSet(by_name, ttl_s=ttl_s, clock=clock or Clock())
    for record in placed:
        pods.upsert(record)
    return pods, by_name


def context(the_pod: PodRecord, pods: PodSet, live: Mapping[str, LiveMetrics] | None = None,
            fresh_after: float = 0.0) -> Context:
    return Context(the_pod, pods, dict(live or {}), fresh_after)


__all__ = ["Clock", "NumaZone", "context", "intent", "node", "pod", "podset"]
