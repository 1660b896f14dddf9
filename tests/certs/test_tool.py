"""certs/: CA + serving certificate + signing key, idempotent, renewing what expires or changed."""

from __future__ import annotations

import datetime as dt
import json
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography import x509

from certs import tool
from certs.__main__ import main
from shared.intents import IntentDocument
from shared.signing import Signer, Verifier

SERVICE_NAMES = tool.service_dns_names("semaff-webhook", "semaff")


def _cert(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def test_service_names_cover_what_the_apiserver_dials() -> None:
    assert "semaff-webhook.semaff.svc" in SERVICE_NAMES
    assert "semaff-webhook.semaff.svc.cluster.local" in SERVICE_NAMES


def test_first_run_creates_everything_with_the_right_sans(tmp_path: Path) -> None:
    result = tool.ensure(tmp_path, dns_names=SERVICE_NAMES, ips=["127.0.0.1"])
    assert result.actions == {"ca": "created", "serving": "created", "signing_key": "created"}
    dns, ips = tool.sans(_cert(tmp_path / tool.TLS_CERT))
    assert dns == frozenset(SERVICE_NAMES)
    assert ips == {"127.0.0.1"}
    assert (tmp_path / tool.CA_BUNDLE).read_text() == result.ca_bundle
    assert (tmp_path / tool.TLS_KEY).stat().st_mode & 0o077 == 0  # keys are private to the owner
    assert (tmp_path / tool.SIGNING_KEY).stat().st_mode & 0o077 == 0


def test_serving_cert_chains_to_the_ca_for_a_real_tls_client(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=["localhost"], ips=["127.0.0.1"])
    # Python's ssl (OpenSSL) is as strict as Go about key usage and basic constraints.
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(tmp_path / tool.TLS_CERT, tmp_path / tool.TLS_KEY)
    client = ssl.create_default_context(cafile=str(tmp_path / tool.CA_CERT))
    import socket
    import threading

    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]

        def serve() -> None:
            conn, _ = listener.accept()
            with server.wrap_socket(conn, server_side=True) as tls:
                tls.sendall(b"ok")

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        with (
            socket.create_connection(("127.0.0.1", port)) as raw,
            client.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
        ):
            assert tls.recv(2) == b"ok"
        thread.join(5)


def test_second_run_reuses_everything_byte_for_byte(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    assert result.actions == {"ca": "reused", "serving": "reused", "signing_key": "reused"}
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_changed_names_renew_only_the_serving_cert(tmp_path: Path) -> None:
    first = tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    ca_before = (tmp_path / tool.CA_CERT).read_bytes()
    result = tool.ensure(tmp_path, dns_names=SERVICE_NAMES, ips=["127.0.0.1"])
    assert result.actions["serving"] == "renewed (names-changed)"
    assert result.actions["ca"] == "reused"
    assert (tmp_path / tool.CA_CERT).read_bytes() == ca_before
    assert result.ca_bundle == first.ca_bundle


def test_serving_cert_expiring_within_the_window_is_renewed(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES, days=40)
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=15)  # 25 days left < 30-day window
    result = tool.ensure(tmp_path, dns_names=SERVICE_NAMES, now=later)
    assert result.actions["serving"] == "renewed (expiring)"
    assert _cert(tmp_path / tool.TLS_CERT).not_valid_after_utc > later + dt.timedelta(days=300)


def test_renewed_ca_reissues_the_serving_cert_but_keeps_the_signing_key(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES, ca_days=40, days=35)
    signing_before = (tmp_path / tool.SIGNING_KEY).read_bytes()
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=20)
    result = tool.ensure(tmp_path, dns_names=SERVICE_NAMES, now=later)
    assert result.actions["ca"] == "renewed (expiring)"
    assert result.actions["serving"].startswith("renewed")
    assert result.actions["signing_key"] == "reused"
    assert (tmp_path / tool.SIGNING_KEY).read_bytes() == signing_before
    ca = _cert(tmp_path / tool.CA_CERT)
    _cert(tmp_path / tool.TLS_CERT).verify_directly_issued_by(ca)


def test_serving_cert_from_another_ca_is_replaced(tmp_path: Path) -> None:
    other = tmp_path / "other"
    tool.ensure(other, dns_names=SERVICE_NAMES)
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    (tmp_path / tool.TLS_CERT).write_bytes((other / tool.TLS_CERT).read_bytes())
    (tmp_path / tool.TLS_KEY).write_bytes((other / tool.TLS_KEY).read_bytes())
    assert tool.ensure(tmp_path, dns_names=SERVICE_NAMES).actions["serving"] == "renewed (other-issuer)"


def test_mismatched_key_and_garbage_are_replaced(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    (tmp_path / tool.TLS_KEY).write_bytes((tmp_path / tool.CA_KEY).read_bytes())
    assert tool.ensure(tmp_path, dns_names=SERVICE_NAMES).actions["serving"] == "renewed (key-mismatch)"
    (tmp_path / tool.SIGNING_KEY).write_bytes(b"not a key")
    assert tool.ensure(tmp_path, dns_names=SERVICE_NAMES).actions["signing_key"] == "renewed (unreadable)"


def test_signing_pair_signs_and_verifies(tmp_path: Path) -> None:
    tool.ensure(tmp_path, dns_names=SERVICE_NAMES)
    signer = Signer.from_file(tmp_path / tool.SIGNING_KEY)
    verifier = Verifier.from_files([tmp_path / tool.SIGNING_PUB])
    document = IntentDocument.from_dict({"version": 1, "intents": [], "conflicts": []})
    assert verifier.verify(signer.sign("ab" * 32, document), "ab" * 32, document) == signer.key_id


def test_client_certificate_carries_groups_and_client_usage(tmp_path: Path) -> None:
    ca = tool.new_ca()
    pair = tool.issue(ca, tool.Subject("admin", organisations=("system:masters",), client=True))
    cert = pair.cert
    assert cert.subject.get_attributes_for_oid(x509.NameOID.ORGANIZATION_NAME)[0].value == "system:masters"
    usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert x509.ExtendedKeyUsageOID.CLIENT_AUTH in usage


def test_cli_prints_json_then_only_the_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path), "--service", "wh", "--namespace", "ns", "--ip", "127.0.0.1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["actions"]["serving"] == "created"
    assert (
        main(["--out", str(tmp_path), "--service", "wh", "--namespace", "ns", "--ip", "127.0.0.1", "--print-ca-bundle"])
        == 0
    )
    assert capsys.readouterr().out.strip() == report["ca_bundle"]


@pytest.mark.parametrize(
    "argv",
    [["--service", "wh"], [], ["--ip", "not-an-ip"], ["--dns", "x", "--days", "10"]],
)
def test_cli_rejects_bad_arguments(tmp_path: Path, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--out", str(tmp_path), *argv])
    assert exc.value.code == 2


def test_runs_as_a_module(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "certs", "--out", str(tmp_path), "--dns", "localhost", "--print-ca-bundle"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.stdout.strip() == (tmp_path / tool.CA_BUNDLE).read_text()
