"""From a hint to raw intents: slots, relations and cues, each scoped to its clause.

``read_hint`` is pure: text in, a ``Reading`` out (the candidate intents with their positions,
strengths and metadata); ``to_raw`` turns it into raw output for the shared normaliser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise

from shared.catalogue import BY_NAME, opposites
from webhook.analysers.embedded.chatter import blank_chatter
from webhook.analysers.embedded.clauses import (
    Clause,
    clause_at,
    inert_phrases,
    is_bare,
    negations,
    refused_whole,
    segment,
    words_end,
)
from webhook.analysers.embedded.concepts import (
    COUNT_OF_THEM,
    CUES,
    GPU_PROPERTY_AFTER,
    GPU_REQUEST_AFTER,
    GPU_REQUEST_BEFORE,
    GPU_REQUEST_VERB,
    GPU_WORD,
)
from webhook.analysers.embedded.corrections import corrected
from webhook.analysers.embedded.langdata import expand, group
from webhook.analysers.embedded.lexicon import (
    ANY_LEVEL,
    AT_MOST,
    FILLER,
    HEDGE,
    INDIFFERENT,
    INJECTION,
    LEVEL_WORDS,
    NEGATION_AFTER,
    NEGATION_BEFORE,
    NOT_NEEDED,
    PERMISSION,
    PURPOSE_CLAUSE,
    REFERENCE,
    STRONG,
    WEAK,
    WISH,
    any_of,
    concept_words,
)
from webhook.analysers.embedded.polarity_guard import (
    AFTER,
    APPROVAL,
    BEFORE,
    approved,
    cues_in,
    guard,
    not_wishes,
    own_wish,
    undescribed,
)
from webhook.analysers.embedded.slots import _GPU_MODEL, Slot, complained_nodes, extract, parse_number
from webhook.analysers.embedded.typos import correct
from webhook.analysers.embedded.workloads import NODE, REGION, ZONE, Relation, find_relations

_RELATIVE = concept_words("relative_pronoun")

RULE_CONFIDENCE = 0.95
# What a number or a model is masked as for the cue patterns (upper case where no cue may read it).
_MASKS = {"cores": "cores", "gpus": "gpus", "size": "GB", "rate": "RATE", "gpu_model": "gpu"}
REFUSAL = any_of(NEGATION_AFTER, NEGATION_BEFORE)
# what a bare refusal may hold: refusal words, words pointing back, and a strong word ("en aucun cas")
REFUSAL_WORDS = any_of(REFUSAL, REFERENCE, STRONG)
# a refusal verb under its own negation ("don't skip it", "no lo evites"): it asks for what it names
_REFUSAL_REFUSED = re.compile(r"(?<![\w-])" + group("refusal_negated") + r"(?![\w-])")

# Every catalogue identifier (intent names, metadata keys): a hint that spells them out is writing
# our output format, not a placement wish.
_IDENTIFIERS = sorted(n for n in {s.name for s in BY_NAME.values()} | {m.key for s in BY_NAME.values()
                                                                       for m in s.metadata} if "_" in n)
_IDENTIFIER = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, _IDENTIFIERS)) + r")(?![\w])|\bintents?\b\W*:")
_SENTENCE = re.compile(r"[^.;!?]+(?:[.;!?]+|$)")

# The words that say what a size is about (lang/*/about_*.txt).
_GPU_MEMORY_CUES = re.compile(rf"(?<![\w]){group('about_gpu_memory')}(?![\w])")
_EPHEMERAL_CUES = re.compile(rf"(?<![\w]){group('about_disk')}(?![\w])")
_MEMORY_CUES = re.compile(rf"(?<![\w]){group('about_memory')}(?![\w])")
# Sizes of things that are not node resources ("a 2 GB image").
# a word of a workload's name is no cue: "log-agent ... 3g" is RAM, not the size of its logs
_NOT_PLACEMENT_CUES = re.compile(rf"(?<![\w-]){group('about_other')}(?![\w-])")
_NETWORK_CUES = re.compile(rf"(?<![\w]){group('about_network')}(?![\w])")
# a resource word right before an amount, as its label ("ram 48gi", "scratch: 100gi")
_LABELS_BEFORE = tuple(re.compile(p.pattern + r"\s*[:=]?\s*$") for p in (
    _GPU_MEMORY_CUES, _EPHEMERAL_CUES, _MEMORY_CUES))
_SIGNS = " ,:;="  # what may stand between a label and its amount, or two items of a list
_AMOUNT_END = re.compile(r"\d\s*[^\W\d_]{0,4}\s*$")
_RESOURCE_CUES = (_GPU_MEMORY_CUES, _EPHEMERAL_CUES, _MEMORY_CUES, _NOT_PLACEMENT_CUES, _NETWORK_CUES)


_CORES_ABOUT = re.compile(rf"(?<![\w-]){group('core_words')}(?![\w-])[^.;:\d]{{0,20}}?(?<![\w-])"
                          rf"(?:{group('about')[3:-1]}|~)\s*(\d{{1,3}})(?![\w.,])")
_CORE_WORD = re.compile(rf"(?<![\w-]){group('core_words')}(?![\w-])")
_BARE_SPREAD = re.compile(rf"(?<![\w-]){group('spread_verb')}(?![\w-])")
_OWN_INSTANCES = re.compile(rf"(?<![\w-]){group('own_instances')}(?![\w-])")
_LEVEL_WORDS = (
    ("spread_zones", group("level_zone")),
    ("spread_racks", group("level_rack")),
    ("spread_regions", group("level_region")),
    ("spread_nodes", group("level_node")),
)
_MORE_LEVELS = re.compile(expand(r"\s*(?:,|{list_join}|{as_well_as}|&)\s+(?:(?:{across_word}|{several_words})\s+)?"
                                 r"(?:{articles} )?(")
                          + LEVEL_WORDS + r")(?![\w-])(?!\s{2})")  # "and the region eu-1 ...": a named one, blanked
# after a level joined by a bare comma, what ends a list of levels: "over racks, zones and regions", "racks, nodes if
# possible"; any other word makes the level the head of a wish of its own ("zones, nodes with little load")
_LEVEL_LIST_END = re.compile(expand(r"\s*(?:$|[,.;:!?)]|(?:{list_join}|{as_well_as}|{weak}|{strong})(?![\w-]))"))


@dataclass(slots=True)
class Candidate:
    """One intent found in the hint, before merging."""

    intent: str
    position: int
    confidence: float = RULE_CONFIDENCE
    items: tuple[str, ...] = ()  # list metadata
    number: float | None = None  # float metadata
    cue: str = ""
    negated: bool = False  # its polarity was turned by a negation of its clause (``polarity_guard`` checks it)
    strength_at: int = -1  # where its strength is said, when not in its own clause (a refusal pointing back)


@dataclass(slots=True)
class Reading:
    """What the rules read in one hint."""

    text: str  # lower-cased, injections blanked
    clauses: list[Clause]
    candidates: list[Candidate] = field(default_factory=list)
    masked: str = ""  # names and numbers replaced by their kind (the cues read this text)
    skipped: tuple[int, ...] = ()  # sentences that are not wishes (descriptive)


def lower(hint: str) -> str:
    """Lower-case without changing any offset (a few characters grow when lower-cased)."""
    out = hint.lower()
    if len(out) == len(hint):
        return out
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in hint)


# a node's name that opens with a node word ("worker-3", "k8s-worker-02", "gke-pool-a-1b2c"; not "api-server-2")
_NODE_LED = re.compile(expand(r"^(?:{node_name_prefix}|{node_pool_prefix})(?:-|\d)"))
# "évite-t-il": a verb joined by dashes to its subject (lang/*/inverted_subject.txt)
_INVERSION = re.compile(r"(?<![\w-])[^\W\d_]{2,}-" + group("inverted_subject") + r"(?![\w-])")


def split_inversions(text: str) -> str:
    """``text`` with the dashes between a verb and the subject after it read as spaces ("évite-t-il" ->
    "évite t il"), offsets kept: the verb is a word of its own for the rules."""
    return _INVERSION.sub(lambda m: m.group(0).replace("-", " "), text)


# Typographic quotes and apostrophes, one character for one (offsets kept), read as the plain ones
# every pattern spells: a phone types "Don’t" and "„cache“", a word processor ’billing’ and «redis».
# Here and not in the sanitiser: the sanitised text is the hint's signed identity, this is only how
# the rules read it.
_PLAIN_QUOTES = str.maketrans({
    **dict.fromkeys("\u2019\u2018\u201b\u02bc\u2032\uff07`\u00b4", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a\u2033\uff02", '"'),
})


def plain_quotes(hint: str) -> str:
    """``hint`` with typographic quotes and apostrophes made plain, every offset kept."""
    return hint.translate(_PLAIN_QUOTES)


@lru_cache(maxsize=8)  # the analyser detects the language on it, then ``read_hint`` reads it (see language.detect)
def normalise(hint: str) -> str:
    """The text the rules read: lower case, plain quotes and apostrophes, no chatter, a verb split from
    its subject ("évite-t-il"), every offset kept."""
    return split_inversions(blank_chatter(lower(plain_quotes(hint))))


def blank_injections(text: str) -> str:
    """Blank out every sentence that forges our output format, and everything from an instruction
    to the model onwards (what follows "ignore previous instructions" is the attacker's, not a wish)."""
    pieces = []
    injected = False
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0)
        injected = injected or bool(INJECTION.search(sentence))
        if injected or _IDENTIFIER.search(sentence):
            sentence = " " * len(sentence)
        pieces.append((match.start(), sentence))
    chars = list(text)
    for start, sentence in pieces:
        chars[start:start + len(sentence)] = sentence
    return "".join(chars)


_AMOUNTS = ("cores", "gpus", "size", "rate")


def _other_amounts(slot: Slot, slots: list[Slot]) -> list[int]:
    return [s.start for s in slots if s.kind in _AMOUNTS and s is not slot]


def _next_amount(text: str, slot: Slot, slots: list[Slot]) -> int:
    """Where the next amount after ``slot`` starts: a word after it is that amount's ("16 kerne 64 gb 500 gb
    scratch": the scratch is the 500 GB)."""
    return min((a for a in _other_amounts(slot, slots) if a >= slot.end), default=len(text))


def _window(text: str, clause: Clause, slot: Slot, clauses: list[Clause], slots: list[Slot]) -> tuple[str, str]:
    """The text around a slot in its clause; when the clause holds no resource word, the clauses of its
    sentence around it up to one that holds an amount of its own ("a beefy NIC, 40 gig at least": the cue
    is one comma away; in "4 cores, 16gb, 100gb scratch" the scratch is the other amount's)."""
    amounts = _other_amounts(slot, slots)
    stop = _next_amount(text, slot, slots)
    before = text[clause.start:slot.start]
    after = _own_after(before, text[slot.end:min(clause.end, stop)], not text[clause.end:stop].strip(_SIGNS))
    # a GPU word keeps the window in its clause too: "8 GPUs A100 de 80 gigas, ..., 1 TB de scratch"
    if any(_nearest(p, before, after) is not None for p in (*_RESOURCE_CUES, GPU_WORD, _GPU_MODEL)):
        return before, after
    sentence = [c for c in clauses if c.sentence == clause.sentence]

    def own_amount(c: Clause) -> bool:
        return any(c.start <= a < c.end for a in amounts)

    first = last = sentence.index(clause) if clause in sentence else 0
    while first > 0 and not own_amount(sentence[first - 1]):
        first -= 1
    while last < len(sentence) - 1 and not own_amount(sentence[last + 1]):
        last += 1
    before = text[sentence[first].start:slot.start]
    end = min(sentence[last].end, stop)
    return before, _own_after(before, text[slot.end:end], not text[end:stop].strip(_SIGNS))


def _own_after(before: str, after: str, cut_at_amount: bool) -> str:
    """``after`` without the next amount's label when labels come before their amounts ("ram 48gi scratch 100gi":
    "scratch" is the 100gi's, as "ram" is the 48gi's); ``cut_at_amount``: ``after`` ends where that amount starts."""
    labels = [m for p in _LABELS_BEFORE if (m := p.search(before)) is not None]
    # "16gb ram 100gb scratch": a word right after the amount before is that amount's, no label of this one
    if not cut_at_amount or not after or not labels or any(_AMOUNT_END.search(before, 0, m.start()) for m in labels):
        return after
    for label in _LABELS_BEFORE:
        match = label.search(after)
        if match is not None:
            return after[:match.start()]
    return after


