"""A fake analyser backend for the command-line tests: answers by keyword, like a tiny model."""

from __future__ import annotations

import asyncio

from webhook.analysers.base import AnalyserError, RawOutput


class FakeAnalyser:
    """Answers by keyword, like a tiny model; records the (sanitised) hints it was given."""

    name = "fake"
    model = "fake-1"
    prompt_version = "test"

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.closed = False

    async def analyse_raw(self, hint: str) -> RawOutput:
        self.seen.append(hint)
        if "garbage" in hint:
            return RawOutput(text="Sure! Here you go: not json")
        if "nothing" in hint:
            return RawOutput(text="")
        if "hang" in hint:
            await asyncio.Event().wait()
        if "crash" in hint:
            raise RuntimeError("backend bug")
        if "throttle" in hint:
            raise AnalyserError("ThrottlingException", "gave up after 3 attempts", retryable=True)
        intents = []
        if "gpu" in hint.lower():
            intents.append({"intent": "prefer_gpu", "confidence": 0.9,
                            "strength": 1.5 if "must" in hint else 1.0, "metadata": {"prefer_gpu_cores": 1}})
        if "spread" in hint:
            intents.append({"intent": "spread_zones", "confidence": 0.8})
        return RawOutput(data={"intents": intents}, model=self.model)

    async def close(self) -> None:
        self.closed = True
