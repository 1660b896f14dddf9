"""prefer_ssd_storage: φ(n) = 1 if n has non-rotational disks (NFD label); unknown without NFD labels."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.SSD


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return view.column("ssd")