def _nearest(pattern: re.Pattern[str], before: str, after: str) -> int | None:
    """Distance in characters to the nearest match of ``pattern`` (after the number counts closer)."""
    distances = [m.start() for m in pattern.finditer(after)]
    distances += [len(before) - m.end() + 3 for m in pattern.finditer(before)]
    return min(distances) if distances else None


def _after_cores(text: str, slot: Slot, slots: list[Slot]) -> bool:
    """Whether ``slot`` comes right after a core count, as a machine shape's RAM does ("8c/32g", "16 cores 64g")."""
    return any(s.kind == "cores" and s.end <= slot.start and _SHAPE_GAP.fullmatch(text, s.end, slot.start)
               for s in slots)


def _size_intent(text: str, clause: Clause, slot: Slot, gpu_near: bool, window: tuple[str, str],
                 slots: list[Slot]) -> str:
    """What a size (GB) is about: RAM, GPU memory or scratch disk, by the nearest cue word in ``window``
    (``_window``: the text before and after it) ("" for none)."""
    before, after = window
    gpu = _nearest(_GPU_MEMORY_CUES, before, after)
    disk = _nearest(_EPHEMERAL_CUES, before, after)
    memory = _nearest(_MEMORY_CUES, before, after)
    if gpu is not None and not gpu_near and _EACH.search(text, clause.start, clause.end):
        gpu = None  # "each" (before or after: "give each 12 GB") without any GPU around counts something else
    other = _nearest(_NOT_PLACEMENT_CUES, before, after)
    ranked = sorted((d, name) for d, name in ((gpu, "prefer_gpu_memory_gb"), (disk, "prefer_ephemeral_storage"),
                                                (memory, "prefer_memory_gb"), (other, "")) if d is not None)
    if ranked:
        best = ranked[0][1]
        # "log shipper ... 1 core 2g": a size right after a core count is the machine shape's RAM, whatever word
        # about something else ("logs") stands before the shape
        if best == "" and _after_cores(text, slot, slots) and ranked[0][0] > _FAR:
            return "prefer_memory_gb"
        # "8c/32g and local nvme": a size right after a core count is the machine's RAM (its shape) when the
        # disk word after it is an item of its own, joined to the shape ("8c 500gb scratch" stays disk)
        if best == "prefer_ephemeral_storage" and _SHAPE_JOIN.match(after) and _after_cores(text, slot, slots):
            return "prefer_memory_gb"
        # German "Speicher" (and plain "storage") is RAM or disk: a disk word in the window decides
        # ("500 GB Speicher auf der Festplatte")
        if best == "prefer_memory_gb" and disk is not None and not _PLAIN_RAM.search(before + after):
            return "prefer_ephemeral_storage"
        # "GPUs with 40 GB of memory": plain "memory" next to a GPU mention is GPU memory, unless no GPU holds
        # that much ("8 H100 with NVLink 1 TB of memory" is the machine's)
        if best == "prefer_memory_gb" and gpu_near and not _RAM.search(before + after) and _one_gpu_holds(slot):
            return "prefer_gpu_memory_gb"
        return best
    # "1 gpu 8 kerne 32gb": a size right after a core count is the machine shape's RAM, GPUs or not
    if gpu_near and not _after_cores(text, slot, slots) and _one_gpu_holds(slot):
        return "prefer_gpu_memory_gb"
    # "16 cores 64g ssd", "24 coeurs et 96 go avec du ssd": a small size between a core count and a kind of
    # disk is the machine shape's RAM; the disk kind is a wish of its own
    if _SHAPE_DISK.match(after) and isinstance(slot.value, float) and slot.value <= _SHAPE_RAM_MAX and _after_cores(
            text, slot, slots):
        return "prefer_memory_gb"
    # "eine SSD mit 1 TB", "un NVMe de 2 TB": a size on a disk in its own clause is disk space
    if _DISK_KIND.search(text, clause.start, slot.start) or _DISK_KIND.search(
            text, slot.end, min(clause.end, _next_amount(text, slot, slots))):
        return "prefer_ephemeral_storage"
    return "prefer_memory_gb"


_FAR = 30  # characters: a cue farther from a size than this is about another part of the hint
_GPU_MEMORY_MAX = 288.0  # GB: the most memory one GPU carries today (B300); more is a machine's RAM


def _one_gpu_holds(slot: Slot) -> bool:
    """Whether a size could be one GPU's memory (``_GPU_MEMORY_MAX``)."""
    return not isinstance(slot.value, float) or slot.value <= _GPU_MEMORY_MAX


# "one" before a GPU word or a model compound ("a GPU", "eine A100-Grafikkarte"), the GPU words that
# count one when so introduced, the compound suffixes, "each"/"jeweils", "over"/"statt" and "same zone/region".
_ONE_BEFORE = re.compile(rf"(?:^|\s){group('count_one')}\s*$")
_ONE_GPU = re.compile(group("gpu_one_words"))
_GPU_SUFFIX = re.compile(rf"-{group('gpu_suffix')}(?![\w-])")
_EACH = re.compile(rf"\b{group('each_apiece')}\b")
_RATHER_THAN = re.compile(rf"(?<![\w-]){group('rather_than')}\s+$")
_SAME_ZONE = re.compile(rf"\b{group('same_zone')}\b")
_SAME_REGION = re.compile(rf"\b{group('same_region')}\b")
_NODE_WORD = re.compile(expand("{b}{level_node}{e}"))
_RAM = re.compile(rf"(?<![\w]){group('ram_words')}(?![\w])")
_PLAIN_RAM = re.compile(rf"(?<![\w])(?:{group('ram_words')}|{group('memory_plain')})(?![\w])")
_DISK_KIND = re.compile(rf"(?<![\w-]){group('disk_kind')}(?![\w])")
# what separates a machine shape's cores from its RAM ("8c/32g", "16c, 64g", "24 cores and 96 gb")
_SHAPE_GAP = re.compile(rf"[\s,/+&]*(?:{group('list_join')}\s+)?")
_SHAPE_DISK = re.compile(expand(r"\s*(?:{with_word}\s+)?(?:{articles}\s+)?{disk_kind}{e}"))  # "... 64g ssd"
_SHAPE_RAM_MAX = 256.0  # GB: a larger size before a disk kind is the disk's ("16 cores 1tb nvme")
_SHAPE_JOIN = re.compile(rf"\s*(?:[,+;&]|{group('list_join')}(?![\w-]))")  # "... 32g and local nvme", "32g, ssd"
_UNIT_GIG = re.compile(rf"{group('unit_gig')}\s*$")  # "40 gig": a size unit that may be a network rate
_GPU_ITSELF = re.compile(group("gpu_itself"))
_SAME = re.compile(group("same_word") + r"(?![\w-])")
_NUMA_NODE = re.compile(expand("{numa_node}"))
_COLOCATE = "prefer_colocate_same_deployment"
_NEARBY = "prefer_nearby_nodes_same_deployment"
_FULL_STOP = re.compile(r"[.;!?\n]")
_SPREAD_NODES = "spread_nodes"
# how far a co-location cue's relation may start after it to be its object ("co-locate in the same zone as X")
_VERB_TO_RELATION = 8
# nothing but a preposition of place: "next to kafka-0 | on | one node"
_JUST_LOCATIVE = re.compile(expand(r"\s*(?:(?:{locative}|{place_preposition})\s+)?(?:(?:{articles}|{all_words})\s+)*"))


@dataclass(slots=True)
class _Hint:
    """One hint while the passes read it: its slots, relations and clauses, what is skipped, the text with
    names and numbers masked (for the cues), and the candidates found so far."""

    text: str
    slots: list[Slot]
    relations: list[Relation]
    clauses: list[Clause]
    skipped: set[int]
    reasons: list[tuple[int, int]]  # spans of descriptions that only explain a wish
    masked: list[str]
    candidates: list[Candidate]
    cue_text: str = ""
    negated_positions: list[int] = field(default_factory=list)  # where a negation was read as applying
    # where a one-node cue was only hedged ("not necessarily on one node"): a requirement lifted, no wish
    lifted_one_node: list[int] = field(default_factory=list)

    def add(self, candidate: Candidate) -> None:
        self.candidates.append(candidate)

    def negated(self, clause: Clause, position: int) -> bool:
        """Whether ``clause`` negates ``position``; a yes is recorded, so the polarity guard knows which
        negation words the passes used (``polarity_guard.consumed``)."""
        found = clause.negated_at(position)
        if found:
            self.negated_positions.append(position)
        return found

    def clause_of(self, position: int) -> Clause | None:
        """The clause holding ``position`` when it is read at all (not a skipped sentence or a reason)."""
        clause = clause_at(self.clauses, position)
        if clause is None or clause.sentence in self.skipped or any(s <= position < e for s, e in self.reasons):
            return None
        return clause

    def mask(self, start: int, end: int, word: str) -> None:
        """Replace [start, end) by ``word`` (a name or a number by its kind) for the cue patterns."""
        replacement = (word + " " * (end - start))[: end - start]
        self.masked[start:end] = replacement if len(word) <= end - start else " " * (end - start)


def read_hint(hint: str) -> Reading:
    """Read one (sanitised) hint by rule: normalise, slots and relations, clauses (with the sentences that
    are no wish), then each pass of ``_PASSES`` adds candidates, ``polarity_safe`` drops the unsure and
    ``polarity_guard.guard`` those whose polarity the words of their clause do not settle."""
    text = blank_injections(correct(normalise(hint)))
    # what the hint takes back ("zone c1, no wait, c2") is blanked, the corrected value read in its place
    text, slots = corrected(text, extract(text))
    relations = find_relations(text, original=plain_quotes(hint))
    # a zone, region or rack is never a workload, nor is a node's own name: after a node's cue it is that
    # node ("same node as worker-3", "next to gke-pool-a-1b2c"), after a zone's cue it is read as neither
    # ("same zone as worker-3": the zone is not named); any other workload name is never also a node name
    # a zone known only by its level word is a workload a relation names ("same az as checkout-v2 ... whatever az
    # checkout-v2 is in")
    workloads = {n for r in relations for n in r.names}
    slots = [s for s in slots if not (s.by_level_word and str(s.value) in workloads)]
    places = {str(s.value) for s in slots if s.kind in ("zone", "region", "rack")}
    complained = complained_nodes(text)
    nodes = {str(s.value) for s in slots if s.kind == "node" and (
        _NODE_LED.match(str(s.value)) or str(s.value) in complained)}
    unsaid = [(r.start, r.end) for r in relations if r.level != NODE and nodes.intersection(r.names)]
    relations = [replace(r, names=tuple(n for n in r.names if n not in places and n not in nodes)) for r in relations]
    relations = [r for r in relations if r.names]
    slots = [s for s in slots if not (s.kind == "node" and any(
        start <= s.start < end for start, end in (*unsaid, *((r.start, r.end) for r in relations))))]
    clauses = segment(text, [(s.start, s.end) for s in slots if s.kind in ("zone", "region", "rack", "node")],
                      [s.start for s in slots if s.kind in ("cores", "gpus", "size", "rate")],
                      [(s.start, s.end) for s in slots])
    reading = Reading(text, clauses)
    # statements, the past, questions and the reasons after a wish ask for nothing (polarity_guard)
    skipped, reasons = not_wishes(text, clauses)
    reading.skipped = tuple(sorted(skipped))
    state = _Hint(text, slots, relations, clauses, skipped, reasons, list(text), [])
    for read in _PASSES:
        read(state)
    # "one pod per node so that losing a single host takes down one pod": the goal of a wish read before it
    # explains that wish and asks for nothing; read again without it
    purposes = _purposes(state)
    if purposes:
        state = _Hint(text, slots, relations, clauses, skipped, reasons + purposes, list(text), [])
        for read in _PASSES:
            read(state)
    reading.candidates = state.candidates
    reading.masked = "".join(state.masked)
    # a later clause that refuses the place by pointing back at it ("pin it to n-4, though that node should be
    # avoided") is a wish of its own: read before the safety rules, so its clause no longer refuses "nothing"
    again = _place_said_again(state)
    reading.candidates.extend(again)
    state.negated_positions.extend(c.position for c in again)
    safe = polarity_safe(text, clauses, slots, reading.candidates)
    reading.candidates = guard(text, clauses, safe, read=reading.candidates, negated=state.negated_positions)
    return reading


