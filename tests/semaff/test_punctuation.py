"""``semaff punctuation``: what the comma model is trained on, that the shipped model is what training writes,
and that it earns its place on rows it never saw (cross-validation by file)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from semaff.punctuation import (
    DEVELOPMENT,
    EVAL_DIR,
    MARGIN,
    cross_validate,
    hints_of,
    punctuation_main,
    train,
    training_files,
)
from webhook.analysers.embedded.punctuation import MODEL_FILE, model


def test_training_reads_only_released_development_files() -> None:
    """Never the held-out split, and a dev file written blind (for a session's first look) only once it is named in
    DEVELOPMENT: a new eval file is not trained on by default."""
    files = training_files()
    assert all(p.exists() for p in files)
    assert all("holdout" not in p.relative_to(EVAL_DIR).parts for p in files)
    assert {p.stem for p in files if p.parent == EVAL_DIR} == set(DEVELOPMENT)
    assert "dev12" not in DEVELOPMENT  # session 11's blind first-look set
    assert any(p.parent.name == "tuning" for p in files)


def test_the_shipped_model_is_what_training_writes() -> None:
    """Deterministic training: retraining on the same files gives the shipped weights exactly (so nobody edits it
    by hand, and a changed development file shows up here until the model is trained again)."""
    weights, margin = model()
    assert margin == MARGIN
    assert train(hints_of(training_files())) == weights, "run `semaff punctuation train` after changing eval files"


def test_train_writes_the_model_file(tmp_path: Path) -> None:
    target = tmp_path / "punctuation.json"
    out = io.StringIO()
    assert punctuation_main(["train", "--output", str(target)], stdout=out) == 0
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written == json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    assert "weights from" in out.getvalue()


def test_it_reads_unseen_unpunctuated_rows_better_and_flips_nothing() -> None:
    """Issue 12, item 4: a learned part must add rows on held-out folds. Three folds over the development files,
    each read typed without punctuation with a model trained on the other two."""
    tallies = cross_validate(training_files(), MARGIN, folds=3, kinds=("nopunct",))
    tally = tallies["nopunct"]
    assert tally.rows > 2000
    assert tally.after - tally.before >= tally.rows // 100  # at least a percent more rows read right
    assert tally.better > 3 * tally.worse
    assert tally.new_flips == 0 and tally.flips_after <= tally.flips_before
