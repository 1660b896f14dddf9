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
