"""Hypothesis properties of the foundation: normalise, codec, sanitise, signatures.

Raw analyser outputs are generated from the catalogue the way an LLM might write them (numbers as
strings with units, bare strings for lists, odd casing, duplicates, unknown intents and keys), so
every property runs over realistic and hostile input alike. Example counts stay modest (2 cores).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shared.catalogue import CATALOGUE, IntentSpec, MetaType
from shared.codec import (
    HINT,
    INTENTS,
    MAX_INTENTS_BYTES,
    SIGNATURE,
    Analysis,
    AnnotationTooLarge,
    IntentRejected,
    build_annotations,
    decode_document,
    encode_document,
    read_intents,
)
from shared.intents import IntentDocument
from shared.normalise import normalise
from shared.sanitise import sanitise
from shared.schemas import CANONICAL_VALIDATOR, schema_errors
from shared.signing import Signer, Verifier

# No deadline: a property must never fail because the machine is busy.
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies --------------------------------------------------------------------------------------------

UNITS = {"GB": ["GB", "GiB", "Gi", "gb", " GB", "TB", "Mi", ""], "Gbps": ["G", "Gbps", " Gb/s", "GbE", "Mbps", ""],
         "cores": ["", " cores", "m", " vCPUs"], "GPUs": ["", " GPUs", "x", " gpu"]}

scores = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(min_value=0, max_value=2).map(lambda f: f"{f:.3f}"),
    st.integers(min_value=0, max_value=150).map(lambda i: f"{i}%"),
    st.sampled_from(["strong", "weak", "", "1,5", 0.9, 0.9, 1.5, 10**400]),  # repeats make ties for merging
)

list_item = st.one_of(
    st.sampled_from(["us-east-1a", "us-east-1b", "US-EAST-1A", "rack-3", "m02", "m07", "database", "H100", "*",
                     "us-east-*", " spaced  name ", ""]),
    st.text(max_size=30),
    st.text(alphabet="x ", min_size=240, max_size=270),  # cut at MAX_ITEM_CHARS, maybe next to a space
)


def number_for(unit: str) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.floats(min_value=0, max_value=1e6),
        st.integers(min_value=-5, max_value=10**6),
        st.tuples(st.integers(min_value=0, max_value=100_000), st.sampled_from(UNITS.get(unit, [""]))).map(
            lambda p: f"{p[0]}{p[1]}"
        ),
        st.tuples(st.floats(min_value=0, max_value=1000), st.sampled_from(UNITS.get(unit, [""]))).map(
            lambda p: f"{p[0]:.2f}{p[1]}"
        ),
        st.sampled_from(["lots", "", "1,000", "≥ 4", "at least 2", 10**400, 16, 32]),
    )


@st.composite
def raw_intent(draw: st.DrawFn) -> dict[str, Any]:
    spec: IntentSpec = draw(st.sampled_from(CATALOGUE))
    name = draw(st.sampled_from([spec.name, spec.name.upper(), f" {spec.name} "]))
    item: dict[str, Any] = {"intent": name}
    if draw(st.booleans()):
        item["confidence"] = draw(scores)
    if draw(st.booleans()):
        item["strength"] = draw(scores)
    if draw(st.booleans()):
        item["explanation"] = draw(st.one_of(st.none(), st.text(max_size=200), st.text(alphabet="ab ", max_size=200)))
    metadata: dict[str, Any] = {}
    for meta in spec.metadata:
        key = draw(st.sampled_from([meta.key, meta.key, "value"]))
        if meta.type is MetaType.FLOAT:
            metadata[key] = draw(number_for(meta.unit))
        else:
            metadata[key] = draw(st.one_of(list_item, st.lists(list_item, max_size=6)))
    if draw(st.booleans()):
        metadata[draw(st.sampled_from(["extra", "zones", "note"]))] = draw(st.text(max_size=5))
    if metadata or draw(st.booleans()):
        item["metadata"] = metadata
    return item


raw_items = st.lists(
    st.one_of(raw_intent(), raw_intent(), raw_intent(), st.just({"intent": "prefer_moon"}), st.integers()),
    max_size=8,
)
raw_outputs = raw_items.map(lambda items: {"intents": items})
documents = raw_outputs.map(lambda raw: normalise(raw).document)

hints = st.text(min_size=1, max_size=200).filter(lambda h: sanitise(h).text != "")

TOKENS = ["<hint>", "</hint>", "<|im_start|>", "[INST]", "```", "---", "{", "}", "\u202e", "\u200b", "\x00",
          "\u0301", "\u0440", "\u043e", "ｇｐｕ", "\n", "\x0b", "  ", "e", "<", ">", "|", "-", "=", "#", "`"]
hostile_text = st.lists(st.one_of(st.text(max_size=20), st.sampled_from(TOKENS)), max_size=40).map("".join)

# --- normalise ---------------------------------------------------------------------------------------------


@PROPERTY
@given(raw_outputs)
def test_normalise_is_idempotent(raw: dict[str, Any]) -> None:
    result = normalise(raw)
    again = normalise(result.document.to_dict())
    assert again.document == result.document
    assert again.document.canonical_bytes() == result.document.canonical_bytes()
    assert again.notes == ()


@PROPERTY
@given(raw_outputs)
def test_normalised_documents_are_schema_valid(raw: dict[str, Any]) -> None:
    document = normalise(raw).document
    assert schema_errors(CANONICAL_VALIDATOR, document.to_dict()) == []
    assert list(document.names) == sorted(set(document.names))


@PROPERTY
@given(raw_items, st.randoms(use_true_random=False))
def test_normalise_ignores_input_order(items: list[Any], random: Any) -> None:
    shuffled = list(items)
    random.shuffle(shuffled)
    assert normalise(shuffled).document.canonical_bytes() == normalise(items).document.canonical_bytes()


# --- codec -------------------------------------------------------------------------------------------------


@HEAVY
@given(documents)
def test_codec_parse_of_build_is_identity(document: IntentDocument) -> None:
    try:
        text = encode_document(document)
    except AnnotationTooLarge:
        assert len(document.canonical_bytes()) > MAX_INTENTS_BYTES
        return
    assert decode_document(text) == document


@HEAVY
@given(documents, hints)
def test_read_intents_of_build_annotations_is_identity(
    signer: Signer, verifier: Verifier, document: IntentDocument, hint: str
) -> None:
    annotations = _annotate(signer, document, hint)
    assume(annotations is not None)
    assert read_intents({HINT: hint, **annotations}, verifier) == document


@PROPERTY
@given(
    st.text(max_size=30), st.text(max_size=30), st.text(max_size=30),
    st.floats(min_value=0, max_value=1e6).map(lambda f: round(f, 1)), st.booleans(),
    st.one_of(st.none(), st.text(max_size=100)),
)
def test_analysis_round_trips(analyser: str, model: str, prompt: str, latency: float, cached: bool, error) -> None:
    analysis = Analysis(analyser, model, prompt, "0" * 64, latency, cached, error)
    assert Analysis.from_json(analysis.to_json()) == analysis


# --- sanitise ----------------------------------------------------------------------------------------------

FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn"}


@PROPERTY
@given(st.one_of(hostile_text, st.text()), st.integers(min_value=1, max_value=400))
def test_sanitise_is_idempotent_and_clean(hint: str, max_chars: int) -> None:
    result = sanitise(hint, max_chars)
    assert len(result.text) <= max_chars
    assert not [c for c in result.text if unicodedata.category(c) in FORBIDDEN]
    assert result.text == " ".join(result.text.split())
    again = sanitise(result.text, max_chars)
    assert again.text == result.text
    assert again.changes == ()
    if result.text != hint.strip():
        assert result.changes  # a change of substance is always reported


# --- verification fails on any tampering -----------------------------------------------------------------


def _annotate(signer: Signer, document: IntentDocument, hint: str) -> dict[str, str] | None:
    analysis = Analysis("embedded", "rules", "v1", sanitise(hint).sha256)
    try:
        return build_annotations(document, analysis, signer)
    except AnnotationTooLarge:
        return None


def _flip(text: str, index: int, mask: int) -> str:
    """Flip bits of one byte of the UTF-8 text; the result may not be UTF-8, so map bytes 1:1 to str."""
    data = bytearray(text.encode("utf-8"))
    data[index % len(data)] ^= mask
    return bytes(data).decode("utf-8", errors="surrogateescape")


def _rejected(annotations: dict[str, str], verifier: Verifier) -> str:
    try:
        read_intents(annotations, verifier)
    except IntentRejected as exc:
        return exc.reason
    raise AssertionError("tampered annotations were accepted")


@HEAVY
@given(documents, hints, st.integers(min_value=0), st.integers(min_value=1, max_value=255))
def test_any_flipped_byte_in_the_intents_fails(
    signer: Signer, verifier: Verifier, document: IntentDocument, hint: str, index: int, mask: int
) -> None:
    annotations = _annotate(signer, document, hint)
    assume(annotations is not None)
    assert annotations is not None
    tampered = {HINT: hint, **annotations, INTENTS: _flip(annotations[INTENTS], index, mask)}
    assert _rejected(tampered, verifier) in {"undecodable", "invalid", "non-canonical", "too-large", "bad-signature"}


@HEAVY
@given(documents, hints, st.integers(min_value=0), st.integers(min_value=1, max_value=255))
def test_any_flipped_byte_in_the_signature_fails(
    signer: Signer, verifier: Verifier, document: IntentDocument, hint: str, index: int, mask: int
) -> None:
    annotations = _annotate(signer, document, hint)
    assume(annotations is not None)
    assert annotations is not None
    tampered = {HINT: hint, **annotations, SIGNATURE: _flip(annotations[SIGNATURE], index, mask)}
    assert _rejected(tampered, verifier) in {"malformed-signature", "unknown-key", "bad-signature"}


@HEAVY
@given(documents, hints, hints)
def test_a_document_moved_to_a_pod_with_another_hint_fails(
    signer: Signer, verifier: Verifier, document: IntentDocument, hint: str, other_hint: str
) -> None:
    assume(sanitise(hint).text != sanitise(other_hint).text)
    annotations = _annotate(signer, document, hint)
    assume(annotations is not None)
    assert annotations is not None
    assert _rejected({HINT: other_hint, **annotations}, verifier) == "bad-signature"


@HEAVY
@given(documents, hints, hints)
def test_a_signature_over_a_wrong_hint_fails(
    signer: Signer, verifier: Verifier, document: IntentDocument, hint: str, signed_hint: str
) -> None:
    assume(sanitise(hint).text != sanitise(signed_hint).text)
    annotations = _annotate(signer, document, signed_hint)
    assume(annotations is not None)
    assert annotations is not None
    assert _rejected({**annotations, HINT: hint}, verifier) == "bad-signature"


@HEAVY
@given(documents, hints, st.text(alphabet="0123456789abcdef", min_size=1, max_size=20))
def test_an_unknown_key_id_fails(
    signer: Signer, verifier: Verifier, other_private_pem: bytes, document: IntentDocument, hint: str, kid: str
) -> None:
    annotations = _annotate(Signer(other_private_pem), document, hint)
    assume(annotations is not None)
    assert annotations is not None
    assert _rejected({HINT: hint, **annotations}, verifier) == "unknown-key"
    assume(kid != signer.key_id)
    scheme, _, b64 = annotations[SIGNATURE].split(":")
    assert _rejected({HINT: hint, **annotations, SIGNATURE: f"{scheme}:{kid}:{b64}"}, verifier) == "unknown-key"
