"""``semaff robust``: per-perturbation figures on the fake backend (conftest), and bad files."""

from __future__ import annotations

import io
from typing import Any

import orjson

from semaff.robust import robust_main
from tests.semaff.fakes import FakeAnalyser

ROWS = [
    {"id": "e1", "hint": "Spread over zones, must have a GPU.", "lang": "en", "category": "combination",
     "expected": [{"intent": "prefer_gpu", "strength": 1.5, "metadata": {"prefer_gpu_cores": 1.0}},
                  {"intent": "spread_zones", "strength": 1.5, "metadata": {}}]},
    {"id": "e2", "hint": "Chatter, nothing else", "lang": "en", "category": "noise", "expected": []},
]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = robust_main(argv, environ={}, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_robust_reports_changed_variants_and_accuracy(fake: FakeAnalyser, tmp_path: Any) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(orjson.dumps(r).decode() for r in ROWS) + "\n")
    code, out, _ = run([str(path), "--backend", "fake", "--perturbation", "nopunct", "--perturbation", "lower",
                        "--examples", "3"])
    assert code == 0
    got = {f["perturbation"]: f for f in orjson.loads(out.rstrip("\n").rsplit("\n", 1)[1])}
    # the fake (tests/semaff/fakes.py) reads "spread" case-sensitively: lower case reads e1 better, no punctuation
    # changes nothing
    assert set(got) == {"nopunct", "lower"}
    assert got["lower"] == {"perturbation": "lower", "n": 2, "changed": 1, "subset_accuracy_original": 0.5,
                            "subset_accuracy_perturbed": 1.0, "polarity_flips": 0}
    assert got["nopunct"]["changed"] == 0 and got["nopunct"]["subset_accuracy_perturbed"] == 0.5
    assert "'spread over zones, must have a gpu.': ['prefer_gpu'] -> ['prefer_gpu', 'spread_zones']" in out


def test_robust_refuses_an_unreadable_file(fake: FakeAnalyser, tmp_path: Any) -> None:
    code, _, err = run([str(tmp_path / "missing.jsonl"), "--backend", "fake"])
    assert code == 2 and "missing.jsonl" in err
