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
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.embedded import punctuation
from webhook.analysers.embedded.language import detect, supported
from webhook.analysers.embedded.rules import normalise, read_hint, to_raw
from webhook.analysers.version import content_version, tree_parts

log = logging.getLogger(__name__)

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
        self._restore_failed = False
        # One read at a time: the first builds the typo and language tables and loads the comma model (seconds on a
        # busy machine), and a hint that arrives meanwhile waits for it instead of building them a second time in a
        # parallel thread (that doubled the cold start past the analysis deadline on a loaded CI machine). The
        # rules are pure Python under the GIL, so serialising them costs no throughput.
        self._one_at_a_time = threading.Lock()

    async def warm_up(self) -> None:
        """Compile the word lists, build the typo and language tables and load the comma model now instead of on
        the first hint."""
        # six words without punctuation: the comma model is loaded too (a failure to load is logged, not raised)
        await asyncio.to_thread(self.read, "warm m04 16gb m05 8gb m06 4gb")

    def _punctuated(self, hint: str) -> str:
        """``hint`` with the comma model's commas; the hint as typed if the model cannot run (a missing or broken
        ``punctuation.json``): the rules then read it as they did before the model, and the failure is logged once."""
        try:
            return self._restore(hint)
        except Exception:
            if not self._restore_failed:
                self._restore_failed = True
                log.exception("embedded: punctuation.restore raised, hints go on uncommaed")
            return hint

    def analyse_sync(self, hint: str) -> list[dict]:
        """Raw intent objects for one sanitised hint (blocking; ``analyse_raw`` runs it in a thread)."""
        return self.read(hint)[0]

    def read(self, hint: str) -> tuple[list[dict], str | None]:
        """(raw intents, why there are none) for one sanitised hint. A hint in a language without data
        files is not guessed at: no intent, and a reason that says so."""
        with self._one_at_a_time:
            return self._read(hint)

    def _read(self, hint: str) -> tuple[list[dict], str | None]:
        hint = hint[:MAX_CHARS]
        language = detect(normalise(hint))
        if not language.supported:
            named = f"'{language.code}'" if language.code else "unknown"
            reason = (f"{UNSUPPORTED}: embedded analyser reads {', '.join(supported())}; "
                      f"hint language {named} is unsupported, so no guess")
            return [], reason
        return to_raw(read_hint(self._punctuated(hint))), None

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
