"""ClusterState: a periodic re-list parses only what changed, and still ends where a fresh parse would."""

from __future__ import annotations

from typing import Any

from scorer.state import ClusterState


def _node(name: str, version: str, zone: str) -> dict[str, Any]:
    return {"metadata": {"name": name, "resourceVersion": version, "labels": {"topology.kubernetes.io/zone": zone}},
            "status": {"allocatable": {"cpu": "8", "memory": "16Gi"}}}


def _pod(name: str, version: str, node: str, cpu: str = "100m") -> dict[str, Any]:
    return {"metadata": {"name": name, "namespace": "ns", "uid": f"uid-{name}", "resourceVersion": version,
                         "labels": {"app": "web"}},
            "spec": {"nodeName": node, "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]},
            "status": {"phase": "Running"}}


def test_a_node_relisted_at_the_same_version_is_not_parsed_again() -> None:
    state = ClusterState()
    state.replace_nodes([_node("a", "1", "za"), _node("b", "1", "zb")])
    before = state.nodes["a"]
    state.replace_nodes([_node("a", "1", "za"), _node("b", "2", "zc")])
    assert state.nodes["a"] is before  # same resourceVersion: the same facts
    assert state.nodes["b"].zone == "zc" and state.table.view(["b"]).codes("zone").tolist() == [
        state.table.domains["zone"]["zc"]]


def test_a_pod_relisted_at_the_same_version_keeps_its_record_and_changes_still_land() -> None:
    state = ClusterState()
    state.replace_nodes([_node("a", "1", "za"), _node("b", "1", "zb")])
    state.replace_pods([_pod("p", "5", "a"), _pod("q", "5", "a")])
    held = state.pods._bound["uid-p"]
    state.upsert_pod(_pod("q", "6", "a", cpu="2"))  # a watch event newer than the list
    state.replace_pods([_pod("p", "5", "a"), _pod("q", "7", "b", cpu="2")])
    assert state.pods._bound["uid-p"] is held
    assert state.pods.histogram("ns/App/web", "node") == {"a": 1, "b": 1}
    assert state.pods.requested("b").cpu_cores == 2.0 and abs(state.pods.requested("a").cpu_cores - 0.1) < 1e-9
    state.delete_pod(_pod("p", "5", "a"))
    state.replace_pods([_pod("p", "5", "a")])  # deleted then listed again: parsed again, counted again
    assert state.pods.histogram("ns/App/web", "node") == {"a": 1}
