"""avoid_same_{node,zone}_as_deployments: φ(n) = −2 if a pod of a listed workload is in n's domain."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import AVOID, domains
from scorer.evaluators.prefer_near_workloads import occupied
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.AVOID_NEAR_WORKLOADS


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    present = occupied(intent, spec, ctx)
    return [None if d is None else (AVOID if d in present else 0.0) for d in domains(nodes, spec.domain)]
