"""Keys and documents shared by the tests of the ``shared`` package."""

from __future__ import annotations

import pytest

from shared.intents import IntentDocument
from shared.normalise import normalise
from shared.signing import Signer, Verifier, generate_private_key_pem, public_key_pem


@pytest.fixture(scope="session")
def private_pem() -> bytes:
    return generate_private_key_pem()


@pytest.fixture(scope="session")
def other_private_pem() -> bytes:
    return generate_private_key_pem()


@pytest.fixture(scope="session")
def signer(private_pem: bytes) -> Signer:
    return Signer(private_pem)


@pytest.fixture(scope="session")
def verifier(private_pem: bytes) -> Verifier:
    """Built from the public PEM only, as the scorer is."""
    return Verifier.from_pem([public_key_pem(private_pem)])


@pytest.fixture(scope="session")
def gpu_document() -> IntentDocument:
    """A realistic document: scenario B plus a zone list, with a conflict-free set of intents."""
    return normalise({
        "intents": [
            {"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5, "explanation": "'must'",
             "metadata": {"prefer_gpu_cores": 1}},
            {"intent": "spread_zones", "confidence": 0.9, "strength": 1.0},
            {"intent": "prefer_zones", "confidence": 0.8, "strength": 0.5,
             "metadata": {"prefer_zones": ["us-east-1b", "us-east-1a"]}},
        ]
    }).document
