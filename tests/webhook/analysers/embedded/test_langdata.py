"""langdata.one_of: alternatives with their word-start check said once more in front match what the
plain alternation matches, alternative for alternative."""

from __future__ import annotations

import re

import pytest

from webhook.analysers.embedded.langdata import FRAGMENTS, one_of

B = FRAGMENTS["b"]

# Alternatives in the shapes the data files use, and those the check must leave alone: a "|" outside
# every group checks the word start for its first half only; a "|" or a ")" inside a character class,
# or escaped, splits nothing.
ALTERNATIVES = [
    B + r"spread(?:ing)?\s+out",
    B + r"tray|bay",  # "bay" anywhere, "tray" at a word start only
    r"zonal\s+outage",  # no word-start check: tried in its place, between the runs
    B + r"(?:one|two)\s+per\s+rack",
    B + r"x[|)]y",
    B + r"a\|b",
    B + r"[]|]z",
    B + r"[^]|]q|w",  # the "|" after the class splits
    B + r"out",
]
TEXTS = [
    "spreading out", "prespread out", "tray", "astray bay", "ebay", "zonal outage", "two per rack",
    "x|y", "ax)y", "a|b", "|z", "]z", "kq", "kw", "about out", "shout",
    "spread out over one per rack and x)y then a|b",
]


def spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("text", TEXTS)
def test_one_of_matches_what_the_plain_alternation_matches(text: str) -> None:
    assert spans(one_of(ALTERNATIVES), text) == spans("|".join(ALTERNATIVES), text)


def test_the_word_start_check_is_said_once_more_in_front_of_each_run_of_alternatives() -> None:
    combined = one_of([B + "a", B + "b", "c", B + "d|e", B + "f"])
    assert combined == B + "(?:" + B + "a|" + B + "b)|c|" + B + "d|e|" + B + "(?:" + B + "f)"
