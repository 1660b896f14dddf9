"""prefer_colocate_same_deployment: φ(n) = pods of this workload on n / max over the candidate nodes."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.COLOCATE


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    """A pod without a workload has nothing to join: neutral. The first pod of a workload (none in P_eff)
    can go anywhere: φ = 1 everywhere, so the tie-break by name picks the anchor and the ledger makes the
    next pods of a burst follow it (0/0 is undefined in the paper)."""
    workload = ctx.pod.workload_key
    if not workload:
        return np.full(len(view), np.nan)
    if ctx.pods.total(workload) == 0:
        return np.where(view.known, 1.0, np.nan)
    # NaN for nodes the cache does not know
    k = view.lookup(ctx.pods.histogram(workload, "node"), "node", ctx.pods.histogram_token(workload, "node"))
    top = float(np.nanmax(k)) if view.known.any() else 0.0
    return k / top if top > 0 else k * 0.0
