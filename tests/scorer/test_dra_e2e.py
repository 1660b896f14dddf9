"""GPUs published only through DRA, on the real kube-apiserver and kube-scheduler (``make e2e``).

- resource.k8s.io/v1 is served by the harness's 1.36 apiserver without any --runtime-config;
- ResourceSlices and ResourceClaims created through it in the NVIDIA driver's shapes (tests/fixtures/dra)
  reach the scorer's informers: a DRA-only node, a node with both GFD labels and slices, a pool
  generation roll-over, an allocated claim;
- through the real scheduler with ``python -m scorer`` as its extender: "2 GPUs with at least 40 GB each"
  lands on the node with two free such GPUs, not on the one whose GPUs claims hold, both for a pod
  without claims and for a pod whose claim kube-scheduler's DRA plugin allocates; NVLink comes from the
  node agent (``python -m nodeagent``, with a stand-in nvidia-smi printing a real ``topo -m`` output), and
  from DCGM's P2P status through a real Prometheus, over a stale hand label.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from certs import tool as certs
from localcluster.kube import ApiError, wait_for
from localcluster.nodes import NodeSpec
from localcluster.workloads import wait_bound
from scorer.sources.kube import api_client, informers
from scorer.state import ClusterState
from shared.intents import Intent, IntentDocument
from shared.signing import Signer
from tests.nodeagent.fakes import fake_nvidia_smi
from tests.scorer.test_e2e import bare_pod, eventually, signed_annotations

# the DCGM-format exporter and the real Prometheus scraping it (fixtures of test_prometheus)
from tests.scorer.test_prometheus import P2P, PROMETHEUS, exporter, prometheus  # noqa: F401

pytestmark = pytest.mark.e2e
DRA = "/apis/resource.k8s.io/v1"
FIXTURES = Path(__file__).parents[1] / "fixtures"
REPO = Path(__file__).parents[2]
DRIVER = "gpu.nvidia.com"
# The driver chart's DeviceClass for whole GPUs (its CEL selector), without extendedResourceName
GPU_SELECTOR = "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"
GPU_CLASS = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": DRIVER},
             "spec": {"selectors": [{"cel": {"expression": GPU_SELECTOR}}]}}


def fixture(name: str) -> dict[str, Any]:
    return orjson.loads((FIXTURES / "dra" / name).read_bytes())


def gpu_slice(template: str, node: str, gpus: int | None = None, generation: int = 1,
              suffix: str = "a") -> dict[str, Any]:
    """A fixture slice moved to ``node`` (pool = node name, as the driver names it), first ``gpus`` devices."""
    body = copy.deepcopy(fixture(template))
    body["metadata"] = {"name": f"{node}-{DRIVER}-{suffix}"}
    body["spec"]["nodeName"] = node
    body["spec"]["pool"] = {"name": node, "generation": generation, "resourceSliceCount": 1}
    if gpus is not None:
        body["spec"]["devices"] = body["spec"]["devices"][:gpus]
    return body


def l4_slice(node: str) -> dict[str, Any]:
    """Two NVIDIA L4 (24 GB): enough GPUs, too little memory each."""
    body = gpu_slice("slice-h100x8-v25.12.json", node, 2)
    for device in body["spec"]["devices"]:
        device["attributes"]["productName"] = {"string": "NVIDIA L4"}
        device["attributes"]["architecture"] = {"string": "Ada Lovelace"}
        device["capacity"]["memory"] = {"value": "23034Mi"}
    return body


HINT = "needs 2 GPUs with at least 40 GB each"
WISH = IntentDocument(intents=(Intent("prefer_gpu", 0.9, 1.5, metadata={"prefer_gpu_cores": 2.0}),
                               Intent("prefer_gpu_memory_gb", 0.9, 1.5, metadata={"prefer_gpu_memory_gb": 40.0})))


def ensure_gpu_class(kube: Any) -> None:
    """The driver's DeviceClass, once per session (cluster-scoped, the same object for every test)."""
    try:
        kube.create(f"{DRA}/deviceclasses", GPU_CLASS)
    except ApiError as exc:
        if exc.status != 409:
            raise


