"""The prefilter skips a pattern only where it cannot match: every match is the pattern's own."""

from __future__ import annotations

import random
import re
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from webhook.analysers.embedded import prefilter
from webhook.analysers.embedded.concepts import CUES
from webhook.analysers.embedded.prefilter import Index, Prefiltered, heads
from webhook.analysers.embedded.rules import normalise
from webhook.analysers.embedded.workloads import _CUES as RELATION_CUES
from webhook.evaluation import read_rows

# pieces of regular expressions, with every construct the heads read (and some they give up on)
_ATOMS = ("a", "b", "c", "ab", "[ab]", "[^a]", ".", r"\s", r"\w", r"\d", "-", " ", "ü", "[a-c]", r"\b", r"(?<![\w-])",
          "(?=a)", "(?!b)", "^", "$", "(?<=a)", "(?i:a)", r"(a)\1")
_QUANTIFIERS = ("*", "+", "?", "{0,2}", "{2,3}", "*?", "{1,5}?", "{3}", "{2,}")


def _pattern(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice(_ATOMS)
    if roll < 0.55:
        return "".join(_pattern(rng, depth + 1) for _ in range(rng.randint(2, 4)))
    if roll < 0.75:
        return "(?:" + "|".join(_pattern(rng, depth + 1) for _ in range(rng.randint(2, 4))) + ")"
    return "(?:" + _pattern(rng, depth + 1) + ")" + rng.choice(_QUANTIFIERS)


def _spans(found) -> list[tuple[int, int]]:
    return [m.span() for m in found]


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return found.span() if found else None


def test_random_patterns_find_what_the_pattern_finds() -> None:
    """Many random patterns in one index, over random texts and ranges: the same matches, and some skipped."""
    rng = random.Random(12)
    index = Index()
    patterns = []
    while len(patterns) < 400:
        try:
            compiled = re.compile(_pattern(rng))
        except re.error:
            continue
        patterns.append((compiled, Prefiltered(compiled, index)))
    skipped = 0
    for compiled, screened in patterns:
        for _ in range(20):
            text = "".join(rng.choice("abc -ü\nx1") for _ in range(rng.randint(0, 14)))
            start, end = rng.randint(-1, len(text)), rng.randint(0, len(text) + 2)
            assert _spans(screened.finditer(text, start, end)) == _spans(compiled.finditer(text, start, end)), (
                compiled.pattern, text, start, end)
            assert _span(screened.search(text, start, end)) == _span(compiled.search(text, start, end))
            skipped += not screened.may_match(text, start, end)
    assert skipped > 100  # the filter does skip


def _dev_texts() -> list[str]:
    rows = read_rows(Path("tests/data/eval/dev7.jsonl").read_text(encoding="utf-8").splitlines())
    return [normalise(row.hint) for row in rows]


@pytest.mark.parametrize("cues", [CUES, RELATION_CUES], ids=["cues", "relations"])
def test_the_analysers_patterns_are_never_skipped_where_they_match(cues) -> None:
    """Every cue and relation pattern over development hints, whole and in pieces: nowhere skipped where the
    pattern matches; and most pieces skipped for most patterns (what the filter is for)."""
    rng = random.Random(7)
    ranges = 0
    skipped = 0
    for text in _dev_texts():
        cuts = sorted(rng.sample(range(len(text) + 1), min(3, len(text) + 1)))
        for start, end in ((0, len(text)), *pairwise(cuts)):
            for cue in cues:
                ranges += 1
                if not cue.pattern.may_match(text, start, end):
                    skipped += 1
                    assert cue.pattern.compiled.search(text, start, end) is None, (cue.pattern.pattern[:80], text)
    assert skipped > ranges / 2


def test_every_cue_pattern_is_bounded() -> None:
    """A cue pattern the heads cannot bound would run everywhere again (a change of its words to check)."""
    assert all(cue.pattern.may_match("", 0, 0) for cue in CUES)
    assert sum(bool(cue.pattern._bit) for cue in CUES) == len(CUES)


def test_heads_of_a_small_pattern() -> None:
    found = heads(re.compile(r"(?<![\w-])(?:spread|over)\s+x|\bab|c"))
    assert found is not None
    assert found[1] == {"spr", "ove"}
    assert found[2] == {"ab"}
    assert found[0] == {"c"}
    assert heads(re.compile(r".x")) is None  # a wildcard first
    assert heads(re.compile(r"x?")) is None  # an empty match


def test_spaces_are_every_character_that_backslash_s_matches() -> None:
    spaces = {chr(c) for c in range(sys.maxunicode + 1) if re.match(r"\s", chr(c))}
    assert spaces == prefilter._SPACES
