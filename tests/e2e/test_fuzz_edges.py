"""Fuzzing both HTTP edges against the running servers (``python -m webhook`` / ``python -m scorer``).

Hypothesis builds bodies of the right shape with odd values (huge and empty strings, wrong types,
deep nesting, unknown and duplicated keys, any Unicode, lone surrogates, 1 MiB bodies) and plain
random bytes. Each answer must be the documented one, never a 5xx:

- webhook ``/mutate``: an AdmissionReview gets 200 with ``allowed: true``, the request's uid echoed,
  and a patch (if any) that applies to the object; anything else gets 400 with a JSON error;
- scorer ``/prioritize``: ExtenderArgs get 200 and one integer score 0..10 per node, in order, all
  equal (nothing here is signed, so every pod is neutral); anything else gets 400.

Neither process may hit its catch-all (``error`` / ``internal-error`` counters stay flat), and both
answer ``/healthz`` after every example. Counts and time are bounded (``EXAMPLES``, ``DEADLINE_S``).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import random
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certs import tool as certs
from localcluster import ControlPlane
from localcluster.metrics import scrape, total
from shared.codec import HINT, INTENTS, LEGACY_HINT, SCHEDULING_GATE, SIGNATURE, STATUS

pytestmark = pytest.mark.e2e

EXAMPLES = int(os.environ.get("SEMAFF_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False, database=None,
                suppress_health_check=list(HealthCheck))
MIB = 1024 * 1024
COUNTS: dict[str, int] = {}


@dataclass
class Edge:
    """One running server: a keep-alive connection, re-opened when the server closes it."""

    host: str
    port: int
    context: ssl.SSLContext | None
    conn: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.context is not None:
            return http.client.HTTPSConnection(self.host, self.port, timeout=30, context=self.context)
        return http.client.HTTPConnection(self.host, self.port, timeout=30)

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        for attempt in range(2):
            if self.conn is None:
                self.conn = self._connect()
            try:
                self.conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                response = self.conn.getresponse()
                return response.status, response.read()
            except (ConnectionError, http.client.HTTPException):
                # aiohttp closes the connection after an oversized or unreadable body; a second fails for real
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def healthy(self) -> bool:
        conn = self._connect()
        try:
            conn.request("GET", "/healthz")
            return conn.getresponse().status == 200
        finally:
            conn.close()


@pytest.fixture(scope="module")
def servers(control_plane: ControlPlane) -> Iterator[tuple[Edge, Edge, ControlPlane]]:
    control_plane.start_webhook(register=False)
    control_plane.start_scorer()
    context = ssl.create_default_context(cafile=str(control_plane.service_certs() / certs.CA_CERT))
    webhook = Edge("127.0.0.1", control_plane.ports.webhook, context)
    scorer = Edge("127.0.0.1", control_plane.ports.scorer, None)
    yield webhook, scorer, control_plane
    print(f"\nfuzz examples sent: {COUNTS}")
    control_plane.stop_service("webhook")
    control_plane.stop_service("scorer")


def catch_alls(plane: ControlPlane) -> tuple[float, float]:
    """How often each service answered from its catch-all (a bug it survived)."""
    context = ssl.create_default_context(cafile=str(plane.service_certs() / certs.CA_CERT))
    webhook = total(scrape(f"{plane.webhook_url}/metrics", context), "semaff_admission_decisions_total",
                    outcome="error")
    scorer = total(scrape(f"{plane.scorer_url}/metrics"), "semaff_scorer_neutral_fallbacks_total",
                   reason="internal-error")
    return webhook, scorer


# --- strategies: JSON values with odd contents ---------------------------------------------------

# Any code point, lone surrogates included (JSON spells them \udXXX; orjson must refuse or cope).
ODD_TEXT = st.one_of(
    st.text(st.characters(codec=None), max_size=40),
    st.sampled_from(["", " ", "\u200b", "\ufeff", "ü" * 3, "</hint>", "\x00", "\ud800", "🚀", "Ｇ", "\u202e"]),
    st.integers(0, 3).map(lambda k: "x" * (10 ** (k + 2))),  # 100 .. 100k characters
)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), ODD_TEXT)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(ODD_TEXT, inner, max_size=4)), max_leaves=12)


def odd(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly the valid value, sometimes any JSON value in its place."""
    return st.one_of(valid, valid, JSON_VALUES)


def deep(depth: int) -> Any:
    value: Any = "bottom"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


# Nesting far past any parser's limit, as raw text (json.dumps itself would recurse too deep).
NESTED = st.integers(900, 100_000).map(lambda n: b"[" * n + b"]" * n)
ANNOTATION_KEYS = st.sampled_from([HINT, LEGACY_HINT, INTENTS, SIGNATURE, STATUS, "semantic-affinity.io/x",
                                   "team", "a" * 300]) | ODD_TEXT
