"""ResourceSlices and ResourceClaims in the NVIDIA DRA driver's shapes (tests/fixtures/dra) -> per-node GPU facts."""

from __future__ import annotations

import copy
from pathlib import Path

import orjson
import pytest

from scorer.dra import DraIndex, parse_device, pod_claim_names
from scorer.facts import node_facts, with_gpu_sources
from scorer.state import ClusterState

FIXTURES = Path(__file__).parents[1] / "fixtures" / "dra"


def load(name: str) -> dict:
    return orjson.loads((FIXTURES / name).read_bytes())


def node(name: str, labels: dict[str, str] | None = None, gpus: str | None = None) -> dict:
    allocatable = {"cpu": "32", "memory": "256Gi"}
    if gpus is not None:
        allocatable["nvidia.com/gpu"] = gpus
    return {"metadata": {"name": name, "labels": labels or {}, "resourceVersion": "1"},
            "status": {"allocatable": allocatable}}


def test_the_real_t4_slice() -> None:
    index = DraIndex()
    assert index.upsert_slice(load("slice-t4-v0.4.1.json")) == {"aks-gpudra-34911544-vmss000000"}
    gpus = index.node("aks-gpudra-34911544-vmss000000")
    assert gpus is not None
    assert (gpus.gpus, gpus.mig_devices, gpus.product, gpus.allocated) == (1, 0, "Tesla T4", 0)
    assert gpus.memory_gb == pytest.approx(16 * 2**30 / 1e9)
    assert gpus.pcie_roots == ()  # v0.4.1 on Azure publishes no pcieRoot


def test_attribute_drift_between_releases() -> None:
    index = DraIndex()
    index.upsert_slice(load("slice-h100x8-v25.12.json"))
    index.upsert_slice(load("slice-a100x4-v25.3.json"))
    h100, a100 = index.node("dgx-h100-01"), index.node("a100-node-7")
    assert h100 is not None and a100 is not None
    assert (h100.gpus, h100.product, len(h100.pcie_roots)) == (8, "NVIDIA H100 80GB HBM3", 8)
    assert h100.memory_gb == pytest.approx(81559 * 2**20 / 1e9) and h100.memory_gb >= 80
    assert (a100.gpus, a100.product, a100.pcie_roots) == (4, "NVIDIA A100-SXM4-40GB", ())
    assert 40 <= a100.memory_gb < 45


def test_qualified_and_v1beta1_and_untyped_devices() -> None:
    qualified = {"name": "gpu-3", "attributes": {"gpu.nvidia.com/productName": {"string": "NVIDIA L4"}},
                 "capacity": {"gpu.nvidia.com/memory": {"value": "23034Mi"}}}
    device = parse_device(qualified, "gpu.nvidia.com")
    assert (device.kind, device.product) == ("gpu", "NVIDIA L4")  # kind from the name: no type attribute
    beta = {"name": "gpu-0-mig-1g10gb-19-0", "basic": {"attributes": {"productName": {"string": "NVIDIA A100"}},
                                                         "capacity": {"memory": {"value": "9728Mi"}}}}
    assert parse_device(beta, "gpu.nvidia.com").kind == "mig"
    assert parse_device({"name": "channel-0", "attributes": {}}, "gpu.nvidia.com").kind == "unknown"


def test_mig_devices_are_their_own_kind() -> None:
    index = DraIndex()
    index.upsert_slice(load("slice-a100-mig-v25.12.json"))
    gpus = index.node("mig-node-2")
    assert gpus is not None and (gpus.gpus, gpus.mig_devices) == (0, 4)
    assert gpus.product == "NVIDIA A100-SXM4-80GB" and gpus.memory_gb is None
    facts = with_gpu_sources(node_facts(node("mig-node-2")), gpus, None)
    assert facts.gpu_count == 0 and facts.has_gpus and facts.nvlink is None  # GPU hardware, NVLink unknown


def test_only_the_newest_pool_generation_counts() -> None:
    index = DraIndex()
    old = load("slice-h100x8-v25.12.json")
    index.upsert_slice(old)
    new = copy.deepcopy(old)
    new["metadata"]["name"] = "dgx-h100-01-gpu.nvidia.com-r0ll2"
    new["spec"]["pool"]["generation"] = 2
    new["spec"]["devices"] = new["spec"]["devices"][:6]  # two GPUs fell off the bus
    assert index.upsert_slice(new) == {"dgx-h100-01"}
    assert index.node("dgx-h100-01").gpus == 6  # the generation-1 slice still exists but no longer counts
    assert index.delete_slice(old) == {"dgx-h100-01"}
    assert index.node("dgx-h100-01").gpus == 6
    index.delete_slice(new)
    assert index.node("dgx-h100-01") is None


