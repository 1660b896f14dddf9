"""The list+watch loop: resourceVersion hand-over, bookmarks, 410 Gone and errors (scripted API)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from webhook import kube as kube_module
from webhook.kube import PODS, KubeError, list_watch


class ScriptedKube:
    """Each list returns the next state; each watch plays the next script of events (or raises)."""

    def __init__(self, lists: list[list[dict]], watches: list[Any]) -> None:
        self.lists, self.watches = lists, watches
        self.list_calls = 0
        self.watch_versions: list[str] = []

    async def list(self, resource, label_selector="", field_selector=""):
        items = self.lists[min(self.list_calls, len(self.lists) - 1)]
        self.list_calls += 1
        return items, f"L{self.list_calls}"

    async def watch(self, resource, version, label_selector="", field_selector=""):
        self.watch_versions.append(version)
        script = self.watches.pop(0) if self.watches else None
        if script is None:
            await asyncio.Event().wait()
        if isinstance(script, Exception):
            raise script
        for event in script:
            yield event


def obj(name: str, version: str) -> dict:
    return {"metadata": {"name": name, "resourceVersion": version}}


async def test_resume_bookmark_gone_and_error(monkeypatch) -> None:
    monkeypatch.setattr(kube_module, "backoff", lambda *_a, **_k: 0.0)
    api = ScriptedKube(
        lists=[[obj("a", "1")], [obj("a", "1"), obj("b", "9")], [obj("c", "12")]],
        watches=[
            [("ADDED", obj("b", "5")), ("BOOKMARK", obj("", "7"))],  # stream ends: re-watch from 7
            [("ERROR", {"code": 410, "reason": "Expired"})],  # Gone: re-list
            KubeError(500, "boom"),  # error: back off, re-list
        ],
    )
    seen: list[tuple[str, Any]] = []
    restarts: list[str] = []

    async def on_list(items):
        seen.append(("list", [i["metadata"]["name"] for i in items]))

    async def on_event(kind, item):
        seen.append((kind, item["metadata"]["name"]))

    task = asyncio.create_task(list_watch(api, PODS, on_list, on_event, on_restart=restarts.append))
    for _ in range(200):
        await asyncio.sleep(0.005)
        if api.list_calls >= 3 and len(api.watch_versions) >= 4:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == [("list", ["a"]), ("ADDED", "b"), ("list", ["a", "b"]), ("list", ["c"])]
    assert api.watch_versions[:4] == ["L1", "7", "L2", "L3"]
    assert restarts == ["gone", "error"]


class _Content:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def iter_any(self):
        for chunk in self.chunks:
            yield chunk


class _Response:
    status = 200
    reason = "OK"

    def __init__(self, chunks: list[bytes]) -> None:
        self.content = _Content(chunks)

    def release(self) -> None:
        pass


def _kube_answering(chunks: list[bytes]) -> kube_module.Kube:
    """A Kube whose pod list call answers the watch with ``chunks`` (no API client)."""
    client = object.__new__(kube_module.Kube)

    class Core:
        async def list_pod_for_all_namespaces(self, **_kwargs):
            return _Response(chunks)

    client.core = Core()
    return client


async def test_watch_splits_events_anywhere_and_a_burst_lets_the_loop_run() -> None:
    """2,000 events in one chunk (a burst of deletions), the last one unterminated: every event once, whole,
    in order, and a task waiting on the loop runs before the burst is consumed by a reader that never awaits."""
    import orjson

    events = [{"type": "DELETED", "object": {"metadata": {"name": f"p{i}", "annotations": {"a": "x" * 300}}}}
              for i in range(2000)]
    data = b"\n".join(orjson.dumps(e) for e in events)
    chunks = [data[:5], data[5:len(data) - 7], data[len(data) - 7:]]  # lines cut at arbitrary bytes
    ran_at: list[int] = []
    seen: list[tuple[str, str]] = []

    async def other() -> None:
        ran_at.append(len(seen))

    task = asyncio.create_task(other())
    async for kind, item in _kube_answering(chunks).watch(PODS, "1"):
        seen.append((kind, item["metadata"]["name"]))  # never awaits: only the watch can give the loop back
    await task
    assert seen == [("DELETED", f"p{i}") for i in range(2000)]
    assert ran_at and ran_at[0] < 2000
