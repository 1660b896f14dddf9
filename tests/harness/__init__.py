"""A real control plane for end-to-end tests: ``ControlPlane`` and the ``control_plane`` pytest fixture.

Usage in a test module::

    import pytest
    pytestmark = pytest.mark.e2e

    def test_something(control_plane):
        control_plane.create_nodes(paper_cluster())
        control_plane.start_scorer()
        control_plane.start_webhook()
        kube = control_plane.kube          # admin client (tests.harness.kube.Kube)

See tests/harness/README.md.
"""

from tests.harness.controlplane import DEFAULT_SCHEDULER, SEMANTIC_SCHEDULER, SYSTEM_NAMESPACE, ControlPlane
from tests.harness.kube import ApiError, Kube, wait_for
from tests.harness.nodes import NodeSpec, NumaZone, paper_cluster

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