def _purposes(h: _Hint) -> list[tuple[int, int]]:
    """The goals said after a wish (``purpose_clause``: "so that", "para que", "damit", "pour que"): from the
    opener to the end of its clause, when that clause reads a wish before the opener. A goal with nothing read
    before it in its clause may be where the wish is said ("distribute them so that no two share a node"): kept."""
    spans = []
    for match in PURPOSE_CLAUSE.finditer(h.text):
        clause = h.clause_of(match.start())
        if clause is not None and any(clause.start <= c.position < match.start() for c in h.candidates):
            spans.append((match.start(), clause.end))
    return spans


def _place_said_again(h: _Hint) -> list[Candidate]:
    """Avoidances said by a clause that names no place but points back at one ("pin it to n-4, though that node
    should be avoided", "en sa-east-1, región que debe evitarse", "X, lequel est à éviter"): a demonstrative
    before a level word (``back_place``), or a relative pronoun right after the place (``back_place_relative``).
    The one place of that kind said before it in its sentence (or, when it opens its sentence, in the one
    before) is avoided with the clause's own strength; a wish for it said in its own clause stays (a
    contradiction, two clauses each sure of their polarity). Nothing when the clause reads anything else,
    hedges, is negated twice ("that node should not be avoided"), or two places could be meant."""
    inert = inert_phrases(h.text)
    found: list[Candidate] = []
    places = [s for s in h.slots if s.kind in _PLACES]
    for index, clause in enumerate(h.clauses):
        if h.clause_of(clause.start) is None or any(
                clause.start <= c.position < clause.end for c in h.candidates) or any(
                clause.start <= s.start < clause.end for s in places) or _REFUSAL_REFUSED.search(
                h.text, clause.start, clause.end):
            continue
        cues = cues_in(h.text, clause, inert)
        if not cues or any(c.weak or c.reach not in (BEFORE, AFTER) for c in cues):
            continue
        before = [c for c in h.clauses[:index] if c.sentence == clause.sentence]
        if not before and clause.sentence > 0:
            before = [c for c in h.clauses[:index] if c.sentence == clause.sentence - 1]
        if not before:
            continue
        said = [s for s in places if before[0].start <= s.start < clause.start]
        back = _pointer(h.text, clause, said)
        if back is None:
            continue
        start, end, kind = back
        # the refusal must be said after the pointer and reach back to it ("that node should be avoided"); one
        # before it ("en w-12 no porfa ese nodo se reinicia") refuses the place of its own clause, not a second
        # time; and no other negation may turn the verb after it
        refusing = [c for c in cues if c.reach == AFTER and c.start >= end]
        if not refusing or any(c.reach == BEFORE and c.start >= end and not any(
                c.start < r.end and r.start < c.end for r in refusing) for c in cues):
            continue  # "evitarse" reaches both ways: one word; "should not be avoided" is two
        named = {str(s.value).lower() for s in said if s.kind == kind}
        if len(named) != 1:
            continue  # none, or two antecedents: which one is meant is not certain
        found.append(Candidate(f"avoid_{kind}s", start, items=(next(iter(named)),), cue=h.text[start:end],
                               negated=True))
    return found


def _pointer(text: str, clause: Clause, said: list[Slot]) -> tuple[int, int, str] | None:
    """Where ``clause`` points back at a place, and that place's kind: a demonstrative and a level word ("that
    node", "ce nœud"), a level word and a relative pronoun opening it ("región que"), or a relative pronoun opening
    it right after a place ("sa-east-1, which ..."). None when it points at none."""
    for kind, pattern in _BACK_DEMONSTRATIVE.items():
        match = pattern.search(text, clause.start, clause.end)
        if match:
            return match.start(), match.end(), kind
    match = _BACK_RELATIVE.match(text, clause.start, clause.end)
    if match is None:
        return None
    if match.group(1):
        kind = next(k for k, p in _LEVEL_WORD.items() if p.fullmatch(match.group(1)))
        return match.start(1), match.end(), kind
    last = max(said, key=lambda s: s.end, default=None)
    if last is None or text[last.end:clause.start].strip(" ,;:-"):
        return None  # the pronoun may be about the last noun, which is no place ("ce service, lequel ...")
    return match.start(2), match.end(), last.kind


def _read_names(h: _Hint) -> None:
    """Places and GPU models: prefer or avoid them, as their clause says ("prefer X over Y" picks X)."""
    text, slots, add, clause_of, mask = h.text, h.slots, h.add, h.clause_of, h.mask
    polar = {"zone": "zones", "region": "regions", "rack": "racks", "node": "nodes"}
    for slot in slots:
        clause = clause_of(slot.start)
        if slot.kind in polar:
            mask(slot.start, slot.end, slot.kind)
        if clause is None:
            continue
        if slot.kind in polar and _RATHER_THAN.search(text[clause.start:slot.start]) and any(
                other.kind == slot.kind and clause.start <= other.start < slot.start for other in slots):
            continue  # "prefer us-east-1a over us-east-1b": the second one is the one not chosen
        if slot.kind in polar:
            negated = h.negated(clause, slot.start) and not _chosen_instead(text, slot, slots)
            add(Candidate(f"{'avoid' if negated else 'prefer'}_{polar[slot.kind]}", slot.start,
                          items=(str(slot.value),), cue=str(slot.value), negated=negated))
        elif slot.kind == "gpu_model" and not h.negated(clause, slot.start):
            add(Candidate("prefer_gpu_models", slot.start, items=(str(slot.value),), cue=str(slot.value)))


def _chosen_instead(text: str, slot: Slot, slots: list[Slot]) -> bool:
    """A place said right after a refused place of its kind and followed by "instead", typed without
    punctuation ("not us-central1-a us-central1-b instead"): the alternative chosen, not refused. A place
    right after the refusal's own verb stays refused ("avoid rack-2 instead")."""
    if not _INSTEAD.match(text, _SPACES.match(text, slot.end).end()):
        return False
    return any(other.kind == slot.kind and other.end < slot.start and not text[other.end:slot.start].strip(" ,")
               for other in slots)


def _level_said_after(h: _Hint, relation: Relation, level: re.Pattern[str], sentence_end: int) -> bool:
    """Whether ``level`` ("same zone") is said after ``relation``'s cue in its sentence, outside every other
    relation's own cue."""
    return any(not any(other is not relation and other.start <= match.start() < other.end for other in h.relations)
               for match in level.finditer(h.text, relation.start, sentence_end))


def _read_relations(h: _Hint) -> None:
    """Relations to other workloads: same node / zone / region as them, or away from them."""
    text, relations, clauses, add, clause_of, masked = h.text, h.relations, h.clauses, h.add, h.clause_of, h.masked
    for relation in relations:
        clause = clause_of(relation.start)
        for position in range(relation.start, relation.end):
            masked[position] = " "
        if clause is None:
            continue
        level = relation.level
        sentence_end = max(c.end for c in clauses if c.sentence == clause.sentence)
        # a node-level cue that names no level ("next to redis, same zone") takes the level said after it, unless
        # that level is another relation's own ("off whichever host X sits on and same zone as Y")
        if level == NODE and not _NODE_WORD.search(text, relation.start, relation.end):
            if _level_said_after(h, relation, _SAME_ZONE, sentence_end):
                level = ZONE
            elif _level_said_after(h, relation, _SAME_REGION, sentence_end):
                level = REGION
        # a negation that ends anywhere before the names counts, even inside the cue ("nowhere near X")
        negated = not relation.negative and (h.negated(clause, relation.start + 1) or any(
            relation.start < end <= relation.end - 1 for end in clause.negations_before))
        negative = relation.negative or negated
        name = {(NODE, False): "prefer_same_node_as_deployments", (ZONE, False): "prefer_same_zone_as_deployments",
                (REGION, False): "prefer_same_region_as_deployments", (NODE, True): "avoid_same_node_as_deployments",
                (ZONE, True): "avoid_same_zone_as_deployments"}.get((level, negative))
        if name:
            add(Candidate(name, relation.start, items=relation.names, cue=text[relation.start:relation.end],
                          negated=negated))


def _read_numbers(h: _Hint) -> None:
    """Numbers with units: cores, GPUs, network rates, and sizes by what they are about."""
    text, slots, clauses, add, clause_of, mask = h.text, h.slots, h.clauses, h.add, h.clause_of, h.mask
    for slot in slots:
        clause = clause_of(slot.start)
        if slot.kind in ("cores", "gpus", "size", "rate", "gpu_model"):
            mask(slot.start, slot.end, _MASKS[slot.kind])
        if clause is None or slot.kind not in ("cores", "gpus", "size", "rate"):
            continue
        if _describes_refused_place(h, slot):
            continue
        number = float(slot.value)
        negated = h.negated(clause, slot.start)
        if number == 0 and slot.kind != "gpus":  # "zero cores", "0 GB": an amount of none asks for nothing
            continue
        if slot.kind == "cores" and not negated:
            add(Candidate("prefer_cpu_cores", slot.start, number=number, cue=text[slot.start:slot.end]))
        elif slot.kind == "gpus":
            if negated and _after_refused_place(h, clause, slot.start):
                continue
            if negated or number == 0:
                add(Candidate("avoid_gpu_nodes", slot.start, cue=text[slot.start:slot.end], negated=negated))
            else:
                add(Candidate("prefer_gpu", slot.start, number=number, cue=text[slot.start:slot.end]))
        elif slot.kind == "rate" and not negated:
            add(Candidate("prefer_network_speed", slot.start, number=number, cue=text[slot.start:slot.end]))
        elif slot.kind == "size" and not negated:
            unit = text[slot.start:slot.end]
            before, after = _window(text, clause, slot, clauses, slots)
            # "40 gig nic": a size unit read as a rate when a network word is nearer than any memory or disk word
            # ("1tb ram 400g nic": the RAM is the terabyte's)
            network = _nearest(_NETWORK_CUES, before, after)
            if _UNIT_GIG.search(unit) and network is not None and all(
                    distance is None or network < distance
                    for distance in (_nearest(_MEMORY_CUES, before, after), _nearest(_EPHEMERAL_CUES, before, after))):
                add(Candidate("prefer_network_speed", slot.start, number=number, cue=unit))
                continue
            sentence_text = text[min(c.start for c in clauses if c.sentence == clause.sentence):
                                 max(c.end for c in clauses if c.sentence == clause.sentence)]
            gpu_near = bool(GPU_WORD.search(text, clause.start, clause.end)) or any(
                s.kind in ("gpu_model", "gpus") and clause.start <= s.start < clause.end for s in slots) or (
                bool(_EACH.search(after) or _EACH.search(text, clause.start, slot.start)) and (
                    bool(GPU_WORD.search(sentence_text)) or _each_of_gpus_before(text, clause, clauses, sentence_text)
                    or any(s.kind in ("gpu_model", "gpus") and s.start < slot.start
                           and getattr(clause_at(clauses, s.start), "sentence", None) == clause.sentence
                           for s in slots)))
            intent = _size_intent(text, clause, slot, gpu_near, (before, after), slots)
            if intent:
                add(Candidate(intent, slot.start, number=number, cue=unit))


def _each_of_gpus_before(text: str, clause: Clause, clauses: list[Clause], sentence_text: str) -> bool:
    """"4 GPUs, a must. Ideally 80 GB each": a size "each" in a sentence that names no resource of its own is
    apiece of the GPUs the sentence before names."""
    before = [c for c in clauses if c.sentence == clause.sentence - 1]
    return bool(before) and not any(p.search(sentence_text) for p in (_MEMORY_CUES, _EPHEMERAL_CUES)) and bool(
        GPU_WORD.search(text, before[0].start, before[-1].end))


