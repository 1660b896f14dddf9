"""Self-corrections typed into a hint: what is taken back is blanked before any rule reads it.

People correct themselves as they type: "zone c1, no wait, c2", "avoid rack k4, er, k5", "24 cores, actually make that
12", "prefer r7, actually no, avoid r7", "spread them out... nah, forget it". The corrected hint is what they mean, so
the rules read it with the retracted words blanked (offsets kept, like ``rules.blank_injections``):

* a value right after a correction (``restatement``, ``retraction``, ``slip``), with nothing after it in its clause,
  replaces the value of the same kind said just before the correction: that slot keeps its place and the words around
  it ("avoid rack", "ram"), so the new value takes its polarity and unit; the correction and the new value are blanked.
  A bare number takes the unit of the amount it corrects ("24 cores, actually 12");
* a correction (``restatement``) opening a clause of its own that names a place or amount of the same kind as the
  segment before it replaces that segment ("not in r1, sorry, i mean not in r2": only r2 is refused);
* a retraction (``retraction``) takes back its sentence up to it ("stay off k9 - scratch that": nothing), unless a
  negation says it ("don't forget it"); whatever follows it stays.

Anything else is left to the rules: "i mean" after a refusal with no value of the refused kind keeps or corrects the
refusal, which is not certain (``rules._restates_refusal``); a bare "no" between two places may refuse either
(``refusal_interjection``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from webhook.analysers.embedded.langdata import expand, group
from webhook.analysers.embedded.lexicon import LEVEL_WORDS
from webhook.analysers.embedded.slots import Slot, parse_number

_ONE_CUE = r"(?:" + group("restatement") + "|" + group("retraction") + "|" + group("slip") + r")(?![\w-])"
_INTERJECTION = group("refusal_interjection") + r"(?![\w-])"
# corrections said one after the other are one ("sry, i meant", "äh, ich meine"), and so are the interjections that
# lead them ("nah, forget it"); one after them is the next clause's ("quise decir no en el nodo w-6")
_CUE = re.compile(r"(?<![\w-])(?:" + _ONE_CUE + r"(?:[\s,]+" + _ONE_CUE + r")*|(?:" + _INTERJECTION + r"[\s,]*)+(?:"
                  + _ONE_CUE + r"(?:[\s,]+" + _ONE_CUE + r")*)?)")
# a bare "no" corrects only an amount ("16 cores no 32 cores"); between places it may refuse either (rules)
_INTERJECTIONS = re.compile(r"(?:" + _INTERJECTION + r"[\s,]*)+")
_RESTATEMENT = re.compile(r"(?<![\w-])" + group("restatement") + r"(?![\w-])")
_RETRACTION = re.compile(r"(?<![\w-])" + group("retraction") + r"(?![\w-])")
# between a correction and the value it gives: punctuation, articles, level words ("digo, el rack k5")
_LEAD = re.compile(expand(r"[\s,:;()\[\]—–-]*(?:(?:{articles}|" + LEVEL_WORDS + r")(?![\w-])[\s,:]*)*"))
_GRADE = re.compile(expand(r"(?<![\w-])(?:{weak}|{strong}|{courtesy})(?![\w-])"))
# after the value, up to the end of its clause: nothing but punctuation, strength or courtesy words
_TAIL = re.compile(r"(?:[\s)\]]|" + _GRADE.pattern + r")*(?:[,.;!?\n(]|$)")
_JOINED = re.compile(expand(r"\s+(?:{and_word}|{list_join})(?![\w-])"))  # an amount, then the next wish
_WITH = re.compile(expand(r"\s+{with_word}(?![\w-])"))  # "zone c1 äh c2 mit SSD"
_BARE_NUMBER = re.compile(r"(\d+(?:[.,]\d{1,2})?)(?![\w.,-])")
_BARE_NAME = re.compile(r"[^\W_]*\d[\w.-]*(?<![.-])(?![\w-])")  # a name with a digit: "k5", "1b", "worker-5"
_LEADING_NUMBER = re.compile(r"\d+(?:[.,]\d{1,2})?|[^\W\d_]+")
_STOP = re.compile(r"[.;!?\n](?!\d)")
_BREAK = re.compile(r"[,.;!?\n(—–]|\s-\s")  # where a segment of a clause ends
# what may stand between a retracted sentence and its retraction: punctuation and interjections ("... nah, forget it")
_BEFORE_RETRACTION = re.compile(expand(r"(?:[\W_]|(?<![\w-])(?:{shrug}|{refusal_interjection})(?![\w-]))*$"))
_ALSO = re.compile(expand(r"(?<![\w-]){also}(?![\w-])"))  # "..., i mean also rack r5": said besides, not instead
# what opens the object of a verb: "forget that rack", "laisse tomber le nœud w-2", "olvídate de la zona"
_OBJECT = re.compile(expand(r"\s*(?:{articles}|{filler}|" + LEVEL_WORDS + r")(?![\w-])"))
_NEGATED = re.compile(expand(r"(?<![\w-])(?:{negation_before}|{consequence})\s*$"))  # "don't forget it", "so forget it"
_REFUSAL = re.compile(expand(r"(?<![\w-])(?:{negation_before}|{negation_after})(?![\w-])"))
_ENDS = re.compile(r"[\W_]*(?:[.;!?\n]|$)")
_COMPLAINT = re.compile(expand(r"(?<![\w-])(?:{trouble}|{copula})(?![\w-])"))  # "n-4 is flaky", "rack r2 ist voll"
_PLACES = ("zone", "region", "rack", "node")
_AMOUNTS = ("cores", "gpus", "size", "rate")


def corrected(text: str, slots: list[Slot]) -> tuple[str, list[Slot]]:
    """``text`` with every retracted part blanked, and its slots with each corrected value in place of the one it
    replaces (see the module docstring)."""
    chars = list(text)
    slots = list(slots)
    done = 0  # corrections are read left to right; one inside a blanked span is gone
    for cue in _CUE.finditer(text):
        if cue.start() < done:
            continue
        retraction = _RETRACTION.search(cue.group(0)) is not None
        end = _value_corrected(text, chars, slots, cue, retraction)
        if not end and _RESTATEMENT.search(cue.group(0)):
            end = _clause_corrected(text, chars, slots, cue)
        if not end and retraction:
            end = _retracted(text, chars, cue)
        done = max(done, end or 0)
    # a value in a blanked span is taken back with it (a corrected one keeps its own, unblanked, words)
    slots = [s for s in slots if chars[s.start:s.end] == list(text[s.start:s.end])]
    return "".join(chars), slots


def _blank(chars: list[str], start: int, end: int) -> None:
    chars[start:end] = " " * (end - start)


def _shape(name: str) -> str:
    """A name's shape: its letters as "a", its digits as "9" ("k4" and "k5" are both "a9")."""
    return re.sub(r"\d", "9", re.sub(r"[^\W\d_]", "a", name))


