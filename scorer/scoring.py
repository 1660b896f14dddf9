"""Combine φ into node scores and normalise them to the extender's 0..10 scale (ARCHITECTURE.md 2.5).

Pure and deterministic: the same intents, nodes and φ always give the same scores, ties go to the
smallest node name (the paper's Eq. 7 and 15), never to chance. This module is only the math: it
sees intents, node names and φ arrays, never the node table, the evaluators or a request
(``scorer.pipeline`` is the glue that evaluates φ over a node view and calls ``rank``). The
arithmetic runs on numpy arrays (one row per intent): at thousands of nodes per request it is the
difference between a few milliseconds and tens of them.

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
maximum instead, as Eq. 6 would divide by zero.

Avoid-only hints differ between the modes (a decision beyond ARCHITECTURE.md 2.5): ``additive``
keeps the paper's "all S_raw ≤ 0 → neutral", so "keep off rack-1" alone changes nothing there.
``tiered`` grades such a pod when the (non-positive) values differ between the nodes: the least
penalised node (ties by name) gets 10 and the others are graded from the minimum (1) to the maximum
(9) of the decisive tier, so avoided nodes score lower. Only when every tier is ≤ 0 *and* equal on
every node (nothing wished for holds anywhere, nothing avoided is a candidate) is the answer neutral.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from shared.intents import Intent

# one intent's φ over the nodes, as evaluators give it: a list (None = unknown) or an array (NaN = unknown)
_PhiRow = Sequence[float | None] | np.ndarray

MAX_SCORE = 10  # MaxExtenderPriority
NEUTRAL_SCORE = 0
_EPS = 1e-9  # relative: values this close are ties, so float noise never picks the winner


class Mode(StrEnum):
    ADDITIVE = "additive"
    TIERED = "tiered"


@dataclass(frozen=True, slots=True)
class Ranking:
    """One pod's scoring over the candidate nodes; columns are indexed like ``nodes`` (the request order)."""

    nodes: Sequence[str]
    intents: tuple[Intent, ...]
    mode: Mode
    mu: np.ndarray  # intents × nodes: β·C·W·φ (0 where φ is unknown)
    phi: list[np.ndarray]  # per intent, per node (NaN = unknown)
    raw: np.ndarray  # S_raw per node (Σ μ over all intents, both modes)
    grades: np.ndarray  # wire scores 0..10 (int64)
    best: int | None  # index of the best node; None when neutral
    neutral: str | None = None  # why every score is 0: "no-intents", "all-non-positive", "no-nodes"
    unknown: tuple[int, ...] = ()  # per intent: on how many nodes φ was unknown

    @property
    def scores(self) -> list[int]:
        """The wire scores as a list."""
        return self.grades.tolist()

    def order(self) -> list[int]:
        """Node indices best first: the best node, then by score, raw score and name."""
        raw, scores = self.raw.tolist(), self.scores
        rest = sorted((i for i in range(len(self.nodes)) if i != self.best),
                      key=lambda i: (-scores[i], -raw[i], self.nodes[i]))
        return ([self.best] if self.best is not None else []) + rest

    def rows(self, limit: int | None = None) -> list[dict[str, object]]:
        """The explanation: per node (best first) its score, S_raw and each intent's contribution μ."""
        names = [intent.name for intent in self.intents]
        order = self.order()[:limit] if limit is not None else self.order()
        scores = self.scores
        return [{
            "node": self.nodes[i],
            "score": scores[i],
            "raw": round(float(self.raw[i]), 6),
            "contributions": {name: round(float(self.mu[j, i]), 6) for j, name in enumerate(names)},
        } for i in order]


def weights(intents: Sequence[Intent]) -> list[float]:
    """w_i = β·C_i·W_i with β = 100/|J| (Eq. 2, 13)."""
    if not intents:
        return []
    beta = 100.0 / len(intents)
    return [beta * intent.confidence * intent.strength for intent in intents]


def contributions(intents: Sequence[Intent], phis: Sequence[_PhiRow]) -> tuple[np.ndarray, tuple[int, ...]]:
    """μ(n,i) as an intents × nodes array (an unknown φ, None or NaN, contributes 0), and the unknown count
    per intent."""
    mu, unknown, _ = _contributions(intents, phis)
    return mu, unknown


def _contributions(intents: Sequence[Intent], phis: Sequence[_PhiRow]
                   ) -> tuple[np.ndarray, tuple[int, ...], np.ndarray]:
    """(μ, unknown counts, φ as an intents × nodes float array with NaN): whole-matrix operations."""
    if len(phis) != len(intents):
        raise ValueError("one φ per intent")
    phi = np.array(phis, dtype=np.float64)  # None becomes NaN
    if phi.ndim != 2:
        phi = phi.reshape(len(intents), -1)
    missing = np.isnan(phi)
    mu = phi * np.array(weights(intents))[:, None]
    if missing.any():
        unknown = tuple(missing.sum(axis=1).tolist())
        mu[missing] = 0.0
    else:  # most requests know every fact: no counting or masking then
        unknown = (0,) * len(intents)
    return mu, unknown, phi


def _tolerance(values: np.ndarray) -> float:
    return _EPS * max(1.0, float(np.abs(values).max()) if values.size else 1.0)


