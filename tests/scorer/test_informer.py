"""Informer mechanics with a scripted API: list, watch events, 410 Gone -> re-list, errors -> backoff, 404."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest

from scorer.sources import kube
from scorer.sources.kube import Informer, Resource

_real_sleep = asyncio.sleep  # the backoff test replaces asyncio.sleep; the helpers keep the real one


class FakeContent:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def iter_any(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


class FakeResponse:
    def __init__(self, status: int, body: Any = None, lines: list[dict] | None = None) -> None:
        self.status = status
        self._body = orjson.dumps(body) if body is not None else b""
        raw = b"".join(orjson.dumps(line) + b"\n" for line in lines or [])
        # split mid-line on purpose: the reader must join chunks
        self.content = FakeContent([raw[i : i + 7] for i in range(0, len(raw), 7)])
        self.released = False

    async def read(self) -> bytes:
        return self._body

    def release(self) -> None:
        self.released = True


def node(name: str, rv: str) -> dict:
    return {"metadata": {"name": name, "resourceVersion": rv}}


class Script:
    """Answers list and watch calls from a queue; records what was asked."""

    def __init__(self, answers: list[FakeResponse | Exception]) -> None:
        self.answers = answers
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> FakeResponse:
        self.calls.append(kwargs)
        if not self.answers:
            await _real_sleep(3600)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


class Sink:
    def __init__(self) -> None:
        self.items: dict[str, dict] = {}
        self.replaced = 0

    def replace(self, items: list) -> None:
        self.items = {i["metadata"]["name"]: i for i in items}
        self.replaced += 1

    def upsert(self, item: Any) -> None:
        self.items[item["metadata"]["name"]] = item

    def delete(self, item: Any) -> None:
        self.items.pop(item["metadata"]["name"], None)


async def run_until(informer: Informer, condition: Any, timeout: float = 10.0) -> None:
    task = asyncio.create_task(informer.run())
    try:
        for _ in range(int(timeout / 0.01)):
            if condition():
                return
            await _real_sleep(0.01)
        raise AssertionError("condition never held")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_list_watch_and_relist_on_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    script = Script([
        FakeResponse(200, {"metadata": {"resourceVersion": "10"}, "items": [node("a", "9")]}),
        FakeResponse(200, lines=[{"type": "ADDED", "object": node("b", "11")},
                                 {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "12"}}},
                                 {"type": "MODIFIED", "object": {**node("a", "13"), "x": 1}},
                                 {"type": "DELETED", "object": node("b", "14")},
                                 {"type": "ERROR", "object": {"kind": "Status", "code": 410}}]),
        FakeResponse(200, {"metadata": {"resourceVersion": "20"}, "items": [node("c", "19")]}),
    ])
    sink = Sink()
    informer = Informer(Resource("nodes", script, sink.replace, sink.upsert, sink.delete, {"field_selector": "f"}),
                        relist_s=600)
    await run_until(informer, lambda: sink.replaced == 2)
    assert list(sink.items) == ["c"]
    assert script.calls[0] == {"_preload_content": False, "field_selector": "f"}
    watch = script.calls[1]
    assert watch["watch"] is True and watch["resource_version"] == "10" and watch["allow_watch_bookmarks"]
    assert script.calls[2] == {"_preload_content": False, "field_selector": "f"}  # the re-list after 410


async def test_watch_events_apply_in_order() -> None:
    script = Script([
        FakeResponse(200, {"metadata": {"resourceVersion": "1"}, "items": []}),
        FakeResponse(200, lines=[{"type": "ADDED", "object": node("b", "2")},
                                 {"type": "MODIFIED", "object": {**node("b", "3"), "x": 1}}]),
    ])
    sink = Sink()
    informer = Informer(Resource("nodes", script, sink.replace, sink.upsert, sink.delete), relist_s=600)
    await run_until(informer, lambda: len(script.calls) == 3)
    assert sink.items["b"]["x"] == 1
    assert script.calls[2]["resource_version"] == "3"  # the next watch resumes from the last version seen


async def test_errors_back_off_and_404_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps: list[float] = []
    async def fast_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await _real_sleep(0)

    monkeypatch.setattr(kube.asyncio, "sleep", fast_sleep)
    errors: list[str] = []
    script = Script([ConnectionError("refused"), FakeResponse(500, {"message": "boom"}), FakeResponse(404),
                     FakeResponse(200, {"metadata": {"resourceVersion": "5"}, "items": [node("a", "4")]})])
    sink = Sink()
    informer = Informer(Resource("noderesourcetopologies", script, sink.replace, sink.upsert, sink.delete),
                        relist_s=30, on_error=errors.append)
    await run_until(informer, lambda: sink.replaced == 1)
    assert errors == ["noderesourcetopologies", "noderesourcetopologies"]
    assert 0.5 < sleeps[0] < sleeps[1] <= 36  # exponential with jitter
    assert 30 in sleeps  # the CRD was absent: checked again a re-list period later


async def test_watch_lines_split_anywhere() -> None:
    """Events split across chunks at any byte, many events in one chunk, blank lines: each event once, whole."""
    import random

    class Chunks:
        def __init__(self, chunks: list[bytes]) -> None:
            self.content = FakeContent(chunks)

    rng = random.Random(1)
    for _ in range(300):
        events = [orjson.dumps({"type": "MODIFIED", "object": {"n": "x" * rng.randint(0, 40)}})
                  for _ in range(rng.randint(0, 6))]
        data = b"\n".join(events) + rng.choice([b"", b"\n", b"\n\n", b"\n \n"])
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randint(0, 8))))
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        assert [line async for line in kube._lines(Chunks(chunks))] == events  # type: ignore[arg-type]
