"""Live node load from a Prometheus HTTP API, polled in the background (ARCHITECTURE.md 2.4).

Each query (``Settings.queries``) is an instant query on ``/api/v1/query``. Series are joined to
nodes by the first present label of ``node_labels`` (DCGM's ``Hostname``, renamed ``hostname`` on
newer exporters; ``node`` for node-exporter with Kubernetes relabelling), compared case-insensitively,
and aggregated per node: GPU utilisation is the mean over the node's GPUs (percent → 0..1), free
framebuffer the largest free GPU and used framebuffer the least used one (MiB → decimal GB), NVLink
the verdict of DCGM's per-pair P2P status (``scorer.nvlink.p2p_nvlink``), CPU and memory load the
mean (0..1). Every value
keeps its sample timestamp; evaluators treat samples older than the staleness bound as unknown. A
failed poll keeps the previous values (they simply age out).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

import aiohttp
import orjson

from scorer.facts import MIB_TO_GPU_GB, LiveMetrics
from scorer.nvlink import p2p_nvlink
from scorer.settings import Queries

log = logging.getLogger("scorer.sources.prometheus")

# field of LiveMetrics -> (query attribute, aggregate, scale)
_FIELDS: dict[str, tuple[str, str, float]] = {
    "gpu_util": ("gpu_util", "mean", 0.01),
    "gpu_fb_free_gb": ("gpu_fb_free", "max", MIB_TO_GPU_GB),
    "gpu_fb_used_gb": ("gpu_fb_used", "min", MIB_TO_GPU_GB),
    "nvlink_p2p": ("gpu_p2p", "p2p", 1.0),
    "cpu_load": ("cpu_load", "mean", 1.0),
    "memory_load": ("memory_load", "mean", 1.0),
}
_AT = {"gpu_util": "gpu_util_at", "gpu_fb_free_gb": "gpu_fb_free_at", "gpu_fb_used_gb": "gpu_fb_used_at",
       "nvlink_p2p": "nvlink_p2p_at", "cpu_load": "cpu_load_at", "memory_load": "memory_load_at"}


class PrometheusError(RuntimeError):
    """The query failed or the answer is not a Prometheus API response."""


def node_of(metric: Mapping[str, str], node_labels: Iterable[str]) -> str | None:
    """The node a series belongs to: the first of ``node_labels`` present (label names case-insensitive)."""
    folded = {k.casefold(): v for k, v in metric.items()}
    for label in node_labels:
        value = metric.get(label) or folded.get(label.casefold())
        if value:
            return value
    return None


def parse_vector(payload: bytes, node_labels: Iterable[str], aggregate: str, scale: float
                 ) -> dict[str, tuple[float | bool, float]]:
    """node -> (aggregated value × scale, newest sample time) from a /api/v1/query response body.

    ``aggregate``: ``mean``, ``max``, ``min``, or ``p2p`` (series per GPU pair with ``gpu``/``peer_gpu`` labels,
    value 0 = NVLink P2P OK: the node's NVLink verdict; nodes where it is undecided are left out)."""
    try:
        data = orjson.loads(payload)
    except orjson.JSONDecodeError as exc:
        raise PrometheusError(f"not JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("status") != "success":
        raise PrometheusError(f"query failed: {str(data.get('error') if isinstance(data, dict) else data)[:200]}")
    result = (data.get("data") or {}).get("result") or []
    if (data.get("data") or {}).get("resultType") not in ("vector", None):
        raise PrometheusError("expected an instant vector")
    labels = tuple(node_labels)
    values: dict[str, list[float]] = {}
    pairs: dict[str, list[tuple[str, str, float]]] = {}
    times: dict[str, float] = {}
    for series in result:
        metric = series.get("metric") or {}
        node = node_of(metric, labels)
        sample = series.get("value")
        if node is None or not isinstance(sample, list) or len(sample) != 2:
            continue
        try:
            at, value = float(sample[0]), float(sample[1])
        except (TypeError, ValueError):
            continue
        if not math.isfinite(value):
            continue
        values.setdefault(node, []).append(value)
        pairs.setdefault(node, []).append((str(metric.get("gpu", "")), str(metric.get("peer_gpu", "")), value))
        times[node] = max(times.get(node, 0.0), at)
    if aggregate == "p2p":
        verdicts = {node: p2p_nvlink(p) for node, p in pairs.items()}
        return {node: (linked, times[node]) for node, linked in verdicts.items() if linked is not None}
    combine = {"max": max, "min": min}.get(aggregate, lambda xs: sum(xs) / len(xs))
    return {node: (combine(xs) * scale, times[node]) for node, xs in values.items()}


def merge(previous: Mapping[str, LiveMetrics], field: str, fresh: Mapping[str, tuple[float | bool, float]]
          ) -> dict[str, LiveMetrics]:
    """Previous metrics with one field replaced wherever a fresh sample arrived."""
    merged = dict(previous)
    for node, (value, at) in fresh.items():
        merged[node] = replace(merged.get(node, LiveMetrics()), **{field: value, _AT[field]: at})
    return merged


class PrometheusPoller:
    """Polls the configured queries every ``interval_s`` and hands the merged metrics to ``publish``."""

    def __init__(self, base_url: str, queries: Queries, node_labels: Iterable[str], interval_s: float,
                 publish: Callable[[dict[str, LiveMetrics], float], None],
                 on_poll: Callable[[str], None] | None = None, timeout_s: float = 5.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.queries = queries
        self.node_labels = tuple(node_labels)
        self.interval_s = interval_s
        self.publish = publish
        self.on_poll = on_poll or (lambda _: None)
        self.timeout = aiohttp.ClientTimeout(total=timeout_s)
        self.metrics: dict[str, LiveMetrics] = {}

    async def query(self, session: aiohttp.ClientSession, promql: str) -> bytes:
        async with session.get(f"{self.base_url}/api/v1/query", params={"query": promql}) as response:
            body = await response.read()
            if response.status != 200:
                raise PrometheusError(f"HTTP {response.status}: {body[:200]!r}")
            return body

    async def poll_once(self, session: aiohttp.ClientSession) -> dict[str, LiveMetrics]:
        """Run every query once; a failing query leaves its field as it was and is logged."""
        metrics = self.metrics
        failed = 0
        for field, (attribute, aggregate, scale) in _FIELDS.items():
            promql = getattr(self.queries, attribute)
            if not promql:
                continue
            try:
                fresh = parse_vector(await self.query(session, promql), self.node_labels, aggregate, scale)
            except (TimeoutError, aiohttp.ClientError, PrometheusError) as exc:
                failed += 1
                log.warning("prometheus query failed", extra={"query": promql, "error": repr(exc)[:300]})
                continue
            metrics = merge(metrics, field, fresh)
        self.metrics = metrics
        if failed < len(_FIELDS):
            self.publish(metrics, time.time())
        self.on_poll("ok" if not failed else "error")
        return metrics

    async def run(self) -> None:
        async with aiohttp.ClientSession(timeout=self.timeout) as session:
            while True:
                try:
                    await self.poll_once(session)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # never let the poller die
                    self.on_poll("error")
                    log.warning("prometheus poll failed", extra={"error": repr(exc)[:300]})
                await asyncio.sleep(self.interval_s)

