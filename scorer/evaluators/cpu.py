"""φ(n) = 1 if n's allocatable CPU cores ≥ `prefer_cpu_cores` (default 1.0); unknown: neutral."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import at_least
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.CPU


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    return at_least([n.cpu_cores if n.known else None for n in nodes], intent.number("prefer_cpu_cores"))