def delete_gpu_nodes(control_plane: Any, names: list[str]) -> None:
    for name in names:
        control_plane.kube.delete(f"{DRA}/resourceslices", fieldSelector=f"spec.nodeName={name}")
    control_plane.delete_nodes(names)


def claim(name: str, count: int = 2) -> dict[str, Any]:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name},
            "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
                "deviceClassName": DRIVER, "allocationMode": "ExactCount", "count": count}}]}}}


def allocate(kube: Any, namespace: str, name: str, node: str, devices: list[str]) -> None:
    """Write an allocation as kube-scheduler's DRA plugin does (status subresource)."""
    kube.request("PUT", f"{DRA}/namespaces/{namespace}/resourceclaims/{name}/status", {
        **kube.get(f"{DRA}/namespaces/{namespace}/resourceclaims/{name}"),
        "status": {"allocation": {
            "devices": {"results": [{"request": "gpus", "driver": DRIVER, "pool": node, "device": d}
                                    for d in devices]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [node]}]}]}}}})


def test_resource_k8s_io_v1_is_served(control_plane: Any) -> None:
    kinds = {r["name"] for r in control_plane.kube.get(DRA)["resources"]}
    assert {"resourceslices", "resourceclaims", "resourceclaims/status", "deviceclasses"} <= kinds


async def test_informers_follow_slices_and_claims(control_plane: Any) -> None:
    tag = uuid.uuid4().hex[:6]
    dra_only, labelled = f"draonly-{tag}", f"labelled-{tag}"
    gfd = {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.memory": "40960",
           "nvidia.com/gpu.count": "4", "nvidia.com/gpu.clique": "7b968a6d-c8aa-45e1-9e07-e1e51be99c31.1"}
    names = control_plane.create_nodes([NodeSpec(dra_only), NodeSpec(labelled, labels=gfd, gpus=4)])
    kube = control_plane.kube
    namespace = f"drainf-{tag}"
    control_plane.create_namespace(namespace, wait_for_sa=False)
    slices = [gpu_slice("slice-t4-v0.4.1.json", dra_only), gpu_slice("slice-h100x8-v25.12.json", labelled)]
    for body in slices:
        kube.create(f"{DRA}/resourceslices", body)
    state = ClusterState()
    client = await api_client(str(control_plane.kubeconfig))
    running = informers(client, state, relist_s=3.0)
    tasks = [asyncio.create_task(i.run()) for i in running]
    try:
        await eventually("both nodes with their slices", lambda: all(
            n in state.nodes and state.nodes[n].gpu_source == "resourceslice" for n in names))
        only, both = state.nodes[dra_only], state.nodes[labelled]
        assert (only.gpu_count, only.gpu_product, only.nvlink) == (1, "Tesla T4", None)
        # slices win over allocatable nvidia.com/gpu and the GFD labels; NVLink still from GFD's clique
        assert (both.gpu_count, both.gpu_product, both.nvlink_source) == (8, "NVIDIA H100 80GB HBM3", "gfd-clique")
        assert both.gpu_memory_gb > 80

        # the driver rolls the pool over: generation 2 with 6 GPUs, then deletes generation 1
        kube.create(f"{DRA}/resourceslices", gpu_slice("slice-h100x8-v25.12.json", labelled, 6, 2, "b"))
        await eventually("generation 2", lambda: state.nodes[labelled].gpu_count == 6)
        kube.delete(f"{DRA}/resourceslices/{slices[1]['metadata']['name']}")
        await asyncio.sleep(0.5)
        assert state.nodes[labelled].gpu_count == 6

        # every fixture shape is valid resource.k8s.io/v1 and reads back the same through the informers
        for template, node in (("slice-a100x4-v25.3.json", dra_only), ("slice-a100-mig-v25.12.json", dra_only)):
            body = copy.deepcopy(fixture(template))
            body["metadata"] = {"name": f"{template.split('.')[0]}-{tag}"}
            body["spec"]["pool"]["name"] = f"{body['spec']['pool']['name']}-{tag}"
            body["spec"]["nodeName"] = node
            kube.create(f"{DRA}/resourceslices", body)
        await eventually("the v25.3 and MIG slices", lambda: state.nodes[dra_only].gpu_count == 5
                         and state.nodes[dra_only].mig_devices == 4)
        assert state.nodes[dra_only].gpu_product == "NVIDIA A100-SXM4-40GB"  # 4 A100s outnumber the T4
        pending = {k: v for k, v in fixture("claim-pending-2gpus.json").items() if k != "status"}
        pending["metadata"] = {"name": "pending"}
        kube.create(f"{DRA}/namespaces/{namespace}/resourceclaims", pending)
        await eventually("the pending claim's demand", lambda: state.dra.claim_demand(namespace, ["pending"]) == 2)

        kube.create(f"{DRA}/namespaces/{namespace}/resourceclaims", claim("held", 1))
        await eventually("claim seen", lambda: state.dra.claim_demand(namespace, ["held"]) == 1)
        allocate(kube, namespace, "held", dra_only, ["gpu-0"])
        await eventually("allocation", lambda: state.nodes[dra_only].gpu_claimed == 1)
        assert state.dra.claim_demand(namespace, ["held"]) == 0
        kube.delete(f"{DRA}/namespaces/{namespace}/resourceclaims/held")
        await eventually("claim released", lambda: state.nodes[dra_only].gpu_claimed == 0)
        assert state.nodes[dra_only].gpu_count == 5
        assert state.synced_at.keys() >= {"resourceslices", "resourceclaims"}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await client.close()
        delete_gpu_nodes(control_plane, names)
        control_plane.delete_namespace(namespace)


