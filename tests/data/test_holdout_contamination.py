"""The held-out split (tests/data/eval/holdout/) stays unseen: none of its hints leaks into the repository.

A leak is a held-out hint, or any run of ``SHINGLE_WORDS`` consecutive words of one, found in a
tracked (or new, not ignored) text file outside the holdout directory: code, unit tests, docs,
vocabularies, fixtures. Text is compared as words only: case-folded, accents dropped, whitespace
and punctuation ignored, so a re-cased or re-punctuated copy is still caught. Hints shorter than
``SHINGLE_WORDS`` words count only as a whole: a quoted string, a line, or the value after
``key:`` made of exactly their words. In ``.jsonl`` files (the development and tuning sets, hand
written in the same domain, where common 6-word phrases recur without any copying) a leak is a
row whose hint is a held-out hint.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT_DIR = ROOT / "tests" / "data" / "eval" / "holdout"
SHINGLE_WORDS = 6
SCANNED_SUFFIXES = frozenset({".py", ".yaml", ".yml", ".json", ".jsonl", ".md", ".txt"})
MAX_REPORTED = 20

_WORD = re.compile(r"\w+")
# Quoted strings ("...", '...', `...`, “...”) and the value of a ``key: value`` line: where a short hint would sit.
_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`([^`\n]*)`|“([^”\n]*)”')
_VALUE = re.compile(r"^[^:\n]*:\s*(.+)$", re.MULTILINE)

Words = tuple[str, ...]


class Leak(NamedTuple):
    """Where a held-out row's wording was found: the file and the row's id, never the words themselves (a failure
    message is read by whoever tunes the analyser)."""

    file: str
    row_id: str  # the held-out row


def words(text: str) -> Words:
    """The words of ``text``, case-folded and without accents (``Región`` -> ``region``)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return tuple(_WORD.findall(folded))


def _segments(text: str) -> list[str]:
    """The whole text, its lines, its quoted strings and its ``key: value`` values."""
    quoted = [group for match in _QUOTED.finditer(text) for group in match.groups() if group]
    return [text, *text.splitlines(), *quoted, *(match.group(1) for match in _VALUE.finditer(text))]


def _jsonl_hints(text: str) -> list[str]:
    hints = []
    for line in text.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and isinstance(row.get("hint"), str):
            hints.append(row["hint"])
    return hints


@dataclass(frozen=True, slots=True)
class HoldoutIndex:
    """What counts as a leak, each mapped to the id of a held-out row it comes from."""

    shingles: dict[Words, str]  # every 6-word run of the hints that have that many words
    short: dict[Words, str]  # the words of each shorter hint
    hints: dict[Words, str]  # the words of every hint

    def __repr__(self) -> str:  # a traceback shows the fixture: counts only, no held-out words
        return f"HoldoutIndex({len(self.hints)} hints)"

    @classmethod
    def build(cls, rows: Iterable[dict[str, str]]) -> HoldoutIndex:
        shingles: dict[Words, str] = {}
        short: dict[Words, str] = {}
        hints: dict[Words, str] = {}
        for row in rows:
            hint = words(row["hint"])
            if len(hint) < 2:
                continue  # blank, junk ('\x00ÿ' reads as one word) and one-word hints carry no wording to leak
            hints.setdefault(hint, row["id"])
            if len(hint) < SHINGLE_WORDS:
                short.setdefault(hint, row["id"])
            for start in range(len(hint) - SHINGLE_WORDS + 1):
                shingles.setdefault(hint[start:start + SHINGLE_WORDS], row["id"])
        return cls(shingles, short, hints)

    def leaks(self, name: str, text: str) -> list[Leak]:
        """One leak per held-out row whose text appears in ``text`` (the file ``name``)."""
        found: set[str | None] = set()
        if name.endswith(".jsonl"):
            found.update(self.hints.get(words(hint)) for hint in _jsonl_hints(text))
        else:
            tokens = words(text)
            found.update(self.shingles.get(tokens[start:start + SHINGLE_WORDS])
                         for start in range(len(tokens) - SHINGLE_WORDS + 1))
            found.update(self.short.get(words(segment)) for segment in _segments(text))
        return [Leak(name, row_id) for row_id in sorted(r for r in found if r is not None)]


