"""prefer_zones / prefer_racks / prefer_regions / prefer_nodes: φ(n) = 1 if n's domain is listed (Eq. 3)."""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.evaluators._common import DomainMatcher
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.PREFER_DOMAIN


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    """Unlabelled node: neutral. Matching is case-insensitive; regions also match a geography ("europe")."""
    listed = intent.items(spec.list_key or "")
    return view.member(DomainMatcher(listed, spec.domain), spec.domain, (i.casefold() for i in listed))
