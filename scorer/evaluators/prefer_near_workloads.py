"""prefer_same_{node,zone,region}_as_deployments: φ(n) = 1 if a pod of a listed workload is in n's domain.

Workloads are matched by name (case-insensitive) in any namespace: hints name them as people do
("the 'database' deployment"), and a logging agent usually lives in another namespace.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.evaluators._common import domains
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.PREFER_NEAR_WORKLOADS


def occupied(intent: Intent, spec: IntentSpec, ctx: Context) -> set[str]:
    """The domains (at the intent's level) holding at least one pod of a listed workload."""
    found: set[str] = set()
    for name in intent.items("deployments"):
        found.update(ctx.pods.name_histogram(name, spec.domain))
    return found


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    present = occupied(intent, spec, ctx)
    return [None if d is None else (1.0 if d in present else 0.0) for d in domains(nodes, spec.domain)]