def _read_counts_of_them(h: _Hint) -> None:
    """"two of them" after a GPU (or core) mention counts it."""
    text, slots, clauses, add, clause_of = h.text, h.slots, h.clauses, h.add, h.clause_of
    for match in COUNT_OF_THEM.finditer(text):
        clause = clause_of(match.start())
        if clause is None:
            continue
        mentions = [m.start() for m in GPU_WORD.finditer(text)] + [s.start for s in slots if s.kind == "gpu_model"]
        if any(p < match.start() and clause_at(clauses, p).sentence == clause.sentence for p in mentions):
            number = parse_number(match.group(1))
            if number:
                add(Candidate("prefer_gpu", match.start(), number=number, cue=match.group(0)))
        elif _CORE_WORD.search(text, max(0, match.start() - 60), match.start()):
            # "scales with cores; give it 24 of them": the count is of the cores just named
            number = parse_number(match.group(1))
            if number:
                add(Candidate("prefer_cpu_cores", match.start(), number=number, cue=match.group(0)))


def _read_cores_about(h: _Hint) -> None:
    """"many cores, like 48": a bare number right after a core wish is its amount."""
    text, slots, add, clause_of = h.text, h.slots, h.add, h.clause_of
    for match in _CORES_ABOUT.finditer(text):
        clause = clause_of(match.start(1))
        if clause is not None and not h.negated(clause, match.start(1)) and not any(
                s.start <= match.start(1) < s.end for s in slots):
            add(Candidate("prefer_cpu_cores", match.start(1), number=float(match.group(1)), cue=match.group(0)))


def _after_refused_place(h: _Hint, clause: Clause, start: int) -> bool:
    """Whether a negated GPU at ``start`` is said in a relative clause after a refused place ("evita el nodo
    n-8 que tiene gpu"): it may describe that place or open a wish of its own; neither is settled."""
    return any(clause.start <= s.end <= start and s.kind in ("zone", "region", "rack", "node")
               and _RELATIVE.search(h.text, s.end, start) for s in h.slots)


# what ties an amount to the place named right before it as that place's own: "with", "(", "which has"
_DESCRIBING = re.compile(expand(r"\s*(?:\(\s*|(?:{with_word}|{relative_pronoun}(?:\s+[\w'-]+){0,2})\s+)"
                                r"(?:{articles}\s+)?"))


def _describes_refused_place(h: _Hint, amount: Slot) -> bool:
    """Whether ``amount`` describes a refused place it is tied to ("avoid m07 with 64gb", "not on m07 (64gb)",
    "evita m07 que tiene 64gb"): what that place has is no wish, and the refusal is that place's."""
    place = max((s for s in h.slots if s.kind in _PLACES and s.end <= amount.start), key=lambda s: s.end,
                default=None)
    if place is None or not _DESCRIBING.fullmatch(h.text, place.end, amount.start):
        return False
    clause = clause_at(h.clauses, place.start)
    return clause is not None and clause.negated_at(place.start)


def _read_gpu_words(h: _Hint) -> None:
    """GPU words without a count: a request, a property of something else, or a refusal."""
    text, slots, add, clause_of = h.text, h.slots, h.add, h.clause_of
    for match in GPU_WORD.finditer(text):
        start = match.start()
        if any(s.start <= start < s.end for s in slots):  # inside "gpu-node-7", or "2 GPUs" already counted
            continue
        clause = clause_of(start)
        if clause is None:
            continue
        word = match.group(1)
        if h.negated(clause, start):
            if _after_refused_place(h, clause, start):
                continue
            # "doesn't care about GPUs" is indifference, not a wish to stay off GPU nodes; so is "no GPU
            # needed" / "no hace falta GPU" / "kein GPU nötig" (like "no need to spread": ARCHITECTURE 2.2)
            indifferent = INDIFFERENT.search(text[clause.start:start])
            if not indifferent and not NOT_NEEDED.search(text, clause.start, clause.end):
                add(Candidate("avoid_gpu_nodes", start, cue=match.group(0), negated=True))
            continue
        before = text[clause.start:start]
        after = text[match.end():clause.end]
        # "A100 GPUs", "GPUs L4": the word names the model's kind, a property like the model itself
        model_before = next((s for s in slots if s.kind == "gpu_model" and 0 <= start - s.end <= 2), None)
        # an article before the model counts nothing ("an L4 GPU" names the model, the labelling rules' "a/an
        # <model>"); a model said after a comma is a clause of its own ("needs GPUs, RTX 6000 model")
        if model_before is not None or any(s.kind == "gpu_model" and 0 <= s.start - match.end() <= 2
                                           and not text[match.end():s.start].strip(" -") for s in slots):
            continue
        # "a GPU with 24 GB", "ne GPU mit 24 GB": one GPU asked for, with a property
        single = _ONE_GPU.fullmatch(word) is not None and bool(_ONE_BEFORE.search(before))
        if single or _GPU_ITSELF.fullmatch(word) or GPU_REQUEST_AFTER.match(after) or GPU_REQUEST_VERB.search(
                before) or (
                GPU_REQUEST_BEFORE.search(before) and not GPU_PROPERTY_AFTER.match(after)):
            add(Candidate("prefer_gpu", start, number=1.0, cue=match.group(0)))


def _read_model_compounds(h: _Hint) -> None:
    """"eine A100-Grafikkarte", "an H100 GPU": an article before a model-and-GPU compound counts one GPU."""
    text, slots, add, clause_of = h.text, h.slots, h.add, h.clause_of
    for slot in slots:
        if slot.kind != "gpu_model" or any(c.intent == "prefer_gpu" for c in h.candidates):
            continue
        clause = clause_of(slot.start)
        if clause is None or h.negated(clause, slot.start):
            continue
        if _ONE_BEFORE.search(text[clause.start:slot.start]) and _GPU_SUFFIX.match(text[slot.end:]):
            add(Candidate("prefer_gpu", slot.start, number=1.0, cue=text[slot.start:slot.end + 12].strip()))


def _read_cues(h: _Hint) -> None:
    """Cue specs over the hint with names blanked, negated as their clause says."""
    text, slots, relations, clauses, skipped = h.text, h.slots, h.relations, h.clauses, h.skipped
    add, masked = h.add, h.masked
    # Cues read the hint with names blanked out: "between rack-1 and rack-2" is not "between racks".
    cue_chars = list(masked)
    for slot in slots:
        if slot.kind in ("zone", "region", "rack", "node"):
            cue_chars[slot.start:slot.end] = " " * (slot.end - slot.start)
    for match in _NUMA_NODE.finditer(text):  # "un même nœud NUMA" is no node of the cluster
        cue_chars[match.start():match.end()] = " " * (match.end() - match.start())
    cue_text = h.cue_text = "".join(cue_chars)
    related = {clause_at(clauses, r.start).sentence for r in relations if clause_at(clauses, r.start)}
    # where a resource amount ends ("8 GPUs", "16 cores", "GPUs"): "8 GPUs on the same machine" asks for
    # them in one pod's node, not for the replicas together
    amounts = [s.end for s in slots if s.kind in ("gpus", "cores", "size")] + [m.end() for m in GPU_WORD.finditer(text)]
    # where a rate or a network word ends: "400 Gb/s between the nodes" is the link's reach, no spread
    links = [s.end for s in slots if s.kind == "rate"] + [m.end() for m in _NETWORK_CUES.finditer(text)]
    for clause in clauses:
        if clause.sentence in skipped:
            continue
        for cue in CUES:
            for match in cue.pattern.finditer(cue_text, clause.start, clause.end):
                if h.clause_of(match.start()) is None:
                    continue  # a reason or a question after the wish asks for nothing
                if clause.sentence in related and _SAME.match(match.group(0)):
                    continue  # "next to redis, on the same node": the node of the other workload
                if cue.intent == _COLOCATE and not clause.negated_at(match.start()) and not ANY_LEVEL.search(
                        match.group(0)) and any(
                        0 <= r.start - match.end() <= _VERB_TO_RELATION for r in relations):
                    continue  # "co-locate in the same zone as elasticsearch": the relation to it, not own replicas
                if cue.intent == _COLOCATE and not clause.negated_at(match.start()) and any(r.level == NODE and (
                        match.start() <= r.end <= match.end()
                        or (r.end <= match.start() and _JUST_LOCATIVE.fullmatch(text, r.end, match.start())))
                        for r in relations):
                    # "alongside redis-shard on one node", "together with token-cache on one node": the one node is
                    # the relation's, shared with it, not the own replicas together
                    continue
                if cue.intent == _COLOCATE and any(clause.start <= end <= match.start() and _JUST_LOCATIVE.fullmatch(
                        text, end, match.start()) for end in amounts):
                    continue
                if (cue.intent or "").startswith("spread_") and _passes_a_level(match.group(0)):
                    # "spread over racks least busy nodes first": the spread's level came first; "ein Pod pro
                    # Knoten über Racks verteilt": the cue may start again after the first level
                    match = _after_first_level(cue.pattern, cue_text, match)
                    if match is None:
                        continue
                if (cue.intent or "").startswith("spread_") and any(
                        clause.start <= end <= match.start() and not text[end:match.start()].strip() for end in links):
                    continue
                if cue.elided_level and _level_before(h, match.start()) != cue.elided_level:
                    continue  # "todas juntas en uno" is one node only after a node was said
                negated = h.negated(clause, match.start())
                intent = cue.when_negated if negated else cue.intent
                if not negated and intent is not None and (intent.startswith("spread_") or intent == _COLOCATE) \
                        and _permitted(h, clause):
                    continue  # "they may sit on different nodes": allowed, not asked for
                if negated and HEDGE.search(text, clause.start, clause.end):
                    intent = None  # "not necessarily the same node" allows it, it does not ask for the opposite
                    if cue.when_negated == _SPREAD_NODES and cue.intent != _SPREAD_NODES:
                        h.lifted_one_node.append(match.start())  # "together, but not necessarily on one node"
                if intent:
                    add(Candidate(intent, match.start(), cue=match.group(0).strip(), negated=negated))
                if intent and intent.startswith("spread_"):
                    # "spread over different nodes and racks": the co-ordinated level is spread too
                    more = _MORE_LEVELS.match(cue_text, match.end())
                    if more and (more.group(0).lstrip().startswith(",")
                                 and not _LEVEL_LIST_END.match(cue_text, more.end())):
                        more = None  # "réparti sur les zones, nœuds peu chargés": the node word heads a wish of its own
                    if more:
                        level = next(name for name, word in _LEVEL_WORDS if re.fullmatch(word, more.group(1)))
                        add(Candidate(level, more.start(1), cue=more.group(0).strip()))


# a permission that ends its clause ("nah zusammen, dürfen aber | auf verschiedenen Knoten liegen")
_PERMISSION_LAST = re.compile(PERMISSION.pattern + r"\W*$")


def _level_before(h: _Hint, position: int) -> str | None:
    """The level (by its spread intent) of the last level word before ``position`` in its sentence."""
    start = max((m.end() for m in _FULL_STOP.finditer(h.text, 0, position)), default=0)
    last = None
    for found in ANY_LEVEL.finditer(h.cue_text, start, position):
        last = found
    if last is None:
        return None
    return next(name for name, word in _LEVEL_WORDS if re.fullmatch(word, last.group(0)))


def _permitted(h: _Hint, clause: Clause) -> bool:
    """Whether ``clause`` says what is allowed rather than wished: a permission word in it, or one that ends
    the clause right before it (no full stop between), where a contrast word cut the clause from its verb;
    never with a negation (a prohibition) or a limit ("darf höchstens eine Replika")."""
    if REFUSAL.search(h.text, clause.start, clause.end) or AT_MOST.search(h.text, clause.start, clause.end):
        return False  # "darf nicht ...", "darf höchstens eine": a prohibition or a limit, read as such
    if PERMISSION.search(h.text, clause.start, clause.end):
        return True
    before = [c for c in h.clauses if c.end <= clause.start]
    if not before or _FULL_STOP.search(h.text, before[-1].end, clause.start):
        return False
    words = h.text[before[-1].start:before[-1].end]
    return _PERMISSION_LAST.search(words) is not None and not REFUSAL.search(words) and not AT_MOST.search(words)


