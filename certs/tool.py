"""Certificate and key material for the webhook, the scorer and the local control plane.

Pure functions build certificates (``new_ca``, ``issue``) and judge existing ones
(``renewal_reason``); ``ensure`` is the only function that touches the file system. It reuses what
is still valid, so running it again (a Helm pre-upgrade Job, a second ``make demo``) changes nothing,
and it renews what expires within the window or no longer matches the requested names.

Keys are ECDSA P-256: fast to generate, accepted by Go's TLS stack (the kube-apiserver calling the
webhook) and by Python's ``ssl``. The intent-signing key is Ed25519 (``shared.signing``).
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from shared.signing import generate_private_key_pem, public_key_pem

# File names follow the kubernetes.io/tls Secret keys, so a directory maps 1:1 onto Secrets.
CA_CERT = "ca.crt"
CA_KEY = "ca.key"
TLS_CERT = "tls.crt"
TLS_KEY = "tls.key"
CA_BUNDLE = "ca-bundle.b64"
SIGNING_KEY = "signing.key"
SIGNING_PUB = "signing.pub"

DEFAULT_CA_DAYS = 3650
DEFAULT_DAYS = 365
DEFAULT_RENEW_WITHIN_DAYS = 30
_BACKDATE = dt.timedelta(minutes=5)  # tolerate small clock skew between the issuer and the verifier


@dataclass(frozen=True, slots=True)
class KeyPair:
    """A certificate and its private key, both PEM."""

    cert_pem: bytes
    key_pem: bytes

    @property
    def cert(self) -> x509.Certificate:
        return x509.load_pem_x509_certificate(self.cert_pem)


@dataclass(frozen=True, slots=True)
class Subject:
    """What a leaf certificate must say: its names and what it is used for."""

    common_name: str
    dns_names: tuple[str, ...] = ()
    ips: tuple[str, ...] = ()
    organisations: tuple[str, ...] = ()
    client: bool = False  # clientAuth instead of serverAuth


@dataclass(frozen=True, slots=True)
class Result:
    """What ``ensure`` did to each piece: ``created``, ``reused`` or ``renewed (<reason>)``."""

    out_dir: Path
    actions: dict[str, str] = field(default_factory=dict)
    ca_bundle: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"out": str(self.out_dir), "actions": dict(self.actions), "ca_bundle": self.ca_bundle}


def service_dns_names(service: str, namespace: str, cluster_domain: str = "cluster.local") -> tuple[str, ...]:
    """The names the API server uses to reach a Service-backed webhook (``<svc>.<ns>.svc`` first)."""
    base = f"{service}.{namespace}.svc"
    return (service, f"{service}.{namespace}", base, f"{base}.{cluster_domain}")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def new_ca(
    common_name: str = "semantic-affinity-ca", days: int = DEFAULT_CA_DAYS, now: dt.datetime | None = None
) -> KeyPair:
    """A self-signed CA that may sign leaf certificates only (path length 0)."""
    now = now or _now()
    key = _new_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - _BACKDATE)
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return KeyPair(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


def issue(ca: KeyPair, subject: Subject, days: int = DEFAULT_DAYS, now: dt.datetime | None = None) -> KeyPair:
    """A leaf certificate for ``subject`` signed by ``ca`` (serving or client use)."""
    now = now or _now()
    ca_cert = ca.cert
    ca_key = serialization.load_pem_private_key(ca.key_pem, password=None)
    key = _new_key()
    attributes = [x509.NameAttribute(NameOID.ORGANIZATION_NAME, o) for o in subject.organisations]
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, subject.common_name))
    not_after = min(now + dt.timedelta(days=days), ca_cert.not_valid_after_utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name(attributes))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - _BACKDATE)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_encipherment=False,
                key_cert_sign=False,
                crl_sign=False,
                content_commitment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.CLIENT_AUTH if subject.client else ExtendedKeyUsageOID.SERVER_AUTH]
            ),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_cert.public_key()),  # type: ignore[arg-type]
            critical=False,
        )
    )
    names = _general_names(subject.dns_names, subject.ips)
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    cert = builder.sign(ca_key, hashes.SHA256())  # type: ignore[arg-type]
    return KeyPair(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


def _general_names(dns_names: Iterable[str], ips: Iterable[str]) -> list[x509.GeneralName]:
    names: list[x509.GeneralName] = [x509.DNSName(d) for d in dns_names]
    names += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
    return names


def sans(cert: x509.Certificate) -> tuple[frozenset[str], frozenset[str]]:
    """The DNS names and IP addresses a certificate is valid for."""
    try:
        ext = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return frozenset(), frozenset()
    return (
        frozenset(ext.get_values_for_type(x509.DNSName)),
        frozenset(str(ip) for ip in ext.get_values_for_type(x509.IPAddress)),
    )


def renewal_reason(
    pair: KeyPair,
    *,
    renew_within: dt.timedelta,
    now: dt.datetime | None = None,
    ca: KeyPair | None = None,
    subject: Subject | None = None,
) -> str | None:
    """Why ``pair`` must be replaced, or None when it can be kept.

    Checks, in order: both PEMs parse and belong together, the certificate is inside its validity
    period and does not expire within ``renew_within``, it was signed by ``ca`` (when given), and
    its SANs equal ``subject``'s (when given).
    """
    now = now or _now()
    try:
        cert = pair.cert
        key = serialization.load_pem_private_key(pair.key_pem, password=None)
    except ValueError:
        return "unreadable"
    if _public_der(cert.public_key()) != _public_der(key.public_key()):  # type: ignore[arg-type]
        return "key-mismatch"
    if cert.not_valid_before_utc > now:
        return "not-yet-valid"
    if cert.not_valid_after_utc - renew_within <= now:
        return "expiring"
    if ca is not None:
        ca_cert = ca.cert
        if cert.issuer != ca_cert.subject:
            return "other-issuer"
        try:
            cert.verify_directly_issued_by(ca_cert)
        except (ValueError, TypeError, InvalidSignature):
            return "other-issuer"
    if subject is not None:
        dns, ips = sans(cert)
        wanted_ips = frozenset(str(ipaddress.ip_address(i)) for i in subject.ips)
        if dns != frozenset(subject.dns_names) or ips != wanted_ips:
            return "names-changed"
    return None


def _public_der(public_key: object) -> bytes:
    return public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)  # type: ignore[attr-defined]


def ca_bundle(ca_cert_pem: bytes) -> str:
    """The ``caBundle`` value of a webhook configuration: base64 of the PEM."""
    return base64.b64encode(ca_cert_pem).decode()


def signing_key_usable(private_pem: bytes) -> bool:
    try:
        key = serialization.load_pem_private_key(private_pem, password=None)
    except ValueError:
        return False
    return isinstance(key, Ed25519PrivateKey)


# ---- file system edge -------------------------------------------------------------------------


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, data: bytes, secret: bool) -> None:
    """Atomic replace, so a reader (the webhook reloading its certificate) never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def _load_pair(out: Path, cert_name: str, key_name: str) -> KeyPair | None:
    cert, key = _read(out / cert_name), _read(out / key_name)
    return KeyPair(cert, key) if cert is not None and key is not None else None


