"""pytest plugin (registered in tests/conftest.py): the session-scoped ``control_plane`` fixture.

One control plane per test session, started on first use only, so ``make test`` (``-m 'not e2e'``)
never starts it. Component logs are attached to the report of every failing test that used it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localcluster.controlplane import ControlPlane


@pytest.fixture(scope="session")
def control_plane(request: pytest.FixtureRequest) -> Iterator[ControlPlane]:
    """etcd + kube-apiserver + kube-controller-manager + kube-scheduler on 127.0.0.1 (see localcluster)."""
    plane = ControlPlane()
    request.addfinalizer(plane.stop)  # also stopped from atexit if the session dies
    plane.start()
    yield plane


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and "control_plane" in getattr(item, "fixturenames", ()):
        plane = item.funcargs.get("control_plane") if hasattr(item, "funcargs") else None
        if isinstance(plane, ControlPlane):
            report.sections.append(("control-plane logs", plane.logs()))