def _together_but_apart(h: _Hint) -> None:
    """"keep them together, but not on the same node", "juntas pero no en un solo nodo": together said without a
    level, then a refusal of one node in its clause or the one joined to it (no full stop between), is close but
    not one node (nearby), never one node and one per node at once. A refusal only hedged ("together, but not
    necessarily on one node") lifts the one node the same way: close, and one node is not required."""
    candidates = h.candidates

    def joined(together: Candidate, clause: Clause, position: int) -> bool:
        other = h.clause_of(position)
        return (position >= together.position + len(together.cue) and other is not None
                and other.sentence - clause.sentence <= 1
                and not _FULL_STOP.search(h.text, together.position, position))

    for together in [c for c in candidates if c.intent == _COLOCATE and not c.negated and not ANY_LEVEL.search(c.cue)]:
        clause = h.clause_of(together.position)
        if clause is None:
            continue
        refusals = [c for c in candidates
                    if c.intent == _SPREAD_NODES and c.negated and joined(together, clause, c.position)]
        if refusals or any(joined(together, clause, p) for p in h.lifted_one_node):
            together.intent = _NEARBY
            for refusal in refusals:
                candidates.remove(refusal)
    # "close, but not stacked on one node": close said first, then a refusal of one node joined to it, is the
    # same closeness said again with its limit (nearby, not one node), no spread over nodes
    for close in [c for c in candidates if c.intent == _NEARBY and not c.negated]:
        clause = h.clause_of(close.position)
        if clause is None:
            continue
        for refusal in [c for c in candidates
                        if c.intent == _SPREAD_NODES and c.negated and joined(close, clause, c.position)]:
            candidates.remove(refusal)


def _passes_a_level(cue: str) -> bool:
    """Whether a spread cue's words hold a level word before the one it ends on: its gap ran past the
    level it spreads over into another wish ("spread over racks, least busy nodes" typed without the comma)."""
    levels = list(ANY_LEVEL.finditer(cue))
    return len(levels) >= 2 and not _MORE_LEVELS.match(cue, levels[-2].end())


def _after_first_level(pattern: re.Pattern[str], cue_text: str, match: re.Match[str]) -> re.Match[str] | None:
    """The spread cue inside ``match`` that starts after its first level word, if one there passes no level."""
    while match is not None and _passes_a_level(match.group(0)):
        first = ANY_LEVEL.search(match.group(0))
        match = pattern.search(cue_text, match.start() + first.end(), match.end())
    return match


def _read_bare_spreads(h: _Hint) -> None:
    """"racks: spread em": a spread verb without a level takes the one level its sentence names."""
    clauses, skipped, add = h.clauses, h.skipped, h.add
    cue_text = h.cue_text
    spread_found = {clause_at(clauses, c.position).sentence for c in h.candidates
                    if c.intent.startswith("spread_") and clause_at(clauses, c.position) is not None}
    for clause in clauses:
        if clause.sentence in skipped or clause.sentence in spread_found:
            continue
        verb = _BARE_SPREAD.search(cue_text, clause.start, clause.end)
        # a negation anywhere before the end, or one after the verb ("repartir por zonas sobra"), negates it;
        # the verb's own position first, so the polarity guard sees the negation used ("kein spreading")
        if verb is None or h.negated(clause, verb.start()) or h.negated(clause, clause.end):
            continue
        if _permitted(h, clause):
            continue  # "sie dürfen ruhig verteilt werden": allowed, not asked for
        sentence = [c for c in clauses if c.sentence == clause.sentence]
        # a level another wish already reads ("distributed training ... all in the same rack") is that
        # wish's, not one to spread over
        said = _ONE_LEVEL.sub(lambda m: " " * len(m.group(0)),
                              _without_cues(cue_text, h.candidates, sentence[0].start, sentence[-1].end))
        levels = {name for name, word in _LEVEL_WORDS if re.search(rf"(?<![\w-])(?:{word})(?![\w-])", said)}
        # "spread (the replicas) over us-east-1a, us-east-1b and us-east-1c": the places it names after the verb, two
        # or more of one kind, say the level ("spread it in eu-west-1" is no spread over regions)
        # ... or before it, said last ("über eu-north-1 und eu-south-2 verteilen"): a list's "und" cuts no list
        sentence_start = sentence[0].start
        listed = _listed_after(h, verb.end(), clause.end) or [
            s for s in _listed_before(h, sentence_start, verb.start())
            if not any(c.negated and c.start < verb.start() and c.end > s.start for c in sentence)]
        if listed and clause.negated_at(listed[0].start):
            listed = []  # refused places are no spread's ("spread, but not on rack-1 or rack-2" typed as one clause)
        if not levels and len({str(s.value) for s in listed}) >= 2:
            levels = {f"spread_{listed[0].kind}s"}
        # "spread the workers", "die Replikas verteilen": without a level, the workload's own instances
        # spread over nodes (ARCHITECTURE 2.2: apart -> spread_nodes)
        if not levels and _OWN_INSTANCES.search(cue_text, clause.start, clause.end):
            levels = {"spread_nodes"}
        if len(levels) == 1:
            add(Candidate(levels.pop(), verb.start(), cue=verb.group(0)))
            spread_found.add(clause.sentence)


def _listed_after(h: _Hint, start: int, end: int) -> list[Slot]:
    """The first place named in [start, end) and the places of its kind listed right after it ("us-east-1a,
    us-east-1b and us-east-1c"), past the clause's end: a list's commas cut no list."""
    first = next((s for s in h.slots if s.kind in _PLACES and start <= s.start < end), None)
    listed = [first] if first else []
    for slot in (s for s in h.slots if first and s.kind == first.kind and s.start >= first.end):
        if not _only_list_glue(h.text[listed[-1].end:slot.start]):
            break
        listed.append(slot)
    return listed


_COURTESY_WORDS = concept_words("courtesy")


def _listed_before(h: _Hint, start: int, end: int) -> list[Slot]:
    """The places of one kind listed right before a verb said last ("über eu-north-1 und eu-south-2 verteilen"):
    the list in [start, end) whose last item nothing but courtesy or filler parts from the verb."""
    places = [s for s in h.slots if s.kind in _PLACES and start <= s.start and s.end <= end]
    if not places or re.search(r"[^\W_]", _COURTESY_WORDS.sub(" ", FILLER.sub(" ", h.text[places[-1].end:end]))):
        return []
    listed = [places[-1]]
    for slot in reversed(places[:-1]):
        if slot.kind != listed[0].kind or not _only_list_glue(h.text[slot.end:listed[0].start]):
            break
        listed.insert(0, slot)
    return listed


# What may stand beside a level word and its strength in a spread said again by its level alone ("zones are a must",
# "y las regiones, obligatorio", "Zonen sind Pflicht", "les zones, c'est impératif")
_STRENGTH_LEAD = any_of(WEAK, STRONG, concept_words("strength_lead"))
_ELIDED_FILL = any_of(WEAK, STRONG, concept_words("copula"), concept_words("plural_verb"), concept_words("also"))
_ELIDED_LEAD = re.compile(expand(r"[\W_]*(?:(?:{articles}|{and_word}|{also})(?![\w-])[\W_]*)*"))
# "Preferably also across racks.", "Am liebsten auch über Racks.", "Preferably across racks too.": with "also", the
# spread's strength and its preposition may come before the level too
_ELIDED_LEAD_ALSO = re.compile(expand(
    r"[\W_]*(?:(?:{articles}|{and_word}|{also}|{weak}|{strong}|{across_word}|{place_preposition}|{per})(?![\w-])[\W_]*)*"))
_ALSO = re.compile(expand(r"(?<![\w-]){also}(?![\w-])"))
_WORD = re.compile(r"[^\W_]")
_SPREAD_LEVELS = tuple((name, re.compile(rf"(?<![\w-])(?:{word})(?![\w-])")) for name, word in _LEVEL_WORDS
                       if name != "spread_nodes")


def _read_elided_spreads(h: _Hint) -> None:
    """"Maybe spread over racks; zones are a must": after a spread over one level, a clause that is nothing but
    another level's word and a strength word of its own says that spread again at its level, with its strength.
    A named place, a negation or a second level in the clause reads nothing."""
    text, slots = h.text, h.slots
    spreads = [c for c in h.candidates if c.intent.startswith("spread_") and not c.negated]
    for index, clause in enumerate(h.clauses):
        if not spreads or clause.sentence in h.skipped or clause.negated:
            continue
        # "De préférence aussi | sur les racks": a lead cut off as a clause of its own is still the lead
        head = min(c.start for c in h.clauses if c.sentence == clause.sentence)
        start = head if head < clause.start and _ELIDED_LEAD_ALSO.fullmatch(text, head, clause.start) else clause.start
        # its own strength word, or one standing alone right after it ("les zones, c'est impératif")
        following = h.clauses[index + 1] if index + 1 < len(h.clauses) else None
        if not any(p.search(text, start, clause.end) for p in (WEAK, STRONG)) and not (
                following is not None and following.sentence == clause.sentence and not following.negated
                and following.strength_word and following.strength_word == clause.strength_word
                and any(p.search(text, following.start, following.end) for p in (WEAK, STRONG))
                and is_bare(text, [], following.start, following.end, _STRENGTH_LEAD)):
            continue
        if any(clause.start <= s.start < clause.end for s in slots):
            continue
        levels = [(name, m) for name, pattern in _SPREAD_LEVELS
                  for m in pattern.finditer(text, clause.start, clause.end)]
        if len(levels) != 1:
            continue
        name, level = levels[0]
        rest = text[level.end():words_end(text, clause.start, clause.end)]
        lead = _ELIDED_LEAD.fullmatch(text, clause.start, level.start()) or (
            _ELIDED_LEAD_ALSO.fullmatch(text, start, level.start())
            and (_ALSO.search(text, start, level.start()) or _ALSO.search(rest)))
        if not lead or _WORD.search(_ELIDED_FILL.sub(" ", rest)):
            continue
        if any(c.intent == name for c in h.candidates) or not any(
                c.position < clause.start and c.intent != name for c in spreads):
            continue
        h.add(Candidate(name, level.start(), cue=level.group(0)))


# "in one rack", "en el mismo rack": a level said as the one place to share is none to spread over
_ONE_LEVEL = re.compile(rf"(?<![\w-]){group('single')}\s+(?:" + LEVEL_WORDS + r")(?![\w-])")


def _without_cues(cue_text: str, candidates: list[Candidate], start: int, end: int) -> str:
    """``cue_text[start:end]`` with the words of the candidates' cues blanked."""
    chars = list(cue_text[start:end])
    for c in candidates:
        at = cue_text.find(c.cue, c.position)
        if c.cue and start <= at < end:
            chars[at - start:at - start + len(c.cue)] = " " * len(c.cue)
    return "".join(chars)[: end - start]


# The passes, in order: names and numbers are masked before the cues read the text.
# A need said through its absence: a refusal of a place that lacks a resource ("don't run it on a node without a
# GPU", "aucun nœud dépourvu de SSD"), or a lack next to what the workload then fails to do ("without nvme it won't
# run", "sin ssd no arranca"; lang/*/fails_without.txt): two negations that add up to the resource wished. A comma or
# a full stop between the refusal and the place ends the refusal ("avoid rack-3, nodes without a GPU are fine").
_NEEDED = (("prefer_gpu", "{gpu_words}"), ("prefer_ssd_storage", "(?:{cue_ssd})"))
_GAP = r"(?:[\w'’-]+\s+){0,2}?"
_NEED_PATTERNS = tuple((intent, re.compile(expand(
    r"{b}(?:{negation_before})(?![\w-])[^.,;:!?\n]{0,60}?{b}(?:{level_node})(?![\w-])\s+" + _GAP + r"(?:{lacking})\s+"
    + _GAP + resource + r"|{b}(?:{lacking})\s+" + _GAP + resource + r"[\w-]*(?:\s+[\w'’-]+){0,3}?\s*,?\s*"
    r"(?:{fails_without})(?![\w-])|{b}(?:{fails_without})\s+" + _GAP + r"(?:{lacking})\s+" + _GAP + resource)))
    for intent, resource in _NEEDED)
