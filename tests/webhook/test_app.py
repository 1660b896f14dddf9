"""The aiohttp app over HTTP: /mutate end to end with the controller on the in-memory apiserver
substitute, probes, metrics, the catch-all."""

from __future__ import annotations

import base64
import copy
from typing import Any

import jsonpatch
import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

from shared.codec import HINT, SCHEDULING_GATE, STATUS, read_intents
from webhook.app import STATE, make_app
from webhook.settings import Settings

from .conftest import GPU_HINT, FakeAnalyser, fixture
from .fakes import FakeKube
from .test_controller import eventually


async def client_for(signer, analyser, kube: FakeKube | None = None, **overrides: Any) -> TestClient:
    settings = Settings(**{"leader_election": False, "watch_workloads": False, "seed_cache": False,
                           "controller_enabled": kube is not None, **overrides})

    async def factory(_: Settings) -> FakeKube:
        assert kube is not None
        return kube

    app = make_app(settings, analyser=analyser, signer=signer, kube_factory=factory, identity="test-replica")
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


def pod_after(review_: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
    pod = copy.deepcopy(review_["request"]["object"])
    if "patch" in reply["response"]:
        pod = jsonpatch.apply_patch(pod, orjson.loads(base64.b64decode(reply["response"]["patch"])))
    return pod


async def test_miss_then_controller_then_hit(signer, analyser) -> None:
    kube = FakeKube()
    client = await client_for(signer, analyser, kube)
    try:
        state = client.app[STATE]
        await eventually(lambda: state.controller is not None and state.controller.synced, "controller synced")
        assert (await client.get("/readyz")).status == 200
        review_ = fixture("create-generatename.json")
        response = await client.post("/mutate", data=orjson.dumps(review_))
        assert response.status == 200
        pod = pod_after(review_, await response.json())
        assert pod["spec"]["schedulingGates"] == [{"name": SCHEDULING_GATE}]
        # the apiserver names and stores the pod; the controller's watch picks it up
        pod["metadata"]["name"] = "trainer-6d8f7c9b5-abcde"
        kube.add_pod(pod)
        await eventually(lambda: not kube.pods[("ml", "trainer-6d8f7c9b5-abcde")]["spec"]["schedulingGates"],
                         "pod ungated")
        assert analyser.calls == [GPU_HINT]  # the admission miss's prefetch and the pod shared one analysis
        # the next replica of the workload is a cache hit: no gate at all
        reply = await (await client.post("/mutate", data=orjson.dumps(review_))).json()
        second = pod_after(review_, reply)
        assert "schedulingGates" not in second["spec"]
        assert read_intents(second["metadata"]["annotations"], signer.verifier()).names == ("prefer_gpu",)
        metrics = await (await client.get("/metrics")).text()
        assert 'semaff_admission_decisions_total{outcome="hit"} 1.0' in metrics
        assert 'semaff_admission_decisions_total{outcome="miss"} 1.0' in metrics
        assert "semaff_creation_to_ungate_seconds_count" in metrics
    finally:
        await client.close()


async def test_dry_run_starts_no_analysis(signer) -> None:
    kube = FakeKube()
    analyser = FakeAnalyser()
    client = await client_for(signer, analyser, kube)
    try:
        state = client.app[STATE]
        await eventually(lambda: state.controller is not None and state.controller.synced, "controller synced")
        review_ = fixture("create-dry-run.json")
        reply = await (await client.post("/mutate", data=orjson.dumps(review_))).json()
        assert pod_after(review_, reply)["metadata"]["annotations"][STATUS] == "pending"
        await eventually(lambda: True, "a turn of the loop")
        assert analyser.calls == [] and len(state.cache) == 0
    finally:
        await client.close()


async def test_bad_requests_and_the_catch_all(signer, analyser) -> None:
    client = await client_for(signer, analyser)
    try:
        assert (await client.post("/mutate", data=b"garbage")).status == 400
        assert (await client.post("/mutate", data=orjson.dumps(fixture("not-admission-review.json")))).status == 400

        def broken(_key: Any) -> None:
            raise RuntimeError("cache bug")

        client.app[STATE].cache.get = broken  # type: ignore[method-assign]
        review_ = fixture("create-generatename.json")
        response = await client.post("/mutate", data=orjson.dumps(review_))
        assert response.status == 200
        reply = await response.json()
        assert reply["response"] == {"uid": review_["request"]["uid"], "allowed": True,
                                     "warnings": ["semantic-affinity: internal error; pod admitted without intents"]}
        assert reply["apiVersion"] == "admission.k8s.io/v1" and reply["kind"] == "AdmissionReview"
        metrics = await (await client.get("/metrics")).text()
        assert 'semaff_admission_decisions_total{outcome="error"} 1.0' in metrics
        assert 'semaff_admission_decisions_total{outcome="bad-request"} 2.0' in metrics
        assert (await client.get("/healthz")).status == 200
    finally:
        await client.close()


@pytest.mark.parametrize("with_key", [False, True])
async def test_readiness_needs_the_key_and_a_synced_watch(signer, analyser, with_key: bool) -> None:
    kube = FakeKube()
    client = await client_for(signer if with_key else None, analyser, kube)
    try:
        response = await client.get("/readyz")
        body = await response.json()
        if not with_key:
            assert response.status == 503 and body["reason"] == "signing key not loaded"
        else:
            state = client.app[STATE]
            await eventually(lambda: state.controller.synced, "synced")
            assert (await client.get("/readyz")).status == 200
    finally:
        await client.close()


async def test_standby_replica_serves_admission_and_is_ready(signer, analyser) -> None:
    kube = FakeKube()
    kube.leases[("default", "semantic-affinity-webhook")] = {
        "metadata": {"name": "semantic-affinity-webhook", "namespace": "default", "resourceVersion": "1"},
        "spec": {"holderIdentity": "someone-else", "leaseDurationSeconds": 3600,
                 "renewTime": "2099-01-01T00:00:00.000000Z"}}
    client = await client_for(signer, analyser, kube, leader_election=True)
    try:
        state = client.app[STATE]
        await eventually(lambda: state.elector is not None, "elector started")
        assert (await client.get("/readyz")).status == 200
        assert not state.elector.is_leader and not state.controller.running
        review_ = fixture("create-generatename.json")
        review_["request"]["object"]["metadata"]["annotations"] = {HINT: "spread over zones"}
        reply = await (await client.post("/mutate", data=orjson.dumps(review_))).json()
        assert pod_after(review_, reply)["metadata"]["annotations"][STATUS] == "pending"
        assert analyser.calls == []  # the leader, not a standby, analyses
    finally:
        await client.close()


async def test_a_local_analyser_is_warmed_up_at_start(signer) -> None:
    class WarmingAnalyser(FakeAnalyser):
        warmed = False

        async def warm_up(self) -> None:
            self.warmed = True

    analyser = WarmingAnalyser()
    client = await client_for(signer, analyser)
    try:
        await eventually(lambda: analyser.warmed, "analyser warmed up")
        assert analyser.calls == []  # loading the model is not an analysis
    finally:
        await client.close()
