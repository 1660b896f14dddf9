"""prefer_nearby_nodes_same_deployment: P(n) = 2.0·k_rack + 0.5·k_zone + 0.2·k_region, φ = P / max (Eq. 8–10)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NEARBY
WEIGHTS = {"rack": 2.0, "zone": 0.5, "region": 0.2}  # Eq. 8


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    """Same first-pod rule as colocate: nothing placed yet means every node is as near as any other.
    A node without a rack (zone, region) label simply has no pods in that domain."""
    workload = ctx.pod.workload_key
    if not workload:
        return np.full(len(view), np.nan)
    if ctx.pods.total(workload) == 0:
        return np.where(view.known, 1.0, np.nan)
    proximity = np.zeros(len(view))
    for level, weight in WEIGHTS.items():
        counts = view.lookup(ctx.pods.histogram(workload, level), level, ctx.pods.histogram_token(workload, level))
        proximity += weight * np.nan_to_num(counts)
    proximity = np.where(view.known, proximity, np.nan)
    top = float(np.nanmax(proximity)) if view.known.any() else 0.0
    return proximity / top if top > 0 else proximity * 0.0
