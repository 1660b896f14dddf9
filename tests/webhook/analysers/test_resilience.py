"""Retry, backoff, breaker and deadline rules shared by the LLM backends."""

from __future__ import annotations

import asyncio
import random

import pytest

from webhook.analysers.base import AnalyserError
from webhook.analysers.resilience import (
    BreakerState,
    CircuitBreaker,
    Resilience,
    RetryPolicy,
    TransientError,
    backoff_delay,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """Stands in for asyncio.sleep: records pauses instead of taking them."""

    def __init__(self) -> None:
        self.pauses: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.pauses.append(seconds)


def test_full_jitter_stays_under_the_exponential_ceiling() -> None:
    policy = RetryPolicy(base_s=0.5, cap_s=3.0)
    rng = random.Random(7)
    for retry, ceiling in enumerate((0.5, 1.0, 2.0, 3.0, 3.0)):
        samples = [backoff_delay(policy, retry, rng) for _ in range(200)]
        assert all(0.0 <= s <= ceiling for s in samples)
        assert max(samples) > ceiling * 0.8  # jitter spans the range, not a constant


def test_breaker_opens_after_threshold_then_lets_one_trial_through() -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=3, reset_after_s=10.0, clock=clock)
    for _ in range(3):
        breaker.before_call()
        breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    with pytest.raises(AnalyserError) as caught:
        breaker.before_call()
    assert caught.value.reason == "circuit-open"
    clock.now = 10.0
    assert breaker.state is BreakerState.HALF_OPEN
    breaker.before_call()  # the trial
    with pytest.raises(AnalyserError):
        breaker.before_call()  # a second caller while the trial runs
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN  # a failed trial re-opens
    clock.now = 20.0
    breaker.before_call()
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED


async def test_transient_failures_are_retried_then_succeed() -> None:
    calls = []

    async def attempt(remaining: float) -> str:
        calls.append(remaining)
        if len(calls) < 3:
            raise TransientError("ThrottlingException", "slow down")
        return "ok"

    sleep = Recorder()
    resilience = Resilience(deadline_s=30, policy=RetryPolicy(attempts=4, base_s=0.1, cap_s=1), sleep=sleep)
    assert await resilience.call(attempt) == "ok"
    assert len(calls) == 3 and len(sleep.pauses) == 2
    assert resilience.breaker is not None and resilience.breaker.state is BreakerState.CLOSED


async def test_permanent_failure_is_not_retried_and_does_not_count_for_the_breaker() -> None:
    calls = 0

    async def attempt(remaining: float) -> str:
        nonlocal calls
        calls += 1
        raise AnalyserError("ValidationException", "bad model id")

    breaker = CircuitBreaker(threshold=1)
    resilience = Resilience(policy=RetryPolicy(attempts=5), breaker=breaker, sleep=Recorder())
    with pytest.raises(AnalyserError) as caught:
        await resilience.call(attempt)
    assert caught.value.reason == "ValidationException" and calls == 1
    assert breaker.state is BreakerState.CLOSED


async def test_retry_after_is_honoured_up_to_its_cap() -> None:
    async def attempt(remaining: float) -> str:
        raise TransientError("rate-limited", retry_after_s=99.0)

    sleep = Recorder()
    resilience = Resilience(deadline_s=1000, policy=RetryPolicy(attempts=2, base_s=0.01, max_retry_after_s=5.0),
                            sleep=sleep)
    with pytest.raises(AnalyserError) as caught:
        await resilience.call(attempt)
    assert sleep.pauses == [5.0]
    assert caught.value.reason == "rate-limited" and "gave up after 2 attempt(s)" in str(caught.value)


async def test_deadline_cuts_a_hanging_attempt() -> None:
    async def attempt(remaining: float) -> str:
        await asyncio.Event().wait()  # never answers
        return "unreachable"

    resilience = Resilience(deadline_s=0.05)
    with pytest.raises(AnalyserError) as caught:
        await resilience.call(attempt)
    assert caught.value.reason == "timeout"


async def test_an_attempts_own_timeout_is_retried() -> None:
    calls = 0

    async def attempt(remaining: float) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise TimeoutError("socket read timed out")
        return "ok"

    resilience = Resilience(deadline_s=30, sleep=Recorder())
    assert await resilience.call(attempt) == "ok" and calls == 2


async def test_no_retry_when_the_pause_would_pass_the_deadline() -> None:
    async def attempt(remaining: float) -> str:
        raise TransientError("rate-limited", retry_after_s=8.0)

    sleep = Recorder()
    resilience = Resilience(deadline_s=2.0, sleep=sleep)
    with pytest.raises(AnalyserError) as caught:
        await resilience.call(attempt)
    assert caught.value.reason == "timeout" and sleep.pauses == []


async def test_open_breaker_fails_fast_without_calling() -> None:
    calls = 0

    async def attempt(remaining: float) -> str:
        nonlocal calls
        calls += 1
        raise TransientError("InternalServerException")

    resilience = Resilience(policy=RetryPolicy(attempts=2), breaker=CircuitBreaker(threshold=2), sleep=Recorder())
    with pytest.raises(AnalyserError):
        await resilience.call(attempt)
    with pytest.raises(AnalyserError) as caught:
        await resilience.call(attempt)
    assert caught.value.reason == "circuit-open" and calls == 2


async def test_a_cancelled_trial_call_does_not_leave_the_breaker_stuck() -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=1, reset_after_s=5.0, clock=clock)
    breaker.before_call()
    breaker.record_failure()
    clock.now = 5.0  # half-open: the next call is the trial
    started = asyncio.Event()

    async def hang(remaining: float) -> str:
        started.set()
        await asyncio.Event().wait()
        return "unreachable"

    resilience = Resilience(deadline_s=60, breaker=breaker)
    task = asyncio.create_task(resilience.call(hang))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    async def ok(remaining: float) -> str:
        return "ok"

    assert await resilience.call(ok) == "ok"  # the trial slot was released
    assert breaker.state is BreakerState.CLOSED
