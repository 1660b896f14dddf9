"""avoid_gpu_nodes: φ(n) = −2 if n has GPUs."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import AVOID
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_GPU


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return AVOID * view.column("has_gpus")
