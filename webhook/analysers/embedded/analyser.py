"""The embedded analyser: the offline default backend (no network, no account, no model download).

Rules read names, numbers, negation and strength (``rules``). The work is CPU-bound and runs in a
worker thread, so the event loop keeps serving admission requests meanwhile. A hint typed without
punctuation first gets the commas a learned model says its writer left out (``punctuation``), since
the rules scope negation and strength by clause.

A sentence encoder (USE-multilingual-v3) once filled in clauses the rules could not read. Measured
over every labelled row (dev, dev2, dev3, test: 916 hints) it changed 2 of them, both in splits its
prototypes were written against, and none of the test split, for ~120 MB of resident memory and
seconds of load: it was removed, with its dependency.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.embedded import punctuation
from webhook.analysers.embedded.language import detect, supported
from webhook.analysers.embedded.rules import normalise, read_hint, to_raw
from webhook.analysers.version import content_version, tree_parts

PACKAGE = Path(__file__).resolve().parent
# Every rule and word list of this package decides the output: the version is their digest, so a
# changed analyser never reuses old results.
PROMPT_VERSION = content_version("embedded", tree_parts(PACKAGE))
MODEL = "rules"

# Bounds on work per hint. The webhook sanitises hints to SEMAFF_HINT_MAX_CHARS (1000) first; this
# only keeps a caller that skips the sanitiser from paying for a 100 KB string.
MAX_CHARS = 4000
UNSUPPORTED = "language-not-supported"  # the reason code of a hint in a language without data files


class EmbeddedAnalyser:
    """Analyser protocol implementation for ``SEMAFF_ANALYSER=embedded``."""

    name = "embedded"
    model = MODEL
    prompt_version = PROMPT_VERSION

    def __init__(self, restore: Callable[[str], str] = punctuation.restore) -> None:
        # ``restore`` is replaceable so that ``semaff punctuation cv`` can read with a model trained without the
        # rows it reads (and without any): the webhook always uses the shipped one.
        self._restore = restore

    async def warm_up(self) -> None:
        """Compile the word lists and build the typo and language tables now instead of on the first hint."""
        await asyncio.to_thread(self.read, "warm rules m04 16gb")

    def analyse_sync(self, hint: str) -> list[dict]:
        """Raw intent objects for one sanitised hint (blocking; ``analyse_raw`` runs it in a thread)."""
        return self.read(hint)[0]

    def read(self, hint: str) -> tuple[list[dict], str | None]:
        """(raw intents, why there are none) for one sanitised hint. A hint in a language without data
        files is not guessed at: no intent, and a reason that says so."""
        hint = hint[:MAX_CHARS]
        language = detect(normalise(hint))
        if not language.supported:
            named = f"'{language.code}'" if language.code else "unknown"
            reason = (f"{UNSUPPORTED}: embedded analyser reads {', '.join(supported())}; "
                      f"hint language {named} is unsupported, so no guess")
            return [], reason
        return to_raw(read_hint(self._restore(hint))), None

    async def analyse_raw(self, hint: str) -> RawOutput:
        """Raw output for one sanitised hint; never blocks the event loop."""
        try:
            intents, reason = await asyncio.to_thread(self.read, hint)
        except Exception as exc:  # a bug in a rule must fail this hint, not the webhook
            raise AnalyserError("embedded-error", f"{type(exc).__name__}: {exc}") from exc
        return RawOutput(data={"intents": intents}, model=self.model, reason=reason)

    async def close(self) -> None:
        """Nothing to release: the rules hold no per-instance state."""
        return None
