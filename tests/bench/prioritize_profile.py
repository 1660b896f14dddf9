"""Offline profile of /prioritize on the honest stream: ``python -m tests.bench.prioritize_profile [N ...]``.

Not part of ``make bench``: a development tool that says where a call's time goes. It builds the
bench's cluster (``tests.bench.scorer.bench_state``: N nodes, 30 bound pods per node), replays the
honest stream's ExtenderArgs bodies (adaptive sample, rotating start, 20 workloads, 4 hints) through
the real aiohttp handler ``Extender.prioritize`` (the request is a stand-in that only hands over the
body; no socket, no event loop), and after each answer applies the binding of the pod to the node we
ranked best as the pod informer decodes and applies its watch event. It prints, per call, the
handler's and the binding's CPU time (median and mean of ``--repeat`` passes, each pass on a fresh
state), then with ``--cprofile`` the functions with the most own time per call.

Measures only; the HTTP path (aiohttp's parser, uvloop's sockets) is outside it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

from tests.bench.scorer import WARMUP, _apply, bench_state, honest_stream

REQUESTS = 1000


class _Request:
    """What ``Extender.prioritize`` reads from an aiohttp request: the body."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    async def read(self) -> bytes:
        return self._body


def _call(handler: Callable[[Any], Any], body: bytes) -> bytes:
    """Run the handler coroutine to completion without a loop (it never suspends on this request)."""
    coroutine = handler(_Request(body))
    try:
        coroutine.send(None)
    except StopIteration as done:
        response = done.value
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {response.text[:200]}") from None
        return response.body
    raise RuntimeError("the handler suspended")


def _bind_event(pod: dict[str, Any], reply: bytes) -> bytes:
    """The pod watch event of binding ``pod`` to the first best node of ``reply`` (what the bench does)."""
    scores = orjson.loads(reply)
    best = max(range(len(scores)), key=lambda k: scores[k]["Score"])
    pod["spec"]["nodeName"] = scores[best]["Host"]
    return orjson.dumps({"type": "MODIFIED", "object": pod})


def _setup(count: int, public_pem: bytes) -> tuple[Any, Any]:
    from scorer.__main__ import tune_gc
    from scorer.app import EXTENDER, make_app
    from scorer.metrics import ScorerMetrics
    from scorer.settings import Settings
    from shared.signing import Verifier

    state = bench_state(count)
    app = make_app(Settings(), state=state, verifier=Verifier.from_pem([public_pem]), metrics=ScorerMetrics(),
                   kube=False)
    tune_gc()
    return state, app[EXTENDER]


def one_pass(count: int, signer: Any, public_pem: bytes, profile: cProfile.Profile | None = None
             ) -> tuple[list[float], list[float]]:
    """(handler µs, binding µs) per call after the warm-up, on a fresh state."""
    state, extender = _setup(count, public_pem)
    stream = honest_stream(count, signer, WARMUP + REQUESTS)
    handler_us, bind_us = [], []
    clock = time.thread_time  # CPU time of this thread: a busy machine stretches wall time, far less this
    for i, (body, pod) in enumerate(stream):
        profiled = profile is not None and i >= WARMUP
        if profiled:
            profile.enable()
        started = clock()
        reply = _call(extender.prioritize, body)
        handled = clock()
        if profiled:
            profile.disable()
        event = _bind_event(pod, reply)  # the API server's encoding: not the scorer's cost
        if profiled:
            profile.enable()
        applying = clock()
        _apply(state, event)
        done = clock()
        if profiled:
            profile.disable()
        if i >= WARMUP:
            handler_us.append((handled - started) * 1e6)
            bind_us.append((done - applying) * 1e6)
    gc.unfreeze()
    return handler_us, bind_us


def main() -> None:
    from shared.signing import Signer, generate_private_key_pem, public_key_pem

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nodes", nargs="*", type=int, default=[1000, 5000])
    parser.add_argument("--repeat", type=int, default=3, help="passes per size (median of their medians)")
    parser.add_argument("--cprofile", action="store_true", help="then one profiled pass: top own time per call")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    private = generate_private_key_pem()
    signer, public = Signer(private), public_key_pem(private)
    for count in args.nodes:
        medians, means, binds = [], [], []
        for _ in range(args.repeat):
            handler_us, bind_us = one_pass(count, signer, public)
            medians.append(statistics.median(handler_us))
            means.append(statistics.fmean(handler_us))
            binds.append(statistics.median(bind_us))
        print(f"{count} nodes: handler median {statistics.median(medians):.1f} µs (passes "
              f"{', '.join(f'{m:.1f}' for m in medians)}), mean {statistics.median(means):.1f} µs; "
              f"binding event median {statistics.median(binds):.1f} µs", flush=True)
        if args.cprofile:
            profile = cProfile.Profile()
            one_pass(count, signer, public, profile)
            stats = pstats.Stats(profile)
            print(f"-- {count} nodes: own time per call (µs), {REQUESTS} calls, profiled (slower than above)")
            rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:args.top]  # type: ignore[attr-defined]
            for (path, line, name), (_, calls, own, cumulative, _) in rows:
                where = f"{path.rsplit('/', 2)[-2:] and '/'.join(path.rsplit('/', 2)[-2:])}:{line}"
                print(f"{1e6 * own / REQUESTS:8.1f} own {1e6 * cumulative / REQUESTS:8.1f} cum "
                      f"{calls / REQUESTS:6.1f}× {name} ({where})")


if __name__ == "__main__":
    main()