# No GPU needed, then plain nodes said to be fine ("no h/w accel needed, regular nodes r fine";
# lang/*/plain_nodes_fine.txt): the plain nodes are the wish, so the GPU nodes are avoided.
_PLAIN_NODES_FINE = re.compile(expand(
    r"{b}(?:{negation_before}|{not_needed})(?![\w-])[^.;!?\n]{0,30}?{gpu_words}[^.;!?\n]{0,30}?(?:{plain_nodes_fine})(?![\w-])"))


def _read_needs_by_absence(h: _Hint) -> None:
    """A resource refused to be lacking, or whose lack stops the workload, is wished (``_NEED_PATTERNS``); the
    refusal of the resource its lack was first read as is dropped."""
    for intent, pattern in _NEED_PATTERNS:
        for match in pattern.finditer(h.text):
            clause = h.clause_of(match.start())
            if clause is None:
                continue
            start, end = match.span()
            h.candidates[:] = [c for c in h.candidates if not (c.negated and start <= c.position < end)]
            h.add(Candidate(intent, start, number=1.0 if intent == "prefer_gpu" else None, cue=match.group(0)))
    for match in _PLAIN_NODES_FINE.finditer(h.text):
        if h.clause_of(match.start()) is not None:
            h.add(Candidate("avoid_gpu_nodes", match.start(), cue=match.group(0), negated=True))


_PASSES = (_read_names, _read_relations, _read_numbers, _read_counts_of_them, _read_cores_about, _read_gpu_words,
           _read_model_compounds, _read_cues, _together_but_apart, _read_bare_spreads, _read_elided_spreads,
           _read_needs_by_absence)


def _bare_from(text: str, start: int, end: int, slots: list[Slot]) -> bool:
    """Whether [start, end) is nothing but a refusal of something said before it ("skip it", "no.", "nope"), or a
    negation, a word pointing back and one verb of its own, naming nothing ("nimm ihn nicht", "no lo toques"); a
    consequence word may open it ("so skip it", "donc on le laisse tranquille") and a hedge soften it ("skip it
    if possible")."""
    lead = _LEADING_CONSEQUENCE.match(text, start, end)
    start = lead.end() if lead else start
    end = words_end(text, start, end)
    # a negation that negates nothing ("..., not critical": not_negating) is no refusal
    if not (negations(NEGATION_BEFORE, text, start, end) or negations(NEGATION_AFTER, text, start, end)) or \
            _REFUSAL_REFUSED.search(text, start, end):
        return False
    if INDIFFERENT.search(text, start, end):
        return False  # "peu importe la zone", "egal welche Zone": an indifference refuses nothing
    if not REFUSAL.search(WEAK.sub(lambda m: " " * len(m.group()), text[start:end])):
        return False  # its negation is part of a hedge ("..., not critical"): it grades, it refuses nothing
    rest = REFUSAL_WORDS.sub(" ", text[start:end])
    if not re.search(r"[^\W\d_]", WEAK.sub(" ", rest)):
        return True  # nothing but the refusal, maybe hedged ("skip it if possible")
    rest_words = re.findall(r"[^\W\d_]+", rest)
    return (len(rest_words) == 1 and bool(REFERENCE.search(text, start, end))
            and not any(start <= s.start < end for s in slots))


def _refusal_start(text: str, clause: Clause, slots: list[Slot]) -> int | None:
    """Where the bare refusal that ends ``clause`` starts (``_bare_from``): the clause itself, or a consequence
    word inside it that joins the refusal to what was said of a place, typed without punctuation ("tok-9 keeps
    dropping off the network so skip it"). None when the clause ends in no bare refusal."""
    if _bare_from(text, clause.start, clause.end, slots):
        return clause.start
    for match in _CONSEQUENCE_WORD.finditer(text, clause.start, clause.end):
        if match.start() > clause.start and _bare_from(text, match.start(), clause.end, slots):
            return match.start()
    return None


_PLACES = ("zone", "region", "rack", "node")
_LEVEL_OF = {f"{polarity}_{place}s": place for polarity in ("prefer", "avoid") for place in _PLACES}
# The level words of each place kind ("zone" -> zones, AZ, Zone, zona, ...).
_LEVEL_WORD = {name.removeprefix("spread_")[:-1]: re.compile(rf"(?<![\w-])(?:{word})(?![\w-])")
               for name, word in _LEVEL_WORDS}
_LOCATIVE_ONLY = re.compile(expand(r"\s*(?:{locative}|{geo_locative}|{place_preposition})\s+(?:{articles}\s+)?"))
_JOINED_PLACE = re.compile(expand(r"\s*(?:(?:{locative}|{geo_locative}|{place_preposition})\s+(?:{articles}\s+)?)?")
                           + r"(?:(?:" + WEAK.pattern + "|" + STRONG.pattern + r"|" + LEVEL_WORDS + r")\s+)?")
_LIST_JOIN = re.compile(expand(r"\s*(?:,|{list_join})\s*"))
_SHORT_ITEM = re.compile(r"\s+([a-z]|\d{1,2})(?![\w-])")  # "zones a", "Zone b": no name of its own


def _unnamed_items(text: str, start: int, end: int, level: str, slots: list[Slot]) -> bool:
    """Items of another level than ``level`` too short to be read as names in [start, end): a level word
    followed by a letter or a small number ("zones a and b", "Zone a oder b", "zonas b y c")."""
    for name, pattern in _LEVEL_WORD.items():
        if name == level:
            continue
        for match in pattern.finditer(text, start, end):
            item = _SHORT_ITEM.match(text, match.end(), end)
            if item and not any(s.start <= item.start(1) < s.end for s in slots):
                return True
    return False


def _qualifies_relation(text: str, candidate: Candidate, candidates: list[Candidate], start: int) -> bool:
    """A place joined by a locative alone to a workload relation before it ("not next to redis-cache in
    eu-west-1"): it says where that workload is."""
    return any(o.intent.endswith("_as_deployments") and start <= o.position < candidate.position
               and _LOCATIVE_ONLY.fullmatch(text, o.position + len(o.cue), candidate.position) for o in candidates)


def _refused_item_place(text: str, clauses: list[Clause], clause: Clause, candidate: Candidate,
                        slots: list[Slot], candidates: list[Candidate]) -> bool:
    """A place named bare after unnamed items of a refused list of another level ("avoid zones a and b in
    us-east-1", "nicht in Zone a oder b von us-east-1") or right after a refused workload relation ("not
    next to redis-cache in eu-west-1"): it says where the refused things are, so neither preferring nor
    avoiding it is what the negation meant."""
    level = _LEVEL_OF.get(candidate.intent)
    if level is None or candidate.cue not in candidate.items:
        return False
    spans, negated, index = [(clause.start, candidate.position)], clause.negated, clauses.index(clause)
    while not negated and not own_wish(text, clauses[index]) and index > 0 and (
            clauses[index - 1].sentence == clause.sentence):
        index -= 1
        spans.append((clauses[index].start, clauses[index].end))
        negated = clauses[index].negated
    if not negated:
        return False
    if any(_unnamed_items(text, start, end, level, slots) for start, end in spans):
        return True
    # the first place of a list says where ("... than kafka-mirror on m07 or m08"): so do the others
    first = candidate
    for other in sorted(candidates, key=lambda c: -c.position):
        if other.intent == first.intent and other.position < first.position and _LIST_JOIN.fullmatch(
                text, other.position + len(other.cue), first.position):
            first = other
    return (_qualifies_relation(text, first, candidates, spans[-1][0])
            or _qualifies_place(text, clause, first, candidates))


def _qualifies_place(text: str, clause: Clause, candidate: Candidate, candidates: list[Candidate]) -> bool:
    """A place right after a refused place of another level, joined by a locative, its level word or
    nothing ("off rack-12 in eu-west-1", "not on us-east-1c eu-west-1 if possible", "nicht in rack r3
    region westeurope"): it may say where the refused place is, or be a wish of its own once the
    punctuation is gone; neither reading is certain."""
    level = _LEVEL_OF.get(candidate.intent)
    before = [o for o in candidates if o.negated and clause.start <= o.position < candidate.position
              and _LEVEL_OF.get(o.intent) not in (None, level) and o.cue in o.items]
    return any(_JOINED_PLACE.fullmatch(text, o.position + len(o.cue), candidate.position) for o in before)


# A place said right after a preposition of separation ("out of", "fuera de", "aus", "hors de"; lang/*/separative.txt),
# with an article and level word between at most: never where the pod is wished.
# (a name may be quoted: "run it on `m07`", backticks read as plain quotes)
_BEFORE_NAME = (r"\s*(?:(?:{articles}|{elided_articles})\s*)?(?:(?:" + LEVEL_WORDS
                + r")\s+)?['\"]?$")  # an article and a level word at most, up to the name
_SEPARATED = re.compile(expand(r"(?<![\w-]){separative}" + _BEFORE_NAME))


_PREPOSITION_BEFORE = re.compile(expand(r"(?<![\w-])(?:{locative}|{geo_locative}|{place_preposition})" + _BEFORE_NAME))


def _subject(text: str, clauses: list[Clause], clause: Clause, candidate: Candidate,
             slots: list[Slot]) -> tuple[int, int] | None:
    """Where the place of a preference, alone or as the first of a list ("r2-07 and r2-08 are bad"), ends as
    a subject, and where the clause of its last place ends (``polarity_guard.undescribed`` reads what is said
    of it there); None for a place after its preposition ("stay in eu-central-1": no subject)."""
    own = next((s for s in slots if s.start == candidate.position and s.kind in _PLACES), None)
    if own is None or _PREPOSITION_BEFORE.search(text, clause.start, candidate.position):
        return None
    end = own.end
    for slot in sorted((s for s in slots if s.kind == own.kind and s.start >= end), key=lambda s: s.start):
        between = text[end:slot.start]
        if _SENTENCE_MARK.search(between) or not _only_list_glue(between):
            break
        end = slot.end  # "rack r2-07 and rack r2-08 are flaky": the subject is the whole list
    return end, (clause_at(clauses, end - 1) or clause).end


_SENTENCE_MARK = re.compile(r"[.;:!?]")
# "that node", "ce nœud", "dieser Knoten": a demonstrative and a level word (lang/*/back_place.txt)
_BACK_DEMONSTRATIVE = {kind: re.compile(r"(?<![\w-])" + group("back_place") + r"\s+" + pattern.pattern)
                       for kind, pattern in _LEVEL_WORD.items()}
# "..., región que debe evitarse", "..., which should be avoided": a relative opening the clause (its level word
# before it)
_BACK_RELATIVE = re.compile(r"[\s,;:-]*(?:" + group("articles") + r"\s+)?(?:(" + LEVEL_WORDS + r")\s*,?\s+)?("
                            + group("back_place_relative") + r")(?![\w-])")
_REASON = re.compile(r"(?<![\w-])(?:" + group("because") + "|" + group("purpose") + r")(?![\w-])")
_CONSEQUENCE_WORD = re.compile(r"(?<![\w-])" + group("consequence") + r"(?![\w-])")
_LEADING_CONSEQUENCE = re.compile(r"[\s,:]*" + group("consequence") + r"(?![\w-])")


def _runs_on_from_refusal(text: str, clauses: list[Clause], clause: Clause) -> bool:
    """Whether ``clause`` follows a refusing clause of its sentence with no punctuation between ("weg von zone a
    rein in zone b"): its preposition of place alone does not tell a new wish from the refusal going on."""
    index = clauses.index(clause)
    previous = clauses[index - 1] if index else None
    return bool(previous is not None and previous.sentence == clause.sentence and previous.negated
                and not text[previous.end:clause.start].strip())


def _wished_level(candidate: Candidate) -> bool:
    """A preference for a named place (zone, region, rack, node)."""
    return candidate.intent in _LEVEL_OF and candidate.intent.startswith("prefer_")


