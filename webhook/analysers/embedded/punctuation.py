"""Commas put back into a hint typed without punctuation, where a learned model says a writer would have put one.

The rules scope negation and strength by clause, and a clause ends at punctuation. Typed in a hurry ("keep it off
rack-3 run it on rack-5 if you can") a hint has none, and a refusal or a strength word then reaches into the next
wish. Words alone rarely settle where one wish ends, so instead of more rules this is learned from the hints we
have: every punctuated development hint shows where its writer ended a clause. An averaged perceptron over the
words beside each gap (their spelling, shape and the lexicon concepts they start or end) scores the gap; where it
is sure enough a comma goes in. The model is data (``punctuation.json``), trained and cross-validated by
``semaff punctuation`` (``semaff/punctuation.py``) on the development files only, never on the held-out split.

The words are read as the rules read them (``rules.normalise``: lower case, plain apostrophes, chatter blanked,
every offset kept), so "don’t" is the negation "don't" here too. A hint that already has sentence punctuation, or
is short, is left as its writer typed it. A comma could only
make a refusal reach less far, and that must never turn "avoid X" into "prefer X": so none goes between two names
("avoid rack-3 rack-4" stays one list), after a negation that reaches forward ("under no circumstances put it on
X") or before one that points back ("X is not an option").
"""

from __future__ import annotations

import bisect
import json
import re
import unicodedata
from functools import cache
from pathlib import Path

from webhook.analysers.embedded import lexicon
from webhook.analysers.embedded.rules import normalise

MODEL_FILE = Path(__file__).with_name("punctuation.json")

# Sentence punctuation, the one definition (``webhook.perturbations.no_punctuation`` drops what it matches): a
# mark before a space or the end (inside numbers and names it stays: 1.5 TB, eu-west-1). Possessive, so a long run
# of marks costs linear time.
MARKS = ",.;:!?"
PUNCTUATION = re.compile(rf"[{MARKS}]++(?=\s|$)")
# Shorter hints are left alone: too few words to tell a clause from a phrase.
MIN_WORDS = 6
# A name or number: a comma between two of these could take a name out of the list it belongs to.
_NAME_LIKE = re.compile(r"(?=.*\d)|.*\w-\w")
# Lexicon concepts whose words mark where a wish begins or ends; a token is tagged with each one it starts or ends.
_CONCEPTS: dict[str, re.Pattern[str]] = {
    "weak": lexicon.WEAK, "strong": lexicon.STRONG, "negb": lexicon.NEGATION_BEFORE,
    "nega": lexicon.NEGATION_AFTER, "wish": lexicon.WISH, "because": lexicon.BECAUSE, "lvl": lexicon.ANY_LEVEL,
    "open": lexicon.OPENERS, "descr": lexicon.DESCRIPTIVE, "trouble": lexicon.concept_words("trouble"),
}
# A refusal or a complaint said after its object belongs to it ("rack r-5 must be avoided", "the nodes that run
# kafka keep crashing", "metrics-agent must never be on its node"): no comma within this many words before one, nor
# before any negation.
_AFTER_OBJECT = frozenset({"s:nega", "s:negb", "s:trouble"})
_REACH_BACK = 3
# A comma goes only where a wish or its strength begins or a strength word ends: deciding which wish a strength
# word grades, or where the next wish starts, is what the rules cannot do without punctuation. Elsewhere (before
# a description, a relative clause, a refusal said after its object) the rules read the run as one on purpose.
_CUE_STARTS = frozenset({"s:weak", "s:strong", "s:wish", "s:open"})
_CUE_ENDS = frozenset({"e:weak", "e:strong"})
_NEGATION_STARTS = frozenset({"s:negb", "s:nega"})
_NEGATION_ENDS = frozenset({"e:negb", "e:nega"})


def has_punctuation(hint: str) -> bool:
    """Whether the writer typed sentence punctuation inside ``hint`` (a mark at its very end aside)."""
    return bool(PUNCTUATION.search(hint.rstrip().rstrip(MARKS)))