def _grades(values: np.ndarray, best: int, extremes: tuple[float, float] | None = None) -> np.ndarray:
    """Eq. 6–7 on the wire scale: best 10, others ⌊S_norm/10⌋ clamped to [1, 9]. ``extremes``: (max, min) of
    ``values`` when the caller has them."""
    top = float(values.max()) if extremes is None else extremes[0]
    # ⌊max(v, 0)·(10/top) + 1e-9⌋ clamped to [1, 9], in as few array operations as give the same integers: the
    # values are in [0, 10] before the cast, where truncation is the floor; the clamp then works on integers.
    if top > 0:
        grades = np.maximum(values, 0.0)
        grades *= 10.0 / top
    else:  # never positive: grade from the minimum (0 -> 1) to the maximum (-> 9)
        low = float(values.min()) if extremes is None else extremes[1]
        span = top - low
        if span <= 0:
            scores = np.full(values.shape, 9, dtype=np.int64)
            scores[best] = MAX_SCORE
            return scores
        grades = values - low
        grades *= 10.0 / span
    grades += 1e-9
    scores = grades.astype(np.int64)
    np.maximum(scores, 1, out=scores)
    np.minimum(scores, 9, out=scores)
    scores[best] = MAX_SCORE
    return scores


def _best(names: Sequence[str], tiers: Sequence[np.ndarray], first: tuple[float, float] | None = None) -> int:
    """The lexicographic maximum over ``tiers``; ties (within tolerance) go to the smallest node name.
    ``first``: (max, min) of ``tiers[0]`` when the caller has them."""
    candidates: np.ndarray | None = None  # None: every node
    for values in tiers:
        chosen = values if candidates is None else values[candidates]
        if candidates is None and first is not None:
            top, low = first
        else:
            top, low = float(chosen.max()), float(chosen.min())
        # _tolerance(chosen), from the extremes: the largest |value| is |max| or |min|
        kept = (chosen >= top - _EPS * max(1.0, abs(top), abs(low))).nonzero()[0]
        candidates = kept if candidates is None else candidates[kept]
        if len(candidates) == 1:
            return int(candidates[0])
    assert candidates is not None
    return min(candidates.tolist(), key=names.__getitem__)


def normalise_additive(names: Sequence[str], raw: Sequence[float] | np.ndarray) -> tuple[list[int], int | None]:
    """The paper's Eq. 6–7 (and 15 for ties) on the 0..10 wire scale; (all 0, None) when every S_raw ≤ 0."""
    grades, best = _additive(names, np.asarray(raw, dtype=np.float64))
    return grades.tolist(), best


def normalise_tiered(names: Sequence[str], intents: Sequence[Intent],
                     mu: Sequence[Sequence[float]] | np.ndarray) -> tuple[list[int], int | None]:
    """Lexicographic by strength tier (1.5, 1.0, 0.5); see the module docstring."""
    matrix = np.asarray(mu, dtype=np.float64).reshape(len(intents), len(names))
    grades, best = _tiered(names, intents, matrix)
    return grades.tolist(), best


def _neutral(width: int) -> np.ndarray:
    return np.full(width, NEUTRAL_SCORE, dtype=np.int64)


def _additive(names: Sequence[str], values: np.ndarray) -> tuple[np.ndarray, int | None]:
    if not values.size or float(values.max()) <= 0:
        return _neutral(len(values)), None
    extremes = (float(values.max()), float(values.min()))
    best = _best(names, [values], extremes)
    return _grades(values, best, extremes), best


def _tiered(names: Sequence[str], intents: Sequence[Intent], matrix: np.ndarray,
            total: np.ndarray | None = None) -> tuple[np.ndarray, int | None]:
    """``total``: ``matrix.sum(axis=0)`` when the caller has it (one tier is exactly that sum)."""
    width = len(names)
    if not width:
        return _neutral(0), None
    strengths = [intent.strength for intent in intents]
    levels = sorted(set(strengths), reverse=True)
    if len(levels) == 1:
        tiers = [matrix.sum(axis=0) if total is None else total]
    else:  # a tier of one intent is that intent's row (a sum of one row is the row)
        rows = [[i for i, strength in enumerate(strengths) if strength == t] for t in levels]
        tiers = [matrix[r[0]] if len(r) == 1 else matrix[r].sum(axis=0) for r in rows]
    decisive, positive, extremes = None, False, []
    for tier in tiers:
        top, low = float(tier.max()), float(tier.min())
        extremes.append((top, low))
        positive = positive or top > 0
        # differs beyond float noise (_tolerance from the extremes: the largest |value| is |top| or |low|)
        if float(top - low) > _EPS * max(1.0, abs(top), abs(low)):
            decisive = tier
            break
    if decisive is None and not positive:
        return _neutral(width), None  # nothing wished for holds anywhere, and no node is worse off
    best = _best(names, tiers, extremes[0])
    # every tier ≤ 0 but differing (avoidances only): _grades grades the decisive tier min..max
    if decisive is None:  # every node alike, and positive somewhere: the name decides the best
        scores = np.full(width, MAX_SCORE - 1, dtype=np.int64)
        scores[best] = MAX_SCORE
        return scores, best
    return _grades(decisive, best, extremes[-1]), best


def rank(intents: Sequence[Intent], names: Sequence[str], phis: Sequence[_PhiRow], mode: Mode) -> Ranking:
    """Scores from φ (one list or array per intent, indexed like ``names``; None or NaN = unknown)."""
    intents = tuple(intents)
    if not names or not intents:
        reason = "no-nodes" if not names else "no-intents"
        zeros = np.zeros((len(intents), len(names)))
        return Ranking(names, intents, mode, zeros, [np.array(p, dtype=np.float64) for p in phis],
                       np.zeros(len(names)), _neutral(len(names)), None, reason, tuple(0 for _ in intents))
    mu, unknown, phi = _contributions(intents, phis)
    raw = mu.sum(axis=0)
    if mode is Mode.ADDITIVE:
        grades, best = _additive(names, raw)
    else:
        grades, best = _tiered(names, intents, mu, raw)
    return Ranking(names, intents, mode, mu, list(phi), raw, grades, best,
                   None if best is not None else "all-non-positive", unknown)
