"""avoid_zones / avoid_racks / avoid_regions / avoid_nodes: φ(n) = −2 if n's domain is listed (Eq. 4)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import AVOID, DomainMatcher
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_DOMAIN


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    listed = intent.items(spec.list_key or "")
    return AVOID * view.member(DomainMatcher(listed, spec.domain), spec.domain, (i.casefold() for i in listed))
