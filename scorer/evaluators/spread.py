"""spread_nodes / spread_zones / spread_racks / spread_regions: φ(n) = (M − k + 1)/(M + 1) (Eq. 5).

k is the number of this workload's pods in n's domain and M the largest such count over all domains
of the effective pod set (the paper's histogram), so the least-loaded domain scores highest.
"""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.SPREAD


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    """A node without the domain label (or a pod without a workload) is neutral."""
    workload = ctx.pod.workload_key
    if not workload:
        return np.full(len(view), np.nan)
    counts = ctx.pods.histogram(workload, spec.domain)
    top = max(counts.values(), default=0)
    k = view.lookup(counts, spec.domain, ctx.pods.histogram_token(workload, spec.domain))  # NaN: no such domain
    return (top - k + 1.0) / (top + 1.0)
