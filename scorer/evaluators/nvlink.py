"""prefer_nvlink: φ(n) = 1 if n's GPUs are NVLink-connected (configurable label or nvidia.com/gpu.clique)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NVLINK


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return view.column("nvlink")
