"""Quality of an analyser on evaluation rows (ARCHITECTURE 2.8), for the embedded backend's tuning loop.

``python -m tests.bench.embedded_quality FILE.jsonl [--errors]`` prints subset,
metadata and strength accuracy per language and category. The official report is ``semaff eval``.
"""

from __future__ import annotations

import asyncio
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from shared.sanitise import sanitise
from webhook.analysers.base import analyse


def _meta_equal(expected: Any, got: Any) -> bool:
    if isinstance(expected, list):
        return isinstance(got, list | tuple) and {str(v).lower() for v in expected} == {str(v).lower() for v in got}
    if isinstance(expected, int | float):
        return isinstance(got, int | float) and math.isclose(float(expected), float(got), rel_tol=0.01)
    return expected == got


def score_row(row: dict, document_intents: list[dict]) -> dict[str, Any]:
    """Per-row figures: subset match, metadata and strength matches over the matched intents."""
    expected = {e["intent"]: e for e in row["expected"]}
    got = {i["intent"]: i for i in document_intents}
    matched = expected.keys() & got.keys()
    meta_ok = sum(all(_meta_equal(v, got[n]["metadata"].get(k)) for k, v in expected[n].get("metadata", {}).items())
                  for n in matched)
    strength_ok = sum(math.isclose(expected[n].get("strength", 1.0), got[n]["strength"]) for n in matched)
    return {"subset": set(expected) == set(got), "matched": len(matched), "meta_ok": meta_ok,
            "strength_ok": strength_ok, "missing": sorted(expected.keys() - got.keys()),
            "extra": sorted(got.keys() - expected.keys())}


async def evaluate(path: str | Path, analyser: Any, show_errors: bool = False) -> dict[str, float]:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    groups: dict[str, list[dict]] = defaultdict(list)
    latencies = []
    for row in rows:
        started = time.perf_counter()
        outcome = await analyse(analyser, sanitise(row["hint"]).text)
        latencies.append((time.perf_counter() - started) * 1000)
        intents = [] if outcome.document is None else [i.to_dict() for i in outcome.document.intents]
        result = score_row(row, intents)
        for key in ("all", f"lang={row['lang']}", f"cat={row['category']}"):
            groups[key].append(result)
        bad_meta = result["meta_ok"] < result["matched"]
        bad_strength = result["strength_ok"] < result["matched"]
        if show_errors and (not result["subset"] or bad_meta or bad_strength):
            print(f"{row['id']:8} {row['hint'][:110]}")
            print(f"         missing={result['missing']} extra={result['extra']}"
                  f"{' META' if bad_meta else ''}{' STRENGTH' if bad_strength else ''}")
            if bad_meta or bad_strength:
                print("         expected:", [(e['intent'], e['strength'], e['metadata']) for e in row['expected']])
                print("         got:     ", [(i['intent'], i['strength'], i['metadata']) for i in intents])
    figures: dict[str, float] = {}
    print(f"{'group':22} {'n':>4} {'subset':>7} {'meta':>7} {'strength':>8}")
    for key in sorted(groups):
        results = groups[key]
        matched = sum(r["matched"] for r in results) or 1
        subset = sum(r["subset"] for r in results) / len(results)
        meta = sum(r["meta_ok"] for r in results) / matched
        strength = sum(r["strength_ok"] for r in results) / matched
        print(f"{key:22} {len(results):4} {subset:7.1%} {meta:7.1%} {strength:8.1%}")
        figures[f"{key}:subset"] = subset
        figures[f"{key}:meta"] = meta
        figures[f"{key}:strength"] = strength
    latencies.sort()
    figures["p50_ms"] = latencies[len(latencies) // 2]
    figures["p95_ms"] = latencies[int(len(latencies) * 0.95) - 1]
    print(f"latency p50 {figures['p50_ms']:.2f} ms, p95 {figures['p95_ms']:.2f} ms (including sanitise)")
    return figures


def main(argv: list[str]) -> int:
    from webhook.analysers.embedded import EmbeddedAnalyser

    analyser = EmbeddedAnalyser()
    asyncio.run(evaluate(argv[0], analyser, show_errors="--errors" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
