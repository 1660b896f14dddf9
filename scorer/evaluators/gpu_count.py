"""prefer_gpu: φ(n) = 1 if the GPUs still free on n ≥ prefer_gpu_cores: GPUs (ResourceSlices, allocatable or GFD)
− those allocated ResourceClaims hold − those P_eff requests (extended resources, and the not-yet-allocated claims
of the pods this scorer just placed)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_COUNT


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    wanted = intent.number("prefer_gpu_cores")
    gpus = view.column("gpu_count")
    free = view.column("gpu_free")  # gpu_count − gpu_claimed − req_gpu, kept per row by the table
    return np.where(np.isnan(gpus), np.nan, ((free >= wanted) & (gpus > 0)).astype(np.float64))