def _save_pair(out: Path, cert_name: str, key_name: str, pair: KeyPair) -> None:
    _write(out / key_name, pair.key_pem, secret=True)
    _write(out / cert_name, pair.cert_pem, secret=False)


def ensure(
    out_dir: str | Path,
    *,
    dns_names: Sequence[str],
    ips: Sequence[str] = (),
    common_name: str | None = None,
    days: int = DEFAULT_DAYS,
    ca_days: int = DEFAULT_CA_DAYS,
    renew_within_days: int = DEFAULT_RENEW_WITHIN_DAYS,
    signing_key: bool = True,
    now: dt.datetime | None = None,
) -> Result:
    """Make ``out_dir`` hold a valid CA, serving certificate and (optionally) intent-signing key pair.

    Valid material is kept. A renewed CA forces a new serving certificate (the old one would no
    longer chain); the signing key is only replaced when it is unreadable, because every signature
    already written on a pod depends on it.
    """
    now = now or _now()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    window = dt.timedelta(days=renew_within_days)
    if not dns_names and not ips:
        raise ValueError("a serving certificate needs at least one DNS name or IP address")
    subject = Subject(common_name or (dns_names[0] if dns_names else ips[0]), tuple(dns_names), tuple(ips))
    actions: dict[str, str] = {}

    ca = _load_pair(out, CA_CERT, CA_KEY)
    reason = "missing" if ca is None else renewal_reason(ca, renew_within=window, now=now)
    if reason is not None:
        ca = new_ca(days=ca_days, now=now)
        _save_pair(out, CA_CERT, CA_KEY, ca)
        actions["ca"] = "created" if reason == "missing" else f"renewed ({reason})"
    else:
        actions["ca"] = "reused"
    assert ca is not None

    serving = _load_pair(out, TLS_CERT, TLS_KEY)
    reason = (
        "missing" if serving is None else renewal_reason(serving, renew_within=window, now=now, ca=ca, subject=subject)
    )
    if reason is not None:
        _save_pair(out, TLS_CERT, TLS_KEY, issue(ca, subject, days=days, now=now))
        actions["serving"] = "created" if reason == "missing" else f"renewed ({reason})"
    else:
        actions["serving"] = "reused"

    bundle = ca_bundle(ca.cert_pem)
    if _read(out / CA_BUNDLE) != bundle.encode():
        _write(out / CA_BUNDLE, bundle.encode(), secret=False)

    if signing_key:
        private = _read(out / SIGNING_KEY)
        if private is not None and signing_key_usable(private):
            actions["signing_key"] = "reused"
        else:
            actions["signing_key"] = "created" if private is None else "renewed (unreadable)"
            private = generate_private_key_pem()
            _write(out / SIGNING_KEY, private, secret=True)
        public = public_key_pem(private)
        if _read(out / SIGNING_PUB) != public:
            _write(out / SIGNING_PUB, public, secret=False)
    return Result(out, actions, bundle)
