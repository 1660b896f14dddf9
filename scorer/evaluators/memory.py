"""φ(n) = 1 if n's allocatable memory (GiB) ≥ `prefer_memory_gb` (default 1.0); unknown: neutral."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import at_least
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.MEMORY


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return at_least(view.column("memory"), intent.number("prefer_memory_gb"))
