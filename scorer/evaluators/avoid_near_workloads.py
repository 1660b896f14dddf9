"""avoid_same_{node,zone}_as_deployments: φ(n) = −2 if a pod of a listed workload is in n's domain."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import AVOID
from scorer.evaluators.prefer_near_workloads import occupied
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_NEAR_WORKLOADS


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return AVOID * occupied(intent, spec, view, ctx)
