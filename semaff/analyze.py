"""``semaff analyze`` (ARCHITECTURE.md 2.7), and the path every hint of the command line takes.

``analyse_hint`` goes through exactly the webhook's path: ``shared.sanitise`` -> backend -> ``base.analyse``
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
from collections.abc import Sequence
from typing import IO, Any

import orjson

from shared.codec import Status
from shared.intents import EMPTY_DOCUMENT
from shared.sanitise import sanitise
from webhook.analysers import DEFAULT_BACKEND, AnalyserSettings, UnknownBackend, create, names
from webhook.analysers.base import Analyser, Outcome, analyse

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
    return await analyse(analyser, clean.text, deadline_s=settings.analysis_timeout_s + _GRACE_S,
                         forged_markup=clean.forged_markup)


def read_settings(environ: Any, err: IO[str]) -> AnalyserSettings | None:
    """The analyser settings from ``SEMAFF_*`` variables; None (the reason on ``err``) when one is bad."""
    try:
        return AnalyserSettings.from_env(environ)
    except ValueError as exc:
        print(f"semaff: bad setting: {exc}", file=err)
        return None


def open_backend(name: str, settings: AnalyserSettings, err: IO[str]) -> Analyser | None:
    """The backend ``name``; None (the reason on ``err``) when it is unknown or cannot start."""
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


def backend_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--backend NAME`` to a subcommand's parser."""
    parser.add_argument("--backend", default=None,
                        help=f"analyser backend: {', '.join(names())} (default: $SEMAFF_ANALYSER or "
                             f"{DEFAULT_BACKEND})")


def backend_name(arg: str | None, environ: Any) -> str:
    """``--backend``, else ``$SEMAFF_ANALYSER``, else the embedded default."""
    return arg or environ.get("SEMAFF_ANALYSER") or DEFAULT_BACKEND


# --- semaff analyze ---------------------------------------------------------------------------------------


async def _analyze(analyser: Analyser, hints: Sequence[str], settings: AnalyserSettings, verbose: bool,
                   out: IO[str], err: IO[str]) -> int:
    failed = 0
    try:
        warm_up = getattr(analyser, "warm_up", None)
        if warm_up is not None:  # a local model's one-off start (compiling the rules) must not eat the first deadline
            await warm_up()
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
    backend_arg(parser)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print status, model, latency and notes per hint to stderr")
    parser.add_argument("hints", nargs="*", metavar="HINT", help="hints to analyse (none: one per stdin line)")
    args = parser.parse_args(list(argv))
    settings = read_settings(environ, err)
    if settings is None:
        return 2
    hints = args.hints if args.hints else _read_stdin_lines(stdin or sys.stdin)
    analyser = open_backend(backend_name(args.backend, environ), settings, err)
    if analyser is None:
        return 2
    return asyncio.run(_analyze(analyser, hints, settings, args.verbose, out, err))
