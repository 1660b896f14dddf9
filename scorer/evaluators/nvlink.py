"""prefer_nvlink: φ(n) = 1 if n's GPUs are NVLink-connected (configurable label or nvidia.com/gpu.clique)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import flags
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NVLINK


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    return flags([n.nvlink for n in nodes])
