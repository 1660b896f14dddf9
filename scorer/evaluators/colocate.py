"""prefer_colocate_same_deployment: φ(n) = pods of this workload on n / max over the candidate nodes."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.COLOCATE


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """A pod without a workload has nothing to join: neutral. The first pod of a workload (none in P_eff)
    can go anywhere: φ = 1 everywhere, so the tie-break by name picks the anchor and the ledger makes the
    next pods of a burst follow it (0/0 is undefined in the paper)."""
    workload = ctx.pod.workload_key
    if not workload:
        return [None] * len(nodes)
    if ctx.pods.total(workload) == 0:
        return [1.0] * len(nodes)
    counts = ctx.pods.histogram(workload, "node")
    k = [counts.get(n.name, 0) for n in nodes]
    top = max(k, default=0)
    if top == 0:
        return [0.0] * len(nodes)
    return [c / top for c in k]
