"""φ(n) = 1 if n's network speed (Gbps, network label) ≥ `prefer_network_speed_gbps` (default 1.0); unknown: neutral."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import at_least
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NETWORK_SPEED


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    return at_least(view.column("network"), intent.number("prefer_network_speed_gbps"))
