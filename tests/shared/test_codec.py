"""The annotation codec (ARCHITECTURE.md 2.1): keys, build/parse, caps, and why a pod's intents are refused."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from shared import codec
from shared.codec import (
    ANALYSIS,
    HINT,
    INTENTS,
    LEGACY_HINT,
    MAX_ERROR_CHARS,
    MAX_INTENTS_BYTES,
    MAX_OBJECT_ANNOTATION_BYTES,
    MAX_OUTPUT_BYTES,
    SIGNATURE,
    STATUS,
    SUMMARY,
    Analysis,
    AnnotationTooLarge,
    IntentRejected,
    Status,
    build_annotations,
    decode_document,
    encode_document,
    failed_annotations,
    read_hint,
    read_intents,
)
from shared.intents import EMPTY_DOCUMENT, IntentDocument
from shared.normalise import normalise
from shared.sanitise import sanitise
from shared.signing import Signer, Verifier

HINT_TEXT = "critical ML training job, it must run on nodes with GPUs"


def analysis_for(hint: str, **changes: Any) -> Analysis:
    fields: dict[str, Any] = {
        "analyser": "embedded", "model": "rules", "prompt_version": "v1",
        "hint_sha256": sanitise(hint).sha256, "latency_ms": 12.3, "cached": False,
    }
    return Analysis(**{**fields, **changes})


def pod_from_the_wire(annotations: dict[str, str]) -> dict[str, Any]:
    """A pod as the API server returns it: the annotations went through JSON and back."""
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "train-0", "namespace": "ml", "annotations": annotations},
           "spec": {"containers": [{"name": "main", "image": "registry.example/train:1"}]}}
    return orjson.loads(orjson.dumps(pod))


@pytest.fixture
def annotated(signer: Signer, gpu_document: IntentDocument) -> dict[str, str]:
    """A pod's full annotation set: the user's hint plus everything the webhook writes."""
    return {HINT: HINT_TEXT, **build_annotations(gpu_document, analysis_for(HINT_TEXT), signer)}


# --- keys -------------------------------------------------------------------------------------------------


def test_annotation_keys_are_the_contract_ones() -> None:
    assert (codec.HINT, codec.LEGACY_HINT) == ("semantic-affinity.io/hint", "allocation_hint")
    assert codec.OUTPUT_KEYS == (
        "semantic-affinity.io/intents", "semantic-affinity.io/signature", "semantic-affinity.io/status",
        "semantic-affinity.io/analysis", "semantic-affinity.io/summary",
    )
    assert codec.SCHEDULING_GATE == "semantic-affinity.io/intent-analysis"
    assert {s.value for s in Status} == {"pending", "analyzed", "no-intent", "failed"}
    for key in (*codec.OUTPUT_KEYS, codec.HINT, codec.SCHEDULING_GATE):
        prefix, name = key.split("/")
        assert len(prefix) <= 253 and 0 < len(name) <= 63  # Kubernetes qualified-name limits


# --- build --------------------------------------------------------------------------------------------------


def test_build_writes_every_output_key(annotated: dict[str, str], signer: Signer, gpu_document) -> None:
    assert set(annotated) == {HINT, *codec.OUTPUT_KEYS}
    assert annotated[INTENTS] == gpu_document.canonical_bytes().decode()
    assert annotated[SIGNATURE].startswith(f"ed25519:{signer.key_id}:")
    assert annotated[STATUS] == "analyzed"
    assert annotated[SUMMARY] == (
        "prefer_gpu ≥1 GPU (0.95, strong); prefer_zones [us-east-1a, us-east-1b] (0.80, weak); spread_zones (0.90)"
    )
    assert orjson.loads(annotated[ANALYSIS]) == {
        "analyser": "embedded", "model": "rules", "prompt_version": "v1", "latency_ms": 12.3, "cached": False,
        "hint_sha256": sanitise(HINT_TEXT).sha256, "error": None,
    }
    assert all(isinstance(v, str) for v in annotated.values())


def test_an_empty_document_is_status_no_intent(signer: Signer, verifier: Verifier) -> None:
    hint = "hello world"
    annotations = build_annotations(EMPTY_DOCUMENT, analysis_for(hint), signer)
    assert annotations[STATUS] == "no-intent"
    assert annotations[INTENTS] == '{"conflicts":[],"intents":[],"version":1}'
    assert annotations[SUMMARY] == "no placement intent"
    assert read_intents({HINT: hint, **annotations}, verifier) == EMPTY_DOCUMENT


def test_analysis_round_trips() -> None:
    analysis = analysis_for(HINT_TEXT, cached=True, error="timeout after 10 s")
    assert Analysis.from_json(analysis.to_json()) == analysis


def test_failed_annotations_carry_no_intents() -> None:
    annotations = failed_annotations(analysis_for(HINT_TEXT, error="bedrock: throttled"))
    assert set(annotations) == {STATUS, ANALYSIS, SUMMARY}
    assert annotations[STATUS] == "failed"
    assert annotations[SUMMARY] == "analysis failed: bedrock: throttled"
    assert Analysis.from_json(annotations[ANALYSIS]).error == "bedrock: throttled"


def test_failed_annotations_cut_a_huge_error() -> None:
    annotations = failed_annotations(analysis_for(HINT_TEXT, error="E" * 100_000))
    error = Analysis.from_json(annotations[ANALYSIS]).error
    assert error is not None and len(error) == MAX_ERROR_CHARS and error.endswith("…")
    assert sum(len(k) + len(v.encode()) for k, v in annotations.items()) < MAX_OUTPUT_BYTES


# --- size caps ---------------------------------------------------------------------------------------------


def big_document(items: int, width: int) -> IntentDocument:
    names = [f"node-{i:03d}-" + "x" * width for i in range(items)]
    return normalise({"intents": [{"intent": "prefer_nodes", "metadata": {"prefer_nodes": names}}]}).document


def test_document_over_the_cap_raises_a_clear_error(signer: Signer) -> None:
    document = big_document(64, 200)
    size = len(document.canonical_bytes())
    assert size > MAX_INTENTS_BYTES
    with pytest.raises(AnnotationTooLarge, match=f"intent document is {size} bytes, cap is {MAX_INTENTS_BYTES}"):
        encode_document(document)
    with pytest.raises(AnnotationTooLarge):
        build_annotations(document, analysis_for(HINT_TEXT), signer)


def test_document_just_under_the_cap_is_written(signer: Signer, verifier: Verifier) -> None:
    document = big_document(30, 200)
    assert len(document.canonical_bytes()) <= MAX_INTENTS_BYTES
    annotations = build_annotations(document, analysis_for(HINT_TEXT), signer)
    assert read_intents({HINT: HINT_TEXT, **annotations}, verifier) == document


def test_all_output_annotations_together_are_capped(signer: Signer, gpu_document: IntentDocument) -> None:
    analysis = analysis_for(HINT_TEXT, model="m" * MAX_OUTPUT_BYTES)
    with pytest.raises(AnnotationTooLarge, match=f"output annotations are [0-9]+ bytes, cap is {MAX_OUTPUT_BYTES}"):
        build_annotations(gpu_document, analysis, signer)
    assert MAX_INTENTS_BYTES < MAX_OUTPUT_BYTES < MAX_OBJECT_ANNOTATION_BYTES


# --- read_hint ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotations", "expected"),
    [
        ({HINT: "spread", LEGACY_HINT: "colocate"}, "spread"),  # the preferred key wins
        ({LEGACY_HINT: "colocate"}, "colocate"),
        ({HINT: "spread"}, "spread"),
        ({HINT: "   ", LEGACY_HINT: "colocate"}, "colocate"),  # a blank preferred key is no hint
        ({HINT: "", LEGACY_HINT: " \n"}, None),
        ({"other": "x"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_read_hint_precedence(annotations: dict[str, str] | None, expected: str | None) -> None:
    assert read_hint(annotations) == expected


# --- read_intents -------------------------------------------------------------------------------------------


def test_read_intents_round_trip_through_the_wire(annotated: dict[str, str], verifier, gpu_document) -> None:
    pod = pod_from_the_wire(annotated)
    assert read_intents(pod["metadata"]["annotations"], verifier) == gpu_document


def test_legacy_hint_key_verifies_too(signer: Signer, verifier: Verifier, gpu_document: IntentDocument) -> None:
    annotations = {LEGACY_HINT: HINT_TEXT, **build_annotations(gpu_document, analysis_for(HINT_TEXT), signer)}
    assert read_intents(annotations, verifier) == gpu_document


def test_hint_is_bound_through_its_sanitised_form(annotated: dict[str, str], verifier, gpu_document) -> None:
    """The signature covers sha256(sanitise(hint)): invisible characters do not change the hint's identity."""
    assert read_intents({**annotated, HINT: "\u200b" + HINT_TEXT + "  \n"}, verifier) == gpu_document


