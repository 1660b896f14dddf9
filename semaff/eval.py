"""``semaff eval`` (ARCHITECTURE.md 2.7): an analyser on labelled rows, scored by ``webhook.evaluation``.

Every hint goes the way ``semaff analyze`` sends it (``semaff.analyze.analyse_hint``), so the figures
are those of the webhook's own path.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

import orjson

from semaff.analyze import analyse_hint, backend_arg, backend_name, open_backend, read_settings
from webhook.analysers import AnalyserSettings
from webhook.analysers.base import Analyser
from webhook.evaluation import RowError, RowResult, figures, read_rows, render_report, score_row, summarise


async def evaluate_rows(analyser: Analyser, rows: Sequence[Any], settings: AnalyserSettings, warm_up: bool,
                        concurrency: int) -> list[RowResult]:
    """Every row analysed the way ``semaff analyze`` sends it and scored, in order; closes the backend."""
    try:
        start = getattr(analyser, "warm_up", None)
        if warm_up and start is not None:
            # A local model's one-off start (compiling the rules, seconds on a loaded machine) is paid before the
            # first row and outside any deadline, as ``semaff analyze`` does: run as a throw-away hint under the
            # hint deadline, it timed out on a busy machine and its thread then slowed the first rows past theirs.
            await start()
        gate = asyncio.Semaphore(max(1, concurrency))

        async def one(row: Any) -> RowResult:
            async with gate:
                # Process CPU time is only this hint's cost when hints run one at a time. It is shown
                # beside wall-clock latency because a shared machine inflates the latter.
                cpu_started = time.process_time()
                outcome = await analyse_hint(analyser, row.hint, settings)
                cpu_ms = (time.process_time() - cpu_started) * 1000.0 if concurrency <= 1 else None
            return score_row(row, outcome.document, outcome.latency_ms, outcome.error, cpu_ms)

        return list(await asyncio.gather(*(one(row) for row in rows)))
    finally:
        await analyser.close()


def eval_main(argv: Sequence[str], *, environ: Any = None, stdout: IO[str] | None = None,
              stderr: IO[str] | None = None) -> int:
    """``semaff eval FILE.jsonl [--backend NAME]``: a readable report, then one JSON object of figures as the last line.

    Exit status: 0 the run completed (the figures are the result), 2 unreadable file or backend error.
    """
    environ = os.environ if environ is None else environ
    out, err = stdout or sys.stdout, stderr or sys.stderr
    parser = argparse.ArgumentParser(prog="semaff eval", description="Evaluate an analyser on labelled rows.")
    parser.add_argument("file", metavar="FILE.jsonl", help="evaluation rows (ARCHITECTURE.md 2.8)")
    backend_arg(parser)
    parser.add_argument("--concurrency", type=int, default=1,
                        help="hints in flight at once (1 gives clean per-hint latencies; more suits remote LLMs)")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="do not warm a local backend up before measuring (remote ones have nothing to warm)")
    parser.add_argument("--max-failures", type=int, default=200, help="failures listed in the report")
    args = parser.parse_args(list(argv))
    try:
        with open(args.file, encoding="utf-8") as handle:
            rows = read_rows(handle)
    except (OSError, UnicodeDecodeError, RowError) as exc:
        print(f"semaff eval: {args.file}: {exc}", file=err)
        return 2
    if not rows:
        print(f"semaff eval: {args.file}: no rows", file=err)
        return 2
    settings = read_settings(environ, err)
    if settings is None:
        return 2
    name = backend_name(args.backend, environ)
    analyser = open_backend(name, settings, err)
    if analyser is None:
        return 2
    title = (f"semaff eval {args.file}: backend {analyser.name}, model {analyser.model or '-'}, "
             f"prompt {analyser.prompt_version}")
    results = asyncio.run(evaluate_rows(analyser, rows, settings, args.warm_up, args.concurrency))
    summary = summarise(results)
    out.write(render_report(results, summary, title=title, max_failures=args.max_failures) + "\n")
    out.write(orjson.dumps(figures(summary)).decode() + "\n")
    out.flush()
    return 0