def test_other_drivers_and_network_slices_are_ignored() -> None:
    index = DraIndex()
    other = load("slice-t4-v0.4.1.json")
    other["spec"]["driver"] = "gpu.example.com"
    assert index.upsert_slice(other) == set()
    shared = load("slice-t4-v0.4.1.json")
    del shared["spec"]["nodeName"]
    shared["spec"]["allNodes"] = True
    assert index.upsert_slice(shared) == set() and index.nodes() == []
    assert DraIndex("gpu.example.com").upsert_slice(other) == {"aks-gpudra-34911544-vmss000000"}


def test_allocated_claims_subtract_and_pending_claims_are_demand() -> None:
    index = DraIndex()
    index.upsert_slice(load("slice-t4-v0.4.1.json"))
    claim = load("claim-allocated.json")
    assert index.upsert_claim(claim) == {"aks-gpudra-34911544-vmss000000"}
    assert index.node("aks-gpudra-34911544-vmss000000").allocated == 1
    assert index.claim_demand("dra-gate", ["pod-mem-ok-gpu-8xq2l"]) == 0  # allocated: counted on the node
    pending = load("claim-pending-2gpus.json")
    index.upsert_claim(pending)
    assert index.claim_demand("ml", pod_claim_names(load("pod-with-claim-template.json"))) == 2
    assert index.claim_demand("other", ["trainer-0-gpus-4mz7k"]) == 0
    index.delete_claim(claim)
    assert index.node("aks-gpudra-34911544-vmss000000").allocated == 0


def test_a_claim_before_its_slice_and_a_full_relist() -> None:
    index = DraIndex()
    assert index.upsert_claim(load("claim-allocated.json")) == set()  # no device known yet
    index.replace_slices([load("slice-t4-v0.4.1.json"), load("slice-h100x8-v25.12.json")])
    assert index.node("aks-gpudra-34911544-vmss000000").allocated == 1
    assert index.replace_claims([]) == {"aks-gpudra-34911544-vmss000000"}
    assert index.node("aks-gpudra-34911544-vmss000000").allocated == 0
    assert index.replace_slices([]) == {"aks-gpudra-34911544-vmss000000", "dgx-h100-01"}


def test_partitionable_devices_share_counters() -> None:
    """A MIG partition allocated out of gpu-0's counters makes gpu-0 busy too (KEP-4815 shared counters)."""
    raw = load("slice-h100x8-v25.12.json")
    devices = raw["spec"]["devices"][:2]
    for d in devices:
        d["consumesCounters"] = [{"counterSet": f"{d['name']}-counter-set", "counters": {"memory": {"value": "80Gi"}}}]
    devices.append({"name": "gpu-0-mig-1g10gb-19-0", "attributes": {"type": {"string": "mig"}},
                    "consumesCounters": [{"counterSet": "gpu-0-counter-set",
                                          "counters": {"memory": {"value": "10Gi"}}}]})
    raw["spec"]["devices"] = devices
    index = DraIndex()
    index.upsert_slice(raw)
    claim = load("claim-allocated.json")
    claim["status"]["allocation"]["devices"]["results"] = [
        {"device": "gpu-0-mig-1g10gb-19-0", "driver": "gpu.nvidia.com", "pool": "dgx-h100-01", "request": "gpu"}]
    index.upsert_claim(claim)
    assert (index.node("dgx-h100-01").gpus, index.node("dgx-h100-01").allocated) == (2, 1)


def test_precedence_slices_over_allocatable_and_labels() -> None:
    labels = {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.memory": "40960",
              "nvidia.com/gpu.count": "4", "semantic-affinity.io/nvlink": "true"}
    state = ClusterState()
    state.upsert_node(node("dgx-h100-01", labels, gpus="4"))
    before = state.nodes["dgx-h100-01"]
    assert (before.gpu_count, before.gpu_source, before.gpu_product) == (4, "allocatable", "NVIDIA-A100-SXM4-40GB")
    state.upsert_slice(load("slice-h100x8-v25.12.json"))
    after = state.nodes["dgx-h100-01"]
    assert (after.gpu_count, after.gpu_source, after.gpu_product) == (8, "resourceslice", "NVIDIA H100 80GB HBM3")
    assert after.gpu_memory_gb >= 80 and after.nvlink is True and after.nvlink_source == "label"
    assert "h100" in after.gpu_tokens
    row = state.table.rows["dgx-h100-01"]
    assert state.table.columns["gpu_count"][row] == 8


def test_slices_before_their_node_and_claims_without_a_version_bump() -> None:
    state = ClusterState()
    state.upsert_slice(load("slice-t4-v0.4.1.json"))
    assert "aks-gpudra-34911544-vmss000000" not in state.nodes  # no Node object yet
    state.replace_nodes([node("aks-gpudra-34911544-vmss000000")])
    facts = state.nodes["aks-gpudra-34911544-vmss000000"]
    assert (facts.gpu_count, facts.gpu_claimed, facts.nvlink) == (1, 0, None)
    version, epoch = state.table.version, state.gpu_epoch
    state.upsert_claim(load("claim-allocated.json"))
    assert state.nodes["aks-gpudra-34911544-vmss000000"].gpu_claimed == 1
    row = state.table.rows["aks-gpudra-34911544-vmss000000"]
    assert state.table.columns["gpu_claimed"][row] == 1
    assert state.table.version == version and state.gpu_epoch == epoch + 1  # memoised φ stay valid


