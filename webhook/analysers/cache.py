"""The intent cache: analyse a hint once, reuse it for every pod that carries it.

Key = (sha256 of the *sanitised* hint, analyser id, prompt version): the same words analysed by
another model or another prompt are a different entry. Bounded (LRU) with a time-to-live, the
clock injected so tests need no sleeping. ``get_or_compute`` is single-flight: while one analysis
of a key runs, every other caller awaits the same result, so a 100-replica Deployment costs one
analysis. Failed results are handed to the waiters but not stored (``should_store``).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class CacheKey:
    hint_sha256: str
    analyser: str  # backend id and model, e.g. "embedded:rules"
    prompt_version: str


class IntentCache(Generic[V]):
    """LRU + TTL map with single-flight computation. Not thread-safe: one event loop owns it."""

    def __init__(
        self,
        max_entries: int = 10_000,
        ttl_s: float = 86_400.0,
        clock: Callable[[], float] = time.monotonic,
        should_store: Callable[[V], bool] = lambda _: True,
    ) -> None:
        self._entries: OrderedDict[CacheKey, tuple[float, V]] = OrderedDict()
        self._inflight: dict[CacheKey, asyncio.Future[V]] = {}
        self._max = max(1, max_entries)
        self._ttl = ttl_s
        self._clock = clock
        self._should_store = should_store
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: CacheKey) -> V | None:
        """The stored value if present and fresh (counts a hit or a miss)."""
        entry = self._entries.get(key)
        if entry is not None:
            expires, value = entry
            if self._clock() < expires:
                self._entries.move_to_end(key)
                self.hits += 1
                return value
            del self._entries[key]
        self.misses += 1
        return None

    def put(self, key: CacheKey, value: V) -> None:
        self._entries[key] = (self._clock() + self._ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)

    def inflight(self, key: CacheKey) -> bool:
        return key in self._inflight

    async def get_or_compute(self, key: CacheKey, compute: Callable[[], Awaitable[V]]) -> V:
        """The cached value, or the result of ``compute()`` run once however many callers ask at once.

        Cancelling one waiter does not cancel the shared computation for the others.
        """
        value = self.get(key)
        if value is not None:
            return value
        future = self._inflight.get(key)
        if future is None:
            future = asyncio.ensure_future(self._run(key, compute))
            self._inflight[key] = future
            # retrieve a failure even when every waiter was cancelled (no "never retrieved" noise)
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
        return await asyncio.shield(future)

    async def _run(self, key: CacheKey, compute: Callable[[], Awaitable[V]]) -> V:
        try:
            value = await compute()
            if self._should_store(value):
                self.put(key, value)
            return value
        finally:
            self._inflight.pop(key, None)
