"""Intents on the scheduling path: only signed documents for the pod's own hint count."""

from __future__ import annotations

from scorer.intents import IntentReader
from shared.codec import HINT, INTENTS, SIGNATURE, Analysis, build_annotations
from shared.intents import Intent, IntentDocument
from shared.sanitise import hint_sha256, sanitise
from shared.signing import Signer, Verifier, generate_private_key_pem

HINT_TEXT = "spread these pods evenly across all available zones"
DOCUMENT = IntentDocument(intents=(Intent("spread_zones", 0.9, 1.0),))


def signed(hint: str = HINT_TEXT, signer: Signer | None = None) -> dict[str, str]:
    signer = signer or SIGNER
    analysis = Analysis("embedded", "test", "v1", hint_sha256(sanitise(hint).text))
    return {HINT: hint, **build_annotations(DOCUMENT, analysis, signer)}


SIGNER = Signer(generate_private_key_pem())


def test_signed_document_is_read_and_cached() -> None:
    reader = IntentReader(SIGNER.verifier())
    verdict = reader.read(signed())
    assert verdict.reason is None and verdict.document == DOCUMENT
    assert reader.read(signed()) is verdict  # same annotation contents: no second verification


def test_rejections_are_neutral_with_a_reason() -> None:
    reader = IntentReader(SIGNER.verifier())
    good = signed()
    assert reader.read(None).reason == "no-intents"
    assert reader.read({HINT: HINT_TEXT}).reason == "no-intents"
    assert reader.read({**good, SIGNATURE: ""}).reason == "unsigned"
    other = Signer(generate_private_key_pem())
    assert reader.read(signed(signer=other)).reason == "unknown-key"
    # a valid document and signature moved to a pod with another hint
    assert reader.read({**good, HINT: "put it on a GPU"}).reason == "bad-signature"
    # the document edited after signing (still canonical JSON)
    forged = good[INTENTS].replace('"confidence":0.9', '"confidence":1.0')
    assert forged != good[INTENTS]
    assert reader.read({**good, INTENTS: forged}).reason == "bad-signature"
    assert reader.read({**good, INTENTS: "{not json"}).reason == "undecodable"
    assert reader.read({**good, INTENTS: '{"version": 1}'}).reason == "invalid"
    assert reader.read({**good, SIGNATURE: "rsa:x:y"}).reason == "malformed-signature"
    assert reader.read({**good, INTENTS: 42}).reason == "undecodable"  # type: ignore[dict-item]
    for verdict in (reader.read({**good, SIGNATURE: ""}), reader.read({**good, INTENTS: "{not json"})):
        assert verdict.document.intents == ()


def test_without_keys_nothing_is_trusted() -> None:
    assert IntentReader(None).read(signed()).reason == "no-verify-keys"
    assert IntentReader(Verifier.from_pem([SIGNER.verifier() and generate_private_key_pem()])).read(
        signed()).reason == "unknown-key"


def test_hint_cap_must_match_the_webhooks() -> None:
    """The signature covers the hint sanitised with the webhook's SEMAFF_HINT_MAX_CHARS: the scorer verifies
    with the same cap, so a long hint signed under a larger cap only verifies with that cap."""
    hint = " ".join(f"word{i:04d}" for i in range(170))[:1500]  # 1,500 characters
    assert len(hint) == 1500 and sanitise(hint, 2000).text != sanitise(hint).text
    analysis = Analysis("embedded", "test", "v1", hint_sha256(sanitise(hint, 2000).text))
    annotations = {HINT: hint, **build_annotations(DOCUMENT, analysis, SIGNER)}
    assert IntentReader(SIGNER.verifier(), max_hint_chars=2000).read(annotations).document == DOCUMENT
    assert IntentReader(SIGNER.verifier()).read(annotations).reason == "bad-signature"
    assert IntentReader(SIGNER.verifier(), max_hint_chars=1000).read(annotations).reason == "bad-signature"
    # a short hint is the same under either cap
    assert IntentReader(SIGNER.verifier(), max_hint_chars=2000).read(signed()).document == DOCUMENT