def run_agent(control_plane: Any, node: str, smi: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(NODE_NAME=node, KUBECONFIG=str(control_plane.kubeconfig), SEMAFF_NVIDIA_SMI=smi)
    env.pop("KUBERNETES_SERVICE_HOST", None)
    done = subprocess.run([sys.executable, "-m", "nodeagent", "--once"], env=env, cwd=REPO, capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]


def ranking(control_plane: Any, pod: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{control_plane.scorer_url}/explain?pod={pod}", timeout=5) as response:
        return {row["node"]: row["score"] for row in json.loads(response.read())["ranking"]}


def test_gpu_intents_place_pods_on_dra_only_nodes(control_plane: Any, tmp_path: Path) -> None:
    tag = uuid.uuid4().hex[:6]
    mine = {"e2e-dra": tag}
    # names sort so that a scorer blind to claims (a before c) or to memory (b before c) picks wrongly
    full, small, free, cpu = (f"dra-{tag}-{x}" for x in ("a-full", "b-small", "c-free", "d-cpu"))
    names = control_plane.create_nodes([NodeSpec(n, labels=mine) for n in (full, small, free, cpu)])
    kube = control_plane.kube
    namespace = f"dra-{tag}"
    control_plane.create_namespace(namespace)
    ensure_gpu_class(kube)
    for body in (gpu_slice("slice-h100x8-v25.12.json", full, 2), l4_slice(small),
                 gpu_slice("slice-h100x8-v25.12.json", free, 2)):
        kube.create(f"{DRA}/resourceslices", body)
    kube.create(f"{DRA}/namespaces/{namespace}/resourceclaims", claim("someone-else"))
    allocate(kube, namespace, "someone-else", full, ["gpu-0", "gpu-1"])
    signer = Signer.from_file(control_plane.service_certs() / certs.SIGNING_KEY)
    hint, wish = HINT, WISH
    control_plane.start_scorer()

    def pod(name: str, document: IntentDocument, text: str, claim_name: str | None = None) -> dict[str, Any]:
        body = bare_pod(name, annotations=signed_annotations(signer, document, text), app=name)
        body["spec"]["nodeSelector"] = mine
        if claim_name:
            body["spec"]["resourceClaims"] = [{"name": "gpus", "resourceClaimName": claim_name}]
            body["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpus"}]
        return body

    try:
        wait_for("the scorer's cache has the claim's allocation", lambda: scores_of(
            control_plane, namespace, pod("probe", wish, hint), names).get(full, 10) < 10, 60)
        # a pod without claims: the intents alone decide among all four nodes
        kube.create(f"/api/v1/namespaces/{namespace}/pods", pod("plain", wish, hint))
        assert wait_bound(kube, namespace, "app=plain", 1) == {"plain": free}
        scores = ranking(control_plane, f"{namespace}/plain")
        assert scores[free] == 10 and scores[full] < 10 and scores[small] < 10 and scores[cpu] < scores[free]

        # a pod asking for its GPUs by claim: kube-scheduler's DRA filter leaves small and free, the scorer picks
        kube.create(f"{DRA}/namespaces/{namespace}/resourceclaims", claim("trainer-gpus"))
        kube.create(f"/api/v1/namespaces/{namespace}/pods", pod("trainer", wish, hint, "trainer-gpus"))
        assert wait_bound(kube, namespace, "app=trainer", 1) == {"trainer": free}
        allocation = wait_for("the scheduler's allocation", lambda: (kube.get(
            f"{DRA}/namespaces/{namespace}/resourceclaims/trainer-gpus").get("status") or {}).get("allocation"), 60)
        assert {r["pool"] for r in allocation["devices"]["results"]} == {free}

        # NVLink from the node agent: the real topo -m of an NV12 HGX on "free", a PHB workstation on "small"
        run_agent(control_plane, free, fake_nvidia_smi(tmp_path, "p4d.24xlarge-8xA100-NV12.txt"))
        run_agent(control_plane, small, fake_nvidia_smi(tmp_path, "2xRTX5090-PHB.txt"))
        labels = kube.get(f"/api/v1/nodes/{free}")["metadata"]["labels"]
        assert labels["semantic-affinity.io/nvlink"] == "true"
        assert kube.get(f"/api/v1/nodes/{small}")["metadata"]["labels"]["semantic-affinity.io/nvlink"] == "false"
        linked = IntentDocument(intents=(Intent("prefer_nvlink", 0.9, 1.5),))
        wait_for("the scorer sees the agent's label", lambda: scores_of(
            control_plane, namespace, pod("probe-nv", linked, "NVLink please"), names).get(free) == 10, 60)
        kube.create(f"/api/v1/namespaces/{namespace}/pods", pod("nv", linked, "GPUs connected with NVLink"))
        assert wait_bound(kube, namespace, "app=nv", 1) == {"nv": free}
    finally:
        control_plane.stop_service("scorer")
        control_plane.force_delete_pods(namespace)
        delete_gpu_nodes(control_plane, names)
        control_plane.delete_namespace(namespace)


def scores_of(control_plane: Any, namespace: str, body: dict[str, Any], names: list[str]) -> dict[str, int]:
    """Ask the scorer directly, as kube-scheduler would (NodeNames mode), for a pod that is never created."""
    body = {**body, "metadata": {**body["metadata"], "namespace": namespace, "uid": body["metadata"]["name"]}}
    request = urllib.request.Request(f"{control_plane.scorer_url}/prioritize", method="POST",
                                     data=orjson.dumps({"Pod": body, "NodeNames": names}),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return {row["Host"]: row["Score"] for row in json.loads(response.read())}


def test_pods_with_claim_templates_burst_onto_free_gpus(control_plane: Any) -> None:
    """Pods with a ResourceClaimTemplate, as Deployments and Jobs use DRA: kube-controller-manager makes each pod's
    claim, kube-scheduler sends the pod with only ``status.resourceClaimStatuses``; the scorer reads the claim it
    names. Two such pods in one burst take the two free 80 GB nodes, never the 24 GB one that sorts first."""
    tag = uuid.uuid4().hex[:6]
    mine = {"e2e-dra": tag}
    small, first, second = (f"tpl-{tag}-{x}" for x in ("0-small", "a-free", "b-free"))
    names = control_plane.create_nodes([NodeSpec(n, labels=mine) for n in (small, first, second)])
    kube = control_plane.kube
    namespace = f"tpl-{tag}"
    control_plane.create_namespace(namespace)
    ensure_gpu_class(kube)
    for body in (l4_slice(small), gpu_slice("slice-h100x8-v25.12.json", first, 2),
                 gpu_slice("slice-h100x8-v25.12.json", second, 2)):
        kube.create(f"{DRA}/resourceslices", body)
    kube.create(f"{DRA}/namespaces/{namespace}/resourceclaimtemplates", {
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "two-gpus"},
        "spec": {"spec": claim("unused")["spec"]}})
    signer = Signer.from_file(control_plane.service_certs() / certs.SIGNING_KEY)
    hint, wish = HINT, WISH
    control_plane.start_scorer()
    try:
        wait_for("the scorer sees the slices", lambda: scores_of(control_plane, namespace, bare_pod(
            "probe", annotations=signed_annotations(signer, wish, hint)), names).get(first) == 10, 60)
        for i in range(2):
            body = bare_pod(f"train-{i}", annotations=signed_annotations(signer, wish, hint), app="train")
            body["spec"]["nodeSelector"] = mine
            body["spec"]["resourceClaims"] = [{"name": "gpus", "resourceClaimTemplateName": "two-gpus"}]
            body["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpus"}]
            kube.create(f"/api/v1/namespaces/{namespace}/pods", body)
        placed = wait_bound(kube, namespace, "app=train", 2)
        assert sorted(placed.values()) == [first, second], placed
        generated = kube.get(f"/api/v1/namespaces/{namespace}/pods/train-0")["status"]["resourceClaimStatuses"]
        assert generated[0]["name"] == "gpus" and generated[0]["resourceClaimName"].startswith("train-0-gpus-")
        # the GPUs those claims hold are not free for the next pod, whatever asks for them
        plain = bare_pod("next", annotations=signed_annotations(signer, wish, hint))
        wait_for("both 80 GB nodes taken", lambda: all(
            s < 10 for n, s in scores_of(control_plane, namespace, plain, names).items() if n != small), 60)
    finally:
        control_plane.stop_service("scorer")
        control_plane.force_delete_pods(namespace)
        delete_gpu_nodes(control_plane, names)
        control_plane.delete_namespace(namespace)


