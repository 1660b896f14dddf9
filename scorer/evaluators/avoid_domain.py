"""avoid_zones / avoid_racks / avoid_regions / avoid_nodes: φ(n) = −2 if n's domain is listed (Eq. 4)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import AVOID, DomainMatcher, domains
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_DOMAIN


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    match = DomainMatcher(intent.items(spec.list_key or ""), spec.domain)
    return [None if (hit := match(d)) is None else (AVOID if hit else 0.0) for d in domains(nodes, spec.domain)]
