"""Every development row typed differently (``webhook.perturbations``) reads as the row does: no polarity
flip the typing adds, and at most the number of changed readings reached so far (they may only go down).

One run of the analyser over the development rows serves every perturbation; the area tests
(``test_robust_<area>.py``) hold the probes of their own wording, read through ``probes``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.webhook.analysers.embedded.probes import score_rows
from webhook.evaluation import EvalRow, RowResult, read_rows
from webhook.perturbations import PERTURBATIONS, perturbed

_EVAL = Path(__file__).resolve().parents[4] / "tests" / "data" / "eval"
# The development rows the figures below were reached on: never the held-out split (tests/data/eval/holdout/).
# A new blind set joins once its figures are measured (``make robust`` reads every development file meanwhile).
MEASURED = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev-fr", "dev-fr2", "dev-fr3", "dev-polarity")
DEVELOPMENT = [_EVAL / f"{name}.jsonl" for name in MEASURED] + sorted((_EVAL / "tuning").glob("*.jsonl"))

# Variants read differently from their original, at most (the figures reached on the merged tree):
# - noapos: "the 'database' and 'cache' deployments" without quotes leaves the names bare, and a possessive
#   without its apostrophe ("ledgers zone") reads as a plural, not as whose zone it is: not guessed;
# - noaccent: "wurde" is a word of its own (the past "was"), so "SSD wurde sehr helfen" stays a description;
# - typo: "deselben" is one slip of three German articles the rules tell apart, "utiliation" of two spellings,
#   "Apártlo" lost the vowel the enclitic imperatives are read by (lang/es/negation_before.txt);
# - nopunct / chat: run-ons whose scope is not settled without punctuation are dropped, not guessed;
# - dev6.jsonl and dev-fr3.jsonl (merged 2026-12-01) added rows: noapos 3 -> 5 and nopunct / chat 58 -> 89 on the
#   merged tree before the scope rules of test_robust_punct brought nopunct / chat to 80 (and their 4 flips to 0);
#   78 after the merges of the guard, paraphrase, multi and French areas; 76 after the English typed-hint
#   mechanisms of test_robust_typed_en (refusals pointing back, "no X pods on my node", shorthand sizes); 68 on
#   the es/de/fr branch alone after the scope rules of test_robust_typed_esdefr (spreads that pass a level start
#   again, "aber" before a sentence-final refusal, a strength word said after its object: "8 cores ssd mandatory");
#   67 on the merged tree (the lead's list-scope rules included), with 0 flips.
CHANGED = {"curly": 0, "lower": 0, "wrapped": 0, "emoji": 0, "noapos": 5, "noaccent": 1, "typo": 3,
           "nopunct": 67, "chat": 67}


# The French development files read right at least this often, with no flip (the figures reached; dev-fr3 read
# 114 before the description segments: a run-on description now takes the refusal typed before it without
# punctuation with it, dropped rather than guessed).
FRENCH = {"dev-fr.jsonl": 163, "dev-fr2.jsonl": 113, "dev-fr3.jsonl": 113}


@pytest.fixture(scope="module")
def by_file() -> dict[str, list[EvalRow]]:
    """Each development file's rows, by its path under tests/data/eval/."""
    return {str(path.relative_to(_EVAL)): read_rows(path.read_text(encoding="utf-8").splitlines())
            for path in DEVELOPMENT}


@pytest.fixture(scope="module")
def development(by_file: dict[str, list[EvalRow]]) -> tuple[list[EvalRow], dict[int, RowResult]]:
    rows = [row for file_rows in by_file.values() for row in file_rows]
    # keyed by the row object: ids need not be unique over several files
    return rows, {id(row): result for row, result in zip(rows, score_rows(rows), strict=True)}


@pytest.mark.parametrize("name", sorted(FRENCH))
def test_the_french_development_files_keep_their_figures(
        name: str, by_file: dict[str, list[EvalRow]],
        development: tuple[list[EvalRow], dict[int, RowResult]]) -> None:
    rows, results = by_file[name], [development[1][id(row)] for row in by_file[name]]
    assert not [(row.id, r.flips) for row, r in zip(rows, results, strict=True) if r.flips]
    right = sum(1 for r in results if r.subset_ok)
    assert right >= FRENCH[name], right


def test_every_perturbation_has_a_figure() -> None:
    assert set(CHANGED) == set(PERTURBATIONS)


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_a_perturbation_adds_no_flip_and_changes_at_most_the_figure_reached(
        name: str, development: tuple[list[EvalRow], dict[int, RowResult]]) -> None:
    rows, original = development
    pairs = perturbed(rows, name)
    assert pairs, f"{name} perturbs no development row"
    variants = score_rows([variant for _, variant in pairs])
    changed = [v.hint for (o, v), result in zip(pairs, variants, strict=True)
               if result.predicted_names != original[id(o)].predicted_names]
    # a flip the original row already has is the reading's, not the typing's
    flips = [(v.hint, result.flips) for (o, v), result in zip(pairs, variants, strict=True)
             if set(result.flips) - set(original[id(o)].flips)]
    assert not flips, flips
    assert len(changed) <= CHANGED[name], changed
