"""The harness itself: a real apiserver, controllers and scheduler bind a Deployment's pods to fake nodes."""

from __future__ import annotations

import uuid

import pytest

from localcluster import DEFAULT_SCHEDULER, SEMANTIC_SCHEDULER, ControlPlane, NodeSpec, NumaZone
from localcluster.controlplane import NRT_PATH
from localcluster.workloads import apply, deployment, describe_pod, placement, wait_bound

pytestmark = pytest.mark.e2e


@pytest.fixture
def namespace(control_plane: ControlPlane) -> str:
    name = f"harness-smoke-{uuid.uuid4().hex[:6]}"  # a deleted namespace lingers in Terminating for a while
    control_plane.create_namespace(name)
    yield name
    control_plane.delete_namespace(name)


@pytest.fixture
def two_nodes(control_plane: ControlPlane) -> list[str]:
    specs = [
        NodeSpec(
            "smoke-a", labels={"smoke": "yes"}, numa=(NumaZone("node-0", "8", "32Gi"), NumaZone("node-1", "8", "32Gi"))
        ),
        NodeSpec("smoke-b", labels={"smoke": "yes"}, gpus=2),
    ]
    names = control_plane.create_nodes(specs)
    yield names
    control_plane.delete_nodes(names)


def test_nodes_keep_status_and_carry_no_not_ready_taint(control_plane: ControlPlane, two_nodes: list[str]) -> None:
    node = control_plane.kube.get("/api/v1/nodes/smoke-b")
    assert node["status"]["allocatable"]["nvidia.com/gpu"] == "2"
    assert node["status"]["allocatable"]["pods"] == "110"
    assert {c["type"]: c["status"] for c in node["status"]["conditions"]}["Ready"] == "True"
    assert not node["spec"].get("taints")  # TaintNodesByCondition is off: nothing would ever remove it


def test_nrt_objects_exist_only_for_nodes_with_numa_data(control_plane: ControlPlane, two_nodes: list[str]) -> None:
    nrt = control_plane.kube.get(f"{NRT_PATH}/smoke-a")
    assert [z["name"] for z in nrt["zones"]] == ["node-0", "node-1"]
    assert nrt["zones"][0]["resources"][0] == {"name": "cpu", "capacity": "8", "allocatable": "8", "available": "8"}
    names = {o["metadata"]["name"] for o in control_plane.kube.items(NRT_PATH)}
    assert "smoke-b" not in names


@pytest.mark.parametrize("scheduler", [DEFAULT_SCHEDULER, SEMANTIC_SCHEDULER])
def test_deployment_pods_are_bound_by_each_profile(
    control_plane: ControlPlane, two_nodes: list[str], namespace: str, scheduler: str
) -> None:
    name = f"smoke-{scheduler.split('-')[0]}"
    selector = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "smoke", "operator": "In", "values": ["yes"]}]}]}
    apply(
        control_plane.kube,
        namespace,
        deployment(
            name,
            3,
            scheduler_name=scheduler,
            affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": selector}},
        ),
    )
    bound = wait_bound(control_plane.kube, namespace, f"app={name}", 3)
    assert set(placement(bound)) <= set(two_nodes)
    pod = control_plane.kube.get(f"/api/v1/namespaces/{namespace}/pods/{sorted(bound)[0]}")
    assert pod["spec"]["schedulerName"] == scheduler
    text = describe_pod(control_plane.kube, namespace, sorted(bound)[0])
    assert "Scheduled" in text and bound[sorted(bound)[0]] in text
