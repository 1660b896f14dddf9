"""``semaff explain``: the scorer's scoring code offline on YAML/JSON files of nodes and pods."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
import yaml

from semaff.explain import explain_main, load_objects
from shared.intents import Intent, IntentDocument

FIXTURES = Path(__file__).parents[1] / "fixtures" / "extender"
NODE_LIST = orjson.loads((FIXTURES / "nodelist.json").read_bytes())
NRT_LIST = orjson.loads((FIXTURES / "nrtlist.json").read_bytes())


def write_intents(tmp_path: Path, *intents: Intent) -> Path:
    path = tmp_path / "intents.json"
    path.write_bytes(IntentDocument(intents=tuple(intents)).canonical_bytes())
    return path


@pytest.fixture
def nodes_yaml(tmp_path: Path) -> Path:
    """The real NodeList as YAML, with the NRT objects mixed in (a multi-document stream)."""
    path = tmp_path / "nodes.yaml"
    path.write_text(yaml.safe_dump(NODE_LIST) + "---\n" + yaml.safe_dump_all(NRT_LIST["items"]))
    return path


def placed_pods(tmp_path: Path) -> Path:
    """A PodList: four 'web' pods in zone us-east-1a, one in 1b, and a logging agent on m02."""
    def web(i: int, node: str) -> dict:
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": f"web-abc12-{i}", "namespace": "default", "uid": f"u{i}",
                             "labels": {"app": "web", "pod-template-hash": "abc12"},
                             "ownerReferences": [{"kind": "ReplicaSet", "name": "web-abc12", "controller": True}]},
                "spec": {"nodeName": node, "containers": [{"name": "c"}]}}
    items = [web(i, n) for i, n in enumerate(["m02", "m03", "m04", "m05", "m06"])]
    items.append({"metadata": {"name": "log-x", "namespace": "kube-system", "uid": "l",
                               "ownerReferences": [{"kind": "DaemonSet", "name": "logging-agent", "controller": True}]},
                  "spec": {"nodeName": "m02"}})
    items.append({"metadata": {"name": "pending", "namespace": "default", "labels": {"app": "web"}}, "spec": {}})
    path = tmp_path / "pods.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "PodList", "items": items}))
    return path


def test_json_output_network(tmp_path: Path, nodes_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intents = write_intents(tmp_path, Intent("prefer_network_speed", 0.9, 1.0,
                                             metadata={"prefer_network_speed_gbps": 100.0}))
    assert explain_main(["--intents", str(intents), "--nodes", str(nodes_yaml), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["intents"]["intents"][0]["intent"] == "prefer_network_speed"
    ranking = result["ranking"]
    assert ranking[0] == {"node": "m07", "score": 10, "raw": 90.0, "contributions": {"prefer_network_speed": 90.0}}
    assert {r["node"] for r in ranking} == {f"m0{i}" for i in range(2, 10)}
    assert all(r["score"] == 1 for r in ranking[1:])


def test_pods_and_workload_spread(tmp_path: Path, nodes_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intents = write_intents(
        tmp_path, Intent("avoid_same_node_as_deployments", 1.0, 1.0, metadata={"deployments": ("logging-agent",)}),
        Intent("spread_zones", 1.0, 1.0))
    argv = ["--intents", str(intents), "--nodes", str(nodes_yaml), "--pods", str(placed_pods(tmp_path)),
            "--workload", "Deployment/web", "--mode", "additive", "--json"]
    assert explain_main(argv) == 0
    ranking = {r["node"]: r for r in json.loads(capsys.readouterr().out)["ranking"]}
    # zone a holds 4 web pods, zone b 1: φ = 1/5 and 4/5, β = 50 -> μ 10 and 40; m02 also −100
    assert ranking["m03"]["contributions"] == {"avoid_same_node_as_deployments": 0.0, "spread_zones": 10.0}
    assert ranking["m02"]["raw"] == -90.0 and ranking["m02"]["score"] == 1
    assert ranking["m06"]["score"] == 10 and ranking["m07"]["score"] == 9 and ranking["m03"]["score"] == 2


def test_table_output(tmp_path: Path, nodes_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intents = write_intents(tmp_path, Intent("prefer_gpu", 0.95, 1.5, metadata={"prefer_gpu_cores": 1.0}))
    assert explain_main(["--intents", str(intents), "--nodes", str(nodes_yaml)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("intents (tiered): prefer_gpu C=0.95 W=1.5")
    assert lines[1].split() == ["node", "score", "raw", "prefer_gpu"]
    assert lines[2].split() == ["m02", "10", "142.50", "142.50"]


def test_bad_input_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intents = write_intents(tmp_path, Intent("prefer_nvlink"))
    assert explain_main(["--intents", str(intents), "--nodes", str(tmp_path / "missing.yaml")]) == 2
    assert "semaff explain:" in capsys.readouterr().err


def test_load_objects_shapes(tmp_path: Path) -> None:
    plain = tmp_path / "plain.yaml"
    plain.write_text("- metadata: {name: a}\n- metadata: {name: b}\n")
    single = tmp_path / "single.json"
    single.write_text('{"metadata": {"name": "c"}}')
    assert [o["metadata"]["name"] for o in load_objects(plain)] == ["a", "b"]
    assert [o["metadata"]["name"] for o in load_objects(single)] == ["c"]


def test_hint_through_the_embedded_analyser(nodes_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("webhook.analysers.embedded", reason="the embedded analyser is not in this checkout")
    code = explain_main(["--hint", "at least 100 Gbps network speed", "--nodes", str(nodes_yaml), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert "prefer_network_speed" in [i["intent"] for i in result["intents"]["intents"]]
    assert result["ranking"][0]["node"] == "m07"


DRA = Path(__file__).parents[1] / "fixtures" / "dra"


def test_a_dra_cluster_from_one_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``kubectl get nodes,pods,resourceslices,resourceclaims -A -o yaml``: GPUs only in ResourceSlices; the T4
    node's GPU is held by a claim, the H100 node is free; "2 GPUs with at least 40 GB each" picks the H100s."""
    def dra(name: str) -> dict:
        return orjson.loads((DRA / name).read_bytes())

    def bare_node(name: str) -> dict:
        return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {}},
                "status": {"allocatable": {"cpu": "32", "memory": "256Gi", "pods": "110"}}}

    items = [bare_node("aks-gpudra-34911544-vmss000000"), bare_node("dgx-h100-01"), bare_node("a100-node-7"),
             bare_node("cpu-1"), dra("slice-t4-v0.4.1.json"), dra("slice-h100x8-v25.12.json"),
             dra("slice-a100x4-v25.3.json"), dra("claim-allocated.json"),
             {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-mem-ok", "namespace": "dra-gate"},
              "spec": {"nodeName": "aks-gpudra-34911544-vmss000000", "containers": [{"name": "c"}]}}]
    nodes = tmp_path / "cluster.yaml"
    nodes.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}))
    intents = write_intents(tmp_path, Intent("prefer_gpu", 0.9, 1.5, metadata={"prefer_gpu_cores": 2.0}),
                            Intent("prefer_gpu_memory_gb", 0.9, 1.5, metadata={"prefer_gpu_memory_gb": 40.0}))
    assert explain_main(["--intents", str(intents), "--nodes", str(nodes), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["node"] for r in result["ranking"]][:2] == ["a100-node-7", "dgx-h100-01"]  # tie broken by name
    assert result["ranking"][0]["score"] == 10
    t4 = result["gpus"]["aks-gpudra-34911544-vmss000000"]
    assert (t4["count"], t4["claimed"], t4["source"], t4["product"]) == (1, 1, "resourceslice", "Tesla T4")
    assert "cpu-1" not in result["gpus"] and result["gpus"]["dgx-h100-01"]["count"] == 8
    scores = {r["node"]: r["score"] for r in result["ranking"]}
    assert scores["aks-gpudra-34911544-vmss000000"] < scores["a100-node-7"]

    # the table form names where each fact came from
    assert explain_main(["--intents", str(intents), "--nodes", str(nodes)]) == 0
    table = capsys.readouterr().out
    assert "dgx-h100-01: 8 GPU(s) from resourceslice, 0 held by claims, NVIDIA H100 80GB HBM3" in table
