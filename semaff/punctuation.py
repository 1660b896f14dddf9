"""``semaff punctuation``: train the embedded analyser's comma model, and measure it by cross-validation.

``train`` learns, from every development hint, where its writer ended a clause (a mark after a word) and writes
``webhook/analysers/embedded/punctuation.json``; the result is deterministic, so the shipped file is
what this command writes. ``cv`` splits the development files into folds and, per fold, trains on the other
folds and reads the fold's hints typed without punctuation (the rows that have none, and every row through
``webhook.perturbations`` "nopunct" and "chat") with and without the commas that model puts back: the gain it
prints is on rows the model never saw (the margin and the rules around the model were chosen on these same
figures, so they are a little optimistic; the blind set's first look is the honest one). Only the files named in
``DEVELOPMENT`` and ``tuning/`` are read: the held-out split never, and a new blind set not until it is released
by adding it there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from semaff.eval import evaluate_rows
from webhook.analysers import AnalyserSettings
from webhook.analysers.embedded import EmbeddedAnalyser, punctuation
from webhook.evaluation import EvalRow, RowResult, read_rows
from webhook.perturbations import perturbed

EVAL_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "eval"
# The released development sets (besides tuning/): a new set written blind for a first look is trained on only
# once it is added here, after that look.
DEVELOPMENT = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev-fr",
               "dev-fr2", "dev-fr3", "dev-polarity")
EPOCHS = 8
SEED = 0
# A gap needs a score above this to get a comma: chosen by ``cv`` (fewer commas, fewer rows read worse).
MARGIN = 2.0
# Features seen fewer times than this in training are left out: a word of one row would otherwise decide its gaps
# (the model learnt "that row", not where clauses end).
MIN_COUNT = 3
FOLDS = 5
TYPED = ("nopunct", "chat")


def training_files(root: Path = EVAL_DIR) -> list[Path]:
    """The released development files (``DEVELOPMENT``) and every tuning file, in a fixed order."""
    return sorted([root / f"{name}.jsonl" for name in DEVELOPMENT] + list((root / "tuning").glob("*.jsonl")))


def labelled(hint: str) -> list[tuple[list[str], list[frozenset[str]], int, bool]]:
    """(folded words, concept tags, gap index, punctuated there) for every gap between two words of ``hint``.

    A hint typed without any punctuation is kept: trained on punctuated hints only, the model put in more commas,
    and 17 of our own probes (typed without punctuation) read worse; its gaps teach it that short unpunctuated
    hints are mostly one clause."""
    words, ends = punctuation.words_and_gaps(hint)
    marked = [bool(punctuation.PUNCTUATION.match(hint, end)) for end in ends]
    folded, tags = [punctuation.fold(w) for w in words], punctuation.concept_tags(words)
    return [(folded, tags, i, marked[i]) for i in range(len(words) - 1)]


def train(hints: Iterable[str], epochs: int = EPOCHS, seed: int = SEED) -> dict[str, float]:
    """An averaged perceptron over the gaps of ``hints`` (+1: a mark after the word); weights rounded, zeros dropped.

    The average is over the weights each step predicted with (kept lazily: a feature's running total catches up
    only when its weight changes), the usual variant."""
    data = [(punctuation.features(f, t, i), 1.0 if y else -1.0) for h in hints for f, t, i, y in labelled(h)]
    seen = Counter(f for feats, _ in data for f in feats)
    data = [([f for f in feats if seen[f] >= MIN_COUNT], label) for feats, label in data]
    weights: dict[str, float] = {}
    totals: dict[str, float] = {}  # running sum of each weight over all steps, kept lazily with ``stamps``
    stamps: dict[str, int] = {}
    step = 0
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(data)
        for feats, label in data:
            step += 1
            if punctuation.score(weights, feats) * label > 0:
                continue
            for f in feats:
                totals[f] = totals.get(f, 0.0) + (step - stamps.get(f, 0)) * weights.get(f, 0.0)
                stamps[f] = step
                weights[f] = weights.get(f, 0.0) + label
    averaged = {f: (totals.get(f, 0.0) + (step - stamps.get(f, 0)) * w) / step for f, w in weights.items()}
    return {f: round(w, 3) for f, w in sorted(averaged.items()) if round(w, 3) != 0.0}


def hints_of(files: Iterable[Path]) -> list[str]:
    """Every hint of ``files``, in order."""
    return [row.hint for path in files for row in _rows(path)]


def _rows(path: Path) -> list[EvalRow]:
    with open(path, encoding="utf-8") as handle:
        return read_rows(handle)


def write_model(weights: dict[str, float], margin: float, path: Path = punctuation.MODEL_FILE) -> None:
    path.write_text(json.dumps({"margin": margin, "weights": weights}, ensure_ascii=False, indent=0,
                               sort_keys=True) + "\n", encoding="utf-8")


@dataclass
class Tally:
    """One kind of unpunctuated row read with and without the commas of a model that never saw it."""

    rows: int = 0
    before: int = 0  # read perfectly without the model
    after: int = 0  # read perfectly with the commas it put back
    flips_before: int = 0
    flips_after: int = 0
    worse: int = 0
    better: int = 0
    new_flips: int = 0  # rows with a polarity flip they did not have without the commas


AS_WRITTEN = "as written"


def unpunctuated(rows: Sequence[EvalRow], kinds: Sequence[str] = (AS_WRITTEN, *TYPED)) -> dict[str, list[EvalRow]]:
    """The rows as typed without punctuation: the ones that have none (``AS_WRITTEN``), and every row through each
    perturbation of ``TYPED``, as far as ``kinds`` asks."""
    found = {}
    if AS_WRITTEN in kinds:
        found[AS_WRITTEN] = [r for r in rows if r.hint.strip() and not punctuation.has_punctuation(r.hint)]
    for name in TYPED:
        if name in kinds:
            found[name] = [variant for _, variant in perturbed(rows, name)]
    return found


def _read(restore: Callable[[str], str], rows: list[EvalRow]) -> list[RowResult]:
    analyser = EmbeddedAnalyser(restore=restore)
    return asyncio.run(evaluate_rows(analyser, rows, AnalyserSettings(), warm_up=True, concurrency=1))


def cross_validate(files: Sequence[Path], margin: float, folds: int = FOLDS,
                   kinds: Sequence[str] = (AS_WRITTEN, *TYPED)) -> dict[str, Tally]:
    """Per kind of unpunctuated row, the analyser's reading with and without a model trained on the other folds."""
    tallies: dict[str, Tally] = {}
    for k in range(folds):
        held = files[k::folds]
        weights = train(hints_of(p for p in files if p not in held))
        rows = [row for path in held for row in _rows(path)]
        for kind, typed in unpunctuated(rows, kinds).items():
            without = _read(lambda h: h, typed)
            with_model = _read(lambda h, w=weights: punctuation.restore(h, w, margin), typed)
            tally = tallies.setdefault(kind, Tally())
            for a, b in zip(without, with_model, strict=True):
                tally.rows += 1
                tally.before += a.perfect
                tally.after += b.perfect
                tally.flips_before += len(a.flips)
                tally.flips_after += len(b.flips)
                tally.worse += a.perfect and not b.perfect
                tally.better += b.perfect and not a.perfect
                tally.new_flips += len(b.flips) > len(a.flips)
    return tallies


