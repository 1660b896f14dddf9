"""Parsing raw Node, Pod and NodeResourceTopology objects (real API JSON from tests/fixtures/extender)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from scorer.facts import Topology, node_facts, numa_zones, parse_quantity, pod_record, workload_of

FIXTURES = Path(__file__).parents[1] / "fixtures" / "extender"


def load(name: str) -> dict:
    return orjson.loads((FIXTURES / name).read_bytes())


@pytest.mark.parametrize(("text", "value"), [
    ("64Gi", 64 * 2**30), ("500m", 0.5), ("1Ti", 2**40), ("16", 16.0), ("1.5", 1.5), ("100M", 1e8),
    ("129e6", 129e6), ("1E", 1e18), ("2k", 2000.0), ("250u", 250e-6), (".5", 0.5), (8, 8.0),
    ("12Mi", 12 * 2**20), ("1e3", 1000.0),
])
def test_parse_quantity(text: object, value: float) -> None:
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("bad", ["", "Gi", "12 Gi", "1.2.3", "abc", None, True, "5GB"])
def test_parse_quantity_rejects(bad: object) -> None:
    assert parse_quantity(bad) is None


def test_nodes_from_a_real_node_list() -> None:
    nodes = {n.name: n for n in (node_facts(item) for item in load("nodelist.json")["items"])}
    assert sorted(nodes) == [f"m0{i}" for i in range(2, 10)]
    gpu = nodes["m02"]
    assert (gpu.region, gpu.zone, gpu.rack) == ("us-east-1", "us-east-1a", "rack-1")
    assert gpu.cpu_cores == 16.0 and gpu.memory_gb == 64.0 and gpu.ephemeral_storage_gb == 200.0
    assert gpu.gpu_count == 1.0 and gpu.gpu_product == "NVIDIA-A100-SXM4-80GB"
    assert gpu.gpu_tokens == ("nvidia", "a100", "sxm4", "80gb")
    assert gpu.gpu_memory_gb == pytest.approx(81920 * 1.048576 / 1000)  # ≥ "80 GB"
    assert gpu.nvlink is None  # GPUs, but nothing says NVLink
    assert nodes["m07"].network_gbps == 100.0 and nodes["m06"].network_gbps == 10.0
    assert nodes["m03"].gpu_count == 0.0 and nodes["m03"].nvlink is False and nodes["m03"].ssd is None
    assert nodes["m06"].zone == "us-east-1b" and nodes["m06"].rack == "rack-3"


def test_gpu_count_from_gfd_label_and_nvlink_sources() -> None:
    raw = {"metadata": {"name": "g", "labels": {"nvidia.com/gpu.count": "8", "nvidia.com/gpu.clique": "uuid.1",
                                                "feature.node.kubernetes.io/storage-nonrotationaldisk": "true",
                                                "my/rack": "r7"}},
           "status": {"allocatable": {"cpu": "64", "memory": "512Gi"}}}
    facts = node_facts(raw, Topology(rack_label="my/rack"))
    assert facts.gpu_count == 8.0 and facts.nvlink is True and facts.ssd is True and facts.rack == "r7"
    assert (facts.gpu_source, facts.nvlink_source) == ("gfd-label", "gfd-clique")
    # order of trust (issue 14): GFD's clique over the NVLink label (node agent or hand)
    raw["metadata"]["labels"]["semantic-affinity.io/nvlink"] = "false"
    assert node_facts(raw).nvlink is True
    del raw["metadata"]["labels"]["nvidia.com/gpu.clique"]
    assert (node_facts(raw).nvlink, node_facts(raw).nvlink_source) == (False, "label")


def test_numa_zones_from_a_real_nrt() -> None:
    nrt = next(i for i in load("nrtlist.json")["items"] if i["metadata"]["name"] == "m02")
    zones = numa_zones(nrt)
    assert [(z.name, z.cpu_cores, z.memory_gb, z.gpus) for z in zones] == [
        ("node-0", 8.0, 32.0, 1.0), ("node-1", 8.0, 32.0, 0.0)]


def test_pod_from_the_real_fixture() -> None:
    record = pod_record(load("pod.json"))
    assert (record.workload_kind, record.workload) == ("Deployment", "web")
    assert record.namespace == "capture" and record.node is None and record.active
    assert record.cpu_cores == pytest.approx(0.1) and record.memory_gb == pytest.approx(64 / 1024)
    assert record.workload_key == "capture/Deployment/web"


@pytest.mark.parametrize(("metadata", "expected"), [
    ({"labels": {"pod-template-hash": "abc12"}, "ownerReferences": [
        {"kind": "ReplicaSet", "name": "api-abc12", "controller": True}]}, ("Deployment", "api")),
    ({"ownerReferences": [{"kind": "ReplicaSet", "name": "plain-rs", "controller": True}]}, ("ReplicaSet", "plain-rs")),
    ({"ownerReferences": [{"kind": "StatefulSet", "name": "db", "controller": True}]}, ("StatefulSet", "db")),
    ({"ownerReferences": [{"kind": "Job", "name": "etl-28", "controller": True}]}, ("Job", "etl-28")),
    ({"ownerReferences": [{"kind": "DaemonSet", "name": "logging-agent", "controller": True}]},
     ("DaemonSet", "logging-agent")),
    ({"labels": {"app.kubernetes.io/name": "cache", "app": "other"}}, ("App", "cache")),
    ({"labels": {"app": "cache"}}, ("App", "cache")),
    ({}, ("", "")),
])
def test_workload_of(metadata: dict, expected: tuple[str, str]) -> None:
    assert workload_of(metadata) == expected


def test_pod_requests_limits_init_and_gpus() -> None:
    raw = {"metadata": {"name": "p", "namespace": "ns", "uid": "u"},
           "spec": {"nodeName": "m02",
                    "containers": [{"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                                   {"resources": {"limits": {"cpu": "1", "nvidia.com/gpu": "2"}}}],
                    "initContainers": [{"resources": {"requests": {"cpu": "4"}}}]},
           "status": {"phase": "Running"}}
    record = pod_record(raw)
    assert (record.cpu_cores, record.memory_gb, record.gpus, record.node) == (4.0, 1.0, 2.0, "m02")
    raw["status"]["phase"] = "Succeeded"
    assert not pod_record(raw).active
    raw["status"]["phase"] = "Running"
    raw["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    assert not pod_record(raw).active


# Fields of the wrong JSON type (found by fuzzing /prioritize): they read as absent, never raise.
@pytest.mark.parametrize("pod", [
    {"metadata": [], "spec": "x"},
    {"metadata": {"labels": ["a"], "ownerReferences": {"kind": "ReplicaSet"}}, "spec": {"containers": "c"}},
    {"metadata": {"labels": "app"}, "spec": {"containers": [1.5, {"resources": []}], "overhead": [], "nodeName": 7}},
    {"metadata": None, "spec": {"initContainers": [{"resources": {"requests": "lots"}}]}, "status": []},
])
def test_pod_record_reads_wrong_types_as_absent(pod) -> None:
    record = pod_record(pod)
    assert (record.cpu_cores, record.memory_gb, record.gpus, record.node) == (0.0, 0.0, 0.0, None)
    assert (record.workload_kind, record.workload) == ("", "")


@pytest.mark.parametrize("node", [
    {"metadata": {"name": "n", "labels": "x"}, "status": []},
    {"metadata": {"name": "n", "labels": True}, "status": {"allocatable": [], "capacity": "8"}},
])
def test_node_facts_reads_wrong_types_as_absent(node) -> None:
    facts = node_facts(node)
    assert (facts.name, facts.labels, facts.cpu_cores, facts.gpu_count) == ("n", {}, 0.0, 0.0)


@pytest.mark.parametrize("pod", [
    {"metadata": {"name": "p"}, "spec": {"resourceClaims": "x", "containers": [{"resources": {"limits": []}}]},
     "status": []},
    {"metadata": {"name": "p"}, "spec": [], "status": {"resourceClaimStatuses": "x"}},
])
def test_the_pod_to_place_reads_wrong_types_as_absent(pod) -> None:
    from scorer.state import ClusterState

    assert ClusterState().pod_to_place(pod).claimed_gpus == 0.0
