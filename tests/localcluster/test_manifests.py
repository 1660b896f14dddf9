"""The harness's pure builders (no control plane): nodes, NRT objects, webhook and scheduler configuration, verdicts."""

from __future__ import annotations

import copy

import jsonschema
import pytest
import yaml

from localcluster.controlplane import DISABLED_SCORE_PLUGINS, EXTENDER_WEIGHT, NRT_CRD, ControlPlane
from localcluster.nodes import GPU_LABELS, NodeSpec, NumaZone, node_manifest, nrt_manifest, paper_cluster
from localcluster.scenarios import SCENARIOS, describe_placement, load_manifests, results_table
from localcluster.services import MATCH_CONDITION, webhook_configuration


def _crd_schema(version: str) -> dict:
    crd = yaml.safe_load(NRT_CRD.read_text())
    schema = next(v for v in crd["spec"]["versions"] if v["name"] == version)["schema"]["openAPIV3Schema"]
    return _to_jsonschema(copy.deepcopy(schema))


def _to_jsonschema(node: object) -> object:
    """OpenAPI v3 structural schema -> JSON Schema (drop the Kubernetes extensions jsonschema does not know)."""
    if isinstance(node, dict):
        node.pop("x-kubernetes-int-or-string", None)
        if "anyOf" in node and "pattern" in node:  # int-or-string: the pattern applies to strings only
            pattern = node.pop("pattern")
            node["anyOf"] = [{"type": "integer"}, {"type": "string", "pattern": pattern}]
        for value in node.values():
            _to_jsonschema(value)
    elif isinstance(node, list):
        for value in node:
            _to_jsonschema(value)
    return node


def test_node_reports_capacity_ready_and_gpus() -> None:
    node = node_manifest(NodeSpec("n1", labels={"x": "y"}, gpus=2))
    status = node["status"]
    assert status["allocatable"] == status["capacity"]
    assert status["allocatable"]["nvidia.com/gpu"] == "2"
    assert status["allocatable"]["pods"] == "110"  # without it the fit filter reports "Too many pods"
    conditions = {c["type"]: c["status"] for c in status["conditions"]}
    assert conditions == {"Ready": "True", "MemoryPressure": "False", "DiskPressure": "False", "PIDPressure": "False"}
    assert node["metadata"]["labels"]["kubernetes.io/hostname"] == "n1"
    assert node["metadata"]["labels"]["x"] == "y"
    assert "taints" not in node["spec"]


def test_node_without_gpus_has_no_gpu_resource() -> None:
    assert "nvidia.com/gpu" not in node_manifest(NodeSpec("n2"))["status"]["capacity"]


def test_nrt_object_is_valid_against_the_crd_schema() -> None:
    spec = NodeSpec("n3", numa=(NumaZone("node-0", "8", "32Gi", 2), NumaZone("node-1", "8", "32Gi")))
    nrt = nrt_manifest(spec)
    assert nrt is not None
    jsonschema.validate(nrt, _crd_schema("v1alpha2"))
    assert nrt["metadata"]["name"] == "n3"  # object name = node name
    zone0 = nrt["zones"][0]
    assert {r["name"] for r in zone0["resources"]} == {"cpu", "memory", "nvidia.com/gpu"}
    assert zone0["costs"] == [{"name": "node-0", "value": 10}, {"name": "node-1", "value": 21}]


def test_crd_schema_rejects_a_zone_without_name() -> None:
    bad = {
        "apiVersion": "topology.node.k8s.io/v1alpha2",
        "kind": "NodeResourceTopology",
        "metadata": {},
        "zones": [{"type": "Node"}],
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, _crd_schema("v1alpha2"))


def test_crd_shape_matches_upstream() -> None:
    crd = yaml.safe_load(NRT_CRD.read_text())
    assert crd["spec"]["group"] == "topology.node.k8s.io"
    assert crd["spec"]["scope"] == "Cluster"
    versions = {v["name"]: (v["served"], v["storage"]) for v in crd["spec"]["versions"]}
    assert versions == {"v1alpha1": (True, False), "v1alpha2": (True, True)}


def test_no_nrt_object_without_numa_data() -> None:
    assert nrt_manifest(NodeSpec("n4")) is None


def test_paper_cluster_matches_architecture_section_3() -> None:
    specs = {s.name: s for s in paper_cluster()}
    assert sorted(specs) == [f"m0{i}" for i in range(2, 10)]
    assert [n for n, s in specs.items() if s.gpus] == ["m02"]
    assert specs["m02"].labels.items() >= GPU_LABELS.items()
    zones = {n: s.labels["topology.kubernetes.io/zone"] for n, s in specs.items()}
    assert [n for n, z in zones.items() if z == "us-east-1a"] == ["m02", "m03", "m04", "m05"]
    racks = {n: s.labels["topology.kubernetes.io/rack"] for n, s in specs.items()}
    assert racks == {
        "m02": "rack-1",
        "m03": "rack-1",
        "m04": "rack-2",
        "m05": "rack-5",
        "m06": "rack-3",
        "m07": "rack-3",
        "m08": "rack-4",
        "m09": "rack-4",
    }
    fast = [n for n, s in specs.items() if s.labels["semantic-affinity.io/network-gbps"] == "100"]
    assert fast == ["m07"]


def test_webhook_configuration_is_safe_by_default() -> None:
    config = webhook_configuration("https://127.0.0.1:1234/mutate", "Q0E=", ("kube-system", "semaff-system"))
    hook = config["webhooks"][0]
    assert hook["clientConfig"] == {"url": "https://127.0.0.1:1234/mutate", "caBundle": "Q0E="}
    assert hook["failurePolicy"] == "Ignore"
    assert hook["sideEffects"] == "NoneOnDryRun"
    assert hook["timeoutSeconds"] == 3
    assert hook["rules"][0]["operations"] == ["CREATE"] and hook["rules"][0]["resources"] == ["pods"]
    assert hook["namespaceSelector"]["matchExpressions"][0]["values"] == ["kube-system", "semaff-system"]
    assert hook["matchConditions"][0]["expression"] == MATCH_CONDITION


