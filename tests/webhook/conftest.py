"""Shared test doubles for the webhook: a signing key and a small fake analyser (the base.Analyser protocol)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from shared.signing import Signer, generate_private_key_pem
from webhook.analysers.base import AnalyserError, RawOutput

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "admission"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())


class FakeAnalyser:
    """Answers from a table of sanitised hint -> raw analyser output; records calls.

    ``fail`` makes every call raise AnalyserError; ``gate`` (an asyncio.Event) holds calls until set,
    so tests can observe single-flight and kill a controller mid-analysis.
    """

    name = "fake"
    model = "fake-1"
    prompt_version = "t1"

    def __init__(self, answers: dict[str, Any] | None = None, *, fail: str | None = None,
                 gate: asyncio.Event | None = None) -> None:
        self.answers = answers or {}
        self.fail = fail
        self.gate = gate
        self.calls: list[str] = []

    async def analyse_raw(self, hint: str) -> RawOutput:
        self.calls.append(hint)
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise AnalyserError(self.fail, retryable=True)
        return RawOutput(data=self.answers.get(hint, {"intents": []}), model=self.model)

    async def close(self) -> None:
        return None


GPU_HINT = "critical ML training job, it must run on nodes with GPUs"
GPU_RAW = {"intents": [{"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5,
                        "explanation": "'must'", "metadata": {"prefer_gpu_cores": 1}}]}
CONFLICT_HINT = "collocate all pods on a single node, you must also spread these pods across all zones"
CONFLICT_RAW = {"intents": [
    {"intent": "prefer_colocate_same_deployment", "confidence": 0.9, "strength": 1.0},
    {"intent": "spread_zones", "confidence": 0.4, "strength": 1.5}]}


@pytest.fixture(scope="session")
def signer() -> Signer:
    return Signer(generate_private_key_pem())


@pytest.fixture
def analyser() -> FakeAnalyser:
    return FakeAnalyser({GPU_HINT: GPU_RAW, CONFLICT_HINT: CONFLICT_RAW})