def test_the_pod_to_place_carries_its_claims() -> None:
    state = ClusterState()
    state.upsert_claim(load("claim-pending-2gpus.json"))
    pod = state.pod_to_place(load("pod-with-claim-template.json"))
    assert (pod.gpus, pod.claimed_gpus, pod.workload) == (0, 2, "trainer")
    state.upsert_claim({**load("claim-pending-2gpus.json"), "status": load("claim-allocated.json")["status"]})
    assert state.pod_to_place(load("pod-with-claim-template.json")).claimed_gpus == 0


def test_extended_resources_backed_by_dra() -> None:
    """KEP-5004 (beta in 1.36): ``nvidia.com/gpu`` or ``deviceclass.resource.kubernetes.io/<class>`` requests served
    from DRA devices. A bound pod whose GPUs the scheduler's own claim holds is not counted twice; the pod being
    placed counts its implicit DeviceClass requests as claimed GPUs."""
    from scorer.facts import pod_record

    bound = {"metadata": {"name": "p", "namespace": "ml"},
             "spec": {"nodeName": "n", "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "2"}}}]},
             "status": {"extendedResourceClaimStatus": {
                 "resourceClaimName": "p-extended-resources-x7k2q",
                 "requestMappings": [{"containerName": "c", "resourceName": "nvidia.com/gpu", "requestName": "c-0"}]}}}
    assert pod_record(bound).gpus == 0
    del bound["status"]
    assert pod_record(bound).gpus == 2  # the device plugin's nvidia.com/gpu: counted as before
    implicit = {"metadata": {"name": "q", "namespace": "ml"}, "spec": {"containers": [
        {"name": "a", "resources": {"requests": {"deviceclass.resource.kubernetes.io/gpu.nvidia.com": "1"}}},
        {"name": "b", "resources": {"limits": {"deviceclass.resource.kubernetes.io/gpu.nvidia.com": "2",
                                               "deviceclass.resource.kubernetes.io/mig.nvidia.com": "4"}}}]}}
    assert ClusterState().pod_to_place(implicit).claimed_gpus == 3  # mig.nvidia.com is not a whole-GPU class


@pytest.mark.parametrize(("request_", "gpus"), [
    ({"name": "r", "exactly": {"deviceClassName": "gpu.nvidia.com"}}, 1),  # count defaults to 1
    ({"name": "r", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 4}}, 4),
    ({"name": "r", "exactly": {"deviceClassName": "gpu.nvidia.com", "allocationMode": "All"}}, 1),
    ({"name": "r", "exactly": {"deviceClassName": "mig.nvidia.com", "count": 3}}, 0),  # MIG: not whole GPUs
    ({"name": "r", "firstAvailable": [{"name": "big", "deviceClassName": "gpu.nvidia.com", "count": 2},
                                      {"name": "small", "deviceClassName": "mig.nvidia.com"}]}, 2),
    ({"name": "r", "deviceClassName": "gpu.nvidia.com", "count": 2}, 2),  # v1beta1's flat request
])
def test_claim_requests(request_: dict, gpus: float) -> None:
    index = DraIndex()
    index.upsert_claim({"metadata": {"name": "c", "namespace": "ns"}, "spec": {"devices": {"requests": [request_]}}})
    assert index.claim_demand("ns", ["c"]) == gpus


def test_a_relist_of_unchanged_objects_touches_nothing() -> None:
    """The informers re-list every minute: slices and claims at a known resourceVersion are not parsed again."""
    slices = [load("slice-t4-v0.4.1.json"), load("slice-h100x8-v25.12.json")]
    for i, body in enumerate(slices):
        body["metadata"]["resourceVersion"] = str(10 + i)
    claim = {**load("claim-allocated.json")}
    claim["metadata"] = {**claim["metadata"], "resourceVersion": "20"}
    index = DraIndex()
    assert index.replace_slices(slices) == {"aks-gpudra-34911544-vmss000000", "dgx-h100-01"}
    assert index.replace_claims([claim]) == {"aks-gpudra-34911544-vmss000000"}
    assert index.replace_slices(slices) == set() and index.replace_claims([claim]) == set()
    changed = copy.deepcopy(slices[1])
    changed["metadata"]["resourceVersion"] = "12"
    changed["spec"]["devices"] = changed["spec"]["devices"][:4]
    assert index.replace_slices([slices[0], changed]) == {"dgx-h100-01"}
    assert index.node("dgx-h100-01").gpus == 4
    reserved = copy.deepcopy(claim)
    reserved["metadata"]["resourceVersion"] = "21"
    reserved["status"]["reservedFor"] = []  # only the reservation changed: nothing counted changes
    assert index.upsert_claim(reserved) == set()
