"""The shared path every backend's output takes: parse, normalise, and failures that never escape."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from webhook.analysers.base import AnalyserError, RawOutput, analyse, extract_json


class Scripted:
    name = "scripted"
    model = "m1"
    prompt_version = "p1"

    def __init__(self, behaviour: Any) -> None:
        self.behaviour = behaviour
        self.calls = 0

    async def analyse_raw(self, hint: str) -> RawOutput:
        self.calls += 1
        return await self.behaviour()

    async def close(self) -> None:
        return None


@pytest.mark.parametrize("text", [
    '{"intents": []}',
    '```json\n{"intents": []}\n```',
    'Here is the JSON you asked for:\n{"intents": []}\nHope this helps.',
])
def test_extract_json_finds_the_object(text: str) -> None:
    assert extract_json(text) == {"intents": []}


@pytest.mark.parametrize("text", ["", "no json here", '{"intents": [{"intent": "prefer_gpu"'])
def test_extract_json_refuses_what_is_not_there(text: str) -> None:
    with pytest.raises(ValueError):
        extract_json(text)


async def test_empty_hint_is_no_intent_without_calling_the_backend() -> None:
    async def never() -> RawOutput:
        raise AssertionError("called")

    backend = Scripted(never)
    outcome = await analyse(backend, "   ")
    assert outcome.document is not None and outcome.document.intents == () and backend.calls == 0


async def test_outcome_carries_backend_identity() -> None:
    async def ok() -> RawOutput:
        return RawOutput(text='{"intents": [{"intent": "spread_nodes"}]}', model="m1-2026")

    outcome = await analyse(Scripted(ok), "keep replicas apart")
    assert (outcome.analyser, outcome.model, outcome.prompt_version) == ("scripted", "m1-2026", "p1")
    assert outcome.document is not None and outcome.document.names == ("spread_nodes",)


@pytest.mark.parametrize(("behaviour", "prefix"), [
    ("error", "circuit-open"),
    ("bug", "internal-error: KeyError"),
    ("shape", "unusable-output"),
    ("deep", "unusable-output"),
])
async def test_failures_become_failed_outcomes(behaviour: str, prefix: str) -> None:
    async def run() -> RawOutput:
        if behaviour == "error":
            raise AnalyserError("circuit-open", "5 consecutive failures")
        if behaviour == "bug":
            raise KeyError("choices")
        if behaviour == "shape":
            return RawOutput(data={"result": "yes"})
        return RawOutput(text="[" * 100_000 + "]" * 100_000)  # nesting no parser accepts

    outcome = await analyse(Scripted(run), "needs a GPU")
    assert outcome.failed and outcome.error is not None and outcome.error.startswith(prefix)


async def test_outer_deadline_bounds_a_hanging_backend() -> None:
    async def hang() -> RawOutput:
        await asyncio.Event().wait()
        return RawOutput()

    outcome = await analyse(Scripted(hang), "needs a GPU", deadline_s=0.05)
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("timeout")