@pytest.mark.skipif(PROMETHEUS is None, reason="the prometheus binary is not installed")
async def test_nvlink_from_dcgm_through_prometheus(control_plane: Any, prometheus: str,  # noqa: F811
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """DCGM_EXP_P2P_STATUS (dcgm-exporter's format, scraped by a real Prometheus) outranks every label: the
    prefer_nvlink pod lands on the node DCGM measures as NVLinked, although the other one is labelled NVLink."""
    tag = uuid.uuid4().hex[:6]
    mine = {"e2e-dra": tag}
    pcie, linked = f"dcgm-{tag}-a-pcie", f"dcgm-{tag}-b-nvlink"
    monkeypatch.setitem(P2P, pcie, 4)  # NotSupported: PCIe only
    monkeypatch.setitem(P2P, linked, 0)  # OK: NVLink P2P
    names = control_plane.create_nodes([
        NodeSpec(pcie, labels={**mine, "semantic-affinity.io/nvlink": "true"}),  # a stale hand label
        NodeSpec(linked, labels=mine)])
    kube = control_plane.kube
    namespace = f"dcgm-{tag}"
    control_plane.create_namespace(namespace)
    for node in names:
        kube.create(f"{DRA}/resourceslices", gpu_slice("slice-h100x8-v25.12.json", node, 2))
    signer = Signer.from_file(control_plane.service_certs() / certs.SIGNING_KEY)
    document = IntentDocument(intents=(Intent("prefer_nvlink", 0.9, 1.5),))
    text = "GPUs connected with NVLink"
    control_plane.start_scorer({"SEMAFF_PROMETHEUS_URL": prometheus, "SEMAFF_METRICS_POLL_S": "1"})
    try:
        probe = bare_pod("probe", annotations=signed_annotations(signer, document, text))
        await asyncio.to_thread(wait_for, "the scorer's DCGM P2P verdicts", lambda: scores_of(
            control_plane, namespace, probe, names) == {linked: 10, pcie: 1}, 120)
        body = bare_pod("nv", annotations=signed_annotations(signer, document, text), app="nv")
        body["spec"]["nodeSelector"] = mine
        kube.create(f"/api/v1/namespaces/{namespace}/pods", body)
        assert await asyncio.to_thread(wait_bound, kube, namespace, "app=nv", 1) == {"nv": linked}
    finally:
        control_plane.stop_service("scorer")
        control_plane.force_delete_pods(namespace)
        delete_gpu_nodes(control_plane, names)
        control_plane.delete_namespace(namespace)
