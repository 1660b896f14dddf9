"""Clause segmentation, with the strength and negation scope of each clause.

ARCHITECTURE 2.2: strength belongs to its own clause ("must have 100 Gbps, ideally on rack-3" ->
1.5 and 0.5). A hint is cut into sentences at hard boundaries (``.``, ``;``, "but", "aber", ...)
and each sentence into segments at soft ones (``,``, "and", "y", "und", ":"). A segment without a
strength word of its own continues the previous one ("must have 2 GPUs and 64GB RAM") unless it
opens a new wish ("..., should spread over racks"); a segment that is nothing but a strength word
("If possible, ...", "Required: ...") passes its strength on. Negation never crosses a boundary,
except into a segment that only continues a list of names ("avoid m02 and m03"). People type hints
without punctuation too, so a segment is also cut where a new wish begins (``_unpunctuated``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, auto
from itertools import pairwise

from webhook.analysers.embedded.concepts import CUES, GPU_WORD
from webhook.analysers.embedded.langdata import expand, group
from webhook.analysers.embedded.lexicon import (
    ANY_LEVEL,
    FILLER,
    HARD_SPLIT,
    HEDGE,
    INDIFFERENT,
    LEVEL_WORDS,
    NEGATION_AFTER,
    NEGATION_BEFORE,
    NOT_NEEDED,
    NOT_NEGATING,
    OPENERS,
    SOFT_SPLIT,
    STRONG,
    TROUBLE,
    WEAK,
    WISH,
    any_of,
    concept_words,
)

WEAK_STRENGTH, NEUTRAL_STRENGTH, STRONG_STRENGTH = 0.5, 1.0, 1.5


@dataclass(frozen=True, slots=True)
class Clause:
    """One segment of the hint: [start, end) in the hint, its strength and its negation cues."""

    start: int
    end: int
    sentence: int  # index of the sentence (hard-split unit) it belongs to
    strength: float
    strength_word: str  # the word that set the strength ("" for neutral), for the explanation
    negations_before: tuple[int, ...]  # end offsets of cues that negate what follows them
    negations_after: tuple[int, ...]  # start offsets of cues that negate what precedes them
    inherited_negation: bool  # a bare continuation of a negated list

    def negated_at(self, position: int) -> bool:
        """Whether a name or cue at ``position`` (inside this clause) is negated."""
        if self.inherited_negation:
            return True
        return any(end <= position for end in self.negations_before) or any(
            start >= position for start in self.negations_after)

    @property
    def negated(self) -> bool:
        return self.inherited_negation or bool(self.negations_before or self.negations_after)


_AND = concept_words("and_word")
_LIKEWISE = concept_words("likewise")
# "..., rack r9 too", "..., rack r9 likewise": a place said again with the refusal before it
_SAID_AGAIN = any_of(_LIKEWISE, concept_words("also"))
# Signs that list items one after another (lexicon.SOFT_SPLIT): "8 cores, 32 GB", "8 cores / 32 GB", "2x H100 + 100G".
_LISTING = frozenset({",", "/", "+"})
_OR = concept_words("or_word")


def _joins(separator: str, alternatives: bool = False) -> bool:
    """Whether a soft separator co-ordinates ("and", "&"; with ``alternatives`` also "or" and ",")."""
    if separator == "&" or _AND.fullmatch(separator):
        return True
    return alternatives and (separator in _LISTING or _OR.fullmatch(separator) is not None)


def _spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[re.Match[str]]:
    return list(pattern.finditer(text, start, end))


def inert_phrases(text: str) -> list[tuple[int, int]]:
    """The spans of the phrases whose negation words negate nothing ("not only GPUs", "keine andere Zone
    als ...": ``NOT_NEGATING``), found over the whole text: "pas plus" stays one phrase though "plus" also
    co-ordinates. A caller that asks ``negations`` about many clauses finds them once and passes them on."""
    return [(m.start(), m.end()) for m in NOT_NEGATING.finditer(text)]


def negations(pattern: re.Pattern[str], text: str, start: int, end: int,
              inert: list[tuple[int, int]] | None = None) -> list[re.Match[str]]:
    """The matches of a negation ``pattern`` in [start, end) but those inside a phrase whose negation
    words negate nothing (``inert``: ``inert_phrases(text)``, found here when not given).

    The signs that close the clause are no words: a refusal said after its name ends the clause even
    when "*", "~" or '"' follow it ("lass den weg *" must not leave the node named and preferred)."""
    end = words_end(text, start, end)
    void = [(s, e) for s, e in (inert_phrases(text) if inert is None else inert) if s < end and e > start]
    return [m for m in pattern.finditer(text, start, end) if not any(s <= m.start() and m.end() <= e for s, e in void)]


_TRAILING_SIGNS = re.compile(r"[\W_]*$")


def words_end(text: str, start: int, end: int) -> int:
    """Where the words of [start, end) end: the signs that close a clause ("*", "~", '"') are no words."""
    match = _TRAILING_SIGNS.search(text, start, end)
    return match.start() if match else end


def _cuts(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Pieces of [start, end) between the matches of ``pattern``, each with the separator before it."""
    pieces, position, separator = [], start, ""
    for match in pattern.finditer(text, start, end):
        pieces.append((position, match.start(), separator))
        position, separator = match.end(), match.group(0).strip()
    pieces.append((position, end, separator))
    return [(s, e, sep) for s, e, sep in pieces if text[s:e].strip(" ,:;.")]


def is_bare(text: str, masked: list[tuple[int, int]], start: int, end: int, pattern: re.Pattern[str]) -> bool:
    """True when [start, end) holds nothing but masked names, fillers and words of ``pattern``."""
    chars = list(text[start:end])
    for s, e in masked:
        for i in range(max(s, start), min(e, end)):
            chars[i - start] = " "
    rest = FILLER.sub(" ", pattern.sub(" ", "".join(chars)))  # the pattern first: "a ser posible" starts with "a"
    return not re.sub(r"[\W_]+", "", rest)


def segment(text: str, names: list[tuple[int, int]] | None = None,
            amounts: list[int] | None = None, whole: list[tuple[int, int]] | None = None) -> list[Clause]:
    """Cut lower-cased ``text`` into clauses. ``names``: spans of extracted names (for list continuation);
    ``amounts``: where resource amounts start ("8 cores", "2TB"), which end a negation's scope; ``whole``: spans no
    cut falls inside (every slot: the unit of "384 gib of ram" is no German "gib")."""
    names = names or []
    inert = inert_phrases(text)
    clauses: list[Clause] = []
    said_before: tuple[list[Clause], list[bool], list[str]] | None = None  # the sentence before, marks, separators
    for sentence_index, (s_start, s_end, s_separator) in enumerate(_cuts(HARD_SPLIT, text, 0, len(text))):
        sentence: list[Clause] = []
        marked: list[bool] = []  # whether each clause has a strength word of its own
        separators: list[str] = []
        previous: Clause | None = None
        passes_on = False  # the previous segment's strength reaches into the next one
        bare_previous = False  # the previous segment was nothing but a strength word
        header = False  # "Critical: ..." governs the whole sentence
        header_names: bool | None = None  # whether what the header governs is a list of names
        for start, end, separator in _unpunctuated(text, _cuts(SOFT_SPLIT, text, s_start, s_end), names,
                                                   amounts or [], inert, whole or []):
            marks = sorted([(m.start(), WEAK_STRENGTH, m.group(0)) for m in _spans(WEAK, text, start, end)]
                           + [(m.start(), STRONG_STRENGTH, m.group(0)) for m in _spans(STRONG, text, start, end)])
            lead = start + len(text[start:end]) - len(text[start:end].lstrip())
            refused_after = [m.span() for m in negations(NEGATION_AFTER, text, start, end, inert)
                             if any(start <= s < m.start() for s, _ in names)
                             and not _LIKEWISE.match(text, _lead(text, m.end()))]
            # a refusal word said inside a refusal of the place before it ("zone a est à proscrire", "... kommt nicht
            # in Frage") refuses that place only, nothing after it ("... on prend zone b"), unless a likewise says it
            # again ("... est à proscrire de même que dans la baie b-7"); a refusal word alone ("rack a meiden rack b
            # ...") may refuse either way and stays as it is
            before = tuple(m.end() for m in negations(NEGATION_BEFORE, text, start, end, inert)
                           if not any(s <= m.start() and m.end() <= e and (s, e) != m.span() for s, e in refused_after))
            # "Out: us-east-1, us-east-2": a refusal label standing alone before a colon refuses what the colon lists;
            # typed without its colon ("out us-east-1 us-east-2 preferred us-west-2") it refuses the names after it
            if not before and text[end:end + 2].lstrip().startswith(":") and _REFUSAL_LABEL.search(
                    text, start, end) and is_bare(
                    text, [], start, end, _REFUSAL_LABEL):
                before = (words_end(text, start, end),)
            label = _labels_names(text, names, start, end)
            if not before and label is not None:
                before = (label,)
            after = tuple(m.start() for m in negations(NEGATION_AFTER, text, start, end, inert))
            # a clause that turns the polarity ("..., never us-east-1a") is a wish of its own
            turns = bool(before) and NEGATION_BEFORE.match(text, lead) is not None and not (
                previous is not None and previous.negated)
            # "Preferred: us-west-2, replicas across its zones": a label that lists names governs its list only
            listed = is_bare(text, names, start, end, _NOTHING) and any(start <= s < end for s, _ in names)
            if header and header_names is None:
                header_names = listed
            elif header and header_names and not listed:
                header = passes_on = False
            if marks:
                strength, word = marks[0][1], marks[0][2]
            elif previous is not None and (header or (passes_on and (
                    bare_previous or (separator not in _LISTING and not (OPENERS.match(text, _after_also(text, lead))
                                                                or turns))))):
                strength, word = previous.strength, previous.strength_word
            else:
                strength, word, passes_on = NEUTRAL_STRENGTH, "", False
            # only a list of names continues a negated list of names: "nada de GPU y en la región X" is a
            # new wish, "avoid m02 and m03" is not
            # "steer clear of gpu nodes and of rack-02/rack-03": the refusal's preposition said again before the
            # list; after refused GPU nodes, a list joined by "and" is refused with them
            body = _REPEATED_PREPOSITION.match(text, start)
            body_start = body.end() if body else start
            inherited = bool(previous is not None and previous.negated and not before and not after
                             and (is_bare(text, names, body_start, end, _NOTHING)
                                  or _names_then_remark(text, names, body_start, end))
                             and (previous.inherited_negation or any(previous.start <= s < previous.end
                                                                     for s, _ in names)
                                  or (_joins(separator) and any(body_start <= s < end for s, _ in names)
                                      and _LOCATIVE.match(text, lead) is None  # "... and in rack-5": a wish
                                      and _refused_gpu(text, previous.start, previous.end, inert) is not None))
                             # "Off rack-12, in eu-west-1": a comma and a new locative opens a positive wish;
                             # typed without one ("weg von zone a rein in zone b") it may too (rules._wished_place)
                             and not (separator in (*_LISTING, "") and _LOCATIVE.match(text, lead) is not None)
                             # "nicht in rack r3, region westeurope": a level of its own is no list item, unless
                             # "and" / "or" joins it to the refused list ("avoid eu-west-2 and rack z5")
                             and not (_new_level(text, previous, lead)
                                      and not (_joins(separator) or _OR.fullmatch(separator)))
                             # "rack r8 is off limits, rack r9": the refusal was said whole before ("..., rack r9
                             # too" says it again)
                             and not (refused_whole(text, names, previous)
                                      and not _SAID_AGAIN.search(text, start, end)))
            # "avoid: rack-1, rack-2": a refusal standing alone before a colon refuses what the colon lists
            inherited = inherited or bool(
                previous is not None and separator == ":" and not before and not after and previous.negations_before
                and is_bare(text, [], previous.start, previous.end, _LABEL_REFUSES))
            # "..., ebenso im Rack X", "de même que dans la baie X": a likewise says the refusal before it again;
            # so does one after the name it adds ("kn-41 ebenso"), also as a sentence of its own ("Avoid node
            # n-1. Node n-2 likewise.")
            said_again = _likewise_item(text, names, start, end)
            refused = previous if previous is not None else (clauses[-1] if clauses and said_again else None)
            inherited = inherited or bool(refused is not None and refused.negated and not before and not after
                                          and (_LIKEWISE.match(text, lead) or said_again))
            # "évite stp | de tout mettre sur le même nœud", "avoid, please, | putting all pods on one node": a refusal
            # verb with nothing but courtesy after it refuses the clause that follows, its object (not a new wish)
            # ("evítalo y busca uno con poca carga": after "and" a wish of its own)
            inherited = inherited or bool(previous is not None and not before and not after and not _joins(separator)
                                          and _refusal_before(text, sentence) and not OPENERS.match(text, lead))
            # "Vermeide es, | alles auf einen Knoten zu legen", "Ich möchte nicht, | dass ... landet": a refusal with
            # nothing but its subject, a wish verb or a pronoun standing for what follows refuses the object clause
            # after it (a zu-infinitive, "dass", "que")
            inherited = inherited or bool(previous is not None and not before and not after and not _joins(separator)
                                          and _COMPLEMENT.match(text, lead) and _refuses_complement(text, previous))
            clause = Clause(start, end, sentence_index, strength, word, before, after, inherited)
            sentence.append(clause)
            marked.append(bool(marks))
            separators.append(separator)
            # "SSDs and 128 GB RAM are required": a plural verb before the word takes in the items before.
            if marks and _PLURAL.search(text, start, marks[0][0]):
                index = len(sentence) - 1
                while index > 0 and _joins(separators[index]) and not marked[index - 1]:
                    target = sentence[index - 1]
                    sentence[index - 1] = Clause(target.start, target.end, target.sentence, strength, word,
                                                 target.negations_before, target.negations_after,
                                                 target.inherited_negation)
                    index -= 1
            # "ssd pls (must have), 10g nic": a strength word alone in brackets grades the segment before it,
            # when that one said none of its own, and reaches no further
            enclosed = bool(marks) and separator == "(" and text[end:end + 1] == ")" and len(sentence) >= 2 and (
                not marked[-2]) and is_bare(text, [], start, end, _STRENGTH_LEAD)
            if enclosed:
                target = sentence[-2]
                sentence[-2] = Clause(target.start, target.end, target.sentence, strength, word,
                                      target.negations_before, target.negations_after, target.inherited_negation)
            # Strength carries on to the next segment when it was said up front ("Preferably X and Y",
            # "Required: X", "If possible, X") or when it is still running ("must have X and Y"); a word
            # said after its object ("NVMe required, 32 cores") closes with its segment.
            bare_previous = False
            if marks:
                # "racks too if possible" names a thing before its strength word: it closes with its segment
                names_thing = ANY_LEVEL.search(text, start, marks[0][0]) is not None
                passes_on = not names_thing and is_bare(text, [], start, marks[0][0], _STRENGTH_LEAD)
                bare_previous = not names_thing and (is_bare(text, [], start, end, _STRENGTH_LEAD)  # "If possible, ..."
                                                     # "it is essential that the pods | stay out of rack-7"
                                                     or (passes_on and _THAT_SUBJECT.fullmatch(
                                                         text, marks[0][0] + len(marks[0][2]), end) is not None))
                passes_on = (passes_on or bare_previous) and not enclosed
                bare_previous = bare_previous and not enclosed
                # "Critical: ...", "Critical service: ...": a short label before a colon governs the sentence
                if previous is None and text[end:end + 2].lstrip().startswith(":") and len(
                        text[start:end].split()) <= 3:
                    header = True
            previous = clause
        # "Racks 5 und 6 ausschließen", "rack-1 and rack-2 are off limits": a negation said after the list
        # reaches back over the bare list items co-ordinated before it.
        for index in range(len(sentence) - 1, 0, -1):
            if not sentence[index].negations_after:
                continue
            back = index
            while back > 0 and _joins(separators[back], alternatives=True) and is_bare(
                    text, names, sentence[back - 1].start, sentence[back - 1].end, _OBJECT_LEVEL) and not (
                    # "zone a bitte und zone a meiden": a list never names one place twice
                    _named_in(text, names, sentence[back - 1]) & _named_in(text, names, sentence[index])) and not (
                    # "In eu-west-1, die Zone eu-west-1b aber nicht": a place said with its own preposition stays
                    separators[back] in _LISTING
                    and _LOCATIVE.match(text, _lead(text, sentence[back - 1].start)) is not None):
                target = sentence[back - 1]
                sentence[back - 1] = Clause(target.start, target.end, target.sentence, target.strength,
                                            target.strength_word, target.negations_before, target.negations_after, True)
                back -= 1
            # typed without punctuation the list's first item ends a longer segment ("... disque nvme les
            # nœuds node-a1 et node-a2 sont exclus"): that item is split off and refused with the list
            target = sentence[back - 1] if back > 0 else None
            tail = _named_tail(text, names, target) if target and separators[back] != "," and _joins(
                separators[back], alternatives=True) and any(s == _lead(text, sentence[back].start)
                                                            for s, _ in names) else None
            if target and tail is not None and not target.negated:
                sentence[back - 1:back] = [
                    Clause(target.start, tail, target.sentence, target.strength, target.strength_word, (), (), False),
                    Clause(tail, target.end, target.sentence, target.strength, target.strength_word, (), (), True)]
                separators.insert(back, "")
                marked.insert(back, False)
        # "critical - keep it out of eu-north-1": a strength word alone opening the hint before a dash grades the
        # sentence after it, as "Critical: ..." does (its clauses up to one with a strength word of its own)
        opened = said_before[0][0] if said_before is not None and len(said_before[0]) == 1 else None
        if (opened is not None and opened.sentence == 0 and said_before is not None and said_before[1][0]
                and _DASH.fullmatch(s_separator) and is_bare(text, [], opened.start, opened.end, _STRENGTH_LEAD)):
            for index, target in enumerate(sentence):
                if marked[index]:
                    break
                sentence[index] = Clause(target.start, target.end, target.sentence, opened.strength,
                                         opened.strength_word, target.negations_before, target.negations_after,
                                         target.inherited_negation)
        # "Spread over regions, absolutely.": a strength word standing alone at the end looks back.
        # It takes in the items co-ordinated with "and" before it ("500 GB scratch and an SSD, ideally").
        # So does one said after a dash ("keep them apart across racks — not negotiable"): it grades the
        # sentence before the dash, when that sentence said no strength of its own.
        looked_back = None
        if len(sentence) >= 2 and marked[-1] and not marked[-2]:
            looked_back = (sentence, marked, separators, len(sentence) - 2)
        elif (len(sentence) == 1 and marked[0] and _DASH.fullmatch(s_separator) and said_before is not None
              and said_before[0] and not any(said_before[1])):
            looked_back = (*said_before, len(said_before[0]) - 1)
        if looked_back is not None and is_bare(text, [], sentence[-1].start, sentence[-1].end, _STRENGTH_LEAD):
            last = sentence[-1]
            target_sentence, target_marked, target_separators, index = looked_back
            while index >= 0 and not target_marked[index]:
                target = target_sentence[index]
                target_sentence[index] = Clause(target.start, target.end, target.sentence, last.strength,
                                                last.strength_word, target.negations_before, target.negations_after,
                                                target.inherited_negation)
                # "numa alignment: meh, nice if free": a shrug between the wish and its strength passes it on
                if not _joins(target_separators[index]) and not (
                        _SHRUG.search(text, target.start, target.end) and is_bare(text, [], target.start, target.end,
                                                                                   _SHRUG)):
                    break
                index -= 1
            if target_sentence is not sentence:
                clauses[len(clauses) - len(target_sentence):] = target_sentence
        said_before = (sentence, marked, separators)
        clauses.extend(sentence)
    return clauses


_NOTHING = re.compile(r"$^")
# the preposition of a refusal said again before the next item of its list ("... and (also) of rack-3", "y de rack-3")
_REPEATED_PREPOSITION = re.compile(expand(r"\s*(?:{also}\s+)?(?:{of_word}|{from_word})\s+"))
_DASH = re.compile(r"[-–—]")
_SHRUG = concept_words("shrug")
_REFUSAL_LABEL = concept_words("refusal_label")
_LABEL_REFUSES = any_of(NEGATION_BEFORE, _REFUSAL_LABEL)


def refused_whole(text: str, names: list[tuple[int, int]], clause: Clause) -> bool:
    """Whether ``clause`` refuses its places with words said after them, after their list has ended ("rack r8 is
    off limits", "leave rack r8 out", "give rack r8 a miss", "rack r40 ideally not"): a place in the next clause is
    then no sure item of the refused list ("..., rack r9 too" says the refusal again), nor surely wished instead
    (``rules._continues_refused_list``): neither is read."""
    inside = sorted((s, e) for s, e in names if clause.start <= s < clause.end)
    if not inside or clause.inherited_negation:
        return False
    after = FILLER.sub(" ", text[inside[-1][1]:clause.end])
    return re.search(r"[^\W\d_]", after) is not None and (
        any(a >= inside[-1][1] for a in clause.negations_after)
        or any(b <= inside[0][0] for b in clause.negations_before))


def _named_in(text: str, names: list[tuple[int, int]], clause: Clause) -> set[str]:
    """The names said in ``clause``."""
    return {text[s:e] for s, e in names if clause.start <= s < clause.end}


def _likewise_item(text: str, names: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether [start, end) is a name and a likewise word, nothing else ("node n-2 likewise", "el n-5
    igualmente", "n-4 de même")."""
    return bool(_LIKEWISE.search(text, start, end)) and any(start <= s < end for s, _ in names) and is_bare(
        text, names, start, end, _LIKEWISE_ITEM)
_LEVELS = [re.compile(r"(?<![\w-])" + group(f"level_{level}") + r"(?![\w-])") for level in ("zone", "rack", "region")]


_LEVEL_BEFORE_NAME = re.compile(expand(
    r"{b}(?:{articles}\s+)?(?:{level_zone}|{level_region}|{level_rack}|{level_node})\s+$"))


def _named_tail(text: str, names: list[tuple[int, int]], clause: Clause) -> int | None:
    """Where a clause's closing "level word + name" starts ("... les nœuds node-a1"), if it ends with one."""
    inside = sorted((s, e) for s, e in names if clause.start <= s < clause.end)
    if not inside or not is_bare(text, [], inside[-1][1], clause.end, _NOTHING):
        return None
    level = _LEVEL_BEFORE_NAME.search(text, clause.start, inside[-1][0])
    return level.start() if level and level.start() > clause.start else None


def _new_level(text: str, previous: Clause, lead: int) -> bool:
    """Whether a segment opens with a level word the segment before it does not say ("..., region X")."""
    return any(p.match(text, lead) and not p.search(text, previous.start, previous.end) for p in _LEVELS)
_OPENING = concept_words("clause_opening")
_CLOSING = concept_words("clause_closing")
# "Eine GPU | braucht der Job nicht": a subject right after the verb makes what came before its object
_SUBJECT_AFTER_VERB = re.compile(r"\s+" + group("subject_after_verb") + r"(?![\w-])")
_NEGATION_OPEN = concept_words("negation_open")
_RELATIVE = concept_words("relative_pronoun")
_CUE_KINDS = (NOT_NEEDED, HEDGE, INDIFFERENT, _OPENING, _CLOSING, NEGATION_BEFORE, NEGATION_AFTER, WEAK, STRONG,
              _NEGATION_OPEN)
_CUE_WORDS = any_of(*_CUE_KINDS, concept_words("strength_lead"))
_VERB_SUBJECT = re.compile(r"(?<![\w-])" + group("verb_subject") + r"\s+$")
_LONG_CUES = (NOT_NEEDED, HEDGE, INDIFFERENT, NEGATION_AFTER, NEGATION_BEFORE, WEAK, STRONG)
_AUXILIARY = re.compile(r"\s+" + group("verb_subject") + r"(?![\w-])")
# a negation a few words before a verb-final wish is said after its object: "Knoten k-2 nicht benutzen"
_BEFORE_CLOSING = re.compile(r"\s+(?:[\w-]+\s+){0,2}?" + _CLOSING.pattern)
_WITH_OBJECT = re.compile(r"-" + group("object_pronoun") + r"$")
_WISH_CUES = (_OPENING, _CLOSING, NEGATION_BEFORE, WEAK, STRONG)
# what opens a scope that a new wish ends: a refusal, a hedge, "no need for", "don't care about"
_SCOPE_OPENERS = (NEGATION_BEFORE, HEDGE, _NEGATION_OPEN, NOT_NEEDED, INDIFFERENT)
_LEVEL_PHRASE = re.compile(expand(r"{b}{locative}\s+(?:{articles}\s+)?(?:{level_zone}|{level_region}|{level_rack}){e}"))
# words that tie an amount to what comes before it ("nodes with 2 GPUs", "more than 8 cores")
_COUNT_ONE = re.compile(expand(r"{count_one}{e}"))
_LINK = re.compile(expand(r"{b}(?:{with_word}|{than_word}|{of_word}|{per}|{relative_pronoun}){e}"))
_AMOUNT_LINK = re.compile(expand(r"{b}(?:{with_word}|{than_word}|{of_word}|{per})\s*$"))



class _Kind(Enum):
    """The kinds of word that may open a clause without punctuation."""

    OPEN = auto()  # a wish verb: "... needs 4 GPUs", "... stay off rack-2"
    CLOSE = auto()  # a verb-final wish, the cut goes after it: "über Zonen verteilen | in eu-central-1 bleiben"
    NEGATION = auto()  # a refusal: "run on m03 | do not run on m03"
    STRENGTH = auto()  # "no GPU | ideally 8 cores", "prefer node-21 | must avoid node-21"
    PLACE = auto()  # a place phrase: "no GPU | in region eu-west-2"
    AMOUNT = auto()  # "no GPU | 12 cores"
    CUE = auto()  # a wish of another kind: "stay off rack-10 | nodes with NVLink"
    NAME = auto()  # a place after a refused wish: "ils ne doivent pas partager de baie | zone ca-central-1a"


_OPEN, _CLOSE, _NEGATION, _STRENGTH, _PLACE, _AMOUNT, _CUE, _NAME = _Kind


@dataclass(frozen=True, slots=True)
class _Boundary:
    """A word where a new clause may begin: the clause starts at ``cut``; the word spans [start, end)."""

    cut: int
    start: int
    end: int
    kind: _Kind


@dataclass(frozen=True, slots=True)
class _Said:
    """What a piece has said between its start and a boundary."""

    cues: list[re.Match[str]]  # the cue words (negations, strength words, wish verbs, ...)
    negations: list[re.Match[str]]  # the cues among them that negate or hedge what follows
    inert: list[re.Match[str]]  # the cues inside a phrase that negates nothing ("no less than")
    things: list[int]  # where the names and amounts it holds start
    named: list[int]  # where the names (nodes, racks, zones, regions) it holds start
    wish: bool  # a cue that asks for something (a wish verb, a refusal, a strength word)
    quiet: bool  # nothing but cues and fillers since its last cue ("not spread", "you must avoid")
    refused_level: bool  # a level word after a refusal, what it refuses even unnamed ("not in zone a needs 4 GPUs")


def _unpunctuated(text: str, pieces: list[tuple[int, int, str]], names: list[tuple[int, int]],
                  amounts: list[int], inert: list[tuple[int, int]],
                  whole: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Cut each piece where a new wish begins although no punctuation says so ("not in zone a needs 4
    GPUs", "no GPU nodes 8 cores", "über Zonen verteilen in eu-central-1 bleiben").

    Each word that may open a clause (``_boundaries``) is tried in order; ``_opens_clause`` says whether
    it does, given what the piece has said since its last cut. A cut needs a word between the last cue
    and it ("not spread out", "you must avoid" stay whole) and words of substance after it ("rack-9 stay
    away" points back). ``inert``: ``inert_phrases(text)``; ``whole``: spans never cut inside."""
    out: list[tuple[int, int, str]] = []
    for start, end, separator in pieces:
        cuts = [start]
        boundaries = [b for b in _boundaries(text, start, end, names, amounts, inert)
                      if not any(s < b.cut < e for s, e in whole)]
        for boundary in boundaries:
            # an intent's cue is substance itself ("pas de gpu | spread sur les noeuds")
            if boundary.cut > cuts[-1] and (boundary.kind == _CUE or _substance(
                    text, max(boundary.cut, boundary.end), end)) and _opens_clause(
                    text, boundary, _said(text, cuts[-1], boundary, names, amounts, inert), cuts[-1], names):
                # "nvme de préférence | pas de nœud gpu": a strength word before a refusal is the one said after
                # its object
                after = boundary.kind == _STRENGTH and NEGATION_BEFORE.match(text, _lead(text, boundary.end))
                cuts.append(boundary.end if after else boundary.cut)
        # a strength word said after the last of several items is that item's ("8 cores ssd mandatory")
        cuts += [last for a, b in zip(cuts, [*cuts[1:], end], strict=True)
                 if (last := _last_item(text, a, b, boundaries, names, amounts)) is not None]
        cuts.sort()
        out += [(a, b, separator if a == start else "") for a, b in zip(cuts, [*cuts[1:], end], strict=True)]
    return _refused_objects(text, [(s, e, sep) for s, e, sep in out if text[s:e].strip(" ,:;.")], names, amounts,
                            inert)


def _last_item(text: str, start: int, end: int, boundaries: list[_Boundary], names: list[tuple[int, int]],
               amounts: list[int]) -> int | None:
    """Where the last of several items typed one after another begins when a strength word said after it
    ends [start, end) ("8 cores ssd mandatory", "32 coeurs 128go nvme de préférence"): the word is that item's,
    not the list's. None when the word comes first, something follows it, or one item only comes before it."""
    mark = min((m for p in (WEAK, STRONG) for m in _spans(p, text, start, end)), key=lambda m: m.start(), default=None)
    if mark is None or _substance(text, mark.end(), end) or not _substance(text, start, mark.start()):
        return None
    items = sorted({b.cut for b in boundaries if b.kind in (_AMOUNT, _CUE) and start < b.cut < mark.start()})
    if not items:
        return None
    last = items[-1]
    earlier = [p for p in (*items[:-1], *amounts, *(s for s, _ in names)) if start <= p < last]
    # the item before it is a word of its own ("8 cores | ssd"), not the count of this one ("2 | gpus")
    if not earlier or len(text[max(earlier):last].split()) < 2 or _PLURAL.search(text, last, mark.start()) or (
            _GOVERNED.search(text, start, last)):  # "48GB per | gpu would be nice": one item
        return None
    return last


_GOVERNED = re.compile(expand(r"(?<![\w-])(?:{per}|{of_word}|{place_preposition}|{with_word})\s+$"))


_LIKEWISE_ITEM = re.compile(expand(r"{b}(?:{likewise}|" + LEVEL_WORDS + r"|{articles}){e}"))
_GPU_NODES = re.compile(expand(r"[\s-]*{level_node}{e}"))
_NODES_GPU = re.compile(expand(r"{b}{level_node}[\s-]*$"))
_OBJECT_WORDS = re.compile(expand(r"{b}(?:" + LEVEL_WORDS + r"|{articles}|{list_join}){e}"))
_OBJECT_LEVEL = re.compile(expand(r"{b}(?:" + LEVEL_WORDS + r"){e}"))
_COPULA_BEFORE = re.compile(expand(r"{b}{copula}\s*$"))
# what may stand between an object and the refusal said after it: "to be", a word of contrast, the refusal's
# strength ("rack r-6 unbedingt meiden", "la région b est toutefois à exclure", "derselbe Knoten ist aber nicht nötig")
_GRADED_BEFORE = re.compile(r"(?:(?:" + any_of(WEAK, STRONG).pattern + r"|" + expand(
    r"{b}(?:{copula}|{concessive}|{verb_subject}){e}") + r")\s*){1,3}$")
_OBJECT_JOIN = re.compile(expand(r"[,/&+]|{b}{list_join}{e}"))
_COURTESY_END = re.compile(expand(r"{b}{courtesy}(?:\s+{also})?\s*$"))
_LOCATIVE_BEFORE = re.compile(r"(?<![\w-])" + group("locative") + r"\s+$")


def _object_start(text: str, names: list[tuple[int, int]], start: int, end: int) -> int | None:
    """Where the run of place names (with their level words and articles) that ends [start, end) begins,
    or None when [start, end) does not end in one."""
    heads = sorted({s for s, e in names if start <= s and e <= end}
                   | {m.start() for m in _OBJECT_LEVEL.finditer(text, start, end)})
    first: int | None = None  # the first head that fits
    later: int | None = None  # the first that fits with no unjoined level word after it
    for h in heads:
        level = _OBJECT_LEVEL.match(text, h)
        if level and _OBJECT_LEVEL.match(text, _lead(text, level.end())):
            continue  # "quiet nodes | rack r-5 must be avoided": a level word before another is no object's
        # a place said with its own preposition ("in eu-north-1 Racks r3 meiden") is a phrase of its own
        if not (any(h <= s < end for s, _ in names) and not _LOCATIVE_BEFORE.search(text, 0, h)
                and is_bare(text, names, h, end, _OBJECT_WORDS)):
            continue
        first = h if first is None else first
        if not _unjoined_level(text, names, h, end):
            later = h
            break
    # ... and so is one a level word follows with nothing joining them, when the words before it wish for it
    # ("de préférence dans la région X la zone Y est à proscrire": only Y); without a wish of its own the
    # earlier place stays refused too ("region X zone Y is a no-go")
    if later not in (None, first) and any(p.search(text, start, later) for p in (WISH, WEAK, STRONG)):
        return later
    return first


def _unjoined_level(text: str, names: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether a level word follows a place name in [start, end) with no joiner (a comma, "and", "or")
    between them: a new object begins there."""
    inside = sorted((s, e) for s, e in names if start <= s and e <= end)
    return any(_OBJECT_LEVEL.search(text, before, after) and not _OBJECT_JOIN.search(text, before, after)
               for (_, before), (after, _) in pairwise(inside))


def _cue_object(text: str, start: int, end: int) -> int | None:
    """Where the intent's cue that ends [start, end) begins, if one does and something is said before it."""
    end = start + len(text[start:end].rstrip())
    found = [m.start() for cue in CUES if cue.intent for m in cue.pattern.finditer(text, start, end)
             if m.end() == end and m.start() > start]
    found += [m.start() for p in (GPU_WORD, _WISH_OBJECT) for m in p.finditer(text, start, end)
              if m.end() == end and m.start() > start]
    head = min(found, default=None)
    # "sur un | même nœud en aucun cas": a phrase governed by what precedes it is no object of its own
    return None if head is None or _GOVERNING.search(text, start, head) else head
_GOVERNING = re.compile(expand(
    r"{b}(?:{articles}|{locative}|{place_preposition}|{of_word}|{with_word}|{one_article})\s+$"))
# what a "not needed" said after it may refuse besides a cue: "same node", "spread" ("... gleicher knoten ist nicht
# nötig", "... spread pas nécessaire")
_WISH_OBJECT = re.compile(expand(r"{b}(?:(?:{same_word})\s+(?:" + LEVEL_WORDS
                                 + r")|{spread_verb}|{spread_participle}){e}"))


def _refused_objects(text: str, pieces: list[tuple[int, int, str]], names: list[tuple[int, int]],
                     amounts: list[int], inert: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """A refusal said after its object ("Zone us-west-2b meiden", "Racks r3 und r4 meiden") refuses that
    object, not the wishes typed before it without punctuation ("... 16 GB RAM Zone us-west-2b meiden"):
    the piece is cut where its object begins, and so is the piece before a bare list item it continues."""
    out = list(pieces)
    for index in range(len(out) - 1, -1, -1):
        start, end, separator = out[index]
        refusal = next(iter(negations(NEGATION_AFTER, text, start, end, inert)), None)
        if refusal is None:
            continue
        target = index
        # "la zone X est à proscrire": the object ends before the verb "to be" in front of the refusal
        # "rack r-6 unbedingt meiden": the strength word of the refusal stands between it and its object
        closing = refusal.start()
        graded = _GRADED_BEFORE.search(text, start, closing)
        closing = graded.start() if graded else closing
        copula = _COPULA_BEFORE.search(text, start, closing)
        head = _object_start(text, names, start, copula.start() if copula else closing)
        if head is None and target == index:
            # "... nah beieinander liegen | gleicher knoten ist aber nicht nötig", "... 40g de ram | spread pas
            # nécessaire": the object is a wish of another kind
            head = _cue_object(text, start, copula.start() if copula else closing)
        if head == _lead(text, start) and index > 0 and _joins(separator, alternatives=True):
            target = index - 1  # "Racks r3 und r4 meiden": the object began in the piece before
            start, end, separator = out[target]
            head = _object_start(text, names, start, end)
        if head is None or head == _lead(text, start):
            continue
        things = [s for s, _ in names if start <= s < head] + [a for a in amounts if start <= a < head]
        # "prefer least-loaded nodes | rack-6 must be avoided": a wish of another kind before the object is whole
        things += [m.start() for cue in CUES if cue.intent for m in cue.pattern.finditer(text, start, head)
                   if m.end() <= head]
        strength = any(p.search(text, start, head) for p in (WEAK, STRONG))
        if things or (_substance(text, start, head) and not strength):
            out[target:target + 1] = [(start, head, separator), (head, end, "")]
    return out


def _boundaries(text: str, start: int, end: int, names: list[tuple[int, int]],
                amounts: list[int], inert: list[tuple[int, int]]) -> list[_Boundary]:
    """The words of [start, end) that may open a clause, in order; never a cue inside a longer one
    ("auf keinen Fall", "nicht ... benutzen")."""
    found = [_Boundary(m.start(), m.start(), m.end(), _OPEN) for m in _OPENING.finditer(text, start, end)]
    found += [_Boundary(m.end(), m.start(), m.end(), _CLOSE) for m in _CLOSING.finditer(text, start, end)]
    # a refusal said after its object ("Knoten m02 meiden", "rack-2 off limits", "Knoten k-2 nicht benutzen")
    # closes a clause, it opens none
    after = [(m.start(), m.end()) for m in NEGATION_AFTER.finditer(text, start, end)]
    found += [_Boundary(m.start(), m.start(), m.end(), _NEGATION)
              for m in negations(NEGATION_BEFORE, text, start, end, inert)
              if not (_CLOSING.fullmatch(m.group(0)) or any(s <= m.start() < e for s, e in after)
                      or _BEFORE_CLOSING.match(text, m.end(), end))]
    found += [_Boundary(m.start(), m.start(), m.end(), _STRENGTH) for p in (WEAK, STRONG)
              for m in p.finditer(text, start, end)]
    found += [_Boundary(m.start(), m.start(), m.end(), _PLACE) for m in _LEVEL_PHRASE.finditer(text, start, end)]
    # an amount in digits or number words ("sixteen cores"); never "one"/"a", which may be an article ("machine a
    # GPU" typed without its accent)
    found += [_Boundary(a, a, a, _AMOUNT) for a in amounts
              if start < a < end and (text[a].isdigit() or not _COUNT_ONE.match(text, a))]
    # an intent's cue is the substance of the clause it opens: it spans nothing here. It opens one only after a
    # refusal that has named its place (``_opens_clause``), or as the item a strength word after it belongs to
    # (``_last_item``): a piece with neither needs no cue.
    marked = WEAK.search(text, start, end) or STRONG.search(text, start, end)
    if marked or any(start <= s < end for s, _ in names) or _refused_gpu(text, start, end, inert) is not None:
        found += [_Boundary(m.start(), m.start(), m.start(), _CUE) for cue in CUES if cue.intent
                  for m in cue.pattern.finditer(text, start, end)]
    # so is a GPU word with a strength word of its own ("never on rack r-7 | gpu h100 if possible"; "stay off
    # rack-7 gpu nodes (if possible)" may refuse the rack's GPU nodes)
    if marked:
        found += [_Boundary(m.start(), m.start(), m.start(), _CUE) for m in GPU_WORD.finditer(text, start, end)
                  if (WEAK.search(text, m.end(), end) or STRONG.search(text, m.end(), end))
                  and not _GPU_NODES.match(text, m.end()) and not _NODES_GPU.search(text, start, m.start())]
    # a name, with the level word said before it ("zone ca-central-1a")
    for name_start, _ in names:
        if start < name_start < end:
            level = _LEVEL_BEFORE_NAME.search(text, start, name_start)
            cut = level.start() if level and level.start() > start else name_start
            found.append(_Boundary(cut, cut, cut, _NAME))
    inside = [(m.start(), m.end()) for p in _LONG_CUES for m in p.finditer(text, start, end)]
    return sorted((b for b in found if not any(s < b.start < e for s, e in inside)),
                  key=lambda b: (b.cut, b.start, b.end))


def _said(text: str, piece_start: int, boundary: _Boundary, names: list[tuple[int, int]],
          amounts: list[int], inert: list[tuple[int, int]] | None = None) -> _Said:
    """What [piece_start, boundary) says."""
    # what may stand beside a strength word ("it's a must") is no cue by itself
    cues = [m for m in _CUE_WORDS.finditer(text, piece_start, boundary.start) if m.end() <= boundary.start
            and any(p.fullmatch(m.group(0)) for p in _CUE_KINDS)]
    # "ne les répartissez pas": the second half of a negation said around its verb closes it; with nothing
    # but other cues between its halves ("ne surtout pas mettre") it negates the verb after it
    opened = [m for m in cues[:-1] if _NEGATION_OPEN.fullmatch(m.group(0))]
    closed = len(cues) >= 2 and NEGATION_BEFORE.fullmatch(cues[-1].group(0)) is not None and bool(opened) and (
        _substance(text, opened[-1].end(), cues[-1].start())
        or _OPENING.search(text, opened[-1].end(), cues[-1].start()) is not None)
    last = cues[-1].end() if cues and not closed else piece_start
    named = [s for s, _ in names if piece_start <= s < boundary.cut]
    return _Said(
        cues=cues,
        negations=[m for m in cues if any(p.fullmatch(m.group(0)) for p in _SCOPE_OPENERS)],
        # a negation word inside a phrase that negates nothing ("each with no less than 40 gb") refuses nothing
        inert=[m for m in cues if any(s <= m.start() and m.end() <= e for s, e in inert or [])],
        # what the piece names: places, amounts ("que no caiga | en la zona X" is one wish)
        things=named + [a for a in amounts if piece_start <= a < boundary.cut],
        named=named,
        wish=any(p.fullmatch(m.group(0)) for m in cues for p in _WISH_CUES),
        quiet=not re.sub(r"[\W_]+", "", FILLER.sub(" ", text[last:boundary.start])),
        refused_level=any(NEGATION_BEFORE.fullmatch(m.group(0)) for m in cues)
        and ANY_LEVEL.search(text, last, boundary.start) is not None)


def _labels_names(text: str, names: list[tuple[int, int]], start: int, end: int) -> int | None:
    """Where a refusal label that opens [start, end) ends, when nothing but names follows it ("out us-east-1
    us-east-2", a label typed without its colon): those names are what it refuses."""
    label = _REFUSAL_LABEL.match(text, _lead(text, start))
    if label is None or not any(label.end() <= s < end for s, _ in names) or not is_bare(
            text, names, label.end(), end, _NOTHING):
        return None
    return label.end()


def _refused_after_name(said: _Said) -> bool:
    """Whether the piece ends in a refusal said after a place it names ("rack-3 is off limits", "zone b is best
    left out"): that refusal is whole, so a wish verb or a strength word right after it opens the next wish, typed
    without punctuation ("... | run it in rack-5", "... kommt nicht in Frage | lieber ap-southeast-2")."""
    last = said.cues[-1] if said.cues else None
    return last is not None and NEGATION_AFTER.fullmatch(last.group(0)) is not None and any(
        p < last.start() for p in said.named)


def _opens_clause(text: str, boundary: _Boundary, said: _Said, piece_start: int,
                  names: list[tuple[int, int]]) -> bool:
    """Whether ``boundary`` opens a new clause after what the piece has ``said`` since ``piece_start``."""
    kind, cut = boundary.kind, boundary.cut
    # an imperative with its object pronoun attached ("mettez-le", "gardez-les") opens a clause of its own
    if kind == _OPEN and _WITH_OBJECT.search(text, boundary.start, boundary.end) and said.cues:
        return not _VERB_SUBJECT.search(text, piece_start, cut)
    if kind != _CLOSE and said.quiet and not (kind == _OPEN and said.refused_level) and not (
            kind in (_OPEN, _STRENGTH) and _refused_after_name(said)) and not (
            # "ssd preferably | no gpu nodes": a strength word said after its object, then a refusal
            kind == _NEGATION and len(said.cues) == 1
            and any(p.fullmatch(said.cues[0].group(0)) for p in (WEAK, STRONG))
            and _names_an_item(text, said, piece_start, said.cues[0].start())):
        return False  # nothing said since the last cue: "not spread", "you must avoid", "keep off"
    if kind == _CLOSE:
        # a verb-final wish closes a clause that says something before it ("nicht verteilen"; a refusal
        # needs its object: "Knoten m02 meiden", not "vermeiden werden soll rack-1"), and no auxiliary
        # follows it
        before = text[piece_start:boundary.start]
        refusal = NEGATION_BEFORE.fullmatch(text, boundary.start, boundary.end) is not None
        return bool(re.sub(r"[\W_]+", "", FILLER.sub(" ", before))) and not (
            refusal and not _substance(text, piece_start, boundary.start)) and not (
            # "verteilen wir" is one wish; "weg | wir brauchen 2 GPUs" opens the next
            _AUXILIARY.match(text, cut) and not _OPENING.match(text, _lead(text, cut)))
    if kind in (_OPEN, _NEGATION) and _VERB_SUBJECT.search(text, piece_start, cut):
        return False  # "they keep rebooting", "replicas are spread", "rack-2 is not ok": one remark
    if kind == _OPEN and TROUBLE.match(text, cut):
        return False  # "the nodes that run kafka keep crashing": a complaint, one remark with its subject
    if kind == _OPEN:
        # "each GPU should have 40 GB", "each replica needs its own rack": its subject; "eine GPU braucht der
        # Job nicht": its fronted object
        return bool(said.things or said.wish or said.negations) and not _SUBJECT_AFTER_VERB.match(text, boundary.end)
    if kind == _STRENGTH:
        # "prefer node-21 must avoid node-21": a strength word after a whole wish opens the next one; not one
        # that grades a refusal said after its object ("... die Zone Y ist unbedingt zu meiden": the object
        # before it is the refusal's, ``_refused_objects``)
        return bool(said.negations or (said.wish and said.things) or _refused_after_name(said)
                    or _labels_names(text, names, piece_start, boundary.start) is not None) and not (
            _grades_refusal_after(text, boundary))
    if kind == _NEGATION:
        # "us-east-1 is not ok" is one remark; "run on m03 do not run on m03", "2 A10s nothing fancier" are
        # two; "no nos quedemos sin servicio" is one; "on a machine that has no gpu", "sur un nœud qui n'a
        # pas de GPU": a negation inside a relative clause describes what the wish is about
        return bool(said.things or any(p.fullmatch(m.group(0)) for m in said.cues for p in (_OPENING, WEAK, STRONG))
                    or _closed_by_courtesy(text, piece_start, boundary.start)
                    ) and not _RELATIVE.search(text, piece_start, boundary.start)
    # a place phrase, an amount or a wish of another kind after a refusal: "no GPU | in region eu-west-2",
    # "no GPU | 12 cores"; once the refusal has named what it refuses, what follows is no part of it
    # ("stay off rack-10 | nodes with 25 Gbps", "nicht auf rack-4 | Knoten mit NVLink")
    # "gpu machines are off the table | 8 vcpu": a refusal said after its object is whole; an amount after it is a
    # wish of its own
    if kind == _AMOUNT and said.cues and said.cues[-1] in said.inert:
        return False  # "each with no less than | 40 gb": at least, the amount is the phrase's
    if kind == _AMOUNT and said.cues and NEGATION_AFTER.fullmatch(said.cues[-1].group(0)) and _substance(
            text, piece_start, said.cues[-1].start()):
        return True
    if not said.negations:
        return False
    refused_named = any(p >= said.negations[-1].end() for p in said.named)
    if kind == _PLACE:
        things = said.things + [m.start() for m in GPU_WORD.finditer(text, piece_start, cut)]
        return any(p >= said.negations[-1].end() for p in things)
    if kind == _AMOUNT:
        return refused_named or not _AMOUNT_LINK.search(text, piece_start, cut)
    if kind == _NAME:
        # what the refusal refuses is a wish of its own, no place ("ne doivent pas partager de baie")
        refused = said.negations[-1].end()
        return not refused_named and (GPU_WORD.search(text, refused, cut) is not None or any(
            cue.pattern.search(text, refused, cut) for cue in CUES))
    # a wish of another kind (_CUE) opens a clause only once the refusal has named its place: _boundaries
    # leaves the cues out of a piece that names none; or its GPU nodes, with nothing tying the cue to them
    # ("keine gpu-nodes | wenig last", "pas de gpu | spread sur les noeuds"; "no gpu nodes with ssd" stays one)
    gpu = _refused_gpu(text, said.negations[-1].start(), cut, [])
    refused_gpu = gpu is not None and not _substance_link(text, gpu, cut)
    return (refused_named or refused_gpu) and not any(s <= boundary.start < e for s, e in names)


def _refused_gpu(text: str, start: int, end: int, inert: list[tuple[int, int]]) -> int | None:
    """Where the GPU word a refusal of [start, end) refuses ends ("keine gpu-nodes", "pas de noeud gpu"), if any."""
    refusal = next(iter(negations(NEGATION_BEFORE, text, start, end, inert)), None)
    if refusal is None:
        return None
    gpu = GPU_WORD.search(text, refusal.end(), end)
    if gpu is None or len(text[refusal.end():gpu.start()].split()) > 2:
        return None
    nodes = _GPU_NODES.match(text, gpu.end())
    return nodes.end() if nodes else gpu.end()


def _substance_link(text: str, start: int, end: int) -> bool:
    """Whether [start, end) holds a word that ties what follows to what precedes ("with", "mit", "con", "than")."""
    return _LINK.search(text, start, end) is not None


_REFUSAL_OR_COURTESY = any_of(NEGATION_BEFORE, concept_words("courtesy"))
_INTERJECTION = concept_words("refusal_interjection")


_COURTESY = concept_words("courtesy")


def _refusal_before(text: str, sentence: list[Clause]) -> bool:
    """Whether the last clause of ``sentence`` said before this one, past clauses of courtesy alone ("avoid, |
    please, |"), is a refusal alone (``_refusal_alone``)."""
    for clause in reversed(sentence):
        if not is_bare(text, [], clause.start, clause.end, _COURTESY):
            return _refusal_alone(text, clause)
    return False


def _refusal_alone(text: str, clause: Clause) -> bool:
    """Whether ``clause`` is nothing but a refusal verb and courtesy ("évite stp", "avoid, please"): no object (not
    even a level's word), no pronoun pointing back, and no short or one-word refusal ("no", "nope", "nicht") that
    may answer what came before."""
    cues = [m.group(0) for m in NEGATION_BEFORE.finditer(text, clause.start, clause.end)]
    return bool(cues and clause.negations_before and not clause.inherited_negation
                and all(len(c) >= 4 and not _INTERJECTION.fullmatch(c) for c in cues)
                and not _OBJECT_LEVEL.search(text, clause.start, clause.end)  # "keep away from zones a": its object
                and is_bare(text, [], clause.start, clause.end, _REFUSAL_OR_COURTESY))


_COMPLEMENT = concept_words("complement_opening")
_BEFORE_COMPLEMENT = any_of(NEGATION_BEFORE, _COURTESY, WISH, concept_words("object_pronoun"),
                            concept_words("we_words"), concept_words("speaker_words"), concept_words("try_verb"))


def _refuses_complement(text: str, clause: Clause) -> bool:
    """Whether ``clause`` is a refusal whose object is the clause after it: nothing but a refusal, courtesy, its
    subject, a wish verb, "try" and a pronoun standing for that clause ("vermeide es", "ich möchte nicht", "versuche
    zu vermeiden"). Unlike a refusal alone (``_refusal_alone``), a short "nicht" counts: the object clause says what
    it refuses."""
    return bool(clause.negations_before and not clause.inherited_negation
                and NEGATION_BEFORE.search(text, clause.start, clause.end)
                and not _OBJECT_LEVEL.search(text, clause.start, clause.end)
                and is_bare(text, [], clause.start, clause.end, _BEFORE_COMPLEMENT))


def _closed_by_courtesy(text: str, start: int, end: int) -> bool:
    """Whether [start, end) says something and ends with a courtesy ("same zone as auth-gw pls (also) | not ...",
    "zone b bitte | nicht ..."): the wish before it is whole."""
    closing = _COURTESY_END.search(text, start, end)
    return closing is not None and _substance(text, start, closing.start())


def _grades_refusal_after(text: str, boundary: _Boundary) -> bool:
    """Whether the strength word at ``boundary`` grades the refusal said right after it, after its object
    ("zone b absolutely to avoid", "ist unbedingt zu meiden", "est absolument à exclure")."""
    refusal = NEGATION_AFTER.search(text, boundary.end)
    return refusal is not None and len(text[boundary.end:refusal.start()].split()) <= 1 and not _substance(
        text, refusal.end(), len(text))


def _names_an_item(text: str, said: _Said, start: int, end: int) -> bool:
    """Whether [start, end) names a thing wished for: a name, an amount, a GPU word or a cue ("ssd preferably"),
    not only a subject ("you must")."""
    return bool([p for p in said.things if p < end]) or GPU_WORD.search(text, start, end) is not None or any(
        cue.pattern.search(text, start, end) for cue in CUES if cue.intent)


def _substance(text: str, start: int, end: int) -> bool:
    """Whether [start, end) holds a word that is not a cue or a filler."""
    return not is_bare(text, [], start, end, _CUE_WORDS)


def _names_then_remark(text: str, names: list[tuple[int, int]], start: int, end: int) -> bool:
    """[start, end) opens with names and ends with a remark that asks for nothing ("avoid m05 and m06 pls
    they are flaky"): the list goes on, and so does its negation."""
    inside = sorted((s, e) for s, e in names if start <= s < end)
    if not inside or not is_bare(text, [], start, inside[0][0], _NOTHING):
        return False
    if _APPROVED.match(text, inside[-1][1], end) or _COPULA_ALONE.fullmatch(text, inside[-1][1], end):
        # "..., ws-14 geht", "..., rack r9 is fine", "rack r8 isn't an option, rack r9 is": approved, or said to be
        # what the refused one is not: no refused item
        return False
    rest = FILLER.sub(" ", text[inside[-1][1]:end])  # "pls", "bitte" ask for nothing new
    # a wish verb after the names asks for something new: "knoten k-3 benutzen"
    return not any(p.search(rest) for p in (WISH, _OPENING, _CLOSING, NEGATION_BEFORE, NEGATION_AFTER,
                                             _LOCATIVE_ANYWHERE))
_LOCATIVE = re.compile(group("locative") + r"\s")  # "in", "en", "auf", "dans", ...
# words that approve the place named right before them ("node-4 works", "ws-14 geht"; lang/*/approval.txt)
_APPROVED = re.compile(r"\s*" + expand("{approval}") + r"(?![\w-])")
_COPULA_ALONE = re.compile(expand(r"\s*{copula}[\s.!]*"))
_LOCATIVE_ANYWHERE = re.compile(r"(?<![\w-])" + group("locative") + r"\s")


def _lead(text: str, position: int) -> int:
    """The first non-blank position from ``position`` on."""
    return position + len(text[position:]) - len(text[position:].lstrip())
_ALSO = re.compile(group("also") + r"\s+")


def _after_also(text: str, position: int) -> int:
    """Skip an "also"/"then" in front of a clause's first word ("... and also avoid X")."""
    match = _ALSO.match(text, position)
    return match.end() if match else position


# a strength word said up front of the clause it governs, with that clause's subject: "it is essential that the pods"
_THAT_SUBJECT = re.compile(r"\s+" + group("relative_pronoun") + r"(?:\s+[^\W\d_]+){0,3}\s*")
_PLURAL = re.compile(r"(?<![\w-])" + group("plural_verb") + r"(?![\w-])")
# What may stand beside a strength word in a segment that is nothing but that strength ("it's a must",
# "Es absolut notwendig, dass ...": lang/*/strength_lead.txt).
_STRENGTH_LEAD = any_of(WEAK, STRONG, concept_words("strength_lead"))


def clause_at(clauses: list[Clause], position: int) -> Clause | None:
    """The clause holding ``position`` (or the nearest before it, for positions on a boundary)."""
    best = None
    for clause in clauses:
        if clause.start <= position < clause.end:
            return clause
        if clause.start <= position:
            best = clause
    return best
