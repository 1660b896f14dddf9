"""prefer_least_loaded_nodes: φ(n) = 1 − load(n).

load(n) is the mean of the fresh live values (CPU, memory and, on GPU nodes, GPU utilisation) from
Prometheus; with none fresh it falls back to requested/allocatable of CPU and memory from the
effective pod set (so bursts still spread the load before metrics catch up).
"""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context, fresh
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.LEAST_LOADED


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    fallback = view.column("req_load")  # (req_cpu/cpu + req_mem/memory)/2, NaN without both; kept by the table
    if not view.table.has_live:  # no live sample anywhere: the fallback is the load
        return 1.0 - _unit(fallback)
    gpu = np.where(view.column("has_gpus") == 1.0, fresh(view, "gpu_util", ctx), np.nan)
    samples = np.vstack([fresh(view, "cpu_load", ctx), fresh(view, "mem_load", ctx), gpu])
    present = ~np.isnan(samples)
    count = present.sum(axis=0)
    with np.errstate(invalid="ignore"):
        measured = np.where(count > 0, np.where(present, samples, 0.0).sum(axis=0) / np.maximum(count, 1), np.nan)
    load = np.where(count > 0, measured, fallback)
    return 1.0 - _unit(load)


def _unit(values: np.ndarray) -> np.ndarray:
    """``np.clip(values, 0, 1)`` (NaN stays NaN) as two ufunc calls: np.clip's Python wrapper costs more."""
    return np.minimum(np.maximum(values, 0.0), 1.0)
