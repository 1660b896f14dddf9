"""``semaff eval``: the report, the figures as the last line, and bad files, on the fake backend (conftest)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import orjson

from semaff.eval import eval_main
from tests.semaff.fakes import FakeAnalyser
from webhook.analysers import register, unregister

EVAL_ROWS = [
    {"id": "e1", "hint": "must have a GPU", "lang": "en", "category": "single",
     "expected": [{"intent": "prefer_gpu", "strength": 1.5, "metadata": {"prefer_gpu_cores": 1.0}}]},
    {"id": "e2", "hint": "spread and a gpu", "lang": "en", "category": "combo",
     "expected": [{"intent": "spread_zones", "strength": 1.0, "metadata": {}}]},
    {"id": "s1", "hint": "necesita una GPU", "lang": "es", "category": "single",
     "expected": [{"intent": "prefer_gpu", "strength": 1.5, "metadata": {"prefer_gpu_cores": 1.0}}]},
    {"id": "d1", "hint": "garbage Anweisungen", "lang": "de", "category": "noise", "expected": []},
]


def run_eval(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = eval_main(argv, environ={}, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_eval_prints_a_report_and_figures_as_the_last_line(fake: FakeAnalyser, tmp_path: Any) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(orjson.dumps(r).decode() for r in EVAL_ROWS) + "\n")
    code, out, _ = run_eval([str(path), "--backend", "fake"])
    assert code == 0
    report, last = out.rstrip("\n").rsplit("\n", 1)
    got = orjson.loads(last)
    # e1 right; e2 spurious prefer_gpu; s1 strength 1.0 != 1.5; d1 failed but expects nothing
    assert got["n"] == 4 and got["subset_accuracy"] == 0.75
    assert got["strength_accuracy"] == round(2 / 3, 4) and got["metadata_accuracy"] == 1.0
    assert got["subset_accuracy_en"] == 0.5 and got["subset_accuracy_es"] == 1.0 and got["failed"] == 1
    for key in ("macro_f1", "p50_ms", "p95_ms", "cpu_p50_ms", "cpu_p95_ms", "subset_accuracy_de"):
        assert key in got
    assert "backend fake, model fake-1" in report
    assert "- e2 [en/combo] (intents) spread and a gpu" in report
    assert fake.seen == [r["hint"] for r in EVAL_ROWS]  # no warm-up call for a non-embedded backend


def test_eval_bad_file_exits_2(fake: FakeAnalyser, tmp_path: Any) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    code, out, err = run_eval([str(bad), "--backend", "fake"])
    assert code == 2 and out == "" and "line 1" in err
    code, _, err = run_eval([str(tmp_path / "missing.jsonl"), "--backend", "fake"])
    assert code == 2 and "missing.jsonl" in err


def test_a_slow_warm_up_is_paid_before_the_rows_and_outside_their_deadline(tmp_path: Any) -> None:
    """A local backend's one-off start longer than the hint deadline must fail no row: it runs before the
    first row, unbounded, as ``semaff analyze`` runs it (it once timed out on a loaded machine and then
    slowed the first rows past their deadline, and the figures flickered between runs)."""
    order: list[str] = []

    class Warming(FakeAnalyser):
        async def warm_up(self) -> None:
            await asyncio.sleep(0.3)  # longer than the deadline below
            order.append("warm-up")

        async def analyse_raw(self, hint: str):  # type: ignore[no-untyped-def]
            order.append(hint)
            return await super().analyse_raw(hint)

    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(orjson.dumps(r).decode() for r in EVAL_ROWS) + "\n")
    register("warming", lambda settings: Warming())
    try:
        out = io.StringIO()
        code = eval_main([str(path), "--backend", "warming"], environ={"SEMAFF_ANALYSIS_TIMEOUT_S": "0.1"},
                         stdout=out, stderr=io.StringIO())
    finally:
        unregister("warming")
    assert code == 0 and order == ["warm-up", *(r["hint"] for r in EVAL_ROWS)]
    assert orjson.loads(out.getvalue().rstrip("\n").rsplit("\n", 1)[1])["failed"] == 1  # d1's own failure only
