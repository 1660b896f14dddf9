"""prefer_zones / prefer_racks / prefer_regions / prefer_nodes: φ(n) = 1 if n's domain is listed (Eq. 3)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import DomainMatcher, domains
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.PREFER_DOMAIN


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """Unlabelled node: neutral. Matching is case-insensitive; regions also match a geography ("europe")."""
    match = DomainMatcher(intent.items(spec.list_key or ""), spec.domain)
    return [None if (hit := match(d)) is None else (1.0 if hit else 0.0) for d in domains(nodes, spec.domain)]
