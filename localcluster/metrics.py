"""Reading a component's Prometheus ``/metrics`` in e2e tests and benchmarks."""

from __future__ import annotations

import ssl
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample


def scrape(url: str, context: ssl.SSLContext | None = None) -> list[Sample]:
    """Every sample served at ``url`` (a /metrics endpoint), from one request."""
    with urllib.request.urlopen(url, timeout=5, context=context) as r:
        text = r.read().decode()
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def total(samples: list[Sample], name: str, **labels: str) -> float:
    """Sum of the samples called ``name`` whose labels include ``labels`` (0 when there are none)."""
    return sum(
        sample.value
        for sample in samples
        if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())
    )