def test_hint_length_setting_must_match_the_signer(signer: Signer, verifier: Verifier, gpu_document) -> None:
    hint = "gpu " * 400  # 1,600 characters: cut at the default 1,000
    annotations = {HINT: hint, **build_annotations(gpu_document, analysis_for(hint), signer)}
    assert read_intents(annotations, verifier) == gpu_document
    with pytest.raises(IntentRejected) as caught:
        read_intents(annotations, verifier, max_hint_chars=2000)
    assert caught.value.reason == "bad-signature"


def _reason(annotations: dict[str, str] | None, verifier: Verifier) -> str:
    with pytest.raises(IntentRejected) as caught:
        read_intents(annotations, verifier)
    return caught.value.reason


def _reversed_keys(text: str) -> str:
    """The same JSON value with its top-level keys in reverse order (still compact)."""
    data = orjson.loads(text)
    return orjson.dumps(dict(reversed(list(data.items())))).decode()


REJECTIONS = [
    # (reason, how to spoil a good annotation set)
    ("no-intents", lambda a, s, o: None),
    ("no-intents", lambda a, s, o: {HINT: HINT_TEXT}),
    ("no-intents", lambda a, s, o: {**a, INTENTS: ""}),
    ("unsigned", lambda a, s, o: {k: v for k, v in a.items() if k != SIGNATURE}),
    ("unsigned", lambda a, s, o: {**a, SIGNATURE: ""}),
    ("no-hint", lambda a, s, o: {k: v for k, v in a.items() if k != HINT}),
    ("no-hint", lambda a, s, o: {**a, HINT: "  "}),
    ("undecodable", lambda a, s, o: {**a, INTENTS: a[INTENTS][:-1]}),
    ("undecodable", lambda a, s, o: {**a, INTENTS: "not json"}),
    ("invalid", lambda a, s, o: {**a, INTENTS: '{"conflicts":[],"intents":[],"version":2}'}),
    ("invalid", lambda a, s, o: {**a, INTENTS: a[INTENTS].replace('"strength":1.5', '"strength":3.0')}),
    ("invalid", lambda a, s, o: {**a, INTENTS: "[]"}),
    ("non-canonical", lambda a, s, o: {**a, INTENTS: a[INTENTS].replace(",", ", ")}),
    ("non-canonical", lambda a, s, o: {**a, INTENTS: a[INTENTS].replace('_cores":1.0', '_cores":1')}),  # int
    ("non-canonical", lambda a, s, o: {**a, INTENTS: _reversed_keys(a[INTENTS])}),
    ("non-canonical", lambda a, s, o: {**a, INTENTS: a[INTENTS] + "\n"}),
    ("too-large", lambda a, s, o: {**a, INTENTS: " " * (MAX_INTENTS_BYTES + 1)}),
    ("unknown-key", lambda a, s, o: {**a, SIGNATURE: Signer(o).sign(sanitise(HINT_TEXT).sha256, _doc(a))}),
    ("bad-signature", lambda a, s, o: {**a, HINT: "spread these pods across zones"}),
    ("bad-signature", lambda a, s, o: {**a, INTENTS: '{"conflicts":[],"intents":[],"version":1}'}),
    ("bad-signature", lambda a, s, o: {**a, SIGNATURE: s.sign(sanitise("another hint").sha256, _doc(a))}),
    ("malformed-signature", lambda a, s, o: {**a, SIGNATURE: "hmac:abc:def"}),
    ("malformed-signature", lambda a, s, o: {**a, SIGNATURE: a[SIGNATURE] + "*"}),
    ("malformed-signature", lambda a, s, o: {**a, SIGNATURE: a[SIGNATURE].replace("ed25519:", "")}),
]