def fold(word: str) -> str:
    """Lower case without accents: the model's spelling of a word (typed hints often lack their accents)."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def _shape(word: str) -> str:
    if word in ("<s>", "</s>"):
        return word
    if re.fullmatch(r"[\d.,]+", word):
        return "9"
    if re.search(r"\d", word) and re.search(r"[^\W\d_]", word):
        return "a9"
    if "-" in word:
        return "a-a"
    return "a" if re.search(r"\w", word) else "sym"


def concept_tags(words: list[str]) -> list[frozenset[str]]:
    """Per word, the concepts (``_CONCEPTS``) whose match starts (``s:``) or ends (``e:``) on it."""
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word) + 1
    ends = [start + len(word) for start, word in zip(starts, words, strict=True)]
    text = " ".join(words)
    tags: list[set[str]] = [set() for _ in words]
    for name, pattern in _CONCEPTS.items():
        for match in pattern.finditer(text):
            first = bisect.bisect_right(starts, match.start()) - 1
            last = bisect.bisect_left(ends, match.end())
            if 0 <= first < len(words):
                tags[first].add("s:" + name)
            if 0 <= last < len(words):
                tags[last].add("e:" + name)
    return [frozenset(t) for t in tags]


def features(folded: list[str], tags: list[frozenset[str]], i: int) -> list[str]:
    """The features of the gap after word ``i``: the words around it, their shapes and their concepts."""
    def at(j: int) -> str:
        return folded[j] if 0 <= j < len(folded) else ("<s>" if j < 0 else "</s>")

    before, w0, w1, after = at(i - 1), at(i), at(i + 1), at(i + 2)
    s0, s1 = _shape(w0), _shape(w1)
    found = ["bias", f"w0={w0}", f"w1={w1}", f"w-1={before}", f"w2={after}", f"w0w1={w0}|{w1}",
             f"w-1w0={before}|{w0}", f"w1w2={w1}|{after}", f"s0s1={s0}{s1}", f"s0={s0}", f"s1={s1}",
             f"suffix0={w0[-3:]}", f"prefix1={w1[:3]}", f"s0w1={s0}|{w1}", f"w0s1={w0}|{s1}",
             f"p={min(i, 3)}", f"q={min(len(folded) - 1 - i, 3)}"]
    # sorted: the score is a float sum, and set order varies between processes
    t0, t1 = sorted(tags[i]), sorted(tags[i + 1]) if i + 1 < len(tags) else []
    found += [f"c0={t}" for t in t0] + [f"c1={t}" for t in t1] + [f"c0c1={a}|{b}" for a in t0 for b in t1]
    found += [f"c0w1={t}|{w1}" for t in t0] + [f"w0c1={w0}|{t}" for t in t1]
    return found


def words_and_gaps(hint: str) -> tuple[list[str], list[int]]:
    """The hint's words as the rules read them (``normalise``; a trailing mark cut off) and the end offset of each
    (``normalise`` keeps offsets, so they are offsets in ``hint`` too)."""
    words: list[str] = []
    ends: list[int] = []
    for match in re.finditer(r"\S+", normalise(hint)):
        word = match.group(0).rstrip(MARKS)  # a run of non-space ends at a space or the end: a mark there is one
        if word:
            words.append(word)
            ends.append(match.start() + len(word))
    return words, ends


def _cuttable(words: list[str], tags: list[frozenset[str]]) -> list[bool]:
    """Per gap, whether a comma there can cut neither a name from its list, a number from what it counts, nor a
    negation from what it negates: no comma between two names, before a number ("rack 19", "about 20 GB": the rules
    cut a clause before an amount themselves), next to a negation cue, shortly before a refusal or complaint said
    after its object (``_AFTER_OBJECT``), or after a negation that reaches forward before its object (a name) is said
    ("under no circumstances put it on worker-2"); one right after that name is fine."""
    allowed, open_negation = [], False
    for i in range(len(words) - 1):
        named = bool(_NAME_LIKE.match(words[i]))
        said_after = any(t & _AFTER_OBJECT for t in tags[i + 1:i + 1 + _REACH_BACK])
        open_negation = ("e:negb" in tags[i]) or (open_negation and not named)
        # a strength word right before a name grades that name ("jamais sur rack-3 de préférence rack-5")
        at_cue = bool(tags[i + 1] & _CUE_STARTS
                      or (tags[i] & _CUE_ENDS and not _NAME_LIKE.match(words[i + 1])))
        allowed.append(at_cue and not (open_negation or said_after or (named and _NAME_LIKE.match(words[i + 1]))
                                       or words[i + 1][:1].isdigit()
                                       or tags[i + 1] & _NEGATION_STARTS or tags[i] & _NEGATION_ENDS))
    return allowed


@cache
def model() -> tuple[dict[str, float], float]:
    """(weights, margin) of the shipped model: a gap gets a comma when its score exceeds the margin."""
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    return data["weights"], float(data["margin"])


def score(weights: dict[str, float], feats: list[str]) -> float:
    """The perceptron's score of one gap (positive: a writer would have put punctuation there)."""
    return sum(weights.get(f, 0.0) for f in feats)


def restore(hint: str, weights: dict[str, float] | None = None, margin: float | None = None) -> str:
    """``hint`` with a comma after each word the model ends a clause on, when it has no sentence punctuation of its
    own (a mark at its very end aside); otherwise ``hint`` unchanged."""
    if has_punctuation(hint):
        return hint
    shipped_weights, shipped_margin = model()
    weights = shipped_weights if weights is None else weights
    margin = shipped_margin if margin is None else margin
    words, ends = words_and_gaps(hint)
    if len(words) < MIN_WORDS:
        return hint
    folded = [fold(w) for w in words]
    tags = concept_tags(words)
    cuts = [ends[i] for i, allowed in enumerate(_cuttable(words, tags))
            if allowed and score(weights, features(folded, tags, i)) > margin]
    if not cuts:
        return hint
    pieces, start = [], 0
    for cut in cuts:
        pieces += [hint[start:cut], ","]
        start = cut
    return "".join(pieces) + hint[start:]
