"""prefer_least_loaded_nodes: φ(n) = 1 − load(n).

load(n) is the mean of the fresh live values (CPU, memory and, on GPU nodes, GPU utilisation) from
Prometheus; with none fresh it falls back to requested/allocatable of CPU and memory from the
effective pod set (so bursts still spread the load before metrics catch up).
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.LEAST_LOADED


def _clamp(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def _from_requests(nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """The fallback for every node at once: 1 − mean(requested/allocatable of CPU and memory)."""
    requested = ctx.pods.requested_by_node.get
    phi: Phi = []
    append = phi.append
    for n in nodes:
        cpu, memory = n.cpu_cores, n.memory_gb
        if cpu <= 0.0 or memory <= 0.0 or not n.known:
            append(None)
            continue
        used = requested(n.name)
        if used is None:
            append(1.0)
            continue
        load = (used.cpu_cores / cpu + used.memory_gb / memory) * 0.5
        append(0.0 if load >= 1.0 else 1.0 - load if load > 0.0 else 1.0)
    return phi


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    live, fresh_after = ctx.live, ctx.fresh_after
    fallback = _from_requests(nodes, ctx)
    if not live:
        return fallback
    phi: Phi = []
    for n, default in zip(nodes, fallback, strict=True):
        sample = live.get(n.name)
        if sample is None or not n.known:
            phi.append(default)
            continue
        parts: list[float] = []
        if sample.cpu_load is not None and sample.cpu_load_at >= fresh_after:
            parts.append(sample.cpu_load)
        if sample.memory_load is not None and sample.memory_load_at >= fresh_after:
            parts.append(sample.memory_load)
        if n.has_gpus and sample.gpu_util is not None and sample.gpu_util_at >= fresh_after:
            parts.append(sample.gpu_util)
        phi.append(1.0 - _clamp(sum(parts) / len(parts)) if parts else default)
    return phi
