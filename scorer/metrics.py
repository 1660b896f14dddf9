"""The scorer's Prometheus metrics, on their own registry (served at /metrics by observability.routes)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from scorer.state import RESOURCES, ClusterState

_LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_NODE_BUCKETS = (1, 2, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000)


@dataclass
class ScorerMetrics:
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.latency = Histogram("semaff_scorer_prioritize_seconds", "Time to answer /prioritize",
                                 buckets=_LATENCY_BUCKETS, registry=r)
        self.nodes = Histogram("semaff_scorer_prioritize_nodes", "Candidate nodes per /prioritize request",
                               buckets=_NODE_BUCKETS, registry=r)
        self.requests = Counter("semaff_scorer_requests", "Extender requests by verb and outcome",
                                ["verb", "outcome"], registry=r)
        self.neutral = Counter("semaff_scorer_neutral_fallbacks",
                               "Pods scored neutrally (all 0) by reason: no-intents, unsigned, bad-signature, "
                               "unknown-key, undecodable, invalid, non-canonical, all-non-positive, ...",
                               ["reason"], registry=r)
        self.unknown_nodes = Counter("semaff_scorer_unknown_nodes", "Node names sent that are not in the cache",
                                     registry=r)
        self.unknown_facts = Counter("semaff_scorer_unknown_facts",
                                     "Evaluations that fell back to neutral because a fact was unknown",
                                     ["intent"], registry=r)
        self.cache_sync_age = Gauge("semaff_scorer_cache_sync_age_seconds",
                                    "Seconds since the last full list of a resource (-1: never)",
                                    ["resource"], registry=r)
        self.cache_objects = Gauge("semaff_scorer_cache_objects", "Objects in the cache", ["resource"], registry=r)
        self.metrics_staleness = Gauge("semaff_scorer_live_metrics_staleness_seconds",
                                       "Seconds since the last successful Prometheus poll (-1: never)", registry=r)
        self.metrics_polls = Counter("semaff_scorer_live_metrics_polls", "Prometheus polls by outcome",
                                     ["outcome"], registry=r)
        self.predictions = Gauge("semaff_scorer_ledger_predictions",
                                 "Placements predicted in the last TTL and not yet confirmed", registry=r)
        self.watch_errors = Counter("semaff_scorer_watch_errors", "Informer errors by resource",
                                    ["resource"], registry=r)

    def bind_state(self, state: ClusterState) -> None:
        """Gauges that read the cache when scraped."""
        for resource in RESOURCES:
            self.cache_sync_age.labels(resource).set_function(
                lambda r=resource: time.time() - state.synced_at[r] if r in state.synced_at else -1.0)
        self.cache_objects.labels("nodes").set_function(lambda: len(state.nodes))
        self.cache_objects.labels("pods").set_function(lambda: len(state.pods))
        self.cache_objects.labels("resourceslice-nodes").set_function(lambda: len(state.dra.nodes()))
        self.metrics_staleness.set_function(
            lambda: time.time() - state.live_polled_at if state.live_polled_at is not None else -1.0)
        self.predictions.set_function(lambda: state.pods.predictions)
