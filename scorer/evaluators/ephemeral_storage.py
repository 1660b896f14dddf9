"""φ(n) = 1 if n's allocatable ephemeral storage (GiB) ≥ `prefer_ephemeral_storage_gb` (default 1.0)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import at_least
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.EPHEMERAL_STORAGE


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    wanted = intent.number("prefer_ephemeral_storage_gb")
    return at_least([n.ephemeral_storage_gb if n.known else None for n in nodes], wanted)
