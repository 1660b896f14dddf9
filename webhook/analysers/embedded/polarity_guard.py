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

Descriptions are the same rule seen from the other side: a clause that describes or complains about a
place or a workload never yields a preference or co-location for it (``not_wishes``, ``undescribed``):

- a sentence that only states how things are (a subject and a present verb of being or having, no wish
  marker: "we run 12 nodes across 3 zones"), tells the past or a plan (``descriptive``: "rack-4 was
  drained last week"), or asks a question ("why does rack-3 overheat?") is skipped whole;
- so is a clause that observes what the workload consumes or handles, measured, and wishes nothing (``_measured``:
  "handles roughly 3,000 requests per second and uses about 12 GB at peak"); "needs 12 GB" still asks;
- a description after a wish that only explains it ("avoid rack-2 because it was flaky", "keep it off
  m03, which crashed yesterday") is skipped from its opener (``because``) on, and the wish before it stands;
- a complaint said right after a name (``trouble``: "m04 keeps crashing", "nodes running kafka are bad",
  "gpu-host-8 spinnt") removes that name from every preference and co-location of its clause; a refusal of
  it ("avoid m04, it keeps crashing") is a clear wish and is read, and a preference left without a name is
  dropped (where unsure, drop);
- a place that is the subject of "to be" whose predicate neither wishes nor approves ("Rack r-9 ist
  gesperrt", "r2-07 and r2-08 are flaky") is described, never preferred: no refusal word was read there, so
  any refusal is in words the analyser does not know ("rack-4 is fine" keeps it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from shared.catalogue import BY_NAME, OPPOSITES
from webhook.analysers.embedded.clauses import Clause, clause_at, inert_phrases, negations
from webhook.analysers.embedded.langdata import alternatives, expand, group
from webhook.analysers.embedded.lexicon import (
    ANY_LEVEL,
    BECAUSE,
    DESCRIPTIVE,
    HEDGE,
    INDIFFERENT,
    LEVEL_WORDS,
    NEGATION_AFTER,
    NEGATION_BEFORE,
    NOT_NEEDED,
    OPENERS,
    STRONG,
    TROUBLE,
    WEAK,
    WISH,
    any_of,
    compile_words,
    concept_words,
    words,
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
# a refusal verb under a negation of its own ("nicht rack r3 meiden", "don't avoid it"): a hedge, and the name
# it holds is allowed, not asked for
_REFUSAL_REFUSED = re.compile(r"(?<![\w-])" + group("refusal_negated") + r"(?![\w-])")

# Words that approve the place named right before them ("node-4 works", "rack-5 is better"; lang/*/approval.txt).
APPROVAL = re.compile(r"\s*" + expand("{approval}") + r"(?![\w-])")

BEFORE, AFTER, ANY = -1, 1, 0  # which way a cue reaches: what follows it, what precedes it, its clause


@dataclass(frozen=True, slots=True)
class PolarityCue:
    """One polarity cue in the hint: [start, end) and which way it reaches."""

    start: int
    end: int
    reach: int
    weak: bool = False  # a hedge, "not needed" or indifference: it allows, never asks for the opposite


def cues_in(text: str, clause: Clause, inert: list[tuple[int, int]] | None = None) -> list[PolarityCue]:
    """Every polarity cue of one clause. A negation inside a hedge or a "not needed" phrase, or followed
    by an indifference word before the clause ends ("doesn't matter", "no importa"), is weak; one inside
    a phrase whose negation negates nothing ("not only", "non négociable"; ``inert``, as
    ``clauses.negations`` takes it) is no cue at all."""
    weak_spans = [(m.start(), m.end()) for p in (HEDGE, NOT_NEEDED) for m in p.finditer(text, clause.start, clause.end)]

    def weak(start: int, end: int) -> bool:
        # the indifference may be the cue's own word ("peu importe la zone")
        return any(s <= start and end <= e for s, e in weak_spans) or bool(
            INDIFFERENT.search(text, start, min(clause.end, end + 30)))

    found = [PolarityCue(m.start(), m.end(), BEFORE, weak(m.start(), m.end()))
             for m in negations(NEGATION_BEFORE, text, clause.start, clause.end, inert)]
    found += [PolarityCue(m.start(), m.end(), AFTER, weak(m.start(), m.end()))
              for m in negations(NEGATION_AFTER, text, clause.start, clause.end, inert)]
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


def consumed(text: str, cue: PolarityCue, clause: Clause, candidates: Sequence[Candidate],
             negated: Sequence[int]) -> bool:
    """Whether the passes used ``cue``: it lies in the words a candidate was read from, or it reaches a
    position of its clause that was read as negated, or a candidate of its clause was read from an
    outage ("a rack failure must not take us down", "ein Rackausfall darf uns nicht lahmlegen": the
    negation is the outage's, and the wish is to survive it)."""
    # a double negation holding a name ("nicht rack r3 meiden") does not ask for the name: not spent by it
    double = cue.weak and cue.reach == ANY and _REFUSAL_REFUSED.fullmatch(text, cue.start, cue.end) is not None
    if any(RESILIENCE.search(c.cue) or (c.position < cue.end and cue.start < c.position + max(len(c.cue), 1)
                                        and not (double and c.intent in POSITIVE and not c.negated))
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
    inert = inert_phrases(text)
    for index, clause in enumerate(clauses):
        own = by_clause.get(index, [])
        unspent[index] = [cue for cue in cues_in(text, clause, inert) if not consumed(text, cue, clause, own, negated)]
    # a clause that refuses and reads nothing may point back at a name said before it ("rack-9, stay
    # away"); an indifference ("don't care about the zone") or a hedge points at nothing
    # ... unless the refusal goes on in the next clause of its sentence and refuses a name there ("halte ihn aus
    # | eu-north-1 heraus", "sauf que | r05 est banni"): it names what it refuses
    pointing_back = {index for index, clause in enumerate(clauses)
                     if any(not cue.weak for cue in unspent[index]) and not by_clause.get(index)
                     and not any(clause.start <= p < clause.end for p in negated)
                     and not _refuses_next(clauses, index, by_clause)}
    kept = []
    for candidate in candidates:
        clause = clause_at(clauses, candidate.position)
        if clause is None:
            kept.append(candidate)
            continue
        index = clauses.index(clause)
        doubts = [cue for cue in unspent[index]
                  if not (_aimed_past(text, clause, cue, candidate) or _in_reason(text, cue, candidate))]
        if candidate.intent in POSITIVE and not candidate.negated and (doubts or (
                candidate.items and _refused_later(clauses, index, pointing_back))):
            continue
        if candidate.intent in NEGATIVE and candidate.negated and (
                _only_weak_negation(text, clause, candidate) or _double_negation(text, clause, candidate)):
            continue
        if candidate.intent.startswith("spread_") and candidate.negated and _negation_meets_spread(
                text, clause, candidate):
            continue
        if candidate.intent in NEGATIVE and not candidate.negated and any(
                cue.reach != ANY and not _in_reason(text, cue, candidate) for cue in unspent[index]):
            continue
        kept.append(candidate)
    return kept


# A reason said after the wish with a subject of its own ("spread across zones since we can't afford downtime",
# "weil wir keinen Ausfall riskieren"): a negation in it is the reason's, not the wish's; so is one in a goal said
# after it ("one pod per node so that a host failure doesn't take everything down", lang/*/purpose_clause.txt)
_REASON_SUBJECT = re.compile(expand(r"(?<![\w-])(?:(?:{because})\s+(?:{we_words}|{it_word}|{you_words})"
                                    r"|{purpose_clause})(?![\w-])"))


def _in_reason(text: str, cue: PolarityCue, candidate: Candidate) -> bool:
    """Whether a reason with a subject of its own opens between ``candidate``'s words and ``cue``."""
    return _REASON_SUBJECT.search(text, candidate.position + len(candidate.cue), cue.start) is not None


def _aimed_past(text: str, clause: Clause, cue: PolarityCue, candidate: Candidate) -> bool:
    """Whether ``cue`` is an indifference or hedge said after ``candidate`` about a level it names itself ("same
    region as checkout-svc dont care abt the zone"): it reaches what follows it, not the wish before it.
    Without a level of its own ("rack-3 doesn't matter") it may be about the wish, which stays unsure."""
    return cue.weak and cue.reach == BEFORE and cue.start >= candidate.position + len(candidate.cue) and bool(
        ANY_LEVEL.search(text, cue.end, clause.end))


def _refuses_next(clauses: list[Clause], index: int, by_clause: dict[int, list[Candidate]]) -> bool:
    """Whether the clause after ``index``, in its sentence, reads avoidances and nothing else: the refusal of
    ``index`` goes on there and names what it refuses."""
    following = by_clause.get(index + 1, [])
    return (index + 1 < len(clauses) and clauses[index + 1].sentence == clauses[index].sentence and bool(following)
            and all(c.intent in NEGATIVE and c.items for c in following))


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


# --- descriptions: what a clause says about a place or a workload, not what it wishes ---------------------

# Who states facts about the infrastructure, in any tense of being or having: "we", "our cluster", "the
# nodes in us-east-1a", "rack-4", "node-7", "each node", "GPU nodes (cost ...)".
_INFRA_SUBJECT = (
    r"(?:{we_words}|{statement_determiner}\s+(?:{whole_words}\s+)?(?:[\w-]+\s+)?{infra_words}"
    r"(?:\s+{place_preposition}\s+[\w-]+(?:\s+[\w-]+)?)?|"
    r"{monitoring_words}(?:\s+[\w-]+)?|(?:{level_rack}|{level_zone}|{level_region}|us|eu|ap|sa|ca|me|af)-[\w-]+|"
    r"{node_name_prefix}-?\d+[\w.-]*|"
    r"(?:{articles}\s+)?{level_node}\s+[a-z][\w-]*\d[\w.-]*|"
    r"{each_words}\s+(?:[\w-]+\s+)?{infra_words}|"
    r"(?:[\w-]+\s+)?{infra_plural}(?=\s+{have_verbs}\b))"
)
# The workload itself only states a fact with a time word ("this service currently runs in eu-west-1"):
# "the app is memory-hungry" describes a need.
_WORKLOAD_SUBJECT = r"(?:{it_word}|{this_word}\s+\w+|{articles}\s+{head_nouns})"
_STATEMENT = re.compile(expand(
    r"^\W*(?:{statement_label}\s*[,:-]?\s*)?(?:{we_have}|"
    r"(?:" + _INFRA_SUBJECT + r")\s+(?:{now_words}\s+)?{state_verbs}|(?:{now_words}\s*,?\s+)?"
    + _INFRA_SUBJECT + r"\s+{state_verbs}|(?:" + _WORKLOAD_SUBJECT + r")\s+(?:{now_words}\s+{state_verbs}|"
    r"{state_verbs}\s+{now_words})|{now_words}\s*,?\s+(?:" + _WORKLOAD_SUBJECT + r")\s+{state_verbs})(?![\w-])"
))
# Openings of statements kept as data (lang/*/statement_opening.txt): "chaque nœud a ...", "the ledger
# service lives in ...".
_STATEMENT_OPENING = re.compile(r"^\W*" + expand("{statement_opening}") + r"(?![\w-])")
# "Our GPUs are A100s, spread across two racks": after a comma, "spread across" describes where things are
_PARTICIPLE = re.compile(expand(r"{spread_participle}\s+{across_word}\b"))
# Questions about the cluster ("why does rack-3 overheat?") ask for an answer, not a placement.
_QUESTION = re.compile(r"^\W*" + expand("{question_words}") + r"(?![\w-])")
_QUESTION_BARE = re.compile(r"^\W*" + expand("{question_bare}") + r"(?![\w-])")
_YOU = compile_words(*alternatives("you_words"))
# A verb of being or having (lang/*/question_verbs.txt): closed by "?" with no wish word, the sentence asks how
# things are ("el rack r-3 tiene ssd?", "le nœud n-3 a des gpu ?"), whatever it opens with; one that speaks to
# someone ("kannst du es in zone a packen?") asks for a placement.
_ASKS = compile_words(*alternatives("question_verbs"))
# A yes/no question's opening (lang/*/question_yes_no.txt: "does rack r-3 have ssds", "hat Rack r-3 SSDs"); one
# that holds a word of possibility or approval (asks_for: "is it possible to run it on r-2?") is a request.
_YES_NO = re.compile(r"^\W*" + expand("{question_yes_no}") + r"(?![\w-])")
_ASKS_FOR = compile_words(*alternatives("asks_for"))

# A wish before a reason: a negation or request ("avoid", "keep it off") or any wish marker.
_WISH_OR_REFUSAL = any_of(NEGATION_BEFORE, WISH)
_DESCRIPTION_SUBJECT = re.compile(r"(?<![\w-])" + group("description_subject") + r"(?![\w-])")
_NAMED = re.compile(r"(?<![\w-])[a-z][\w]*-[\w.-]*\d")  # a place or workload name ("rack-3", "ip-10-0-3-17")
_CONSEQUENCE = re.compile(r"(?<![\w-])" + group("consequence") + r"(?![\w-])")
_LABEL_ID = re.compile(r"\s+[\w-]*\d[\w-]*(?=\s)")
# A present observation of what the workload consumes or handles, measured (lang/*/measured_verb.txt, approximate.txt,
# unit_throughput.txt: "uses about 12 GB at peak", "atiende unas 900 peticiones por segundo", "belegt rund 9 GB"):
# the verb, then a figure that is approximate ("~" is no word of any language) or a throughput.
_MEASURED_VERB = concept_words("measured_verb")
_APPROXIMATE = re.compile(words(*alternatives("approximate")) + r"|~\s*\d")
_THROUGHPUT = re.compile(r"\d\s*k?\s*" + words(*alternatives("unit_throughput")))
_FIGURE = re.compile(r"\d")


def is_statement(sentence: str) -> bool:
    """True when the lower-cased ``sentence`` only states a fact (subject + present verb, no wish marker).

    This errs on the side of reading a wish: any wish marker anywhere in the sentence keeps it, so "We run
    on GPUs, so keep it there" and "Our jobs need 4 GPUs" still count."""
    if not (_STATEMENT.match(sentence) or _STATEMENT_OPENING.match(sentence)):
        return False
    # "rack-7 is a no go", "rack-2 is off limits": a verdict on a place is a wish
    wishes = [m for m in WISH.finditer(sentence)
              if not (_PARTICIPLE.match(sentence, m.start()) and sentence[:m.start()].rstrip().endswith(","))]
    return not (wishes or WEAK.search(sentence) or STRONG.search(sentence) or NEGATION_AFTER.search(sentence))


def is_question(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is a question about something (ends with "?" and opens with a question
    word, or ends the hint and opens unmistakably); "can you put it in us-east-1?" is a request and stays."""
    # match on the slice: "^" never matches at a later ``pos`` ("¿Quién ...?", a second sentence)
    sentence = text[start:end]
    if "?" in text[end:end + 2]:
        opens = _QUESTION.match(sentence) is not None or (
            (_YES_NO.match(sentence) is not None or _ASKS.search(sentence) is not None) and not any(
                p.search(sentence) for p in (WISH, WEAK, STRONG, NEGATION_BEFORE, NEGATION_AFTER, _YOU, _ASKS_FOR)))
    else:
        # typed without its "?", a question opened by "¿" or by an unmistakable question word
        # ("why does it avoid zone a", lang/*/question_bare.txt) still ends the hint
        opens = not text[end:].strip() and (
            _QUESTION_BARE.match(sentence) is not None
            or (_YES_NO.match(sentence) is not None and not any(p.search(sentence) for p in (WISH, _ASKS_FOR)))
            or (text[:start].rstrip().endswith("¿") and _QUESTION.match(sentence) is not None))
    return opens and not (WISH.search(text, start, end) and _YOU.search(text, start, end))


def _measured(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] observes what the workload consumes or handles, measured ("the service handles
    roughly 3,000 requests per second", "ocupa alrededor de 6 GB de memoria") and says no wish, strength or
    negation word: a description of the workload, not a request for those resources. A need ("needs 12 GB",
    "braucht 9 GB"), a figure said plainly ("this run uses 8 GPUs") and a bare profile ("12 GB RAM, 4 cores")
    still ask; so does a clause that wishes ("uses about 12 GB so give it 16")."""
    verb = _MEASURED_VERB.search(text, start, end)
    if verb is None or not (_THROUGHPUT.search(text, verb.end(), end) or (
            _APPROXIMATE.search(text, start, end) and _FIGURE.search(text, verb.end(), end))):
        return False
    return not any(p.search(text, start, end) for p in (WISH, WEAK, STRONG, NEGATION_BEFORE, NEGATION_AFTER))


def _describes(text: str, start: int, end: int) -> bool:
    """A descriptive word in [start, end), unless it only sits in a label before a colon that a wish
    follows ("Ticket INC-2231: needs 6 cores", "Ticket 7731 give it 6 cores"); or a measured observation of
    the workload (``_measured``)."""
    if _measured(text, start, end):
        return True
    match = DESCRIPTIVE.search(text, start, end)
    if match is None:
        return False
    colon = text.find(": ", start, end + 2)
    if colon < 0 and text[end:end + 1] == ":":
        colon = end
    label = _LABEL_ID.match(text, match.end())
    if colon < 0 and label is not None and not text[start:match.start()].strip():
        colon = label.end()  # "Ticket 7731 give it 6 cores": a label and its number, typed without the colon
    if colon >= 0 and match.end() <= colon:
        rest = text[colon + 1:]
        sentence_end = re.search(r"[.;!?](?:\s|$)", rest)
        rest = rest[: sentence_end.start() if sentence_end else len(rest)]
        return bool(DESCRIPTIVE.search(rest)) or not WISH.search(rest)
    return True


def _told_after(text: str, sentence: list[Clause]) -> int | None:
    """Where a description that only explains the wish begins ("avoid rack-2 because it was flaky",
    "keep it off m03, which crashed yesterday", "no lo pongas en w-5, se cayó anoche": a clause of its own
    after the wish, with no wish or refusal of its own), or None when the sentence has none or is all
    description."""
    start, end = sentence[0].start, sentence[-1].end
    match = DESCRIPTIVE.search(text, start, end)
    if match is None:
        return None
    opener = None
    for found in BECAUSE.finditer(text, start, match.end()):
        if found.start() <= match.start():  # "it was flaky": the opener may hold the descriptive word
            opener = found.start()
    if opener is None:
        told = clause_at(sentence, match.start())
        if told is not None and told is not sentence[0] and not any(
                p.search(text, told.start, end) for p in (_WISH_OR_REFUSAL, NEGATION_AFTER)):
            opener = told.start
    if opener is None:
        return _subject_of_description(text, start, match.start(), end)
    # the wish before may be a refusal its clause reads after the place ("halte ihn von X fern, dort gab es ...")
    if not (_WISH_OR_REFUSAL.search(text, start, opener) or any(
            c.negations_after for c in sentence if c.end <= opener)):
        return None
    return opener


def _subject_of_description(text: str, start: int, told: int, end: int) -> int | None:
    """Where a description typed after a wish without punctuation begins: the last subject or time word
    (lang/*/description_subject.txt) at or before its descriptive word ``told``, when a wish or refusal comes
    before it and none after it ("keep off ip-10-0-3-17 pls that box has been flaky", "pas sur k8s-prd-w17 stp il
    redémarre tout seul"). A wish for a named place stays whole unless it refuses ("use rack-3 that rack has been
    flaky": which of them the user meant is not certain)."""
    subjects = [m for m in _DESCRIPTION_SUBJECT.finditer(text, start, end) if m.start() <= told and m.start() > start]
    if not subjects:
        return None
    opener = subjects[-1].start()
    if not any(p.search(text, start, opener) for p in (_WISH_OR_REFUSAL, NEGATION_AFTER, OPENERS, STRONG, WEAK)):
        return None
    if any(p.search(text, opener, end) for p in (_WISH_OR_REFUSAL, NEGATION_AFTER)):
        return None
    if _NAMED.search(text, start, opener) and not any(
            p.search(text, start, opener) for p in (NEGATION_BEFORE, NEGATION_AFTER)):
        return None
    return opener


def own_wish(text: str, clause: Clause) -> bool:
    """Whether a clause says a wish of its own (a wish word, a strength word, an opener), negation aside."""
    words = text[clause.start:clause.end]
    return bool(clause.strength_word or WISH.search(words) or OPENERS.search(words))


def _described_aside(text: str, sentence: list[Clause], described: list[Clause]) -> list[tuple[int, int]]:
    """The segments of a sentence that describe (``described``), when every other segment says a wish of its
    own ("ne le mettez pas en eu-west-3c la zone a des latences depuis lundi mettez-le en eu-west-3a"); else
    none, and a description anywhere makes the whole sentence one."""
    others = [c for c in sentence if c not in described]
    if not described or not others or not all(
            own_wish(text, c) or NEGATION_BEFORE.search(text, c.start, c.end) for c in others):
        return []
    return [(c.start, c.end) for c in described]


def _told_before(text: str, start: int, end: int) -> int | None:
    """Where the wish begins after a description that is its reason, joined to it by a consequence word
    (lang/*/consequence.txt: "it crashed last week so avoid rack r-3", "se cayó ayer así que evita el rack r-3"):
    the end of that word, when a wish or a refusal and no other description follows it; else None."""
    told = list(DESCRIPTIVE.finditer(text, start, end))
    if not told:
        return None
    then = _CONSEQUENCE.search(text, told[-1].end(), end)
    if then is None or DESCRIPTIVE.search(text, then.end(), end) or not _WISH_OR_REFUSAL.search(text, then.end(), end):
        return None
    return then.end()


def _tells(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] tells something with a descriptive word, more than a one-word label ("TODO", "note")."""
    match = DESCRIPTIVE.search(text, start, end)
    return match is not None and bool(text[start:match.start()].strip() or text[match.end():end].strip())


def _told_before_colon(text: str, sentence: list[Clause], described: list[Clause]) -> list[tuple[int, int]]:
    """The past or a plan told before a colon that a list of segments follows, none of them describing
    ("after the outage in zone a last week the boss wants: out of zone a, spread over zones"; "après la panne
    de la semaine dernière : hors de ..."): the span up to the colon is the reason, the list after it is read;
    else nothing (a description after the colon too makes the whole sentence one)."""
    # the label before a colon that a wish follows is no description of its own (``_describes``), but the past
    # it tells is still no wish ("after the outage in zone a the team wants: ...")
    colon = max((c.end for c in sentence if text[c.end:c.end + 1] == ":" and _tells(text, c.start, c.end)), default=-1)
    after = [c for c in sentence if c.start > colon]
    if colon < 0 or not after or any(c.start > colon for c in described) or DESCRIPTIVE.search(
            text, colon, sentence[-1].end):
        return []
    return [(sentence[0].start, colon + 1)]


def _asked_after(text: str, sentence: list[Clause], end: int) -> list[tuple[int, int]]:
    """A question asked after a wish in the sentence that "?" closes ("use rack r-3, does it have ssds?"): from
    the clause that opens it to the end, or nothing."""
    if "?" not in text[end:end + 2]:
        return []
    return next(([(c.start, end)] for c in sentence[1:] if _QUESTION.match(text[c.start:end]) or (
        _YES_NO.match(text[c.start:end]) and not _ASKS_FOR.search(text, c.start, end))), [])


def not_wishes(text: str, clauses: list[Clause]) -> tuple[set[int], list[tuple[int, int]]]:
    """What the hint describes rather than wishes: the sentences skipped whole (statements, the past or a
    plan, questions) and the spans of descriptions that only explain the wish before them, or that stand,
    typed without punctuation, between segments that each say a wish of their own."""
    by_sentence: dict[int, list[Clause]] = {}
    for clause in clauses:
        by_sentence.setdefault(clause.sentence, []).append(clause)
    sentences = sorted(by_sentence)
    bounds = {i: (min(c.start for c in by_sentence[i]), max(c.end for c in by_sentence[i])) for i in sentences}
    described = {i: [c for c in by_sentence[i] if _describes(text, c.start, c.end)] for i in sentences}
    told = {i: _told_after(text, by_sentence[i]) for i in sentences}
    aside = {i: _described_aside(text, by_sentence[i], described[i]) for i in sentences}
    for i in sentences:
        if told[i] is None and not aside[i]:
            aside[i] = _told_before_colon(text, by_sentence[i], described[i])
        if told[i] is None and not aside[i] and described[i]:
            then = _told_before(text, *bounds[i])
            aside[i] = [] if then is None else [(bounds[i][0], then)]
    skipped = {i for i in sentences
               if (told[i] is None and not aside[i] and described[i])
               or is_statement(text[bounds[i][0]:bounds[i][1]])
               or is_question(text, *bounds[i])}
    reasons = [(told[i], bounds[i][1]) for i in sentences if told[i] is not None and i not in skipped]
    reasons += [asked for i in sentences if i not in skipped
                for asked in _asked_after(text, by_sentence[i], bounds[i][1])]
    return skipped, reasons + [span for i in sentences if told[i] is None and i not in skipped for span in aside[i]]


def undescribed(text: str, clause: Clause, candidate: Candidate, names: Sequence[tuple[int, int]],
                subject: tuple[int, int] | None = None) -> Candidate | None:
    """``candidate`` without the names its clause complains about ("put it on m07, m04 keeps crashing"
    prefers m07 only; "nodes running kafka are bad" co-locates with nothing). Only preferences and
    co-locations lose names: a refusal of a bad place is what was meant. A wish read from words that hold
    a complained-about place ("le nœud n-4 est en panne": an outage, but of that node) describes it and
    is dropped. None when nothing is left. ``names``: the spans of the hint's place names.

    ``subject``: for a place preference whose place (or list of places) may be a subject, where it ends and
    where the clause of its last place ends (``rules._subject``). Followed by "to be" and a predicate that
    neither wishes nor approves ("rack-4 is flaky", "Rack r-9 ist gesperrt", "el rack-4 está vetado"), the
    place is described (or refused in words the analyser does not know), not wished: None. A predicate that
    approves ("rack-4 is fine") or wishes keeps it."""
    if subject is not None and _stated(text, *subject):
        return None
    if not candidate.items:
        end = candidate.position + len(candidate.cue)
        told = any(candidate.position <= s < end and _complained(text, e, clause.end) for s, e in names)
        return None if told else candidate
    if candidate.intent not in POSITIVE:
        return candidate
    if clause.start <= candidate.position and _complained(text, candidate.position + len(candidate.cue), clause.end):
        return None  # the complaint follows the whole target ("the nodes with kafka on them are flaky")
    kept = tuple(item for item in candidate.items if not any(
        _complained(text, found.end(), clause.end) or _TROUBLE_AT.search(text, clause.start, found.start())
        for found in re.finditer(rf"(?<![\w-]){re.escape(item.lower())}(?![\w-])", text[:clause.end])
        if found.start() >= clause.start))
    if kept == candidate.items:
        return candidate
    return replace(candidate, items=kept) if kept else None


def approved(text: str, clause: Clause, candidate: Candidate, names: Sequence[tuple[int, int]]) -> bool:
    """Whether a place turned to a refusal, after another name of its clause and with none after it, is
    approved by the words right after its name ("stay off node-3 node-4 works", "avoid rack-4 rack-5 is
    better"): typed without punctuation, the refused list may have ended before it, so its polarity is not
    certain. A refusal of one place ("avoid node-3 instead") is not in doubt."""
    if candidate.intent not in NEGATIVE or not candidate.negated:
        return False
    end = next((e for s, e in names if s == candidate.position), None)
    if end is None or any(end <= s < clause.end for s, _ in names) or not any(
            clause.start <= s < candidate.position for s, _ in names):
        return False
    return APPROVAL.match(text, end, clause.end) is not None


_COPULA_AFTER = re.compile(expand(r"\s+{copula}(?![\w-])"))


def _stated(text: str, end: int, clause_end: int) -> bool:
    """Whether "to be" follows ``end`` with a predicate that asks for nothing up to ``clause_end``."""
    if _COPULA_AFTER.match(text, end, clause_end) is None:
        return False
    if APPROVAL.match(text, end):  # "rack-4 is where we want them": an approval a wish verb cut in two
        return False
    return not any(p.search(text, end, clause_end) for p in (WISH, WEAK, STRONG, APPROVAL))


# A few plain words may stand between a target and its complaint ("the nodes running kafka on them are
# flaky", "Knoten, auf denen kafka läuft, sind kaputt"): never a name (digits), a wish or a refusal.
_NOT_BETWEEN = any_of(WISH, NEGATION_BEFORE, NEGATION_AFTER)


# The complaint said before the place it happens in ("it keeps crashing on node n-3", "se cuelga en el nodo n-3",
# "ça plante sur le nœud n-3"): the place is described, never wished.
# "keep running on n-3" is a wish: a placing verb (put_verb) opens no complaint here.
_TROUBLE_AT = re.compile(r"(?<![\w-])" + expand(r"(?!{put_verb}\s)") + group("trouble") + expand(
    r"\s+(?:{place_preposition}|{locative})\s+(?:{articles}\s+)?"
    r"(?:(?:" + LEVEL_WORDS + r")\s+)?$"))


def _complained(text: str, position: int, end: int) -> bool:
    """Whether a complaint (lang/*/trouble.txt) follows ``position`` in its clause, at most a few plain
    words on."""
    if TROUBLE.match(text, position, end):
        return True
    for stop in range(position, min(end, position + 60)):
        if text[stop].isspace() and stop > position and TROUBLE.match(text, stop, end):
            between = text[position:stop]
            return (len(between.split()) <= 3 and not re.search(r"[\d.;:!?]", between)
                    and not _NOT_BETWEEN.search(between))
    return False
