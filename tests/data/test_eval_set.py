"""Validates our hand-written evaluation set (tests/data/eval, format ARCHITECTURE.md 2.8).

The set is only worth something if every label is a canonical, catalogue-exact answer: these
checks keep hand edits honest (unknown intents, wrong metadata keys, ints where floats belong,
non-canonical lists, counts below what the issue asks for).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shared.catalogue import BY_NAME, INTENT_NAMES, MetaType, opposites
from shared.intents import STRENGTHS
from shared.normalise import normalise

from .test_holdout_contamination import words

EVAL_DIR = Path(__file__).parent / "eval"
# dev4 is the former test split: it was tuned on, so it is development data now (ids unchanged).
SPLITS = ("dev", "dev4")
# Further development sets, written later and independently: held to the same format checks, but the
# size minimums apply to the original dev + dev4 union only.
EXTRA_FILES = ("dev2", "dev3", "dev-fr", "dev-polarity", "dev5", "dev-fr2", "dev-fr3", "dev6", "dev7", "dev8", "dev9",
               "dev10", "dev11", "dev12")
# The held-out split (tests/data/eval/holdout/): written blind, never tuned on, scored once. Same
# format and label checks; the en/es/de files cover every language x category cell.
MULTILINGUAL_HOLDOUT = ("holdout/textbook", "holdout/realworld", "holdout/textbook2", "holdout/realworld2")
HOLDOUT_FILES = (*MULTILINGUAL_HOLDOUT, "holdout/fr", "holdout/fr2")
# Held-out files written after every other eval file: none of their hints shares a run of FRESH_RUN_WORDS
# words with any other eval file (fresh wording, not a paraphrase of rows the analyser was tuned on).
FRESH_HOLDOUT = ("holdout/textbook2", "holdout/realworld2", "holdout/fr2")
# Development sets worded afresh too (checked after the fresh held-out files, against every other file).
FRESH_DEV = ("dev-polarity", "dev5", "dev-fr2", "dev-fr3", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11",
             "dev12")
FRESH_RUN_WORDS = 6
LANGS = ("en", "es", "de", "fr")
# The languages of the original dev + dev4 splits and of the en/es/de held-out files (French came later).
SPLIT_LANGS = ("en", "es", "de")
CATEGORIES = ("single", "paraphrase", "combination", "strength", "noise", "multi_objective", "contradictory")
MINIMUM_ROWS = {"en": 300, "es": 50, "de": 50}
MINIMUM_PER_INTENT = 5
# Every intent at least this often in each extra development set and held-out set.
MINIMUM_PER_INTENT_EXTRA = {"dev2": 4, "dev3": 3, "dev5": 4, "dev6": 4, "dev7": 4, "dev8": 4, "dev9": 4, "dev10": 4,
                            "dev11": 4, "dev12": 4,
                            "dev-fr": 3, "dev-fr2": 3, "dev-fr3": 3,
                            "holdout/fr": 2, "holdout/fr2": 2} | {
    n: 3 for n in MULTILINGUAL_HOLDOUT
}
# Single-language sets: their language, and the rows they must hold at least (issue 12: French dev set).
SINGLE_LANGUAGE_FILES = {
    "dev-fr": ("fr", 120), "dev-fr2": ("fr", 120), "dev-fr3": ("fr", 120),
    "holdout/fr": ("fr", 90), "holdout/fr2": ("fr", 90),
}
# Sets about one concern: dev-polarity holds avoid/prefer and spread/colocate traps, so a GPU-memory or
# NVLink wish has no place there and the per-intent minimum cannot hold. Instead every intent that has an
# opposite (shared.catalogue.OPPOSITES) occurs at least this often, and every language x category cell is
# covered except `multi_objective` (long workload profiles are not what it tests).
FOCUSED_FILES = {"dev-polarity": 1}
FOCUSED_CATEGORIES = tuple(c for c in CATEGORIES if c != "multi_objective")
ROW_KEYS = {"id", "hint", "lang", "category", "expected"}


def _load(split: str) -> list[dict[str, Any]]:
    rows = []
    with open(EVAL_DIR / f"{split}.jsonl", encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            assert line.strip(), f"{split}.jsonl line {number} is blank"
            row = json.loads(line)
            assert isinstance(row, dict), f"{split}.jsonl line {number} is not an object"
            rows.append(row)
    return rows


@pytest.fixture(scope="module")
def rows_by_file() -> dict[str, list[dict[str, Any]]]:
    return {name: _load(name) for name in SPLITS + EXTRA_FILES + HOLDOUT_FILES}


@pytest.fixture(scope="module")
def rows_by_split(rows_by_file: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {split: rows_by_file[split] for split in SPLITS}


@pytest.fixture(scope="module")
def split_rows(rows_by_split: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of dev + dev4 (the union the size minimums are about)."""
    return [row for split in SPLITS for row in rows_by_split[split]]


