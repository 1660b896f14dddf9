"""Ed25519 signatures over intent documents (ARCHITECTURE.md 2.1).

The signed bytes are the canonical JSON of ``{"hint_sha256": ..., "intents": <document>}``, so a
document signed for one hint fails on a pod that carries another. The signature annotation reads
``ed25519:<key-id>:<base64 signature>``; the key id is the first 16 hex digits of the SHA-256 of
the raw public key. The webhook holds the private key; the scorer holds only public keys, several
at once so a key can be rotated without a flag day.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from shared.intents import IntentDocument, canonical_json

SCHEME = "ed25519"


class SignatureError(ValueError):
    """Why a signature was not accepted; ``reason`` is a short metric label."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def signed_bytes(hint_sha256: str, document: IntentDocument) -> bytes:
    """The exact bytes the signature covers."""
    return canonical_json({"hint_sha256": hint_sha256, "intents": document.to_dict()})


def key_id(public_key: Ed25519PublicKey) -> str:
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def generate_private_key_pem() -> bytes:
    """A new Ed25519 private key as unencrypted PKCS#8 PEM (for tests and ``certs/``)."""
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def public_key_pem(private_pem: bytes) -> bytes:
    private = _load_private(private_pem)
    return private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _load_private(pem: bytes) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("signing key is not an Ed25519 private key")
    return key


class Signer:
    """Signs documents with one private key (the webhook's)."""

    def __init__(self, private_pem: bytes) -> None:
        self._key = _load_private(private_pem)
        self.key_id = key_id(self._key.public_key())

    @classmethod
    def from_file(cls, path: str | Path) -> Signer:
        return cls(Path(path).read_bytes())

    def sign(self, hint_sha256: str, document: IntentDocument) -> str:
        signature = self._key.sign(signed_bytes(hint_sha256, document))
        return f"{SCHEME}:{self.key_id}:{base64.b64encode(signature).decode()}"

    def verifier(self) -> Verifier:
        return Verifier([self._key.public_key()])


class Verifier:
    """Accepts signatures from any of several public keys (rotation)."""

    def __init__(self, public_keys: Iterable[Ed25519PublicKey]) -> None:
        self._keys = {key_id(k): k for k in public_keys}

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._keys))

    @classmethod
    def from_pem(cls, pems: Iterable[bytes]) -> Verifier:
        """Public keys (SubjectPublicKeyInfo PEM); a private key PEM is accepted and reduced to its public half.

        One PEM blob may hold several keys one after another.
        """
        keys: list[Ed25519PublicKey] = []
        for pem in pems:
            for block in _pem_blocks(pem):
                if b"PRIVATE KEY" in block.splitlines()[0]:
                    keys.append(_load_private(block).public_key())
                    continue
                key = serialization.load_pem_public_key(block)
                if not isinstance(key, Ed25519PublicKey):
                    raise ValueError("verification key is not an Ed25519 public key")
                keys.append(key)
        if not keys:
            raise ValueError("no Ed25519 keys found")
        return cls(keys)

    @classmethod
    def from_files(cls, paths: Iterable[str | Path]) -> Verifier:
        return cls.from_pem(Path(p).read_bytes() for p in paths)

    def verify(self, signature: str, hint_sha256: str, document: IntentDocument) -> str:
        """Return the key id that signed; raise SignatureError otherwise."""
        parts = signature.split(":")
        if len(parts) != 3 or parts[0] != SCHEME:
            raise SignatureError("malformed-signature", "expected ed25519:<key-id>:<base64>")
        _, kid, b64 = parts
        key = self._keys.get(kid)
        if key is None:
            raise SignatureError("unknown-key", kid[:32])
        try:
            raw = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise SignatureError("malformed-signature", "bad base64") from exc
        # Only the canonical encoding: base64 ignores the unused low bits of the last character, so
        # without this check several annotation values would carry the same signature.
        if base64.b64encode(raw).decode() != b64:
            raise SignatureError("malformed-signature", "non-canonical base64")
        try:
            key.verify(raw, signed_bytes(hint_sha256, document))
        except InvalidSignature as exc:
            raise SignatureError("bad-signature") from exc
        return kid


def _pem_blocks(pem: bytes) -> list[bytes]:
    blocks, current = [], []
    for line in pem.splitlines(keepends=True):
        if line.startswith(b"-----BEGIN"):
            current = [line]
        elif current:
            current.append(line)
            if line.startswith(b"-----END"):
                blocks.append(b"".join(current))
                current = []
    return blocks
