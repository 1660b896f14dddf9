"""φ(n) = 1 if n's allocatable ephemeral storage (GiB) ≥ `prefer_ephemeral_storage_gb` (default 1.0)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import at_least
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.EPHEMERAL_STORAGE


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return at_least(view.column("ephemeral"), intent.number("prefer_ephemeral_storage_gb"))