ANNOTATIONS = odd(st.dictionaries(ANNOTATION_KEYS, odd(ODD_TEXT), max_size=6))
POD = st.fixed_dictionaries(
    {"metadata": odd(st.fixed_dictionaries({"annotations": ANNOTATIONS},
                                           optional={"name": odd(ODD_TEXT), "generateName": odd(ODD_TEXT),
                                                     "namespace": odd(ODD_TEXT), "uid": odd(ODD_TEXT),
                                                     "labels": odd(st.dictionaries(ODD_TEXT, ODD_TEXT, max_size=3))})),
     "spec": odd(st.fixed_dictionaries(
         {"containers": odd(st.lists(st.fixed_dictionaries({"name": odd(ODD_TEXT)}), max_size=2))},
         optional={"schedulingGates": odd(st.lists(odd(st.fixed_dictionaries(
                       {"name": odd(st.sampled_from([SCHEDULING_GATE, "other.io/gate"]))})), max_size=3)),
                   "nodeName": odd(ODD_TEXT), "schedulerName": odd(ODD_TEXT)}))},
    optional={"apiVersion": odd(st.just("v1")), "kind": odd(st.just("Pod")), "status": JSON_VALUES,
              "deep": st.integers(1, 200).map(deep)},
)
REQUEST = st.fixed_dictionaries(
    {"uid": odd(st.uuids().map(str)),
     "kind": odd(st.fixed_dictionaries({"group": odd(st.just("")), "version": odd(st.just("v1")),
                                        "kind": odd(st.sampled_from(["Pod", "Deployment"]))})),
     "operation": odd(st.sampled_from(["CREATE", "UPDATE", "DELETE", "CONNECT"])),
     "object": odd(POD)},
    optional={"namespace": odd(ODD_TEXT), "dryRun": JSON_VALUES, "subResource": odd(st.just("status")),
              "oldObject": JSON_VALUES, "userInfo": JSON_VALUES, "unknown": JSON_VALUES},
)
REVIEW = st.fixed_dictionaries(
    {"apiVersion": st.sampled_from(["admission.k8s.io/v1", "admission.k8s.io/v1beta1"]),
     "kind": st.just("AdmissionReview"), "request": odd(REQUEST)},
    optional={"response": JSON_VALUES, "extra": JSON_VALUES},
)


@st.composite
def encoded(draw: st.DrawFn, documents: st.SearchStrategy[dict[str, Any]], keep: tuple[str, ...]) -> bytes:
    """A document as JSON text, sometimes with a duplicated key (not one of ``keep``) or padded to 1 MiB."""
    document = draw(documents)
    text = json.dumps(document)  # ensure_ascii: lone surrogates become \\udXXX escapes
    choice = draw(st.integers(0, 9))
    if choice == 0:  # a duplicated member: the same key twice in one object
        key = draw(st.sampled_from(["extra", "unknown", "x"]).filter(lambda k: k not in keep))
        text = text[:-1] + f', "{key}": 1, "{key}": {json.dumps(draw(JSON_VALUES))}' + "}"
    elif choice == 1:  # about 1 MiB of whitespace and an unknown key
        text = text[:-1] + ', "padding": "' + "p" * (MIB - len(text) - 20) + '"}'
    return text.encode()


# Bodies of no particular shape: random bytes, any JSON value (maybe with duplicated keys), deep nesting.
NOT_THIS_SHAPE = st.one_of(st.binary(max_size=2048), encoded(JSON_VALUES, keep=()), NESTED)


# --- expectations, stated independently of the code under test ---------------------------------

def strict_json(body: bytes) -> Any:
    """The body as RFC 8259 JSON that Go's encoding/json could have sent, or None.

    A lone surrogate escape is grammatical JSON but no valid Unicode text; the apiserver never sends
    one, and refusing such a body (400) is the documented answer.
    """
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        json.dumps(items, ensure_ascii=False).encode()  # every member, duplicated keys' earlier values too
        return dict(items)

    try:
        value = json.loads(body, object_pairs_hook=pairs)
        json.dumps(value, ensure_ascii=False).encode()
    except (ValueError, UnicodeError, RecursionError):
        return None
    return value


def expect_admission(status: int, body: bytes, review: dict[str, Any]) -> None:
    assert status == 200, (status, body[:300])
    reply = json.loads(body)
    response = reply["response"]
    assert reply["kind"] == "AdmissionReview" and reply["apiVersion"] == review["apiVersion"]
    assert response["allowed"] is True
    request = review.get("request")
    uid = request.get("uid") if isinstance(request, dict) else None
    assert response["uid"] == (uid if isinstance(uid, str) else "")
    if "patch" in response:
        assert response["patchType"] == "JSONPatch"
        ops = json.loads(base64.b64decode(response["patch"]))
        jsonpatch.apply_patch(request["object"], ops)  # raises if the apiserver could not apply it either


