"""localcluster.metrics.total on samples parsed from a real prometheus_client exposition."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from localcluster.metrics import total


def samples() -> list[Sample]:
    registry = CollectorRegistry()
    requests = Counter("requests", "by verb and outcome", ["verb", "outcome"], registry=registry)
    requests.labels("prioritize", "ok").inc(3)
    requests.labels("prioritize", "error").inc(2)
    requests.labels("filter", "ok").inc(7)
    Histogram("latency_seconds", "one histogram", registry=registry).observe(0.25)
    text = generate_latest(registry).decode()
    return [s for family in text_string_to_metric_families(text) for s in family.samples]


def test_total_sums_the_samples_whose_labels_include_the_given_ones() -> None:
    exposed = samples()
    assert total(exposed, "requests_total", verb="prioritize", outcome="ok") == 3
    assert total(exposed, "requests_total", verb="prioritize") == 5
    assert total(exposed, "requests_total") == 12
    assert total(exposed, "latency_seconds_count") == 1
    assert total(exposed, "latency_seconds_sum") == 0.25


def test_total_is_zero_for_an_absent_metric_or_label() -> None:
    exposed = samples()
    assert total(exposed, "no_such_metric") == 0
    assert total(exposed, "requests_total", verb="bind") == 0