def gap_accuracy(files: Sequence[Path], margin: float, folds: int = FOLDS) -> dict[str, float]:
    """Precision and recall of the commas put back, against the marks the held-out fold's writers typed."""
    tp = fp = fn = 0
    for k in range(folds):
        held = files[k::folds]
        weights = train(hints_of(p for p in files if p not in held))
        for hint in hints_of(held):
            for f, t, i, y in labelled(hint):
                guess = punctuation.score(weights, punctuation.features(f, t, i)) > margin
                tp, fp, fn = tp + (guess and y), fp + (guess and not y), fn + (y and not guess)
    return {"precision": round(tp / max(1, tp + fp), 4), "recall": round(tp / max(1, tp + fn), 4)}


def punctuation_main(argv: Sequence[str], *, stdout: IO[str] | None = None) -> int:
    """``semaff punctuation train|cv [--margin M]``: write the model, or print cross-validated figures (JSON)."""
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(prog="semaff punctuation", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("train", "cv"))
    parser.add_argument("--margin", type=float, default=MARGIN, help="score a gap needs for a comma")
    parser.add_argument("--output", type=Path, default=punctuation.MODEL_FILE, help="where train writes the model")
    parser.add_argument("--folds", type=int, default=FOLDS, help="cross-validation folds (by file)")
    args = parser.parse_args(list(argv))
    files = training_files()
    if args.action == "train":
        hints = hints_of(files)
        weights = train(hints)
        write_model(weights, args.margin, args.output)
        print(f"{args.output}: {len(weights)} weights from {len(hints)} hints of {len(files)} files, "
              f"margin {args.margin}", file=out)
        return 0
    figures = {"margin": args.margin, "folds": args.folds, "gaps": gap_accuracy(files, args.margin, args.folds)}
    for kind, tally in cross_validate(files, args.margin, args.folds).items():
        figures[kind] = asdict(tally)
    print(json.dumps(figures), file=out)
    return 0
