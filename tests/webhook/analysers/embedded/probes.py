"""How the analyser tests read a probe hint: one analyser, and one helper per view of its answer.

The probe files (``test_robust_*``, ``test_polarity*``, ``test_descriptions``, ...) hold hints of our own wording;
these helpers are the only place that calls the analyser for them, so every file reads a hint the same way.
"""

from __future__ import annotations

import asyncio
from typing import Any

from shared.sanitise import sanitise
from webhook.analysers.base import analyse
from webhook.analysers.embedded import EmbeddedAnalyser
from webhook.evaluation import EvalRow, RowResult, score_row

ANALYSER = EmbeddedAnalyser()


def intents(hint: str) -> dict[str, dict[str, Any]]:
    """Intent name -> metadata, as the embedded analyser reads ``hint`` (before the shared normaliser)."""
    raw, _ = ANALYSER.read(hint)
    return {entry["intent"]: entry["metadata"] for entry in raw}


def names(hint: str) -> set[str]:
    """The intent names read in ``hint``."""
    return set(intents(hint))


def named(hint: str) -> dict[str, list[str]]:
    """Intent name -> the names its metadata lists (places, workloads; ``[]`` for none)."""
    return {name: sorted(v for values in metadata.values() if isinstance(values, list) for v in values)
            for name, metadata in intents(hint).items()}


def places(hint: str) -> dict[str, list[str]]:
    """Intent name -> its names, for the intents of ``hint`` that name something."""
    return {name: listed for name, listed in named(hint).items() if listed}


def strengths(hint: str) -> dict[str, float]:
    """Intent name -> strength, as the embedded analyser reads ``hint``."""
    raw, _ = ANALYSER.read(hint)
    return {entry["intent"]: entry["strength"] for entry in raw}


def score_rows(rows: list[EvalRow]) -> list[RowResult]:
    """Each row through the webhook's path (sanitise, analyse, normalise), scored like an evaluation row; no
    deadline, since a slow machine is no wrong answer."""
    async def run() -> list[RowResult]:
        results = []
        for row in rows:
            outcome = await analyse(ANALYSER, sanitise(row.hint).text, deadline_s=600)
            results.append(score_row(row, outcome.document, outcome.latency_ms, outcome.error))
        return results
    return asyncio.run(run())


def score(row: EvalRow) -> RowResult:
    """One row through the webhook's path, scored (``score_rows``)."""
    return score_rows([row])[0]
