"""The node tier: one LocalCluster (real node + KWOK nodes + the chart installed by helm) per session.

Needs root (kubelet, containerd, iptables); ``make e2e`` installs the runtime and builds what is
missing. Component logs of the control plane and the node are attached to every failing test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from localcluster.cluster import LocalCluster
from localcluster.scenarios import results_table

REPORT: dict[str, Any] = {"rows": {}, "drills": []}


@pytest.fixture(scope="session")
def cluster(request: pytest.FixtureRequest) -> Iterator[LocalCluster]:
    if os.geteuid() != 0:
        pytest.skip("the node tier runs a kubelet and containerd: it needs root")
    local = LocalCluster()
    request.addfinalizer(local.stop)  # also stopped from atexit if the session dies
    local.start()
    REPORT["startup"] = local.timings
    yield local


@pytest.fixture(scope="session")
def node_report() -> dict[str, Any]:
    return REPORT


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    local = getattr(item, "funcargs", {}).get("cluster")
    if report.failed and isinstance(local, LocalCluster) and local.plane is not None:
        logs = local.plane.logs() + (local.node.logs() if local.node else "")
        report.sections.append(("local cluster logs", logs))
        pods = local.kubectl("get", "pods", "-A", "-o", "wide", check=False).stdout
        report.sections.append(("kubectl get pods -A", pods))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    rows = [REPORT["rows"][k] for k in sorted(REPORT["rows"])]
    if rows:
        terminalreporter.section("node tier: paper scenarios through the chart's pods (real node + KWOK)")
        terminalreporter.write_line(results_table(rows))
    for line in REPORT["drills"]:
        terminalreporter.write_line(line)
    if "startup" in REPORT:
        terminalreporter.write_line(f"local cluster startup (s): {REPORT['startup']}")
