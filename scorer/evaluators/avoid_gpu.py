"""avoid_gpu_nodes: φ(n) = −2 if n has GPUs."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import AVOID
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_GPU


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    return [None if not n.known else (AVOID if n.has_gpus else 0.0) for n in nodes]