@pytest.fixture(scope="module")
def all_rows(rows_by_file: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of every file: format, uniqueness and label checks apply to all of them."""
    return [row for rows in rows_by_file.values() for row in rows]


def _metadata_problems(intent: str, metadata: Any) -> list[str]:
    """Why ``metadata`` is not exactly the catalogue's metadata of ``intent`` (empty if it is)."""
    if not isinstance(metadata, dict):
        return [f"{intent}: metadata is not an object"]
    spec = BY_NAME[intent]
    expected_keys = {meta.key for meta in spec.metadata}
    if set(metadata) != expected_keys:
        return [f"{intent}: metadata keys {sorted(metadata)} != {sorted(expected_keys)}"]
    problems = []
    for meta in spec.metadata:
        value = metadata[meta.key]
        if meta.type is MetaType.FLOAT:
            if not isinstance(value, float) or value < 0:
                problems.append(f"{intent}: {meta.key}={value!r} is not a non-negative float")
        elif not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
            problems.append(f"{intent}: {meta.key}={value!r} is not a non-empty list of strings")
    return problems


def test_rows_have_the_contract_fields(all_rows: list[dict[str, Any]]) -> None:
    problems = []
    for row in all_rows:
        if set(row) != ROW_KEYS:
            problems.append(f"{row.get('id')}: keys {sorted(row)}")
            continue
        if not isinstance(row["hint"], str) or not isinstance(row["expected"], list):
            problems.append(f"{row['id']}: hint/expected types")
        if row["lang"] not in LANGS:
            problems.append(f"{row['id']}: lang {row['lang']!r}")
        if row["category"] not in CATEGORIES:
            problems.append(f"{row['id']}: category {row['category']!r}")
        if not str(row["id"]).startswith(f"{row['lang']}-"):
            problems.append(f"{row['id']}: id does not start with its language")
    assert not problems, problems


def test_ids_and_hints_are_unique(all_rows: list[dict[str, Any]]) -> None:
    ids = Counter(row["id"] for row in all_rows)
    assert [i for i, n in ids.items() if n > 1] == []
    # Blank hints ("" and whitespace) are deliberately both present; every other hint occurs once.
    hints = Counter(" ".join(row["hint"].lower().split()) for row in all_rows if row["hint"].strip())
    assert [h for h, n in hints.items() if n > 1] == []


def test_expected_intents_are_catalogue_exact(all_rows: list[dict[str, Any]]) -> None:
    problems = []
    for row in all_rows:
        names = []
        for item in row["expected"]:
            if set(item) != {"intent", "strength", "metadata"}:
                problems.append(f"{row['id']}: expected item keys {sorted(item)}")
                continue
            name = item["intent"]
            names.append(name)
            if name not in BY_NAME:
                problems.append(f"{row['id']}: unknown intent {name!r}")
                continue
            if not isinstance(item["strength"], float) or item["strength"] not in STRENGTHS:
                problems.append(f"{row['id']}: {name} strength {item['strength']!r}")
            problems.extend(f"{row['id']}: {p}" for p in _metadata_problems(name, item["metadata"]))
        if names != sorted(set(names)):
            problems.append(f"{row['id']}: intents not unique and sorted: {names}")
        if (row["category"] == "noise") != (not names):
            problems.append(f"{row['id']}: noise rows, and only they, expect no intent")
    assert not problems, problems


def test_labels_are_already_canonical(all_rows: list[dict[str, Any]]) -> None:
    """The normaliser changes nothing: names, strengths, metadata (lists sorted, de-duplicated) stay."""
    problems = []
    for row in all_rows:
        result = normalise({"intents": row["expected"]})
        got = [
            {"intent": i.name, "strength": i.strength,
             "metadata": {k: list(v) if isinstance(v, tuple) else v for k, v in i.metadata.items()}}
            for i in result.document.intents
        ]
        if got != row["expected"] or result.notes:
            problems.append(f"{row['id']}: {row['expected']} -> {got} {list(result.notes)}")
    assert not problems, problems


def test_sizes_meet_the_issue(split_rows: list[dict[str, Any]]) -> None:
    per_lang = Counter(row["lang"] for row in split_rows)
    for lang, minimum in MINIMUM_ROWS.items():
        assert per_lang[lang] >= minimum, (lang, per_lang[lang])
    per_intent = Counter(item["intent"] for row in split_rows for item in row["expected"])
    too_few = {name: per_intent[name] for name in INTENT_NAMES if per_intent[name] < MINIMUM_PER_INTENT}
    assert too_few == {}


def test_both_splits_cover_every_intent_language_and_category(rows_by_split: dict[str, list[dict[str, Any]]]) -> None:
    for split, rows in rows_by_split.items():
        intents = {item["intent"] for row in rows for item in row["expected"]}
        assert set(INTENT_NAMES) - intents == set(), split
        cells = {(row["lang"], row["category"]) for row in rows}
        missing = {(lang, cat) for lang in SPLIT_LANGS for cat in CATEGORIES} - cells
        assert missing == set(), (split, sorted(missing))


def test_extra_and_holdout_sets_use_every_intent_often_enough(rows_by_file: dict[str, list[dict[str, Any]]]) -> None:
    for name in EXTRA_FILES + HOLDOUT_FILES:
        if name in FOCUSED_FILES:
            continue
        per_intent = Counter(item["intent"] for row in rows_by_file[name] for item in row["expected"])
        minimum = MINIMUM_PER_INTENT_EXTRA[name]
        too_few = {i: per_intent[i] for i in INTENT_NAMES if per_intent[i] < minimum}
        assert too_few == {}, name


def test_focused_sets_cover_every_polarity_intent_language_and_category(
    rows_by_file: dict[str, list[dict[str, Any]]],
) -> None:
    for name, minimum in FOCUSED_FILES.items():
        rows = rows_by_file[name]
        per_intent = Counter(item["intent"] for row in rows for item in row["expected"])
        too_few = {i: per_intent[i] for i in INTENT_NAMES if opposites(i) and per_intent[i] < minimum}
        assert too_few == {}, name
        cells = {(row["lang"], row["category"]) for row in rows}
        missing = {(lang, cat) for lang in LANGS for cat in FOCUSED_CATEGORIES} - cells
        assert missing == set(), (name, sorted(missing))


def test_holdout_files_cover_every_language_and_category(rows_by_file: dict[str, list[dict[str, Any]]]) -> None:
    for name in MULTILINGUAL_HOLDOUT:
        cells = {(row["lang"], row["category"]) for row in rows_by_file[name]}
        missing = {(lang, cat) for lang in SPLIT_LANGS for cat in CATEGORIES} - cells
        assert missing == set(), (name, sorted(missing))


def test_single_language_sets_are_big_enough_and_cover_every_category(
    rows_by_file: dict[str, list[dict[str, Any]]],
) -> None:
    for name, (lang, minimum) in SINGLE_LANGUAGE_FILES.items():
        rows = rows_by_file[name]
        assert {row["lang"] for row in rows} == {lang}, name
        assert len(rows) >= minimum, (name, len(rows))
        assert set(CATEGORIES) - {row["category"] for row in rows} == set(), name


def _runs(hint: str) -> set[tuple[str, ...]]:
    """Every run of FRESH_RUN_WORDS consecutive words of ``hint`` (case, accents and punctuation ignored)."""
    tokens = words(hint)
    return {tokens[i:i + FRESH_RUN_WORDS] for i in range(len(tokens) - FRESH_RUN_WORDS + 1)}


def test_fresh_files_share_no_wording_with_other_eval_files() -> None:
    """The newest held-out files and dev-polarity are worded afresh: no 6-word run of theirs is in another file."""
    fresh = {f"{name}.jsonl" for name in FRESH_HOLDOUT + FRESH_DEV}
    seen: dict[tuple[str, ...], str] = {}
    for path in sorted(EVAL_DIR.rglob("*.jsonl")):
        name = str(path.relative_to(EVAL_DIR))
        if name not in fresh:
            for row in _load(name.removesuffix(".jsonl")):
                seen.update(dict.fromkeys(_runs(row["hint"]), name))
    problems = []
    for name in FRESH_HOLDOUT + FRESH_DEV:
        own: dict[tuple[str, ...], str] = {}
        for row in _load(name):
            for run in _runs(row["hint"]):
                if run in seen:
                    # The shared words are printed only when the other file is not held out (no held-out wording
                    # reaches whoever reads the failure).
                    shared = "" if seen[run].startswith("holdout/") else f" {' '.join(run)!r}"
                    problems.append(f"{row['id']} ({name}) shares{shared} a {FRESH_RUN_WORDS}-word run"
                                    f" with {seen[run]}")
                own.setdefault(run, name)
        seen.update(own)  # a fresh file may repeat its own phrases, not those of the other fresh files
    assert problems == [], problems


def test_metadata_checker_rejects_bad_labels() -> None:
    """The checker itself can fail: ints, wrong keys and empty lists are caught."""
    assert _metadata_problems("prefer_gpu", {"prefer_gpu_cores": 2.0}) == []
    assert _metadata_problems("prefer_gpu", {"prefer_gpu_cores": 2})
    assert _metadata_problems("prefer_gpu", {"gpus": 2.0})
    assert _metadata_problems("prefer_zones", {"prefer_zones": []})
    assert _metadata_problems("spread_zones", {"x": 1.0})
