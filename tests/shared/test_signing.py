"""Ed25519 signatures over {hint_sha256, intents} (ARCHITECTURE.md 2.1)."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from shared.intents import EMPTY_DOCUMENT, IntentDocument, canonical_json
from shared.sanitise import hint_sha256
from shared.signing import (
    SignatureError,
    Signer,
    Verifier,
    generate_private_key_pem,
    key_id,
    public_key_pem,
    signed_bytes,
)

HINT = hint_sha256("critical ML training job, it must run on nodes with GPUs")


def test_private_key_pem_is_pkcs8_and_public_pem_is_spki(private_pem: bytes) -> None:
    assert private_pem.startswith(b"-----BEGIN PRIVATE KEY-----\n")
    public = public_key_pem(private_pem)
    assert public.startswith(b"-----BEGIN PUBLIC KEY-----\n")
    assert isinstance(serialization.load_pem_public_key(public), Ed25519PublicKey)


def test_key_id_is_16_hex_digits_of_sha256_of_the_raw_public_key(private_pem: bytes, signer: Signer) -> None:
    public = serialization.load_pem_public_key(public_key_pem(private_pem))
    assert isinstance(public, Ed25519PublicKey)
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert len(raw) == 32
    assert key_id(public) == hashlib.sha256(raw).hexdigest()[:16] == signer.key_id
    assert len(signer.key_id) == 16 and int(signer.key_id, 16) >= 0


def test_signed_bytes_are_the_canonical_json_of_hint_and_document(gpu_document: IntentDocument) -> None:
    expected = b'{"hint_sha256":"' + HINT.encode() + b'","intents":' + gpu_document.canonical_bytes() + b"}"
    assert signed_bytes(HINT, gpu_document) == expected
    assert signed_bytes(HINT, gpu_document) == canonical_json({"intents": gpu_document.to_dict(), "hint_sha256": HINT})


def test_signature_format_and_round_trip(signer: Signer, verifier: Verifier, gpu_document: IntentDocument) -> None:
    signature = signer.sign(HINT, gpu_document)
    scheme, kid, b64 = signature.split(":")
    assert (scheme, kid) == ("ed25519", signer.key_id)
    assert len(base64.b64decode(b64, validate=True)) == 64
    assert verifier.verify(signature, HINT, gpu_document) == signer.key_id
    assert signer.verifier().verify(signature, HINT, gpu_document) == signer.key_id


def test_signing_is_deterministic(signer: Signer, gpu_document: IntentDocument) -> None:
    # Ed25519 is deterministic: the same document and hint always give the same annotation value.
    assert signer.sign(HINT, gpu_document) == signer.sign(HINT, gpu_document)


def test_keys_load_from_pem_files(tmp_path: Path, private_pem: bytes, gpu_document: IntentDocument) -> None:
    private_file = tmp_path / "signing.pem"
    public_file = tmp_path / "verify.pem"
    private_file.write_bytes(private_pem)
    public_file.write_bytes(public_key_pem(private_pem))
    signature = Signer.from_file(private_file).sign(HINT, gpu_document)
    assert Verifier.from_files([public_file]).verify(signature, HINT, gpu_document)
    # a private key PEM given to the verifier is reduced to its public half
    assert Verifier.from_files([str(private_file)]).verify(signature, HINT, gpu_document)


def test_several_keys_are_accepted_for_rotation(
    private_pem: bytes, other_private_pem: bytes, gpu_document: IntentDocument
) -> None:
    old, new = Signer(private_pem), Signer(other_private_pem)
    assert old.key_id != new.key_id
    bundle = public_key_pem(private_pem) + public_key_pem(other_private_pem)  # one file, two keys
    for verifier in (
        Verifier.from_pem([bundle]),
        Verifier.from_pem([public_key_pem(private_pem), public_key_pem(other_private_pem)]),
    ):
        assert verifier.key_ids == tuple(sorted((old.key_id, new.key_id)))
        assert verifier.verify(old.sign(HINT, gpu_document), HINT, gpu_document) == old.key_id
        assert verifier.verify(new.sign(HINT, gpu_document), HINT, gpu_document) == new.key_id


def test_a_key_not_held_is_rejected_as_unknown(
    verifier: Verifier, other_private_pem: bytes, gpu_document: IntentDocument
) -> None:
    signature = Signer(other_private_pem).sign(HINT, gpu_document)
    with pytest.raises(SignatureError) as caught:
        verifier.verify(signature, HINT, gpu_document)
    assert caught.value.reason == "unknown-key"


def test_a_wrong_key_under_a_known_key_id_is_rejected(
    signer: Signer, verifier: Verifier, other_private_pem: bytes, gpu_document: IntentDocument
) -> None:
    """A forger who copies our key id still needs our private key."""
    forged = Signer(other_private_pem).sign(HINT, gpu_document).split(":")[2]
    with pytest.raises(SignatureError) as caught:
        verifier.verify(f"ed25519:{signer.key_id}:{forged}", HINT, gpu_document)
    assert caught.value.reason == "bad-signature"


def test_other_hint_or_document_is_rejected(signer: Signer, verifier: Verifier, gpu_document: IntentDocument) -> None:
    signature = signer.sign(HINT, gpu_document)
    for hint, document in ((hint_sha256("something else"), gpu_document), (HINT, EMPTY_DOCUMENT)):
        with pytest.raises(SignatureError) as caught:
            verifier.verify(signature, hint, document)
        assert caught.value.reason == "bad-signature"


@pytest.mark.parametrize(
    "mangle",
    [
        lambda s: "",
        lambda s: s.replace("ed25519:", "rsa:", 1),
        lambda s: s.replace("ed25519:", "", 1),
        lambda s: s + ":extra",
        lambda s: s[: s.rindex(":") + 1] + "not base64!",
    ],
    ids=["empty", "other scheme", "no scheme", "four parts", "bad base64"],
)
def test_malformed_signatures(mangle, signer: Signer, verifier: Verifier, gpu_document: IntentDocument) -> None:
    with pytest.raises(SignatureError) as caught:
        verifier.verify(mangle(signer.sign(HINT, gpu_document)), HINT, gpu_document)
    assert caught.value.reason == "malformed-signature"


def test_truncated_signature_is_rejected(signer: Signer, verifier: Verifier, gpu_document: IntentDocument) -> None:
    scheme, kid, b64 = signer.sign(HINT, gpu_document).split(":")
    short = base64.b64encode(base64.b64decode(b64)[:63]).decode()
    with pytest.raises(SignatureError) as caught:
        verifier.verify(f"{scheme}:{kid}:{short}", HINT, gpu_document)
    assert caught.value.reason == "bad-signature"


def test_non_ed25519_keys_are_refused() -> None:
    ec_private = generate_private_key(SECP256R1())
    private_pem = ec_private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public_pem = ec_private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    with pytest.raises(ValueError, match="not an Ed25519"):
        Signer(private_pem)
    with pytest.raises(ValueError, match="not an Ed25519"):
        Verifier.from_pem([public_pem])


def test_a_pem_without_keys_is_refused() -> None:
    with pytest.raises(ValueError, match="no Ed25519 keys"):
        Verifier.from_pem([b"just text\n"])
    assert generate_private_key_pem() != generate_private_key_pem()


def test_only_the_canonical_base64_is_accepted(signer: Signer, verifier: Verifier, gpu_document) -> None:
    """64 bytes end in one byte per base64 group: the last character has 4 unused bits that decoders ignore."""
    scheme, kid, b64 = signer.sign(HINT, gpu_document).split(":")
    assert b64.endswith("==")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = alphabet.index(b64[-3])
    variant = b64[:-3] + alphabet[last ^ 0b0001] + "=="  # flips an unused bit only
    assert base64.b64decode(variant) == base64.b64decode(b64)
    with pytest.raises(SignatureError) as caught:
        verifier.verify(f"{scheme}:{kid}:{variant}", HINT, gpu_document)
    assert caught.value.reason == "malformed-signature"
