"""The webhook's Prometheus metrics, in their own registry (served on ``/metrics``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0)


@dataclass
class Metrics:
    """Everything the webhook and controller count. One instance per process (or per test)."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.admission_latency = Histogram(
            "semaff_admission_latency_seconds", "Time to answer one AdmissionReview", registry=r, buckets=_FAST)
        self.admission_decisions = Counter(
            "semaff_admission_decisions_total",
            "Admission outcomes: hit, miss, no-hint, dry-run, skipped, malformed, error, bad-request",
            ["outcome"], registry=r)
        self.forged_annotations = Counter(
            "semaff_forged_annotations_removed_total", "Client-written output annotations stripped", registry=r)
        self.cache_lookups = Counter(
            "semaff_cache_lookups_total", "Intent cache lookups", ["result"], registry=r)
        self.cache_entries = Gauge("semaff_cache_entries", "Entries in the intent cache", registry=r)
        self.analyser_latency = Histogram(
            "semaff_analyser_latency_seconds", "One analyser call", ["analyser"], registry=r, buckets=_SLOW)
        self.analyser_errors = Counter(
            "semaff_analyser_errors_total", "Failed analyser calls", ["analyser", "reason"], registry=r)
        self.analyser_throttles = Counter(
            "semaff_analyser_throttles_total", "Analyser calls refused for throttling", ["analyser"], registry=r)
        self.gated_pods = Gauge("semaff_gated_pods", "Pods carrying our scheduling gate, as the controller sees them",
                                registry=r)
        self.ungate_latency = Histogram(
            "semaff_creation_to_ungate_seconds", "Pod creation to removal of our gate", ["status"],
            registry=r, buckets=_SLOW)
        self.controller_patches = Counter(
            "semaff_controller_patches_total", "Controller pod patches", ["result"], registry=r)
        self.hints_not_applied = Counter(
            "semaff_hints_not_applied_total",
            "Hinted pods admitted without a webhook call (failurePolicy Ignore while it was unreachable)",
            registry=r)
        self.events = Counter("semaff_events_total", "Events emitted", ["reason", "result"], registry=r)
        self.watch_restarts = Counter(
            "semaff_watch_restarts_total", "Watch restarts", ["resource", "reason"], registry=r)
        self.leader = Gauge("semaff_leader", "1 while this replica holds the controller lease", registry=r)