def _run(slots: list[Slot], first: int, step: int, text: str) -> list[Slot]:
    """The slots next to ``slots[first]`` with only spaces between them ("2 a100s"), in the direction ``step``."""
    run = [slots[first]]
    index = first + step
    while 0 <= index < len(slots):
        a, b = (slots[index], run[-1]) if step < 0 else (run[-1], slots[index])
        if text[a.end:b.start].strip():
            break
        run.append(slots[index])
        index += step
    return run[::step]


def _value_corrected(text: str, chars: list[str], slots: list[Slot], cue: re.Match[str],
                     retraction: bool) -> int | None:
    """A value right after ``cue`` replacing the value of its kind right before it; the end of what was blanked."""
    before = [i for i, s in enumerate(slots) if s.end <= cue.start()]
    if not before:
        return None
    last = slots[before[-1]]
    if last.kind not in _AMOUNTS and _INTERJECTIONS.fullmatch(cue.group(0)):
        return None
    gap = text[last.end:cue.start()]
    said = _GRADE.sub(" ", gap)  # "zone c1 pls. typo, c2": a courtesy or strength word is no other thing said
    if said.strip(" ,:;()[]—–-.?!") and (_STOP.search(said) or len(said.split()) > 3):
        return None  # the value before is not the one corrected ("rack k4 please. ... er, k5")
    if retraction and _OBJECT.match(text, cue.end()):
        return None  # "laisse tomber le nœud n-4": the value is what the verb refuses, not a correction
    start = _LEAD.match(text, cue.end()).end()
    after = [i for i, s in enumerate(slots) if s.start == start]
    old = _run(slots, before[-1], -1, text)
    if after:
        new = _run(slots, after[0], 1, text)
        if [s.kind for s in old] != [s.kind for s in new]:
            return None
        values = [s.value for s in new]
        end = new[-1].end
    elif len(old) == 1 and last.kind in _PLACES and (bare := _BARE_NAME.match(text, start)):
        # "avoid rack k4, er, k5", "us-east-1a, no wait, 1b": a name, or its end, of the shape of the one before
        name, value = bare.group(0), str(last.value)
        if len(name) > len(value) or _shape(value[len(value) - len(name):]) != _shape(name):
            return None
        values, end, new = [value[:len(value) - len(name)] + name], bare.end(), []
    else:
        bare = _BARE_NUMBER.match(text, start)
        number = parse_number(_LEADING_NUMBER.match(text, last.start).group(0))
        if bare is None or len(old) != 1 or last.kind not in _AMOUNTS or not number:
            return None
        values = [round(float(bare.group(1).replace(",", ".")) * float(last.value) / number, 4)]
        end, new = bare.end(), []
    if not _said_alone(text, end, last.kind, slots):
        if not new or values != [s.value for s in old]:
            return None  # "avoid r2, actually r3 is fine": more is said of the new value than its correction
        # the same place again with more said of it ("avoid k9, i mean k9 is ok"): which polarity stands is not
        # certain, so neither is read
        clause_end = next((m.start() for m in _BREAK.finditer(text, end)), len(text))
        _blank(chars, _segment_start(text, last.start), clause_end)
        return clause_end
    for slot, value in zip(old, values, strict=True):
        slots[slots.index(slot)] = replace(slot, value=value)
    for slot in new:
        slots.remove(slot)
    blank_from = last.end + len(gap.rstrip(" ,:;()[]—–-.?!"))
    _blank(chars, blank_from, end)
    return end


