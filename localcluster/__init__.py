"""A local cluster (real control plane) for `make demo`, the e2e tests and the benchmarks: ``ControlPlane``.

The ``control_plane`` pytest fixture lives in tests/localcluster/fixtures.py.

Usage in a test module::

    import pytest
    pytestmark = pytest.mark.e2e

    def test_something(control_plane):
        control_plane.create_nodes(paper_cluster())
        control_plane.start_scorer()
        control_plane.start_webhook()
        kube = control_plane.kube          # admin client (localcluster.kube.Kube)

See localcluster/README.md.
"""

from localcluster.controlplane import DEFAULT_SCHEDULER, SEMANTIC_SCHEDULER, SYSTEM_NAMESPACE, ControlPlane
from localcluster.kube import ApiError, Kube, wait_for
from localcluster.nodes import NodeSpec, NumaZone, paper_cluster

__all__ = [
    "DEFAULT_SCHEDULER",
    "SEMANTIC_SCHEDULER",
    "SYSTEM_NAMESPACE",
    "ApiError",
    "ControlPlane",
    "Kube",
    "NodeSpec",
    "NumaZone",
    "paper_cluster",
    "wait_for",
]
