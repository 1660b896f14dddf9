"""prefer_numa_aligned: φ(n) = 1 if one NUMA zone of n (NodeResourceTopology, available amounts) can hold the
pod's CPU, memory and GPU requests; neutral for nodes without a NodeResourceTopology object."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NUMA_ALIGNED


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    cpu, memory, gpus = ctx.pod.cpu_cores, ctx.pod.memory_gb, ctx.pod.gpus
    phi: Phi = []
    for n in nodes:
        zones = n.numa_zones
        if zones is None or not zones:
            phi.append(None)
            continue
        fits = any(z.cpu_cores >= cpu and z.memory_gb >= memory and z.gpus >= gpus for z in zones)
        phi.append(1.0 if fits else 0.0)
    return phi
