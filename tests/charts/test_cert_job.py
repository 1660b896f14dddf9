"""The certificate Job's pure parts: the caBundle during a CA rollover, and the Secret shapes."""

from __future__ import annotations

import base64
import datetime as dt
from types import ModuleType

import pytest

from certs import tool as certs
from tests.charts.render import load_script, validate


@pytest.fixture(scope="module")
def cert_job() -> ModuleType:
    return load_script("cert_job")


def pems(bundle: str) -> list[bytes]:
    text = base64.b64decode(bundle)
    return [b"-----BEGIN" + block for block in text.split(b"-----BEGIN")[1:]]


def test_bundle_is_the_current_ca_when_nothing_rolled_over(cert_job: ModuleType) -> None:
    ca = certs.new_ca().cert_pem
    assert pems(cert_job.ca_bundle(ca, None)) == [ca]
    assert pems(cert_job.ca_bundle(ca, ca)) == [ca]


def test_bundle_keeps_the_previous_ca_while_it_is_valid(cert_job: ModuleType) -> None:
    old, new = certs.new_ca(days=20).cert_pem, certs.new_ca().cert_pem
    bundle = pems(cert_job.ca_bundle(new, old))
    assert [b.strip() for b in bundle] == [new.strip(), old.strip()]


def test_bundle_drops_an_expired_previous_ca(cert_job: ModuleType) -> None:
    long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=400)
    expired = certs.new_ca(days=30, now=long_ago).cert_pem
    new = certs.new_ca().cert_pem
    assert not cert_job.still_valid(expired)
    assert cert_job.still_valid(new)
    assert not cert_job.still_valid(b"not a certificate")
    assert pems(cert_job.ca_bundle(new, expired)) == [new]


def test_secret_shape_is_a_valid_kubernetes_secret(cert_job: ModuleType) -> None:
    obj = cert_job.secret("x-tls", "ns", {"tls.crt": b"c", "tls.key": b"k"}, {"app": "x"}, "kubernetes.io/tls")
    validate(obj)
    assert obj["type"] == "kubernetes.io/tls"
    assert base64.b64decode(obj["data"]["tls.key"]) == b"k"
