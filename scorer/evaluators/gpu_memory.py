"""prefer_gpu_memory_gb: φ(n) = 1 if a GPU of n has ≥ the wanted memory: free framebuffer when DCGM measured it
recently (FB_FREE; else the GPU's memory − the least FB_USED), else the per-GPU memory (ResourceSlice
capacity.memory, else the GFD label). No GPUs: 0; GPUs of unknown memory: neutral."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context, fresh
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_MEMORY


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    wanted = intent.number("prefer_gpu_memory_gb")
    size = view.column("gpu_memory")
    measured = fresh(view, "fb_free", ctx)
    measured = np.where(np.isnan(measured), size - fresh(view, "fb_used", ctx), measured)
    memory = np.where(np.isnan(measured), size, measured)
    with np.errstate(invalid="ignore"):
        fits = np.where(np.isnan(memory), np.nan, (memory >= wanted).astype(np.float64))
    has_gpus = view.column("has_gpus")
    return np.where(has_gpus == 0.0, 0.0, np.where(np.isnan(has_gpus), np.nan, fits))
