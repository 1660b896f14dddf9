"""Combine φ into node scores and normalise them to the extender's 0..10 scale (ARCHITECTURE.md 2.5).

Pure and deterministic: the same intents, nodes and φ always give the same scores, ties go to the
smallest node name (the paper's Eq. 7 and 15), never to chance.

``additive`` is the paper: β = 100/|J|, μ(n,i) = β·C_i·W_i·φ_i(n), S_raw(n) = Σ_i μ(n,i) (Eq. 1–2),
S_norm = max(0, S_raw)/max S_raw · 100 (Eq. 6), best node 100, others clamped to [1, 99] (Eq. 7); on
the wire (MaxExtenderPriority = 10) the best node gets 10 and the others ⌊S_norm/10⌋ clamped to
[1, 9]. When every S_raw ≤ 0 (nothing wished for holds anywhere, or only avoidances) the result is
*neutral*: every node 0, exactly like a pod without intents, so kube-scheduler's own plugins decide.

``tiered`` (the default, beyond the paper) sums μ per strength tier and compares nodes
lexicographically, strong (1.5) before normal (1.0) before weak (0.5): a lower tier only breaks ties
of the tiers above, so "must have a GPU, ideally in zone b" never trades the GPU for the zone. The
best node is the lexicographic maximum (ties by name) and gets 10; the other nodes are graded
by Eq. 6 on the *decisive* tier (the strongest tier whose values differ between the nodes), so the
grades still say how far a node is from the best on what matters most. If that tier is never
positive (a strong avoidance, say, next to a weak preference) it is graded from its minimum to its
maximum instead, as Eq. 6 would divide by zero. All tiers ≤ 0 everywhere: neutral, as above.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from scorer.evaluators import Context, Phi, evaluate
from scorer.facts import NodeFacts
from shared.intents import Intent

MAX_SCORE = 10  # MaxExtenderPriority
NEUTRAL_SCORE = 0
_DIGITS = 9  # values equal to 9 decimals are ties: float noise must not pick the winner


class Mode(StrEnum):
    ADDITIVE = "additive"
    TIERED = "tiered"


@dataclass(frozen=True, slots=True)
class Ranking:
    """One pod's scoring over the candidate nodes; lists are indexed like ``nodes`` (the request order)."""

    nodes: Sequence[str]
    intents: tuple[Intent, ...]
    mode: Mode
    mu: list[list[float]]  # per intent, per node: β·C·W·φ (0 where φ is unknown)
    phi: list[Phi]  # per intent, per node
    raw: list[float]  # S_raw per node (Σ μ over all intents, both modes)
    scores: list[int]  # wire scores 0..10
    best: int | None  # index of the best node; None when neutral
    neutral: str | None = None  # why every score is 0: "no-intents", "all-non-positive", "no-nodes"

    def order(self) -> list[int]:
        """Node indices best first: the best node, then by score, raw score and name."""
        rest = sorted((i for i in range(len(self.nodes)) if i != self.best),
                      key=lambda i: (-self.scores[i], -self.raw[i], self.nodes[i]))
        return ([self.best] if self.best is not None else []) + rest

    def rows(self) -> list[dict[str, object]]:
        """The explanation: per node (best first) its score, S_raw and each intent's contribution μ."""
        names = [intent.name for intent in self.intents]
        return [{
            "node": self.nodes[i],
            "score": self.scores[i],
            "raw": round(self.raw[i], 6),
            "contributions": {name: round(mu[i], 6) for name, mu in zip(names, self.mu, strict=True)},
        } for i in self.order()]


def weights(intents: Sequence[Intent]) -> list[float]:
    """w_i = β·C_i·W_i with β = 100/|J| (Eq. 2, 13)."""
    if not intents:
        return []
    beta = 100.0 / len(intents)
    return [beta * intent.confidence * intent.strength for intent in intents]


def contributions(intents: Sequence[Intent], phis: Sequence[Phi]) -> list[list[float]]:
    """μ(n,i) for every intent and node; an unknown φ contributes 0 (neutral)."""
    return [[w * p if p is not None else 0.0 for p in phi] for w, phi in zip(weights(intents), phis, strict=True)]


