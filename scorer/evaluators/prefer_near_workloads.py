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
    found: set[str] = set()
    for name in intent.items("deployments"):
        found.update(ctx.pods.name_histogram(name, spec.domain))
    return view.member(found.__contains__, spec.domain, found)


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return occupied(intent, spec, view, ctx)
