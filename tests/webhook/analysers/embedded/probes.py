"""How the analyser tests read a probe hint: one analyser, and one helper per view of its answer.

The probe files (``test_robust_*``, ``test_polarity*``, ``test_descriptions``, ...) hold hints of our own wording;
these helpers are the only place that calls the analyser for them, so every file reads a hint the same way.
"""

from __future__ import annotations

import asyncio
from typing import Any

from shared.catalogue import BY_NAME
from shared.sanitise import sanitise
from webhook.analysers.base import analyse
from webhook.analysers.embedded import EmbeddedAnalyser
from webhook.evaluation import EvalRow, Expected, RowResult, score_row

ANALYSER = EmbeddedAnalyser()

# A probe's expected intents: ``name`` (strength 1.0), ``name@0.5`` or ``name@1.5`` -> its metadata value (the
# catalogue's one key: a number or a list of names) or None.
Labels = dict[str, Any]


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


def values(hint: str) -> dict[str, Any]:
    """Intent name -> the one value of its metadata (names sorted), or None."""
    out: dict[str, Any] = {}
    for name, metadata in intents(hint).items():
        value = next(iter(metadata.values()), None)
        out[name] = sorted(value) if isinstance(value, list) else value
    return out


def check_values(hint: str, labels: dict[str, Any]) -> None:
    """Assert ``hint`` reads exactly ``labels``: intent name -> its metadata's one value (a number, names) or None."""
    expected = {name: sorted(v) if isinstance(v, list) else (None if v is None else float(v))
                for name, v in labels.items()}
    assert values(hint) == expected, hint


def readings(hint: str) -> dict[str, tuple[float, dict[str, Any]]]:
    """Intent name -> (strength, metadata), as the embedded analyser reads ``hint``."""
    raw, _ = ANALYSER.read(hint)
    return {entry["intent"]: (entry["strength"], entry["metadata"]) for entry in raw}


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


def expected_of(labels: Labels) -> tuple[Expected, ...]:
    """The README's canonical answer for one probe's labels (sorted by intent name)."""
    out = []
    for key, value in labels.items():
        name, _, strength = key.partition("@")
        metas = BY_NAME[name].metadata
        metadata = {metas[0].key: (list(value) if isinstance(value, list) else float(value))} if metas else {}
        out.append(Expected(name, float(strength or 1.0), metadata))
    return tuple(sorted(out, key=lambda e: e.intent))


def problems(result: RowResult) -> list[str]:
    """What one probe got wrong: missed and extra intents, wrong metadata or strength."""
    got = {intent.name: intent for intent in result.predicted}
    out = [f"missed {name}" for name in sorted(result.row.names - set(got))]
    out += [f"extra {name}" for name in sorted(set(got) - result.row.names)]
    for expected in result.row.expected:
        if not result.metadata_ok.get(expected.intent, True):
            out.append(f"metadata {expected.intent}: {dict(got[expected.intent].metadata)}")
        if not result.strength_ok.get(expected.intent, True):
            out.append(f"strength {expected.intent}: {got[expected.intent].strength}")
    return out
