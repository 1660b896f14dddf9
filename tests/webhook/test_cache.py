"""The intent cache: LRU bound, TTL on an injected clock, single-flight."""

from __future__ import annotations

import asyncio

import pytest

from webhook.analysers.cache import CacheKey, IntentCache


def key(n: int) -> CacheKey:
    return CacheKey(f"sha{n}", "fake:fake-1", "t1")


def test_lru_bound_and_ttl() -> None:
    now = [0.0]
    cache: IntentCache[str] = IntentCache(max_entries=2, ttl_s=10, clock=lambda: now[0])
    cache.put(key(1), "a")
    cache.put(key(2), "b")
    assert cache.get(key(1)) == "a"  # 1 becomes most recent
    cache.put(key(3), "c")
    assert cache.get(key(2)) is None and cache.get(key(1)) == "a" and cache.get(key(3)) == "c"
    now[0] = 10.0
    assert cache.get(key(1)) is None and len(cache) == 1
    assert (cache.hits, cache.misses) == (3, 2)


def test_different_analyser_or_prompt_is_a_different_entry() -> None:
    cache: IntentCache[str] = IntentCache()
    cache.put(CacheKey("s", "fake:fake-1", "t1"), "x")
    assert cache.get(CacheKey("s", "fake:fake-2", "t1")) is None
    assert cache.get(CacheKey("s", "fake:fake-1", "t2")) is None


async def test_single_flight_and_failures_not_stored() -> None:
    cache: IntentCache[str] = IntentCache(should_store=lambda v: v != "failed")
    release = asyncio.Event()
    calls = []

    async def compute() -> str:
        calls.append(1)
        await release.wait()
        return "failed" if len(calls) == 1 else "ok"

    waiters = [asyncio.create_task(cache.get_or_compute(key(1), compute)) for _ in range(100)]
    await asyncio.sleep(0.01)
    assert cache.inflight(key(1))
    waiters[0].cancel()  # one impatient caller does not cancel the others' analysis
    release.set()
    results = await asyncio.gather(*waiters[1:])
    assert set(results) == {"failed"} and len(calls) == 1
    assert await cache.get_or_compute(key(1), compute) == "ok" and len(calls) == 2
    assert await cache.get_or_compute(key(1), compute) == "ok" and len(calls) == 2


async def test_compute_exception_reaches_every_waiter() -> None:
    cache: IntentCache[str] = IntentCache()

    async def boom() -> str:
        await asyncio.sleep(0.01)
        raise RuntimeError("backend bug")

    results = await asyncio.gather(*[cache.get_or_compute(key(1), boom) for _ in range(3)], return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    assert not cache.inflight(key(1)) and len(cache) == 0
    with pytest.raises(RuntimeError):
        await cache.get_or_compute(key(1), boom)
