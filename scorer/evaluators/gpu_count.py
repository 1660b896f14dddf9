"""prefer_gpu: φ(n) = 1 if the GPUs still free on n (allocatable − requested by P_eff) ≥ prefer_gpu_cores."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_COUNT


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    wanted = intent.number("prefer_gpu_cores")
    requested = ctx.pods.requested_by_node.get
    phi: Phi = []
    for n in nodes:
        if not n.known:
            phi.append(None)
            continue
        free = n.gpu_count
        if free > 0:
            used = requested(n.name)
            if used is not None:
                free -= used.gpus
        phi.append(1.0 if free >= wanted and free > 0 else 0.0)
    return phi
