"""``semaff analyze`` and ``semaff eval`` (ARCHITECTURE.md 2.7): the analysers from a shell.

Both go through exactly the webhook's path: ``shared.sanitise`` -> backend -> ``base.analyse``
(parse, schema, normalise). Settings come from the same ``SEMAFF_*`` variables as the webhook
(``AnalyserSettings.from_env``); this module is an entry point, so it may read ``os.environ``.
Bad input never raises out of here: every hint ends as a document plus a status
(``analyzed``, ``no-intent`` or ``failed`` with a reason).
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

from shared.codec import Status
from shared.intents import EMPTY_DOCUMENT
from shared.sanitise import sanitise
from webhook.analysers import DEFAULT_BACKEND, AnalyserSettings, UnknownBackend, create, names
from webhook.analysers.base import Analyser, Outcome, analyse
from webhook.evaluation import RowError, RowResult, figures, read_rows, render_report, score_row, summarise

# The backend's own deadline plus this much before the CLI gives up on a hint regardless.
_GRACE_S = 2.0


def status_of(outcome: Outcome) -> Status:
    """The annotation status an outcome would get."""
    if outcome.document is None:
        return Status.FAILED
    return Status.ANALYZED if outcome.document.intents else Status.NO_INTENT


async def analyse_hint(analyser: Analyser, hint: str, settings: AnalyserSettings) -> Outcome:
    """Sanitise and analyse one raw hint; the whole call is bounded by the analysis deadline."""
    clean = sanitise(hint, settings.hint_max_chars)
    return await analyse(analyser, clean.text, deadline_s=settings.analysis_timeout_s + _GRACE_S)


def _settings(environ: Any, err: IO[str]) -> AnalyserSettings | None:
    try:
        return AnalyserSettings.from_env(environ)
    except ValueError as exc:
        print(f"semaff: bad setting: {exc}", file=err)
        return None


def _open(name: str, settings: AnalyserSettings, err: IO[str]) -> Analyser | None:
    try:
        return create(name, settings)
    except UnknownBackend as exc:
        print(f"semaff: {exc}", file=err)
    except ImportError as exc:
        print(f"semaff: backend {name!r} is not available: {exc}", file=err)
    except Exception as exc:  # bad settings (missing URL, unreadable key file, ...)
        print(f"semaff: cannot start backend {name!r}: {exc}", file=err)
    return None


def _read_stdin_lines(stdin: IO[Any]) -> list[str]:
    """stdin as text lines; undecodable bytes become U+FFFD instead of an exception."""
    raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    # Only "\n" (and a CRLF's "\r") ends a line: str.splitlines would also split on \v, \f, \x1c-\x1e,
    # \x85 and U+2028 inside a hint.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines


def _backend_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", default=None,
                        help=f"analyser backend: {', '.join(names())} (default: $SEMAFF_ANALYSER or "
                             f"{DEFAULT_BACKEND})")


def _backend_name(arg: str | None, environ: Any) -> str:
    return arg or environ.get("SEMAFF_ANALYSER") or DEFAULT_BACKEND


# --- semaff analyze ---------------------------------------------------------------------------------------


async def _analyze(analyser: Analyser, hints: Sequence[str], settings: AnalyserSettings, verbose: bool,
                   out: IO[str], err: IO[str]) -> int:
    failed = 0
    try:
        for number, hint in enumerate(hints, 1):
            outcome = await analyse_hint(analyser, hint, settings)
            document = outcome.document if outcome.document is not None else EMPTY_DOCUMENT
            out.write(document.canonical_bytes().decode() + "\n")
            out.flush()
            status = status_of(outcome)
            if status is Status.FAILED:
                failed += 1
                print(f"semaff analyze: hint {number}: failed: {outcome.error}", file=err)
            if verbose:
                print(orjson.dumps({"hint": number, "status": status.value, "analyser": outcome.analyser,
                                    "model": outcome.model, "prompt_version": outcome.prompt_version,
                                    "latency_ms": round(outcome.latency_ms, 2), "error": outcome.error,
                                    "notes": list(outcome.notes)}).decode(), file=err)
    finally:
        await analyser.close()
    return 1 if failed else 0


def analyze_main(argv: Sequence[str], *, environ: Any = None, stdin: IO[Any] | None = None,
                 stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """``semaff analyze [--backend NAME] [HINT ...]``: one canonical intent document per hint, per line.

    Exit status: 0 all analysed (or no intent), 1 some analysis failed (its line is the empty
    document, the reason goes to stderr), 2 usage or backend error.
    """
    environ = os.environ if environ is None else environ
    out, err = stdout or sys.stdout, stderr or sys.stderr
    parser = argparse.ArgumentParser(prog="semaff analyze", description="Turn placement hints into intents.")
    _backend_arg(parser)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print status, model, latency and notes per hint to stderr")
    parser.add_argument("hints", nargs="*", metavar="HINT", help="hints to analyse (none: one per stdin line)")
    args = parser.parse_args(list(argv))
    settings = _settings(environ, err)
    if settings is None:
        return 2
    hints = args.hints if args.hints else _read_stdin_lines(stdin or sys.stdin)
    analyser = _open(_backend_name(args.backend, environ), settings, err)
    if analyser is None:
        return 2
    return asyncio.run(_analyze(analyser, hints, settings, args.verbose, out, err))


# --- semaff eval ------------------------------------------------------------------------------------------


async def _evaluate(analyser: Analyser, rows: Sequence[Any], settings: AnalyserSettings, warm_up: bool,
                    concurrency: int) -> list[RowResult]:
    try:
        if warm_up:  # the first call of a local model pays one-off costs; keep them out of the latencies
            await analyse_hint(analyser, "needs a GPU", settings)
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
    _backend_arg(parser)
    parser.add_argument("--concurrency", type=int, default=1,
                        help="hints in flight at once (1 gives clean per-hint latencies; more suits remote LLMs)")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="do not analyse one throw-away hint before measuring (default: warm up locally)")
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
    settings = _settings(environ, err)
    if settings is None:
        return 2
    name = _backend_name(args.backend, environ)
    analyser = _open(name, settings, err)
    if analyser is None:
        return 2
    title = (f"semaff eval {args.file}: backend {analyser.name}, model {analyser.model or '-'}, "
             f"prompt {analyser.prompt_version}")
    warm_up = args.warm_up and name == "embedded"  # a remote warm-up call would cost money and prove nothing
    results = asyncio.run(_evaluate(analyser, rows, settings, warm_up, args.concurrency))
    summary = summarise(results)
    out.write(render_report(results, summary, title=title, max_failures=args.max_failures) + "\n")
    out.write(orjson.dumps(figures(summary)).decode() + "\n")
    out.flush()
    return 0
