"""prefer_ssd_storage: φ(n) = 1 if n has non-rotational disks (NFD label); unknown without NFD labels."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import flags
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.SSD


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    return flags([n.ssd for n in nodes])
