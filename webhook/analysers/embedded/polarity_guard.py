"""The polarity guard: an intent whose polarity its clause's words do not settle is dropped.

ARCHITECTURE 2.2 and issue 12: a wrong answer is worse than none; "avoid X" must never come back as
"prefer X". The passes of ``rules.read_hint`` decide each candidate's polarity from the negation scope
of its clause (``Clause.negated_at``), and every time a negation was read as applying the position is
recorded (``rules._Hint.negated``). This step, the last of the pipeline before merging, checks that
evidence against the polarity cues the clause holds (lang/*/: ``negation_before``, ``negation_after``,
``not_necessarily``, ``not_needed``, ``indifferent`` and the anti-affinity words ``relation_*``):

- a cue is *consumed* when it lies inside the words a candidate was read from ("keep replicas apart",
  "not on the same node as X"), or when it negates a position the passes read as negated ("prefer
  zone a, not zone b": the "not" is spent on zone b);
- a preference, co-location or same-place wish (``POSITIVE``) whose clause holds a cue nothing consumed
  ("us-east-1 is not ok", "rack-3 is the one we can't use") is unsure: dropped;
- so are the named preferences (places, workloads) of the clauses before a clause that holds such a
  cue, not a hedge or indifference, and reads nothing at all ("rack-9, stay away": the refusal points
  back at what was said before it; a refusal naming nothing points at a name);
- symmetrically, an avoidance or spread turned by a negation (``Candidate.negated``) whose every
  negation is a hedge, a "not needed" or an indifference ("not necessarily on node-3", "no need for
  eu-west-1", "don't care about us-east-1a") asks for no avoidance: dropped;
- a spread turned from a co-location ("not on one node") with a spread verb between the negation and
  its cue ("don't spread them all on one node") is unsure (the negation may be the verb's): dropped;
- an avoidance or spread not turned by a negation comes from a cue the data declares as one
  (specs.json, relations.json, a zero count); when its clause also holds a negation nothing consumed
  ("spreading over zones isn't needed", "inutile d'étaler sur plusieurs zones") that negation may be
  meant for it: dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.catalogue import BY_NAME, OPPOSITES
from webhook.analysers.embedded.clauses import Clause, clause_at, negations
from webhook.analysers.embedded.langdata import group
from webhook.analysers.embedded.lexicon import (
    HEDGE,
    INDIFFERENT,
    NEGATION_AFTER,
    NEGATION_BEFORE,
    NOT_NEEDED,
)

if TYPE_CHECKING:
    from webhook.analysers.embedded.rules import Candidate

# The wishes a missed negation would turn into their opposite or into a wish never made: the positive
# side of every polarity pair, and every other preference ("nvlink muss nicht sein" asks for no NVLink).
POSITIVE: frozenset[str] = frozenset({a for a, _ in OPPOSITES}
                                     | {name for name in BY_NAME if name.startswith("prefer_")})
NEGATIVE: frozenset[str] = frozenset(b for _, b in OPPOSITES)

# Anti-affinity words, negative by themselves ("apart", "anti-affinity", "getrennt", "à l'écart de";
# lang/*/anti_affinity.txt, also read by the relation cues), as word starts (some lines are stems:
# "separad", "s[ée]par"). "other", "different" (relation_negative) are negative only in a relation.
ANTI_AFFINITY = re.compile(r"(?<![\w-])(?:" + "|".join(
    group(c) for c in ("anti_affinity", "relation_away", "relation_anti_affinity")) + ")")

# A place described by what it lacks ("a node without a GPU", "un nœud qui n'a pas de GPU"): a refusal
# before it refuses that lack (lang/*/lacking.txt).
LACKING = re.compile(r"(?<![\w-])(?:" + group("lacking") + r")(?![\w-])")

# Outage and survival words (lang/*/outage.txt, survive.txt), also inside a compound ("Rackausfall"):
# a resilience cue holds its own negation.
RESILIENCE = re.compile(group("outage") + "|" + group("survive"))

# Spread verbs (lang/*/spread_verb.txt): a negation before one may be meant for it.
SPREAD_VERB = re.compile(r"(?<![\w-])" + group("spread_verb") + r"(?![\w-])")

BEFORE, AFTER, ANY = -1, 1, 0  # which way a cue reaches: what follows it, what precedes it, its clause


@dataclass(frozen=True, slots=True)
class PolarityCue:
    """One polarity cue in the hint: [start, end) and which way it reaches."""

    start: int
    end: int
    reach: int
    weak: bool = False  # a hedge, "not needed" or indifference: it allows, never asks for the opposite


def cues_in(text: str, clause: Clause) -> list[PolarityCue]:
    """Every polarity cue of one clause. A negation inside a hedge or a "not needed" phrase, or followed
    by an indifference word before the clause ends ("doesn't matter", "no importa"), is weak; one inside
    a phrase whose negation negates nothing ("not only", "non négociable") is no cue at all."""
    weak_spans = [(m.start(), m.end()) for p in (HEDGE, NOT_NEEDED) for m in p.finditer(text, clause.start, clause.end)]

    def weak(start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in weak_spans) or bool(
            INDIFFERENT.search(text, end, min(clause.end, end + 30)))

    found = [PolarityCue(m.start(), m.end(), BEFORE, weak(m.start(), m.end()))
             for m in negations(NEGATION_BEFORE, text, clause.start, clause.end)]
    found += [PolarityCue(m.start(), m.end(), AFTER, weak(m.start(), m.end()))
              for m in negations(NEGATION_AFTER, text, clause.start, clause.end)]
    found += [PolarityCue(s, e, ANY, True) for s, e in weak_spans]
    found += [PolarityCue(m.start(), m.end(), ANY) for m in ANTI_AFFINITY.finditer(text, clause.start, clause.end)]
    return found


def negates(cue: PolarityCue, position: int) -> bool:
    """Whether ``cue`` reaches ``position`` of its clause (``Clause.negated_at``, one cue at a time)."""
    if cue.reach == BEFORE:
        return cue.end <= position
    if cue.reach == AFTER:
        return cue.start >= position
    return True


def consumed(cue: PolarityCue, clause: Clause, candidates: Sequence[Candidate], negated: Sequence[int]) -> bool:
    """Whether the passes used ``cue``: it lies in the words a candidate was read from, or it reaches a
    position of its clause that was read as negated, or a candidate of its clause was read from an
    outage ("a rack failure must not take us down", "ein Rackausfall darf uns nicht lahmlegen": the
    negation is the outage's, and the wish is to survive it)."""
    if any(RESILIENCE.search(c.cue) or (c.position < cue.end and cue.start < c.position + max(len(c.cue), 1))
           for c in candidates):
        return True
    return any(clause.start <= p < clause.end and negates(cue, p) for p in negated)


def guard(text: str, clauses: list[Clause], candidates: list[Candidate], read: Sequence[Candidate],
          negated: Sequence[int]) -> list[Candidate]:
    """The ``candidates`` whose polarity the words of their clause settle (see the module docstring).

    ``read``: every candidate the passes found (before ``rules.polarity_safe`` dropped any), whose words
    consume the cues in them; ``negated``: the positions the passes read as negated
    (``rules._Hint.negated_positions``)."""
    by_clause: dict[int, list[Candidate]] = {}
    for candidate in read:
        clause = clause_at(clauses, candidate.position)
        if clause is not None:
            by_clause.setdefault(clauses.index(clause), []).append(candidate)
    unspent: dict[int, list[PolarityCue]] = {}  # clause index -> its polarity cues nothing consumed
    for index, clause in enumerate(clauses):
        own = by_clause.get(index, [])
        unspent[index] = [cue for cue in cues_in(text, clause) if not consumed(cue, clause, own, negated)]
    # a clause that refuses and reads nothing may point back at a name said before it ("rack-9, stay
    # away"); an indifference ("don't care about the zone") or a hedge points at nothing
    pointing_back = {index for index, clause in enumerate(clauses)
                     if any(not cue.weak for cue in unspent[index]) and not by_clause.get(index)
                     and not any(clause.start <= p < clause.end for p in negated)}
    kept = []
    for candidate in candidates:
        clause = clause_at(clauses, candidate.position)
        if clause is None:
            kept.append(candidate)
            continue
        index = clauses.index(clause)
        if candidate.intent in POSITIVE and not candidate.negated and (unspent[index] or (
                candidate.items and _refused_later(clauses, index, pointing_back))):
            continue
        if candidate.intent in NEGATIVE and candidate.negated and (
                _only_weak_negation(text, clause, candidate) or _double_negation(text, clause, candidate)):
            continue
        if candidate.intent.startswith("spread_") and candidate.negated and _negation_meets_spread(
                text, clause, candidate):
            continue
        if candidate.intent in NEGATIVE and not candidate.negated and any(
                cue.reach != ANY for cue in unspent[index]):
            continue
        kept.append(candidate)
    return kept


def _refused_later(clauses: list[Clause], index: int, pointing_back: set[int]) -> bool:
    """Whether a later clause of the same sentence (or the first clause of the next sentence) is a
    refusal that names nothing, so it may point back at this clause's wish."""
    sentence = clauses[index].sentence
    for later in range(index + 1, len(clauses)):
        if clauses[later].sentence == sentence:
            if later in pointing_back:
                return True
            continue
        opens = clauses[later].sentence == sentence + 1 and clauses[later - 1].sentence == sentence
        return opens and later in pointing_back
    return False


def _negation_meets_spread(text: str, clause: Clause, candidate: Candidate) -> bool:
    """Whether a spread turned from a co-location ("not on one node") has a spread verb between the
    negation and the cue ("no las repartas todas en un solo nodo"): the negation may be the verb's, and
    then the wish is the co-location itself."""
    return any(SPREAD_VERB.search(text, cue.end, candidate.position) for cue in cues_in(text, clause)
               if cue.reach == BEFORE and negates(cue, candidate.position))


def _only_weak_negation(text: str, clause: Clause, candidate: Candidate) -> bool:
    """Whether every negation reaching ``candidate`` is a hedge, "not needed" or an indifference."""
    if clause.inherited_negation:
        return False  # a bare continuation of a negated list: the list's own negation was checked
    reaching = [cue for cue in cues_in(text, clause) if cue.reach != ANY and negates(cue, candidate.position)]
    return bool(reaching) and all(cue.weak for cue in reaching)


def _double_negation(text: str, clause: Clause, candidate: Candidate) -> bool:
    """Whether ``candidate`` is reached both by a description of what a place lacks and by a refusal before
    that description ("don't run it on a node without a GPU", "ne le lancez pas sur un nœud qui n'a pas
    de GPU"): two negations, and which way they add up is not certain."""
    reaching = [cue for cue in cues_in(text, clause) if cue.reach == BEFORE and not cue.weak
                and negates(cue, candidate.position)]
    return any(any(cue.end <= lack.start() for cue in reaching)
               for lack in LACKING.finditer(text, clause.start, candidate.position))