def _wished_place(text: str, clauses: list[Clause], candidate: Candidate, slots: list[Slot],
                  candidates: list[Candidate], names: list[tuple[int, int]]) -> bool:
    """Whether the words around a place say it is wished: a preposition of place before it ("in", "auf",
    "dans"), a wish or strength word of its clause that refuses nothing ("deploy", "prefer", "am liebsten"),
    an approval after it ("rack-4 works"), other wishes read in its clause ("zone a 12 cores 25gbit"), or
    nothing but the place itself ("rack-4 pls"); or it continues a list whose first item is wished ("in
    us-east-1a or 1b"). Without any of these the words that say what the user wants of it are words the
    analyser does not know ("die Zone b hatte Ausfälle, eine andere nehmen"), and a place is never guessed
    to be wished."""
    place = next((s for s in slots if s.start == candidate.position and s.kind in _PLACES), None)
    clause = clause_at(clauses, candidate.position)
    if place is None or clause is None:
        return True  # no name of its own to judge
    last = place  # "racks r4-41 and r4-42 are fine": what is said after a list is said of every item
    for slot in sorted((s for s in slots if s.kind == place.kind and s.start >= place.end), key=lambda s: s.start):
        if not _only_list_glue(text[last.end:slot.start]):
            break
        last = slot
    if clause.strength_word or (_PREPOSITION_BEFORE.search(text, clause.start, place.start)
                                and not _runs_on_from_refusal(text, clauses, clause)):
        return True
    list_end = clause_at(clauses, last.start)
    if list_end is not None and list_end is not clause and any(
            o.intent.startswith("spread_") and not o.negated and last.end <= o.position < list_end.end
            for o in candidates):
        return True  # "über eu-north-1 und eu-south-2 verteilen": a spread said last, over the whole list
    if _LABELLED.search(text, clause.start, place.start) or _AS_LEVEL.match(text, last.end):
        return True  # "region is eu-west-1", "zone = us-east-1a", "eu-west-1a as zone": the level's value
    unwished = [(m.start(), m.end()) for p in (REFUSAL, _CONSEQUENCE_WORD) for m in p.finditer(text, clause.start,
                                                                                                clause.end)]
    if any(not any(s < m.end() and m.start() < e for s, e in unwished)
           for p in (WISH, WEAK, STRONG) for m in p.finditer(text, clause.start, clause.end)):
        return True
    if any(clause.start <= s < clause.end for s, _ in inert_phrases(text)):
        return True  # "no zone other than X"
    after = clause_at(clauses, last.start) or clause
    if any(APPROVAL.match(text, last.end + m.start()) for m in re.finditer(r"\s", text[last.end:after.end])):
        return True
    if any(o.intent not in _LEVEL_OF and not o.negated and not o.intent.startswith("avoid_")
           and clause.start <= o.position < clause.end for o in candidates):  # "zone a 12 cores 25gbit"
        return True
    # "rack-4 pls", "zone: eu-west-1a": nothing but the place, unless its sentence goes on with words that
    # read nothing ("zone us-east-1b: hard pass")
    following = next((c for c in clauses if c.sentence == clause.sentence and c.start >= clause.end), None)
    reason = _REASON.search(text, place.end, clause.end)  # "region eu-west-1 for data residency"
    if is_bare(text, names, clause.start, reason.start() if reason else clause.end, _PLACE_GLUE) and (
            following is None or is_bare(text, names, following.start, following.end, _PLACE_GLUE)
            or any(following.start <= o.position < following.end and not _wished_level(o) for o in candidates)):
        return True
    before = max((s for s in slots if s.kind == place.kind and s.end <= place.start), key=lambda s: s.start,
                 default=None)
    return before is not None and _only_list_glue(text[before.end:place.start]) and any(
        c.position == before.start and _wished_level(c) for c in candidates) and _wished_place(
        text, clauses, replace(candidate, position=before.start), slots, candidates, names)


def polarity_safe(text: str, clauses: list[Clause], slots: list[Slot], candidates: list[Candidate]) -> list[Candidate]:
    """Candidates whose polarity is certain (a wrong answer is worse than none: "avoid X" must never
    become "prefer X").

    - One clause never gives an intent and its opposite from the same names or words: both are dropped.
    - A place that opens the clause right after a refused place of its kind, with no verb of its own
      ("avoid m05 and m06 pls they keep rebooting"), may continue the refused list: not preferred.
    - A refusal pointing back at the one place its sentence names and wishes nothing of ("m04 is flaky,
      skip it") avoids that place.
    - A refusal standing alone after a wish ("worker-3 keeps timing out, skip it", "node-7: no.", "rack-7? nope.")
      refuses something before it, and which reading the user meant is not certain: positive wishes of
      that sentence (or, when the refusal opens a sentence, of the one before) are dropped, spreads too
      ("el nodo w-3 falla, no lo uses" describes a failing node, it asks for no spread).
    - A place named bare after an item of a refused list of another level ("avoid zones a and b in
      us-east-1") says where the refused items are: neither preferred nor avoided.
    - A place said right after a preposition of separation ("out of rack-4", "fuera del rack-4") is never
      preferred: when no refusal word was read there, the refusal is in words the analyser does not know.
    - A preference for a place or workload its clause describes or complains about is dropped
      (``polarity_guard.undescribed``, the rule of descriptions; ``_subject`` tells it where a place subject ends).
    - A wish turned only by a refusal said after another wish that refusal also turns, with nothing listing the
      two ("all replicas on one node gpu nodes are to be avoided", typed without its full stop), is dropped: the
      refusal may end at the nearer wish (``_beyond_nearer_refused``).
    """
    names = [(s.start, s.end) for s in slots if s.kind in _PLACES]
    refused: set[tuple[int, int]] = set()  # (sentence, position): wishes in the sentence before it
    pointed: list[Candidate] = []  # avoidances of the places a refusal points back at
    replaced: set[int] = set()  # ids of the candidates those avoidances replace
    for clause in clauses:
        start = _refusal_start(text, clause, slots)
        if start is None:
            continue
        refused.add((clause.sentence, start))
        if clause is next(c for c in clauses if c.sentence == clause.sentence) and clause.sentence > 0:
            refused.add((clause.sentence - 1, start))
        found, old = _places_pointed_at(text, clauses, clause, start, candidates, slots)
        if not found:
            found = [replace(place, intent=f"avoid_{place.intent.removeprefix('prefer_')}")
                     for place in _places_named_before(text, clauses, clause, candidates, slots)]
            old = {id(place) for place in candidates if any(place.position == f.position for f in found)}
        if not found:
            found = _relation_refused_after_colon(text, clauses, clause, start, candidates)
            old = {id(c) for c in candidates if any(c.position == f.position for f in found)}
        pointed += found
        replaced |= old
    between = _refused_between(text, candidates)
    kept = []
    for candidate in candidates:
        clause = clause_at(clauses, candidate.position)
        if clause is None:
            kept.append(candidate)
            continue
        if id(candidate) in between:
            continue
        if id(candidate) in replaced:
            continue
        if any(s == clause.sentence and p > candidate.position for s, p in refused) and (
                opposites(candidate.intent) and not candidate.intent.startswith("avoid_")):
            continue
        if _refused_item_place(text, clauses, clause, candidate, slots, candidates):
            continue
        place_wish = _wished_level(candidate)
        if place_wish and _SEPARATED.search(text, clause.start, candidate.position):
            continue  # "halten Sie ihn aus Rack r-9 heraus": no wish for r-9
        if place_wish and not _wished_place(text, clauses, candidate, slots, candidates, names):
            continue  # "la region sa-east-1 nos sale carísima": no word wishes for it
        subject = _subject(text, clauses, clause, candidate, slots) if place_wish else None
        if (candidate := undescribed(text, clause, candidate, names, subject)) is None:
            continue  # a preference for a place or workload its clause describes ("Rack r-9 ist gesperrt")
        if _outside_refused_list(text, clause, candidate, names):
            continue  # "never on node-3 always on node-4": the refusal may end before node-4
        if approved(text, clause, candidate, names):
            continue  # "stay off node-3 node-4 works": which of them the refusal meant is not certain
        if _continues_refused_list(text, clauses, clause, candidate, candidates, names):
            continue
        if _beyond_nearer_refused(text, clause, candidate, candidates):
            continue
        if not candidate.negated and not candidate.intent.startswith("avoid_") and opposites(candidate.intent) and (
                _restates_refusal(text, clauses, clause)):
            continue  # "don't put it on spot nodes... i mean node spot-3": kept or corrected, not certain
        # a complained-about place is no rival of its refusal ("avoid m04 m04 keeps crashing")
        rivals = [o for o in candidates if o.intent in opposites(candidate.intent)
                  and clause_at(clauses, o.position) == clause
                  and (_about_same(candidate, o) or {candidate.intent, o.intent} == _PACK_AND_SPREAD)
                  and undescribed(text, clause, o, names) is not None]
        if rivals:
            continue
        kept.append(candidate)
    return kept + pointed


_LABELLED = re.compile(expand(r"(?<![\w-])(?:" + LEVEL_WORDS + r")\s*(?:{copula}|[:=])\s*$"))
# "eu-west-3a as zone", "eu-west-3a comme zone": the place given in its level's role, after it
_AS_LEVEL = re.compile(expand(r"\s+{as_role}\s+(?:{articles}\s+)?(?:" + LEVEL_WORDS + r"){e}"))
_INTERJECTION = re.compile(r"(?<![\w-])" + group("refusal_interjection") + r"(?![\w-])")
_LEVEL_OR_ARTICLE = re.compile(expand(r"(?<![\w-])(?:{articles}|") + LEVEL_WORDS + r")(?![\w-])")


_RESTATEMENT = re.compile(r"[\W_]*" + group("restatement") + r"(?![\w-])")


def _restates_refusal(text: str, clauses: list[Clause], clause: Clause) -> bool:
    """Whether ``clause`` opens with a correction or restatement ("i mean", "o sea", "ich meine", "je veux dire")
    right after a clause that refuses: whether it keeps the refusal or corrects it is not certain."""
    index = clauses.index(clause)
    return index > 0 and clauses[index - 1].negated and _RESTATEMENT.match(text, clause.start) is not None


_LISTED = re.compile(expand(r"[,/+&]|(?<![\w-])(?:{and_word}|{or_word}|{as_well_as})(?![\w-])"))


def _beyond_nearer_refused(text: str, clause: Clause, candidate: Candidate, candidates: list[Candidate]) -> bool:
    """Whether ``candidate`` is turned only by a refusal said after it (``Clause.negations_after``) while another
    turned wish of another intent follows it in its clause with nothing that lists the two: "alle Replikate auf
    einem Knoten GPU-Knoten sind zu meiden", "todas en un solo nodo hay que evitar los nodos gpu" refuse the GPU
    nodes, and whether the one node too is not certain."""
    if not candidate.negated or clause.inherited_negation or any(
            end <= candidate.position for end in clause.negations_before):
        return False
    end = candidate.position + max(len(candidate.cue), 1)
    return any(o.negated and o.intent != candidate.intent and end <= o.position < clause.end
               and not _LISTED.search(text, end, o.position) for o in candidates)


def _refused_between(text: str, candidates: list[Candidate]) -> set[int]:
    """Places on both sides of a one-word refusal that stands alone between them (level words and articles aside),
    typed without punctuation
    ("eu-central-1 nope eu-west-1", "rack r-3 no rack r-4"): the word may refuse the place before it as well as
    the one after it, so neither polarity is certain (ids of both candidates)."""
    places = sorted((c for c in candidates if c.intent in _LEVEL_OF and c.cue in c.items), key=lambda c: c.position)
    doubtful: set[int] = set()
    for before, after in pairwise(places):
        words = text[before.position + len(before.cue):after.position]
        if (before.intent.startswith("prefer_") and after.intent.startswith("avoid_") and _INTERJECTION.search(words)
                and not re.search(r"[^\w\s-]", words)
                and not re.search(r"[^\W_]", _LEVEL_OR_ARTICLE.sub(" ", _INTERJECTION.sub(" ", words)))):
            doubtful.update((id(before), id(after)))
    return doubtful


