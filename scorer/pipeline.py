"""The one scoring path of the service and ``semaff explain``: a node view -> φ per intent -> ranking.

The glue between the node table (``scorer.table``), the evaluators (``scorer.evaluators``) and the
pure math (``scorer.scoring``), kept apart from the math the way scheduler-plugins keeps a plugin's
framework glue apart from its scoring functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, evaluate_view, view_of
from scorer.facts import NodeFacts
from scorer.scoring import Mode, Ranking, rank
from scorer.table import NodeView
from shared.intents import Intent


def score_view(intents: Sequence[Intent], view: NodeView, ctx: Context, mode: Mode) -> Ranking:
    """Evaluate every intent on every candidate and rank them: the one scoring path of the service and CLI."""
    phis = [evaluate_view(intent, view, ctx) for intent in intents]
    return rank(intents, view.names, phis, mode)


def score_nodes(intents: Sequence[Intent], nodes: Sequence[NodeFacts] | NodeView, ctx: Context,
                mode: Mode) -> Ranking:
    """``score_view`` over plain node facts (offline files, tests) or a ready view."""
    return score_view(intents, view_of(nodes, ctx), ctx, mode)