def _sum(rows: Sequence[list[float]], width: int) -> list[float]:
    if not rows:
        return [0.0] * width
    if len(rows) == 1:
        return list(rows[0])
    return [sum(column) for column in zip(*rows, strict=True)]


def _grades(values: Sequence[float], best: int) -> list[int]:
    """Eq. 6–7 on the wire scale: best 10, others ⌊S_norm/10⌋ clamped to [1, 9]."""
    top = max(values)
    if top > 0:
        k = 10.0 / top
        scores = [min(9, max(1, int(v * k + 1e-9))) if v > 0 else 1 for v in values]
    else:  # never positive: grade from the minimum (0 → 1) to the maximum (→ 9)
        low = min(values)
        span = top - low
        k = 10.0 / span if span > 0 else 0.0
        scores = [min(9, max(1, int((v - low) * k + 1e-9))) for v in values]
    scores[best] = MAX_SCORE
    return scores


def _best(names: Sequence[str], keys: Sequence[tuple[float, ...]]) -> int:
    """The index with the largest key; ties (to 9 decimals) go to the smallest node name."""
    top = max(keys)
    return min((i for i, key in enumerate(keys) if key == top), key=names.__getitem__)


def normalise_additive(names: Sequence[str], raw: Sequence[float]) -> tuple[list[int], int | None]:
    """The paper's Eq. 6–7 (and 15 for ties) on the 0..10 wire scale; (all 0, None) when every S_raw ≤ 0."""
    if not raw or max(raw) <= 0:
        return [NEUTRAL_SCORE] * len(raw), None
    best = _best(names, [(round(r, _DIGITS),) for r in raw])
    return _grades(raw, best), best


def normalise_tiered(names: Sequence[str], intents: Sequence[Intent],
                     mu: Sequence[list[float]]) -> tuple[list[int], int | None]:
    """Lexicographic by strength tier (1.5, 1.0, 0.5); see the module docstring."""
    width = len(names)
    tiers = sorted({intent.strength for intent in intents}, reverse=True)
    sums = [_sum([m for intent, m in zip(intents, mu, strict=True) if intent.strength == t], width) for t in tiers]
    if not width or all(max(tier) <= 0 for tier in sums):
        return [NEUTRAL_SCORE] * width, None
    rounded = [[round(v, _DIGITS) for v in tier] for tier in sums]
    keys = list(zip(*rounded, strict=True))
    best = _best(names, keys)
    decisive = next((tier for tier, r in zip(sums, rounded, strict=True) if min(r) != max(r)), None)
    if decisive is None:  # every node alike, and positive somewhere: the name decides the best
        scores = [MAX_SCORE - 1] * width
        scores[best] = MAX_SCORE
        return scores, best
    return _grades(decisive, best), best


def rank(intents: Sequence[Intent], names: Sequence[str], phis: Sequence[Phi], mode: Mode) -> Ranking:
    """Scores from φ (one list per intent, indexed like ``names``)."""
    intents = tuple(intents)
    if not names:
        return Ranking(names, intents, mode, [], list(phis), [], [], None, "no-nodes")
    if not intents:
        zeros = [0.0] * len(names)
        return Ranking(names, intents, mode, [], [], zeros, [NEUTRAL_SCORE] * len(names), None, "no-intents")
    mu = contributions(intents, phis)
    raw = _sum(mu, len(names))
    if mode is Mode.ADDITIVE:
        scores, best = normalise_additive(names, raw)
    else:
        scores, best = normalise_tiered(names, intents, mu)
    return Ranking(names, intents, mode, mu, list(phis), raw, scores, best,
                   None if best is not None else "all-non-positive")


def score_nodes(intents: Sequence[Intent], nodes: Sequence[NodeFacts], ctx: Context, mode: Mode) -> Ranking:
    """Evaluate every intent on every node and rank them: the one scoring path of the service and the CLI."""
    phis = [evaluate(intent, nodes, ctx) for intent in intents]
    return rank(intents, [n.name for n in nodes], phis, mode)