def _doc(annotations: dict[str, str]) -> IntentDocument:
    return decode_document(annotations[INTENTS])


@pytest.mark.parametrize(("reason", "spoil"), REJECTIONS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(REJECTIONS)])
def test_read_intents_rejections(
    reason: str, spoil, annotated: dict[str, str], signer: Signer, verifier: Verifier, other_private_pem: bytes
) -> None:
    assert read_intents(annotated, verifier)  # the unspoilt set is accepted
    spoilt = spoil(dict(annotated), signer, other_private_pem)
    assert _reason(spoilt, verifier) == reason


def test_decode_document_accepts_exactly_the_canonical_bytes(gpu_document: IntentDocument) -> None:
    text = gpu_document.canonical_bytes().decode()
    assert decode_document(text) == gpu_document
    assert encode_document(decode_document(text)) == text


def test_non_ascii_survives_the_round_trip(signer: Signer, verifier: Verifier) -> None:
    hint = "bitte nur in der Zone „eu-zentral-1ä“ ausführen"
    document = normalise({"intents": [{"intent": "prefer_zones", "explanation": "„nur“",
                                       "metadata": {"prefer_zones": ["eu-zentral-1ä"]}}]}).document
    annotations = {HINT: hint, **build_annotations(document, analysis_for(hint), signer)}
    assert "ä" in annotations[INTENTS]  # raw UTF-8, not \u escapes: that is the canonical form
    assert read_intents(pod_from_the_wire(annotations)["metadata"]["annotations"], verifier) == document