def test_match_condition_covers_both_hint_keys_and_our_prefix() -> None:
    assert "'allocation_hint' in object.metadata.annotations" in MATCH_CONDITION
    assert "startsWith('semantic-affinity.io/')" in MATCH_CONDITION
    assert MATCH_CONDITION.startswith("has(object.metadata.annotations)")  # pods without annotations skip it


def test_with_a_real_node_the_host_scheduler_is_stock_only(tmp_path) -> None:
    plane = ControlPlane.__new__(ControlPlane)
    plane.kubeconfig = tmp_path / "kubeconfig"
    plane.extender = False
    plane.node_ip = "10.88.0.1"
    config = plane.scheduler_config()
    # The chart's scheduler pods serve semantic-scheduler; two schedulers of one name would race.
    assert config["profiles"] == [{"schedulerName": "default-scheduler"}]
    assert "extenders" not in config


def test_scheduler_config_has_two_profiles_and_the_extender(tmp_path) -> None:
    plane = ControlPlane.__new__(ControlPlane)  # only the config builder, no processes
    plane.kubeconfig = tmp_path / "kubeconfig"
    plane.extender = True
    plane.node_ip = None
    plane.ports = type("P", (), {"scorer": 4321})()
    config = plane.scheduler_config()
    assert [p["schedulerName"] for p in config["profiles"]] == ["default-scheduler", "semantic-scheduler"]
    disabled = [p["name"] for p in config["profiles"][1]["plugins"]["score"]["disabled"]]
    assert disabled == list(DISABLED_SCORE_PLUGINS)
    assert "plugins" not in config["profiles"][0]  # the baseline profile is stock
    (extender,) = config["extenders"]
    assert extender == {
        "urlPrefix": "http://127.0.0.1:4321/",
        "prioritizeVerb": "prioritize",
        "weight": EXTENDER_WEIGHT,
        "nodeCacheCapable": True,
        "ignorable": True,
        "enableHTTPS": False,
        "httpTimeout": "2s",
    }
    assert config["leaderElection"] == {"leaderElect": False}
    assert "extenders" not in plane.scheduler_config(extender=False)


def test_extender_weight_outranks_the_remaining_score_plugins() -> None:
    # One step on the extender's 0..10 scale is weight × 10 points; the plugins left enabled in our
    # profile (NodeAffinity 2, BalancedAllocation 1, ImageLocality 1, ...) add at most ~100 each × weight.
    remaining_plugin_max = 100 * (2 + 1 + 1 + 1)
    assert remaining_plugin_max < EXTENDER_WEIGHT * 10


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.key for s in SCENARIOS])
def test_example_manifests_are_deployments_with_the_paper_hints(scenario) -> None:
    main = scenario.main_manifest()
    assert main["kind"] == "Deployment" and main["apiVersion"] == "apps/v1"
    assert main["spec"]["template"]["metadata"]["annotations"]["semantic-affinity.io/hint"]
    assert main["spec"]["selector"]["matchLabels"].items() <= main["spec"]["template"]["metadata"]["labels"].items()
    baseline = scenario.main_manifest(baseline=True)
    assert baseline["metadata"]["name"] == main["metadata"]["name"]
    assert baseline["spec"]["replicas"] == main["spec"]["replicas"]
    assert "annotations" not in baseline["spec"]["template"]["metadata"]  # stock rules only, no hint
    assert len(load_manifests(scenario.baseline_path)) == 1


@pytest.mark.parametrize(
    ("key", "placement", "ok"),
    [
        ("A", {"m02": 3, "m06": 3}, True),
        ("A", {"m02": 4, "m06": 2}, False),
        ("B", {"m02": 6}, True),
        ("B", {"m02": 5, "m03": 1}, False),
        ("C", {"m03": 6}, True),
        ("C", {"m02": 1, "m03": 5}, False),
        ("D", {"m05": 20}, True),
        ("D", {"m05": 19, "m06": 1}, False),
        ("E", {"m07": 6}, True),
        ("E", {"m07": 5, "m06": 1}, False),
    ],
)
def test_scenario_checks(key: str, placement: dict[str, int], ok: bool) -> None:
    scenario = next(s for s in SCENARIOS if s.key == key)
    assert scenario.check(placement, []).ok is ok


def test_scenario_f_needs_all_bound_and_a_reported_conflict() -> None:
    f = next(s for s in SCENARIOS if s.key == "F")
    pod = {
        "metadata": {
            "annotations": {"semantic-affinity.io/intents": '{"conflicts":[["a","b"]],"intents":[],"version":1}'}
        }
    }
    assert f.check({"m02": 3, "m06": 3}, [pod]).ok
    assert not f.check({"m02": 3, "m06": 3}, []).ok
    assert not f.check({"m02": 5, "Pending": 1}, [pod]).ok
    assert f.baseline_check is not None and f.baseline_check({"m03": 1, "Pending": 5}, []).ok


def test_placement_and_table_rendering() -> None:
    assert describe_placement({"m02": 3, "m06": 3}) == "m02:3 m06:3 (1a:3/1b:3)"
    table = results_table([{"scenario": "A", "expected": "3 : 3", "baseline": "x", "ours": "y", "ok": "yes"}])
    assert table.splitlines()[0].startswith("scenario")
    assert "3 : 3" in table.splitlines()[2]