def _said_alone(text: str, end: int, kind: str, slots: list[Slot]) -> bool:
    """Whether nothing more is said of a corrected value ending at ``end``: the end of its clause (after strength or
    courtesy words), the next value, "with ..." ("zone c1 äh c2 mit SSD"), or after an amount the next wish joined by
    "and" ("16 cores sorry 8 cores and an ssd"); not "avoid r2, actually r3 and r4 are fine"."""
    return bool(_TAIL.match(text, end) or any(s.start == _LEAD.match(text, end).end() for s in slots)
                or _WITH.match(text, end) or (kind in _AMOUNTS and _JOINED.match(text, end)))


def _segment_start(text: str, end: int) -> int:
    """Where the segment of a clause that holds ``end`` begins (after a comma, a stop, a dash)."""
    breaks = [m.end() for m in _BREAK.finditer(text, 0, end)]
    return breaks[-1] if breaks else 0


def _clause_corrected(text: str, chars: list[str], slots: list[Slot], cue: re.Match[str]) -> int | None:
    """A clause opened by ``cue`` that names a place or amount of the kind the segment before it names: that
    segment is taken back ("not in r1, sorry, i mean not in r2"); the end of what was blanked."""
    said = text[:cue.start()].rstrip(" ,:;()[]—–-.?!")
    if not said or said[-1] in ",.;!?\n(":
        return None
    segment_start = _segment_start(text, len(said))
    opens = _LEAD.match(text, cue.end()).end()
    clause_end = next((m.start() for m in _BREAK.finditer(text, opens)), len(text))
    retracted = [s for s in slots if segment_start <= s.start < len(said) and s.kind in _PLACES + _AMOUNTS]
    named = [s for s in slots if opens <= s.start < clause_end and s.kind in {s.kind for s in retracted}]
    if not named or named[0].start == opens or _ALSO.search(text, opens, clause_end):
        return None  # none of that kind, or a bare value that says more ("r3 is fine"): not certain
    if _REFUSAL.search(text, segment_start, len(said)) and not _REFUSAL.search(text, opens, clause_end) and (
            {s.value for s in named} & {s.value for s in retracted}):
        # a refusal taken back is no wish for the same place ("avoid r7, actually no, prefer r7"): neither is read
        _blank(chars, segment_start, clause_end)
        return clause_end
    _blank(chars, segment_start, cue.end())
    return cue.end()


def _retracted(text: str, chars: list[str], cue: re.Match[str]) -> int | None:
    """A retraction takes back its sentence up to it ("stay off k9 - scratch that", "... nah forget it"); opening the
    hint, after a negation ("don't forget it needs an ssd") or before an object ("laisse tomber le nœud w-2") it is
    another phrase, and after a description or complaint it refuses the place described ("rack r2 ist voll, vergiss
    es"): nothing."""
    lead = _BEFORE_RETRACTION.search(text, 0, cue.start())
    if lead is None or lead.start() == 0:
        return None
    interjected = lead.group(0).strip() or _INTERJECTIONS.match(cue.group(0))  # "... nah, forget it"
    if not interjected and (_NEGATED.search(text, 0, lead.start()) or not _ENDS.match(text, cue.end())):
        return None  # right after a word and before more words: "200gb scratch that is fast", "don't forget it"
    if _OBJECT.match(text, cue.end()):
        return None  # "laisse tomber le nœud w-2", "forget that rack": a refusal of its object, no retraction
    stops = [m.end() for m in _STOP.finditer(text, 0, lead.start())]
    start = stops[-1] if stops else 0
    if _COMPLAINT.search(text, start, lead.start()):
        return None  # "rack r2 ist voll, vergiss es": a refusal of the place described (rules.polarity_safe)
    _blank(chars, start, cue.end())
    return cue.end()
