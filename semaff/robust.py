"""``semaff robust``: does the analyser read a wish the same way however it is typed?

Every row of the files is perturbed in meaning-preserving ways (``webhook.perturbations``: curly
quotes, no accents, lower case, no punctuation, no apostrophes, a greeting, an emoji, a typo) and
analysed the way ``semaff eval`` does. Per perturbation it reports how many variants read
differently from their original (intent names), subset accuracy of the originals and of the
variants, and the polarity flips among the variants (expected avoid_X read as prefer_X, spread as
colocate): a flip caused by typing is the worst outcome there is. Needs no labels for the first
figure; the others use the rows' expected answers, which the perturbation does not change.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

import orjson

from semaff.analyze import backend_arg, backend_name, open_backend, read_settings
from semaff.eval import evaluate_rows
from webhook.evaluation import EvalRow, RowError, RowResult, read_rows
from webhook.perturbations import PERTURBATIONS, perturbed


def _figures(name: str, pairs: Sequence[tuple[EvalRow, EvalRow]], result: dict[int, RowResult]) -> dict[str, Any]:
    changed = [(o, v) for o, v in pairs if result[id(o)].predicted_names != result[id(v)].predicted_names]
    n = len(pairs)
    return {
        "perturbation": name,
        "n": n,
        "changed": len(changed),
        "subset_accuracy_original": round(sum(result[id(o)].subset_ok for o, _ in pairs) / n, 4) if n else 0.0,
        "subset_accuracy_perturbed": round(sum(result[id(v)].subset_ok for _, v in pairs) / n, 4) if n else 0.0,
        "polarity_flips": sum(len(result[id(v)].flips) for _, v in pairs),
        "examples": [
            {"hint": v.hint, "original": sorted(result[id(o)].predicted_names),
             "perturbed": sorted(result[id(v)].predicted_names)}
            for o, v in changed
        ],
    }


def robust_main(argv: Sequence[str], *, environ: Any = None, stdout: IO[str] | None = None,
                stderr: IO[str] | None = None) -> int:
    """``semaff robust FILE.jsonl ... [--perturbation NAME] [--examples N]``: a table, then JSON figures.

    Exit status: 0 the run completed (the figures are the result), 2 unreadable file or backend error.
    """
    environ = os.environ if environ is None else environ
    out, err = stdout or sys.stdout, stderr or sys.stderr
    parser = argparse.ArgumentParser(prog="semaff robust", description=__doc__.splitlines()[0])
    parser.add_argument("files", metavar="FILE.jsonl", nargs="+", help="evaluation rows (ARCHITECTURE.md 2.8)")
    backend_arg(parser)
    parser.add_argument("--perturbation", action="append", choices=sorted(PERTURBATIONS),
                        help="only these (repeatable; default: all)")
    parser.add_argument("--examples", type=int, default=0, help="changed variants listed per perturbation")
    args = parser.parse_args(list(argv))
    rows: list[EvalRow] = []
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as handle:
                rows.extend(read_rows(handle))
        except (OSError, UnicodeDecodeError, RowError) as exc:
            print(f"semaff robust: {path}: {exc}", file=err)
            return 2
    settings = read_settings(environ, err)
    if settings is None:
        return 2
    analyser = open_backend(backend_name(args.backend, environ), settings, err)
    if analyser is None:
        return 2
    names = args.perturbation or list(PERTURBATIONS)
    all_pairs = {name: perturbed(rows, name) for name in names}

    variant_rows = [v for pairs in all_pairs.values() for _, v in pairs]
    # one pass the way semaff eval scores (warm-up of a local model, then one hint at a time; closes the backend)
    results = asyncio.run(evaluate_rows(analyser, [*rows, *variant_rows], settings, warm_up=True, concurrency=1))
    # keyed by the row object: ids need not be unique over several files
    by_row = dict(zip(map(id, [*rows, *variant_rows]), results, strict=True))
    table = [_figures(name, all_pairs[name], by_row) for name in names]
    out.write(f"semaff robust: backend {analyser.name}, prompt {analyser.prompt_version}, {len(rows)} rows\n")
    out.write(f"{'perturbation':<14}{'variants':>9}{'changed':>9}{'subset orig':>13}{'subset pert':>13}"
              f"{'flips':>7}\n")
    for f in table:
        out.write(f"{f['perturbation']:<14}{f['n']:>9}{f['changed']:>9}{f['subset_accuracy_original']:>13.2%}"
                  f"{f['subset_accuracy_perturbed']:>13.2%}{f['polarity_flips']:>7}\n")
        for example in f["examples"][: args.examples]:
            out.write(f"    {example['hint']!r}: {example['original']} -> {example['perturbed']}\n")
    summary = [{k: v for k, v in f.items() if k != "examples"} for f in table]
    out.write(orjson.dumps(summary).decode() + "\n")
    out.flush()
    return 0
