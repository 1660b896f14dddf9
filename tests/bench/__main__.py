"""`make bench`: run every benchmark module, print their tables, end with one JSON line of figures.

Each module under tests/bench/ exposes ``run() -> dict[str, float]``. A module that cannot run
here (a missing control plane, say) is reported and skipped, so one gap never hides the others.
Benchmarks measure; they never fail on speed.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback

import orjson

MODULES = ("embedded", "webhook", "scorer", "dra", "throughput")


def main(argv: list[str]) -> int:
    selected = argv or list(MODULES)
    figures: dict[str, float] = {}
    for name in selected:
        print(f"\n== bench: {name} ==", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"tests.bench.{name}")
            figures.update(module.run())
        except Exception as exc:  # a benchmark that cannot run is reported, not fatal
            traceback.print_exc()
            print(f"bench {name}: not measured ({type(exc).__name__}: {exc})", flush=True)
        print(f"== {name}: {time.perf_counter() - started:.1f} s ==", flush=True)
    print(orjson.dumps(figures, option=orjson.OPT_SORT_KEYS).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
