"""e2e session report: the paper's results table and one pod's description, printed after the run."""

from __future__ import annotations

from typing import Any

import pytest

from localcluster.scenarios import results_table

REPORT: dict[str, Any] = {"rows": {}, "describe": "", "extender": ""}


def pytest_terminal_summary(terminalreporter: Any) -> None:
    rows = [REPORT["rows"][k] for k in sorted(REPORT["rows"])]
    if rows:
        terminalreporter.section("paper scenarios: stock Kubernetes vs semantic-affinity")
        terminalreporter.write_line(results_table(rows))
    if REPORT["extender"]:
        terminalreporter.write_line(REPORT["extender"])
    if REPORT["describe"]:
        terminalreporter.section("describe pod (kubectl describe equivalent)")
        terminalreporter.write_line(REPORT["describe"])


@pytest.fixture(scope="session")
def e2e_report() -> dict[str, Any]:
    return REPORT
