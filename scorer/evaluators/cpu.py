"""φ(n) = 1 if n's allocatable CPU cores ≥ `prefer_cpu_cores` (default 1.0); unknown: neutral."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import at_least
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.CPU


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return at_least(view.column("cpu"), intent.number("prefer_cpu_cores"))
