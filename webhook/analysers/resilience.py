"""Retries, a circuit breaker and a per-call deadline, shared by the LLM backends.

A remote model fails in three ways that need different handling: briefly (throttling, a 5xx, a
timeout: try again after a growing, randomised pause), persistently (an outage: stop calling for a
while so a burst of pods does not queue behind certain failures) and permanently for this request
(bad credentials, a rejected request, truncated output: retrying cannot help). Backends classify
their errors by raising ``AnalyserError(retryable=...)`` or ``TransientError`` (which may carry the
server's ``Retry-After``); ``Resilience.call`` does the rest.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from webhook.analysers.base import AnalyserError

T = TypeVar("T")


class TransientError(AnalyserError):
    """A failure worth retrying; ``retry_after_s`` is the server's own hint (Retry-After), if any."""

    def __init__(self, reason: str, detail: str = "", *, retry_after_s: float | None = None) -> None:
        super().__init__(reason, detail, retryable=True)
        self.retry_after_s = retry_after_s


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with full jitter: attempt k waits uniform(0, min(cap, base·2^k))."""

    attempts: int = 4  # total tries, the first included
    base_s: float = 0.25
    cap_s: float = 4.0
    max_retry_after_s: float = 10.0  # never trust a server to make us wait longer than this


def backoff_delay(policy: RetryPolicy, retry: int, rng: random.Random | None = None) -> float:
    """Pause before retry number ``retry`` (0 = first retry). Full jitter spreads a burst of clients apart."""
    ceiling = min(policy.cap_s, policy.base_s * (2.0**retry))
    return (rng or random).uniform(0.0, ceiling)


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


class CircuitBreaker:
    """Opens after ``threshold`` consecutive transient failures; after ``reset_after_s`` lets one trial through.

    Only transient failures count: a rejected request says nothing about the service's health.
    """

    def __init__(self, threshold: int = 5, reset_after_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.threshold = threshold
        self.reset_after_s = reset_after_s
        self._clock = clock
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_running = False

    @property
    def state(self) -> BreakerState:
        if self._opened_at is None:
            return BreakerState.CLOSED
        if self._clock() - self._opened_at >= self.reset_after_s:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    def before_call(self) -> None:
        """Raise ``AnalyserError("circuit-open")`` unless a call may go out now."""
        state = self.state
        if state is BreakerState.OPEN:
            raise AnalyserError("circuit-open", f"{self._failures} consecutive failures")
        if state is BreakerState.HALF_OPEN:
            if self._trial_running:  # one trial at a time; the others fail fast
                raise AnalyserError("circuit-open", "trial call in progress")
            self._trial_running = True

    def record_success(self) -> None:
        self._failures = 0
        self._opened_at = None
        self._trial_running = False

    def record_failure(self) -> None:
        self._failures += 1
        self._trial_running = False
        if self._opened_at is not None or self._failures >= self.threshold:
            self._opened_at = self._clock()  # a failed trial re-opens for a full period

    def release(self) -> None:
        """The call ended without saying anything about the service (e.g. a rejected request)."""
        self._trial_running = False


@dataclass(slots=True)
class Resilience:
    """Deadline + retries + breaker around one logical call. One instance per backend."""

    deadline_s: float = 10.0
    policy: RetryPolicy = RetryPolicy()
    breaker: CircuitBreaker | None = None
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: random.Random | None = None

    def __post_init__(self) -> None:
        if self.breaker is None:
            self.breaker = CircuitBreaker()

    async def call(self, attempt: Callable[[float], Awaitable[T]]) -> T:
        """Run ``attempt(remaining_s)`` until it succeeds, fails permanently, or the deadline passes.

        ``attempt`` gets the seconds left so it can bound its own I/O. Raises AnalyserError only.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.deadline_s
        assert self.breaker is not None
        last: AnalyserError | None = None
        tries = 0
        for retry in range(max(1, self.policy.attempts)):
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            self.breaker.before_call()
            tries += 1
            scope = asyncio.timeout(remaining)
            try:
                async with scope:
                    result = await attempt(remaining)
            except TimeoutError as exc:
                self.breaker.record_failure()
                if scope.expired():
                    raise AnalyserError("timeout", f"no answer within the {self.deadline_s:g}s deadline") from None
                last = TransientError("timeout", str(exc) or "request timed out")  # the attempt's own timeout
            except TransientError as exc:
                self.breaker.record_failure()
                last = exc
            except AnalyserError as exc:
                if exc.retryable:
                    self.breaker.record_failure()
                    last = exc
                else:
                    self.breaker.release()
                    raise
            except BaseException:  # a bug, or the caller cancelled us: never leave a half-open trial stuck
                self.breaker.release()
                raise
            else:
                self.breaker.record_success()
                return result
            if retry + 1 >= self.policy.attempts:
                break
            pause = backoff_delay(self.policy, retry, self.rng)
            hinted = getattr(last, "retry_after_s", None)
            if hinted is not None:
                pause = max(pause, min(hinted, self.policy.max_retry_after_s))
            if loop.time() + pause >= deadline:
                raise AnalyserError("timeout", f"deadline reached while retrying after {last}")
            await self.sleep(pause)
        if last is None:
            raise AnalyserError("timeout", f"no answer within the {self.deadline_s:g}s deadline")
        raise AnalyserError(last.reason, f"gave up after {tries} attempt(s): {last}")
