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


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    live, fresh_after, requested = ctx.live, ctx.fresh_after, ctx.pods.requested
    phi: Phi = []
    for n in nodes:
        if not n.known:
            phi.append(None)
            continue
        parts: list[float] = []
        sample = live.get(n.name) if live else None
        if sample is not None:
            if sample.cpu_load is not None and sample.cpu_load_at >= fresh_after:
                parts.append(sample.cpu_load)
            if sample.memory_load is not None and sample.memory_load_at >= fresh_after:
                parts.append(sample.memory_load)
            if n.has_gpus and sample.gpu_util is not None and sample.gpu_util_at >= fresh_after:
                parts.append(sample.gpu_util)
        if not parts:
            if n.cpu_cores <= 0.0 or n.memory_gb <= 0.0:
                phi.append(None)
                continue
            used = requested(n.name)
            parts = [0.0] if used is None else [used.cpu_cores / n.cpu_cores, used.memory_gb / n.memory_gb]
        phi.append(1.0 - _clamp(sum(parts) / len(parts)))
    return phi
