"""Benchmark of the embedded analyser: latency per hint on one thread, one core; resident memory; load time.

Runs in a fresh child process pinned to one CPU with single-threaded BLAS, so the figures are the
analyser's own (not the bench runner's imports) and match the issue's target ("p95 per hint on one
core, RSS"). Hints are the development split of the evaluation set, each analysed several times.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HINTS = ROOT / "tests" / "data" / "eval" / "dev.jsonl"
REPEATS = 5

_CHILD = r"""
import json, os, resource, sys, time
os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
started = time.perf_counter()
from shared.sanitise import sanitise
from webhook.analysers.embedded import EmbeddedAnalyser
analyser = EmbeddedAnalyser()
analyser.analyse_sync("warm up the rules")
load_s = time.perf_counter() - started
hints = [sanitise(json.loads(line)["hint"]).text for line in open(sys.argv[1]) if line.strip()]
hints = [h for h in hints if h.strip()]
for hint in hints[:20]:
    analyser.analyse_sync(hint)  # warm caches
shipped = []
for _ in range(int(sys.argv[2])):
    for hint in hints:
        t = time.perf_counter(); analyser.analyse_sync(hint); shipped.append((time.perf_counter() - t) * 1000)
def pct(values, q):
    values = sorted(values); return values[min(len(values) - 1, int(q * len(values)))]
print(json.dumps({
    "n": len(hints), "samples": len(shipped), "load_s": load_s,
    "p50": pct(shipped, 0.50), "p95": pct(shipped, 0.95), "p99": pct(shipped, 0.99),
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
}))
"""


def run() -> dict[str, float]:
    """Measure in a child process; print a table; return the figures."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", _CHILD, str(HINTS), str(REPEATS)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=900, check=True)
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    print(f"embedded analyser, {figures['n']} dev hints x {REPEATS}, one thread on one core")
    print(f"  {'load (import + word lists + typo table)':44} {figures['load_s']:8.2f} s")
    print(f"  {'per hint as shipped p50 / p95 / p99':44} {figures['p50']:6.2f} / {figures['p95']:.2f} / "
          f"{figures['p99']:.2f} ms")
    print(f"  {'peak resident memory':44} {figures['rss_mb']:8.1f} MB")
    return {
        "embedded_p50_ms": round(figures["p50"], 3),
        "embedded_p95_ms": round(figures["p95"], 3),
        "embedded_rss_mb": round(figures["rss_mb"], 1),
        "embedded_load_s": round(figures["load_s"], 3),
    }


if __name__ == "__main__":
    print(json.dumps(run()))
