"""The extender over HTTP with ExtenderArgs shaped exactly as kube-scheduler sends them.

kube-scheduler marshals ``extenderv1.ExtenderArgs`` (no json tags: PascalCase keys) holding the real
v1.Pod and, without nodeCacheCapable, the real v1.NodeList; with nodeCacheCapable ``Nodes`` is null
and ``NodeNames`` lists the names. The pod and node list are captured from a real kube-apiserver
(tests/fixtures/extender/capture.py).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

from scorer.app import make_app
from scorer.metrics import ScorerMetrics
from scorer.scoring import Mode
from scorer.settings import Settings
from scorer.state import ClusterState
from shared.codec import HINT, INTENTS, Analysis, build_annotations
from shared.intents import Intent, IntentDocument
from shared.sanitise import hint_sha256, sanitise
from shared.signing import Signer, generate_private_key_pem
from tests.scorer.builders import Clock

FIXTURES = Path(__file__).parents[1] / "fixtures" / "extender"
NODE_LIST = orjson.loads((FIXTURES / "nodelist.json").read_bytes())
NRT_LIST = orjson.loads((FIXTURES / "nrtlist.json").read_bytes())
POD = orjson.loads((FIXTURES / "pod.json").read_bytes())
NAMES = [n["metadata"]["name"] for n in NODE_LIST["items"]]
SIGNER = Signer(generate_private_key_pem())


def document(*intents: Intent) -> IntentDocument:
    return IntentDocument(intents=tuple(sorted(intents, key=lambda i: i.name)))


NETWORK = document(Intent("prefer_network_speed", 0.95, 1.5, metadata={"prefer_network_speed_gbps": 100.0}))
COLOCATE = document(Intent("prefer_colocate_same_deployment", 0.9, 1.0))
SPREAD = document(Intent("spread_nodes", 0.9, 1.0))


def signed_pod(doc: IntentDocument, name: str = "web-7d6cc5bc8b-rzq8d", hint: str = "a hint",
               max_chars: int = 1000) -> dict[str, Any]:
    """The real fixture pod with the annotations the webhook (SEMAFF_HINT_MAX_CHARS=max_chars) would have written."""
    pod = copy.deepcopy(POD)
    pod["metadata"]["name"] = name
    pod["metadata"]["uid"] = f"uid-{name}"
    analysis = Analysis("embedded", "test", "v1", hint_sha256(sanitise(hint, max_chars).text))
    pod["metadata"]["annotations"] = {HINT: hint, **build_annotations(doc, analysis, SIGNER)}
    return pod


def cache_args(pod: dict[str, Any], names: list[str] = NAMES) -> bytes:
    """nodeCacheCapable: true."""
    return orjson.dumps({"Pod": pod, "Nodes": None, "NodeNames": names})


def full_args(pod: dict[str, Any]) -> bytes:
    """nodeCacheCapable: false: the whole v1.NodeList (kind and apiVersion set, as the scheduler sends it)."""
    node_list = {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": NODE_LIST["items"]}
    return orjson.dumps({"Pod": pod, "Nodes": node_list, "NodeNames": None})


def cached_state(clock: Clock | None = None) -> ClusterState:
    state = ClusterState(clock=clock or Clock())
    state.replace_nrts(NRT_LIST["items"])
    state.replace_nodes(NODE_LIST["items"])
    state.replace_pods([])
    return state


async def client_for(state: ClusterState, **overrides: Any) -> TestClient:
    settings = Settings(verify_key_files=(), **overrides)
    app = make_app(settings, state=state, verifier=SIGNER.verifier(), metrics=ScorerMetrics(), kube=False)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.fixture
async def client() -> AsyncIterator[TestClient]:
    c = await client_for(cached_state())
    yield c
    await c.close()


async def prioritize(client: TestClient, body: bytes) -> list[dict[str, Any]]:
    response = await client.post("/prioritize", data=body, headers={"Content-Type": "application/json"})
    assert response.status == 200, await response.text()
    assert response.content_type == "application/json"
    return orjson.loads(await response.read())


def as_scores(priorities: list[dict[str, Any]]) -> dict[str, int]:
    for entry in priorities:
        assert set(entry) == {"Host", "Score"} and isinstance(entry["Score"], int)
    return {entry["Host"]: entry["Score"] for entry in priorities}


async def test_node_cache_capable_mode(client: TestClient) -> None:
    priorities = await prioritize(client, cache_args(signed_pod(NETWORK)))
    assert isinstance(priorities, list)  # a bare JSON array
    assert [p["Host"] for p in priorities] == NAMES  # request order
    assert as_scores(priorities) == {n: 10 if n == "m07" else 1 for n in NAMES}


async def test_full_node_list_mode_needs_no_cache() -> None:
    empty = ClusterState()
    client = await client_for(empty)
    try:
        first = as_scores(await prioritize(client, full_args(signed_pod(NETWORK))))
        again = as_scores(await prioritize(client, full_args(signed_pod(NETWORK, name="web-2"))))
    finally:
        await client.close()
    assert first == again == {n: 10 if n == "m07" else 1 for n in NAMES}


async def test_only_the_sent_nodes_are_scored(client: TestClient) -> None:
    scores = as_scores(await prioritize(client, cache_args(signed_pod(NETWORK), ["m07", "m03"])))
    assert scores == {"m07": 10, "m03": 1}
    # neither has 100 Gbps: every S_raw is 0, so the answer is neutral
    scores = as_scores(await prioritize(client, cache_args(signed_pod(NETWORK), ["m06", "m03"])))
    assert scores == {"m06": 0, "m03": 0}


@pytest.mark.parametrize("mode", list(Mode))
async def test_avoid_only_pod(mode: Mode) -> None:
    """"keep off rack-1" alone: tiered scores rack-1 (m02, m03) lowest; additive stays neutral (the paper)."""
    avoid = document(Intent("avoid_racks", 0.9, 1.0, metadata={"avoid_racks": ("rack-1",)}))
    client = await client_for(cached_state(), scoring_mode=mode)
    try:
        scores = as_scores(await prioritize(client, cache_args(signed_pod(avoid))))
    finally:
        await client.close()
    if mode is Mode.ADDITIVE:
        assert set(scores.values()) == {0}
    else:
        assert scores == {n: 1 if n in ("m02", "m03") else 10 if n == "m04" else 9 for n in NAMES}


async def test_unknown_nodes_are_neutral_and_counted(client: TestClient) -> None:
    scores = as_scores(await prioritize(client, cache_args(signed_pod(NETWORK), ["m07", "ghost"])))
    assert scores == {"m07": 10, "ghost": 1}
    metrics = await (await client.get("/metrics")).text()
    assert "semaff_scorer_unknown_nodes_total 1.0" in metrics
    assert 'semaff_scorer_unknown_facts_total{intent="prefer_network_speed"} 1.0' in metrics


@pytest.mark.parametrize(("mutate", "reason"), [
    (lambda a: a.pop("semantic-affinity.io/signature"), "unsigned"),
    (lambda a: a.update({INTENTS: a[INTENTS].replace("0.95", "0.99")}), "bad-signature"),
    (lambda a: a.update({HINT: "something else entirely"}), "bad-signature"),
    (lambda a: a.update({INTENTS: "[[["}), "undecodable"),
    (lambda a: a.clear(), "no-intents"),
])
async def test_untrusted_intents_score_neutral(client: TestClient, mutate: Any, reason: str) -> None:
    pod = signed_pod(NETWORK)
    mutate(pod["metadata"]["annotations"])
    scores = as_scores(await prioritize(client, cache_args(pod)))
    assert set(scores.values()) == {0}
    metrics = await (await client.get("/metrics")).text()
    assert f'semaff_scorer_neutral_fallbacks_total{{reason="{reason}"}} 1.0' in metrics


@pytest.mark.parametrize(("scorer_cap", "trusted"), [(2000, True), (1000, False)])
async def test_hint_cap_comes_from_settings(scorer_cap: int, trusted: bool) -> None:
    """A webhook with SEMAFF_HINT_MAX_CHARS=2000 signs a 1,500-character hint whole: only a scorer set to the
    same cap verifies it."""
    hint = " ".join(["at least 100 Gbps network please"] * 47)[:1500]
    client = await client_for(cached_state(), hint_max_chars=scorer_cap)
    try:
        scores = as_scores(await prioritize(client, cache_args(signed_pod(NETWORK, hint=hint, max_chars=2000))))
        metrics = await (await client.get("/metrics")).text()
    finally:
        await client.close()
    if trusted:
        assert scores == {n: 10 if n == "m07" else 1 for n in NAMES}
    else:
        assert set(scores.values()) == {0}
        assert 'semaff_scorer_neutral_fallbacks_total{reason="bad-signature"} 1.0' in metrics


@pytest.mark.parametrize(("body", "message"), [
    (b"not json", "not JSON"),
    (b"[]", "JSON object"),
    (orjson.dumps({"pod": POD, "nodeNames": ["m02"]}), "PascalCase"),
    (orjson.dumps({"Pod": POD, "Nodes": None, "NodeNames": None}), "neither NodeNames nor Nodes"),
    (orjson.dumps({"Pod": POD, "NodeNames": "m02"}), "list of node names"),
    (orjson.dumps({"Pod": POD, "NodeNames": ["m02", 3]}), "list of node names"),
    (orjson.dumps({"Pod": POD, "NodeNames": ["m02", None]}), "list of node names"),
    (orjson.dumps({"Pod": POD, "Nodes": {"items": "x"}}), "NodeList"),
    (orjson.dumps({"Pod": POD, "Nodes": {"items": [{"metadata": []}]}}), "metadata.name"),
])
async def test_malformed_args_are_400(client: TestClient, body: bytes, message: str) -> None:
    response = await client.post("/prioritize", data=body)
    assert response.status == 400
    assert message in await response.text()


async def test_filter_only_when_enabled(client: TestClient) -> None:
    assert (await client.post("/filter", data=cache_args(signed_pod(NETWORK)))).status in (404, 405)
    enabled = await client_for(cached_state(), filter_enabled=True)
    try:
        cache = orjson.loads(await (await enabled.post("/filter", data=cache_args(signed_pod(NETWORK)))).read())
        full = orjson.loads(await (await enabled.post("/filter", data=full_args(signed_pod(NETWORK)))).read())
    finally:
        await enabled.close()
    assert cache == {"Nodes": None, "NodeNames": NAMES, "FailedNodes": {}, "FailedAndUnresolvableNodes": {},
                     "Error": ""}
    assert [n["metadata"]["name"] for n in full["Nodes"]["items"]] == NAMES and full["NodeNames"] is None


async def test_explain_endpoint(client: TestClient) -> None:
    assert (await client.get("/explain?pod=capture/web-1")).status == 404
    assert (await client.get("/explain?pod=nonsense")).status == 400
    await prioritize(client, cache_args(signed_pod(NETWORK, name="web-1")))
    body = orjson.loads(await (await client.get("/explain?pod=capture/web-1")).read())
    assert body["pod"] == "capture/web-1" and body["mode"] == "tiered" and body["neutral"] is None
    assert body["intents"] == NETWORK.to_dict()
    best = body["ranking"][0]
    assert best == {"node": "m07", "score": 10, "raw": pytest.approx(142.5),
                    "contributions": {"prefer_network_speed": pytest.approx(142.5)}}
    assert [row["score"] for row in body["ranking"][1:]] == [1] * 7


async def test_probes(client: TestClient) -> None:
    assert (await client.get("/healthz")).status == 200
    assert (await client.get("/readyz")).status == 200
    await prioritize(client, cache_args(signed_pod(NETWORK)))
    metrics = await (await client.get("/metrics")).text()
    for name in ("semaff_scorer_prioritize_seconds_bucket", "semaff_scorer_prioritize_nodes_sum 8.0",
                 'semaff_scorer_cache_sync_age_seconds{resource="nodes"}',
                 'semaff_scorer_cache_sync_age_seconds{resource="noderesourcetopologies"}',
                 "semaff_scorer_live_metrics_staleness_seconds -1.0", "semaff_scorer_ledger_predictions 1.0"):
        assert name in metrics, name


async def test_not_ready_before_the_first_sync() -> None:
    settings = Settings()
    app = make_app(settings, state=ClusterState(), verifier=SIGNER.verifier(), kube=True)
    app.cleanup_ctx.clear()  # no informers here: only the probe
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        response = await client.get("/readyz")
        assert response.status == 503 and "nodes, pods" in (await response.json())["reason"]
    finally:
        await client.close()


# --- bursts: 20 pods of one workload before any binding is visible --------------------------------


async def burst(client: TestClient, doc: IntentDocument, count: int = 20) -> list[str]:
    chosen = []
    for i in range(count):
        scores = as_scores(await prioritize(client, cache_args(signed_pod(doc, name=f"web-{i}"))))
        top = [name for name, score in scores.items() if score == 10]
        assert len(top) == 1
        chosen.append(top[0])
    return chosen


async def test_burst_colocate_keeps_one_node(client: TestClient) -> None:
    chosen = await burst(client, COLOCATE)
    assert set(chosen) == {"m02"}  # the first pod's tie-break anchor; the ledger makes the rest follow


async def test_burst_spread_rotates(client: TestClient) -> None:
    chosen = await burst(client, SPREAD, 16)
    assert sorted(chosen[:8]) == NAMES and sorted(chosen[8:]) == NAMES  # every node once, then again


async def test_burst_spread_forgets_after_the_ttl() -> None:
    clock = Clock()
    client = await client_for(cached_state(clock), ledger_ttl_s=10.0)
    try:
        first = await burst(client, SPREAD, 3)
        clock.advance(11)  # nothing was confirmed by the API: the predictions lapse
        second = await burst(client, SPREAD, 3)
    finally:
        await client.close()
    assert first == second == ["m02", "m03", "m04"]


async def test_additive_mode_setting() -> None:
    client = await client_for(cached_state(), scoring_mode=Mode.ADDITIVE)
    try:
        await prioritize(client, cache_args(signed_pod(NETWORK, name="web-a")))
        body = orjson.loads(await (await client.get("/explain?pod=capture/web-a")).read())
    finally:
        await client.close()
    assert body["mode"] == "additive"


def test_encoding_matches_orjson() -> None:
    from scorer.handler import encode_priorities

    names = ["m02", 'we"ird\\name', "ünï", "m03"]
    scores = [10, 0, 3, 12]
    assert encode_priorities(names, scores) == orjson.dumps([{"Host": n, "Score": s}
                                                             for n, s in zip(names, scores, strict=True)])


async def test_odd_objects_never_cost_a_5xx(client: TestClient) -> None:
    """Values of the wrong type deep inside the pod or nodes: neutral scores, status 200."""
    pod = signed_pod(NETWORK)
    pod["spec"]["containers"] = [{"resources": {"requests": {"cpu": ["not", "a", "quantity"]}}}]
    pod["metadata"]["labels"] = "not a map"
    nodes = {"items": [{"metadata": {"name": "m02", "labels": ["x"]}, "status": "weird"},
                       {"metadata": {"name": "m03"}}]}
    response = await client.post("/prioritize", data=orjson.dumps({"Pod": pod, "Nodes": nodes, "NodeNames": None}))
    assert response.status == 200
    assert {e["Host"] for e in orjson.loads(await response.read())} == {"m02", "m03"}
