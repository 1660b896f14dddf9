"""The held-out split stays held out: none of its hints, and no run of 6 of its words, appears in the
code, the word lists or the unit tests (issue 12.7). Held-out files are ``tests/data/eval/holdout*.jsonl``;
this module never prints their rows, only where a copy was found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EVAL_DIR = ROOT / "tests" / "data" / "eval"
RUN = 6  # words in a row that count as a copy
MIN_WHOLE_WORDS = 4  # a shorter hint ("avoid rack-3") may appear anywhere by chance
SCANNED = ("webhook", "shared", "scorer", "semaff", "tests", "hack", "examples", "charts")
SUFFIXES = (".py", ".txt", ".json", ".yaml", ".yml", ".md")
_WORD = re.compile(r"\w+(?:[-'’]\w+)*")


def words(text: str) -> list[str]:
    """Lower-cased words, names with dashes kept whole."""
    return _WORD.findall(text.casefold())


def runs(tokens: list[str], size: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + size]) for i in range(len(tokens) - size + 1)}


def copies(hints: Iterable[str], files: Iterable[tuple[str, str]]) -> list[tuple[str, int]]:
    """(file, number of the hint) for every file holding a held-out hint or a run of RUN of its words."""
    hints = list(hints)
    whole = [(n, " ".join(words(h))) for n, h in enumerate(hints) if len(words(h)) >= MIN_WHOLE_WORDS]
    by_run: dict[tuple[str, ...], int] = {}
    for number, hint in enumerate(hints):
        for run in runs(words(hint)):
            by_run.setdefault(run, number)
    found = []
    for name, text in files:
        tokens = words(text)
        joined = " ".join(tokens)
        hits = {by_run[r] for r in runs(tokens) if r in by_run}
        hits |= {n for n, w in whole if w in joined}
        found += [(name, n) for n in sorted(hits)]
    return found


def _held_out_hints() -> list[str]:
    hints = []
    for path in sorted(EVAL_DIR.glob("holdout*.jsonl")):
        hints += [json.loads(line)["hint"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return hints


def _scanned_files() -> Iterable[tuple[str, str]]:
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and EVAL_DIR not in path.parents:
                yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8", errors="replace")


def test_the_detector_finds_whole_hints_and_runs_of_six_words() -> None:
    hints = ["please keep the billing pods well away from rack r7 tonight", "avoid rack-3"]
    files = [("a.py", 'CASES = [("Keep the billing pods well away from rack R7", ...)]'),
             ("b.py", "keep the billing pods well"),  # five words: not a copy
             ("c.txt", "avoid rack-3"),  # a short hint alone proves nothing
             ("d.py", "x = 'Please keep the billing pods well away from rack r7 tonight'")]
    assert copies(hints, files) == [("a.py", 0), ("d.py", 0)]


@pytest.mark.skipif(not list(EVAL_DIR.glob("holdout*.jsonl")), reason="no held-out split in this tree")
def test_no_held_out_hint_is_copied_into_code_or_tests() -> None:
    found = copies(_held_out_hints(), _scanned_files())
    assert not found, f"held-out hints copied into: {sorted({name for name, _ in found})} ({len(found)} copies)"
