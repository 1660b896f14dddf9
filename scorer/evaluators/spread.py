"""spread_nodes / spread_zones / spread_racks / spread_regions: φ(n) = (M − k + 1)/(M + 1) (Eq. 5).

k is the number of this workload's pods in n's domain and M the largest such count over all domains
of the effective pod set (the paper's histogram), so the least-loaded domain scores highest.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import domains
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.SPREAD


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """A node without the domain label (or a pod without a workload) is neutral."""
    workload = ctx.pod.workload_key
    if not workload:
        return [None] * len(nodes)
    counts = ctx.pods.histogram(workload, spec.domain)
    top = max(counts.values(), default=0)
    scale = 1.0 / (top + 1)
    return [None if d is None else (top - counts.get(d, 0) + 1) * scale for d in domains(nodes, spec.domain)]
