"""φ(n) = 1 if n's network speed (Gbps, network label) ≥ `prefer_network_speed_gbps` (default 1.0); unknown: neutral."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import at_least
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NETWORK_SPEED


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    return at_least([n.network_gbps if n.known else None for n in nodes], intent.number("prefer_network_speed_gbps"))
