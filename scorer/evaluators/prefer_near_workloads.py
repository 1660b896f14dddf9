"""prefer_same_{node,zone,region}_as_deployments: φ(n) = 1 if a pod of a listed workload is in n's domain.

Workloads are matched by name (case-insensitive) in any namespace: hints name them as people do
("the 'database' deployment"), and a logging agent usually lives in another namespace.
"""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.PREFER_NEAR_WORKLOADS


def occupied(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    """1 where n's domain (at the intent's level) holds a pod of a listed workload, 0 where not, NaN: no domain."""
    total = np.zeros(len(view))
    for name in intent.items("deployments"):
        total = total + view.lookup(ctx.pods.name_histogram(name, spec.domain), spec.domain,
                                    ctx.pods.name_token(name, spec.domain))
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(total), np.nan, (total > 0).astype(np.float64))


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return occupied(intent, spec, view, ctx)