def names_of(args: Any) -> list[str] | None:
    """The node names an ExtenderArgs body asks about, None when it is not ExtenderArgs."""
    if not isinstance(args, dict) or not isinstance(args.get("Pod"), dict):
        return None
    names = args.get("NodeNames")
    if names is not None:
        return names if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
    nodes = args.get("Nodes")
    if not isinstance(nodes, dict):
        return None
    items = nodes.get("items")
    if items is None:  # Go decodes an absent or null items list as empty
        items = []
    if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("metadata"), dict) and isinstance(i["metadata"].get("name"), str)
            for i in items):
        return None
    return [i["metadata"]["name"] for i in items]


NODE = st.fixed_dictionaries(
    {"metadata": odd(st.fixed_dictionaries({"name": odd(st.sampled_from(["n1", "n2", "ü-node"]) | ODD_TEXT)},
                                           optional={"labels": JSON_VALUES, "resourceVersion": odd(ODD_TEXT)}))},
    optional={"status": odd(st.fixed_dictionaries({}, optional={"allocatable": JSON_VALUES,
                                                                "capacity": JSON_VALUES})),
              "spec": JSON_VALUES})
EXTENDER_ARGS = st.one_of(
    st.fixed_dictionaries({"Pod": odd(POD), "NodeNames": odd(st.lists(ODD_TEXT, max_size=30))},
                          optional={"Nodes": st.none(), "Extra": JSON_VALUES}),
    st.fixed_dictionaries({"Pod": odd(POD), "Nodes": odd(st.fixed_dictionaries(
        {"items": odd(st.lists(odd(NODE), max_size=8))}, optional={"kind": JSON_VALUES}))},
        optional={"NodeNames": st.none()}),
)


def expect_prioritize(status: int, body: bytes, args: Any) -> None:
    names = names_of(args)
    if names is None:
        assert status == 400, (status, body[:300])
        return
    assert status == 200, (status, body[:300])
    scores = json.loads(body)
    assert [s["Host"] for s in scores] == names
    assert all(isinstance(s["Score"], int) and 0 <= s["Score"] <= 10 for s in scores)
    assert len({s["Score"] for s in scores}) <= 1  # unsigned: neutral, the same score everywhere


def count(name: str) -> None:
    COUNTS[name] = COUNTS.get(name, 0) + 1


# --- the tests ------------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_mutate_answers_every_admission_review(servers, data: st.DataObject) -> None:
    webhook, _, _ = servers
    body = data.draw(encoded(REVIEW, keep=("apiVersion", "kind", "request")))
    status, reply = webhook.post("/mutate", body)
    count("mutate-review")
    review = strict_json(body)
    if review is None:
        assert status == 400, (status, reply[:300])
    else:
        expect_admission(status, reply, review)
    assert webhook.healthy()


@FUZZ
@given(body=NOT_THIS_SHAPE)
def test_mutate_refuses_what_is_not_an_admission_review(servers, body: bytes) -> None:
    webhook, _, _ = servers
    parsed = strict_json(body)
    if isinstance(parsed, dict) and parsed.get("kind") == "AdmissionReview":
        return  # an AdmissionReview by chance: the other test's business
    status, reply = webhook.post("/mutate", body)
    count("mutate-other")
    assert status == 400, (status, reply[:300])
    assert "error" in json.loads(reply)
    assert webhook.healthy()


@FUZZ
@given(data=st.data())
def test_prioritize_answers_every_extender_args(servers, data: st.DataObject) -> None:
    _, scorer, _ = servers
    body = data.draw(encoded(EXTENDER_ARGS, keep=("Pod", "Nodes", "NodeNames")))
    status, reply = scorer.post("/prioritize", body)
    count("prioritize-args")
    expect_prioritize(status, reply, strict_json(body))
    assert scorer.healthy()


@FUZZ
@given(body=NOT_THIS_SHAPE)
def test_prioritize_refuses_what_is_not_extender_args(servers, body: bytes) -> None:
    _, scorer, _ = servers
    parsed = strict_json(body)
    status, reply = scorer.post("/prioritize", body)
    count("prioritize-other")
    if names_of(parsed) is None:
        assert status == 400, (status, reply[:300])
    else:
        expect_prioritize(status, reply, parsed)
    assert scorer.healthy()


def test_random_bytes_in_bulk_then_no_catch_all_was_hit(servers) -> None:
    """Last in this module: a burst of random bodies (fixed seed, bounded), then the catch-all counters."""
    webhook, scorer, plane = servers
    rng = random.Random(20261201)
    deadline = time.monotonic() + 60
    sent = 0
    while sent < 2000 and time.monotonic() < deadline:
        body = rng.randbytes(rng.choice([0, 1, 17, 512, 65536]))
        for edge, path in ((webhook, "/mutate"), (scorer, "/prioritize")):
            status, _ = edge.post(path, body)
            assert status == 400, (path, status)
        sent += 1
    COUNTS["random-bytes"] = sent
    assert webhook.healthy() and scorer.healthy()
    errors = [line[-700:] for name in ("webhook", "scorer")
              for line in (plane.log_dir / f"{name}.log").read_text(errors="replace").splitlines()
              if '"level":"error"' in line]
    assert catch_alls(plane) == (0.0, 0.0), "a handler answered from its catch-all:\n" + "\n".join(errors[:5])
