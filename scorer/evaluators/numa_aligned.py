"""prefer_numa_aligned: φ(n) = 1 if one NUMA zone of n (NodeResourceTopology, available amounts) can hold the
pod's CPU, memory and GPU requests; neutral for nodes without a NodeResourceTopology object."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NUMA_ALIGNED


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    cpu, memory, gpus = ctx.pod.cpu_cores, ctx.pod.memory_gb, ctx.pod.gpus
    phi = []
    for facts in view.facts():  # zones are few per node and not columnar: one pass over the records
        zones = facts.numa_zones if facts is not None else None
        if not zones:
            phi.append(np.nan)
        else:
            fits = any(z.cpu_cores >= cpu and z.memory_gb >= memory and z.gpus >= gpus for z in zones)
            phi.append(1.0 if fits else 0.0)
    return np.array(phi, dtype=np.float64)
