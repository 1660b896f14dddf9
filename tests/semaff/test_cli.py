"""``semaff`` dispatch: subcommands, usage, and a clear error when one cannot be imported."""

from __future__ import annotations

import sys
import types

import orjson
import pytest

from semaff.cli import main
from tests.semaff.fakes import FakeAnalyser


def test_semaff_dispatches_analyze(fake: FakeAnalyser, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--backend", "fake", "needs a gpu"]) == 0
    assert orjson.loads(capsys.readouterr().out)["intents"][0]["intent"] == "prefer_gpu"


def test_semaff_usage_and_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2 and "usage: semaff" in capsys.readouterr().out
    assert main(["--help"]) == 0
    assert main(["frobnicate"]) == 2 and "unknown command 'frobnicate'" in capsys.readouterr().err


def test_semaff_explain_dispatches(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    module = types.ModuleType("semaff.explain")
    module.explain_main = lambda argv: calls.append(argv) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "semaff.explain", module)
    assert main(["explain", "--hint", "x", "--nodes", "n.yaml"]) == 0
    assert calls == [["--hint", "x", "--nodes", "n.yaml"]]


def test_semaff_explain_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "semaff.explain", None)  # import fails
    assert main(["explain", "--hint", "x"]) == 2
    assert "semaff explain is not available" in capsys.readouterr().err