def _places_pointed_at(text: str, clauses: list[Clause], refusal: Clause, start: int, candidates: list[Candidate],
                       slots: list[Slot]) -> tuple[list[Candidate], set[int]]:
    """The avoidances a refusal that points back says, and the ids of the candidates they replace: "m04 is flaky,
    skip it", "der Knoten k-4 spinnt, nimm ihn nicht", "los nodos db1 y db2 fallan, evítalos", "noisy neighbours
    on w-31 and w-32 so avoid those", "le nœud n-7 redémarre sans arrêt, donc on le laisse tranquille".
    ``start``: where the refusal starts in ``refusal`` (``_refusal_start``). What it points back at is said before
    it in its sentence, or, when it opens its sentence, in the sentence before: one place, or one list of places
    of one kind, named and wished nothing of (no wish or strength word, no other intent read, no negation of the
    places). Else which reading was meant is not certain, and nothing is read. The avoidance takes the strength of
    the refusal ("if possible leave it out": 0.5)."""
    if not REFERENCE.search(text, start, refusal.end):
        return [], set()
    before = [c for c in clauses if c.sentence == refusal.sentence and c.end <= refusal.start]
    if not before and start == refusal.start and refusal.sentence > 0:  # "tok-9 drops off the net. skip it"
        before = [c for c in clauses if c.sentence == refusal.sentence - 1]
    first = before[0].start if before else refusal.start
    if first >= start:
        return [], set()
    # a "so" right before the refusal joins it to the complaint: it is the refusal's, no wish of its own
    joined = _CONSEQUENCE.search(text, first, start)
    said = (first, joined.start() if joined else start)
    places = sorted((s for s in slots if s.kind in _PLACES and first <= s.start < start), key=lambda s: s.start)
    # a strength word after the places is the complaint's ("rack-9 runs way too hot"); before them it may wish
    if not places or WISH.search(text, *said) or any(p.search(text, first, places[0].start) for p in (WEAK, STRONG)):
        return [], set()
    if not places or len({s.kind for s in places}) != 1 or not all(
            _only_list_glue(text[a.end:b.start]) for a, b in pairwise(places)):
        return [], set()  # none, or two antecedents: which one is meant is not certain
    spans = [(s.start, s.end) for s in places]
    found = [c for c in candidates if first <= c.position < start]
    # words read across a named place are about that place ("le nœud w-4 plante" names no node outage)
    if any((c.position, c.position + len(c.cue)) not in spans and (c.items or not any(
            c.position < s < c.position + len(c.cue) for s, _ in spans)) for c in found):
        return [], set()  # another wish is read there: the refusal may be its
    if any(not c.intent.startswith("prefer_") or c.negated for c in found if c.items):
        return [], set()  # a place already refused ("not m04, m05 ..."): not one antecedent
    kind = places[0].kind
    avoided = [Candidate(f"avoid_{kind}s", s.start, items=(str(s.value),), cue=str(s.value), negated=True,
                         strength_at=start) for s in places]
    return avoided, {id(c) for c in found}


_INSTEAD = concept_words("instead")
_SPACES = re.compile(r"\s*")
_QUESTION_MARK = "?"
_CONSEQUENCE = re.compile(r"(?<![\w-])" + group("consequence") + r"[\s,:]*$")


def _places_named_before(text: str, clauses: list[Clause], refusal: Clause, candidates: list[Candidate],
                         slots: list[Slot]) -> list[Candidate]:
    """The places a bare refusal refuses when all that comes before it in its sentence (or, when it opens
    its sentence, in the one before) is their names: places of one kind, with level words, articles and
    fillers only ("rack-b07: no", "us-east-1c — nope", "rack-3 and rack-4 — neither, thanks"). Empty
    when anything else is said there: then which reading was meant is not certain."""
    sentence = [c for c in clauses if c.sentence == refusal.sentence]
    if refusal is sentence[0]:
        sentence = [c for c in clauses if c.sentence == refusal.sentence - 1] + sentence
    start = sentence[0].start
    found = [c for c in candidates if start <= c.position < refusal.start]
    kinds = {c.intent for c in found}
    names = [(s.start, s.end) for s in slots if s.kind in _PLACES]
    if len(kinds) != 1 or not kinds.pop().startswith("prefer_") or _LEVEL_OF.get(found[0].intent) is None or any(
            c.cue not in c.items for c in found) or WISH.search(text, start, refusal.start) or not is_bare(
            text, names, start, refusal.start, _NOTHING):
        return []
    return found


def _relation_refused_after_colon(text: str, clauses: list[Clause], refusal: Clause, start: int,
                                  candidates: list[Candidate]) -> list[Candidate]:
    """A relation to another workload said first, then a bare refusal after a colon or a dash ("sharing a node
    with pg-main: never", "mismo nodo que pg-main: ni hablar", "cohabiter avec pg-main sur un même nœud : en aucun
    cas"): the relation is refused, with the refusal's strength. Only when the relation is all that is read before
    it in its sentence, with no wish and no negation of its own; else nothing. A refusal that points back at it
    after a comma ("la zone de quota-svc, on l'évite", "pay-svc's zone, we avoid it") refuses it too when nothing but
    the relation is said before it."""
    before = [c for c in clauses if c.sentence == refusal.sentence and c.end <= refusal.start]
    if not before:
        return []
    colon = _COLON_BEFORE.search(text, before[-1].end, start)
    if not colon and not REFERENCE.search(text, start, refusal.end):
        return []
    first = before[0].start
    found = [c for c in candidates if first <= c.position < refusal.start]
    if len(found) != 1 or not found[0].items or found[0].negated or WISH.search(text, first, refusal.start) or any(
            c.negations_before or c.negations_after for c in before):
        return []
    if not colon and not is_bare(text, [(found[0].position, found[0].position + len(found[0].cue))], first,
                                 refusal.start, _LIST_GLUE):
        return []  # "X, avoid it" points back at the relation only when the relation is all that is said before it
    avoid = sorted(o for o in opposites(found[0].intent) if o.startswith("avoid_") and o.endswith("_deployments"))
    if not avoid:
        return []
    return [replace(found[0], intent=avoid[0], negated=True, strength_at=start)]


# a colon or a dash between a relation and the refusal of it ("same node as pg-main: never", "... — nope")
_COLON_BEFORE = re.compile(r"\s*(?:[:—–]|\s-)\s*$")


_NOTHING = re.compile(r"$^")


# What may stand between two items of one refused list: joiners, articles, prepositions, level words
# ("avoid rack-4, rack-5 and rack-7", "not on node-3 or on node-4", "evita el rack-4 y también el rack-5").
_LIST_GLUE = re.compile(expand(r"(?<![\w-])(?:{list_join}|{as_well_as}|{also}|{locative}|{geo_locative}|"
                               r"{place_preposition}|{articles})(?![\w-])") + "|" + "|".join(
    rf"(?<![\w-])(?:{word})(?![\w-])" for _, word in _LEVEL_WORDS))


# What may stand around a place said bare: list glue, elided articles and courtesy ("rack-4 pls", "l'az b").
# ... and a count of the workload's own instances beside the place ("us-east-1b, 3 replicas"): it asks nothing
_PLACE_GLUE = re.compile(_LIST_GLUE.pattern + "|" + expand(
    r"(?<![\w-])(?:{elided_articles}|{courtesy}|\d{1,3}\s+{own_instances})(?![\w-])"))


def _only_list_glue(words: str) -> bool:
    """Whether ``words`` hold nothing but what joins the items of a list (and filler)."""
    return not re.search(r"[^\W_]", _LIST_GLUE.sub(" ", FILLER.sub(" ", words)))


def _continues_refused_list(text: str, clauses: list[Clause], clause: Clause, candidate: Candidate,
                            candidates: list[Candidate], names: list[tuple[int, int]]) -> bool:
    """A place that opens the clause right after a refused place of its kind ("avoid m05 and m06 ...")
    without a verb of its own: the list may go on, so preferring it is not certain. Not so when the refusal
    was said whole after its place and this one is approved after a comma ("rack r40 is best avoided, rack r41
    would be best", "knoten ws-12 auslassen, ws-14 geht")."""
    if not candidate.intent.startswith("prefer_") or f"avoid_{candidate.intent[7:]}" not in {
            c.intent for c in candidates}:
        return False
    index = clauses.index(clause)
    if index == 0 or clauses[index - 1].sentence != clause.sentence or not clauses[index - 1].negated:
        return False
    previous = clauses[index - 1]
    refused = any(c.intent == f"avoid_{candidate.intent[7:]}" and previous.start <= c.position < previous.end
                  for c in candidates)
    opening = text[clause.start:candidate.position]
    # "not us-central1-a, us-central1-b instead": the alternative chosen after a comma, no item of the refused list
    # ("avoid rack-1 and rack-2 instead" refuses both)
    comma = text[previous.end:clause.start].strip() == ","
    chosen = comma and _INSTEAD.search(text, candidate.position, clause.end)
    # typed without the comma the refusal may reach on ("rack r-31 meiden rack r-32 wäre am besten"): not certain
    end = next((e for s, e in names if s == candidate.position), candidate.position)
    chosen = chosen or (comma and refused_whole(text, names, previous) and APPROVAL.match(text, end, clause.end))
    return refused and _only_list_glue(opening) and not chosen


def _outside_refused_list(text: str, clause: Clause, candidate: Candidate, names: list[tuple[int, int]]) -> bool:
    """A place turned to a refusal by a negation before an earlier name of its clause, with words between
    the two that join no list ("never on node-3 always on node-4", "skip rack-4 go with rack-6"): typed
    without punctuation, the refusal may have ended before it, so its polarity is not certain."""
    if not candidate.negated or _LEVEL_OF.get(candidate.intent) is None:
        return False
    before = [end for start, end in names if clause.start <= start and end <= candidate.position]
    if not before:
        return False
    between = text[max(before):candidate.position]
    if NEGATION_BEFORE.search(between) or NEGATION_AFTER.search(text, candidate.position, clause.end):
        return False  # a negation of its own refuses it for sure
    return not _only_list_glue(between)


# One node for every replica and a node for each: in one clause, where its words stop being one wish and start
# being the other is not certain (typed without punctuation); said in two clauses both are read (a conflict).
_PACK_AND_SPREAD = frozenset({"prefer_colocate_same_deployment", "spread_nodes"})


def _about_same(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates read the same thing two ways: the same names, or (for intents without
    names) overlapping words. "all on one node + multi-region" asks for two things (a contradiction
    the scorer weighs); one phrase read both ways is a doubt."""
    if a.items or b.items:
        return bool({i.lower() for i in a.items} & {i.lower() for i in b.items})
    return a.position < b.position + max(len(b.cue), 1) and b.position < a.position + max(len(a.cue), 1)


def strength_of(reading: Reading, candidate: Candidate) -> tuple[float, str]:
    """The strength of the clause a candidate was found in, and the word that set it."""
    clause = clause_at(reading.clauses, candidate.strength_at if candidate.strength_at >= 0 else candidate.position)
    if clause is None:
        return 1.0, ""
    return clause.strength, clause.strength_word


def to_raw(reading: Reading) -> list[dict]:
    """Merge candidates into raw intent objects (one per intent name) for the shared normaliser."""
    merged: dict[str, dict] = {}
    counted: set[str] = set()  # intents whose strength came from a stated amount
    for candidate in sorted(reading.candidates, key=lambda c: c.position):
        spec = BY_NAME[candidate.intent]
        strength, word = strength_of(reading, candidate)
        entry = merged.get(candidate.intent)
        if entry is None:
            entry = {"intent": candidate.intent, "confidence": candidate.confidence, "strength": strength,
                     "explanation": f"'{word}'" if word else "", "metadata": {}}
            merged[candidate.intent] = entry
        else:
            entry["confidence"] = max(entry["confidence"], candidate.confidence)
            if word and ((candidate.number is not None and candidate.intent not in counted) or (
                    not entry["explanation"] and not candidate.items and candidate.number is None)):
                # "the more RAM the better, 256g ideally": the amount's own strength word says how much it
                # matters; so does a restated wish's ("close together, same rack ideally")
                entry["strength"], entry["explanation"] = strength, f"'{word}'"
        if candidate.number is not None:
            counted.add(candidate.intent)
        for meta in spec.metadata:
            if meta.type.value == "list":
                items = entry["metadata"].setdefault(meta.key, [])
                items.extend(i for i in candidate.items if i not in items)
            else:
                current = entry["metadata"].get(meta.key)
                if candidate.number is not None:
                    entry["metadata"][meta.key] = max(current or 0.0, candidate.number)
                elif current is None:
                    entry["metadata"][meta.key] = 1.0
    return list(merged.values())