def holdout_rows() -> list[dict[str, str]]:
    rows = []
    for path in sorted(HOLDOUT_DIR.glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            rows.extend(json.loads(line) for line in fh if line.strip())
    return rows


def scanned_files() -> list[Path]:
    """Tracked and new (not git-ignored) text files of the repository, outside the holdout directory."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    paths = {ROOT / name for name in listed if name}
    return sorted(p for p in paths
                  if p.suffix in SCANNED_SUFFIXES and p.is_file() and not p.is_relative_to(HOLDOUT_DIR))


def find_leaks(index: HoldoutIndex, files: Iterable[Path], root: Path) -> list[Leak]:
    problems = []
    for path in files:
        problems.extend(index.leaks(str(path.relative_to(root)), path.read_text(encoding="utf-8", errors="replace")))
    return problems


@pytest.fixture(scope="module")
def index() -> HoldoutIndex:
    rows = holdout_rows()
    assert len(rows) >= 300, "the held-out files are missing or truncated"
    return HoldoutIndex.build(rows)


def test_no_holdout_hint_appears_in_the_repository(index: HoldoutIndex) -> None:
    files = scanned_files()
    assert len(files) > 100, "git ls-files found almost nothing to scan"
    problems = find_leaks(index, files, ROOT)
    # Ids and files only: printing the matched text would show held-out wording to whoever reads the failure.
    report = "\n".join(f"{leak.file}: held-out {leak.row_id}" for leak in problems[:MAX_REPORTED])
    if problems:  # pytest.fail, not assert: an assertion's diff would print the Leak objects, held-out text included
        pytest.fail(f"held-out hints copied into the repository (reword or remove them):\n{report}", pytrace=False)


def test_a_planted_copy_is_caught(index: HoldoutIndex, tmp_path: Path) -> None:
    """The scanner can fail: a re-cased, re-punctuated 6-word run, a quoted short hint and a copied row are found."""
    rows = holdout_rows()
    long_row = next(r for r in rows if len(words(r["hint"])) >= SHINGLE_WORDS + 2)
    short_row = next(r for r in rows if 0 < len(words(r["hint"])) < SHINGLE_WORDS)
    run = " ,  ".join(words(long_row["hint"])[1:1 + SHINGLE_WORDS]).upper()
    (tmp_path / "test_planted.py").write_text(f'HINT = "before {run} after"\nSHORT = {short_row["hint"]!r}\n')
    copied = {**long_row, "id": "en-9999", "hint": long_row["hint"].upper()}
    other = {"id": "en-9998", "hint": "spread it"}
    (tmp_path / "tuning.jsonl").write_text(f"{json.dumps(other)}\n{json.dumps(copied)}\n")
    # Not leaks: 5 words of a long hint, a short hint inside a longer sentence, a 6-word run in a .jsonl hint.
    clean = " ".join(words(long_row["hint"])[:SHINGLE_WORDS - 1])
    (tmp_path / "clean.md").write_text(f"{clean}\n\nWe said {short_row['hint']} and more.\n")
    (tmp_path / "dev.jsonl").write_text(json.dumps({"id": "en-9997", "hint": f"{run} and more"}) + "\n")
    problems = find_leaks(index, sorted(tmp_path.iterdir()), tmp_path)
    found = sorted((leak.file, leak.row_id) for leak in problems)
    assert found == sorted([("test_planted.py", long_row["id"]), ("test_planted.py", short_row["id"]),
                            ("tuning.jsonl", long_row["id"])]), found  # ids only, never the planted text


def test_words_fold_case_accents_and_punctuation() -> None:
    assert words("Región  EU-West-1, ¡por favor!") == ("region", "eu", "west", "1", "por", "favor")
