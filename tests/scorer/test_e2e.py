"""The scorer against a real kube-apiserver and kube-scheduler (``make e2e``; localcluster).

- the informers keep the cache in step with the API: nodes, NRT, bound pods, relabels, deletions,
  periodic re-lists;
- ``python -m scorer`` behind the real scheduler's extender entry: signed intents steer the binding,
  and a burst of colocated pods lands on one node before any binding is visible to it.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from certs import tool as certs
from localcluster.nodes import NodeSpec, NumaZone
from localcluster.workloads import wait_bound
from scorer.sources.kube import api_client, informers
from scorer.state import ClusterState
from shared.codec import HINT, Analysis, build_annotations
from shared.intents import Intent, IntentDocument
from shared.sanitise import hint_sha256, sanitise
from shared.signing import Signer

pytestmark = pytest.mark.e2e
SCHEDULER = "semantic-scheduler"


async def eventually(what: str, check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


def bare_pod(name: str, node: str | None = None, annotations: dict[str, str] | None = None,
             app: str = "e2e", scheduler: str = SCHEDULER) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10",
                                            "resources": {"requests": {"cpu": "10m", "memory": "8Mi"}}}],
                            "terminationGracePeriodSeconds": 0}
    if node:
        spec["nodeName"] = node
    else:
        spec["schedulerName"] = scheduler
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "labels": {"app": app}, "annotations": annotations or {}}, "spec": spec}


async def test_informers_follow_the_api(control_plane: Any) -> None:
    tag = uuid.uuid4().hex[:6]
    names = control_plane.create_nodes([
        NodeSpec(f"inf-{tag}-a", labels={"topology.kubernetes.io/zone": "z1"}, gpus=2,
                 numa=(NumaZone("node-0", "8", "32Gi", 2), NumaZone("node-1", "8", "32Gi"))),
        NodeSpec(f"inf-{tag}-b", labels={"topology.kubernetes.io/zone": "z2"}),
    ])
    namespace = f"inf-{tag}"
    control_plane.create_namespace(namespace, wait_for_sa=False)
    kube = control_plane.kube
    state = ClusterState()
    client = await api_client(str(control_plane.kubeconfig))
    running = informers(client, state, relist_s=3.0)
    tasks = [asyncio.create_task(i.run()) for i in running]
    try:
        await eventually("first sync", lambda: state.not_ready() is None and names[0] in state.nodes)
        a = state.nodes[names[0]]
        assert a.zone == "z1" and a.gpu_count == 2.0 and a.cpu_cores == 16.0
        await eventually("NUMA zones", lambda: state.nodes[names[0]].numa_zones is not None)
        assert [z.gpus for z in state.nodes[names[0]].numa_zones or ()] == [2.0, 0.0]

        kube.create(f"/api/v1/namespaces/{namespace}/pods", bare_pod("bound", names[0]))
        # a pod nobody schedules: unbound pods never count
        kube.create(f"/api/v1/namespaces/{namespace}/pods", bare_pod("pending", scheduler="nobody"))
        key = f"{namespace}/App/e2e"
        await eventually("bound pod in P_eff", lambda: state.pods.histogram(key, "node") == {names[0]: 1})
        assert state.pods.histogram(key, "zone") == {"z1": 1}

        kube.patch(f"/api/v1/nodes/{names[0]}", {"metadata": {"labels": {"topology.kubernetes.io/zone": "z9"}}})
        await eventually("relabel", lambda: state.pods.histogram(key, "zone") == {"z9": 1})

        kube.delete(f"/api/v1/namespaces/{namespace}/pods/bound", gracePeriodSeconds=0)
        await eventually("deletion", lambda: state.pods.total(key) == 0)

        control_plane.delete_nodes([names[1]])
        await eventually("node deletion", lambda: names[1] not in state.nodes)
        await eventually("periodic re-list", lambda: all(i.lists >= 2 for i in running[:2]), timeout=30)
        assert names[0] in state.nodes and state.pods.total(key) == 0
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await client.close()
        control_plane.delete_nodes(names)
        control_plane.force_delete_pods(namespace)
        control_plane.delete_namespace(namespace)


def signed_annotations(signer: Signer, document: IntentDocument, hint: str) -> dict[str, str]:
    analysis = Analysis("embedded", "e2e", "v1", hint_sha256(sanitise(hint).text))
    return {HINT: hint, **build_annotations(document, analysis, signer)}


def test_scorer_steers_the_real_scheduler(control_plane: Any) -> None:
    tag = uuid.uuid4().hex[:6]
    names = control_plane.create_nodes([NodeSpec(f"ext-{tag}-{i}", labels={"topology.kubernetes.io/zone": f"z{i}"})
                                        for i in range(4)])
    namespace = f"ext-{tag}"
    control_plane.create_namespace(namespace)
    signer = Signer.from_file(control_plane.service_certs() / certs.SIGNING_KEY)
    control_plane.start_scorer()
    kube = control_plane.kube
    try:
        target = names[2]
        wish = IntentDocument(intents=(Intent("prefer_nodes", 0.9, 1.5, metadata={"prefer_nodes": (target,)}),))
        hint = f"must run on {target}"
        kube.create(f"/api/v1/namespaces/{namespace}/pods",
                    bare_pod("steered", annotations=signed_annotations(signer, wish, hint), app="steered"))
        assert wait_bound(kube, namespace, "app=steered", 1) == {"steered": target}

        # 20 pods of one workload in one burst: kube-scheduler scores them back to back
        together = IntentDocument(intents=(Intent("prefer_colocate_same_deployment", 0.9, 1.0),))
        annotations = signed_annotations(signer, together, "collocate all pods on a single node")
        for i in range(20):
            kube.create(f"/api/v1/namespaces/{namespace}/pods", bare_pod(f"burst-{i}", annotations=annotations,
                                                                         app="burst"))
        placed = wait_bound(kube, namespace, "app=burst", 20)
        assert len(set(placed.values())) == 1, placed
    finally:
        control_plane.stop_service("scorer")
        control_plane.force_delete_pods(namespace)
        control_plane.delete_nodes(names)
        control_plane.delete_namespace(namespace)
