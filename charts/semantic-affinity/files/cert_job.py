"""The chart's certificate Job: keep the webhook's TLS material and the intent-signing key in Secrets.

Runs as a Helm hook before and after every install and upgrade (idempotent):

1. read the existing Secrets (CA, serving certificate, signing key) into a scratch directory;
2. run ``python -m certs`` on it, which reuses valid material byte for byte and renews only what
   is missing, broken or expiring within the window;
3. write back what changed: the CA Secret (read by this Job only), the webhook's kubernetes.io/tls
   Secret, the signing-key Secret (webhook only) and the public-key ConfigMap (scorer);
4. patch the MutatingWebhookConfiguration's caBundle. Before the first install it does not exist
   yet (pre-install), so the post-install run patches it. When the CA was renewed the bundle keeps
   the previous CA too, so pods still serving the old certificate stay trusted until they reload.

Standard library only (it runs in the project image, which has no kubectl); configured by
environment variables set in the chart's Job template. Talks to the API server with the pod's
ServiceAccount token.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from cryptography import x509
from kube_api import Api

# The certs/ files each Secret holds (file name == data key). The CA's key stays in the CA Secret,
# which only this Job reads; the webhook's TLS Secret also carries ca.crt for reference.
CA_FILES = ("ca.crt", "ca.key")
TLS_KEYS = ("tls.crt", "tls.key")
SIGNING_FILES = ("signing.key",)


def read_secret(api: Api, namespace: str, name: str) -> dict[str, bytes]:
    obj = api.get(f"/api/v1/namespaces/{namespace}/secrets/{name}")
    if obj is None:
        return {}
    return {k: base64.b64decode(v) for k, v in (obj.get("data") or {}).items()}


def apply_object(api: Api, path: str, name: str, desired: dict, field: str) -> str:
    """Create the object, or replace ``field`` (data) when it differs. Returns what happened."""
    current = api.get(f"{path}/{name}")
    if current is None:
        api.request("POST", path, desired)
        return "created"
    if (current.get(field) or {}) == desired[field]:
        return "unchanged"
    current[field] = desired[field]
    api.request("PUT", f"{path}/{name}", current)
    return "updated"


def secret(name: str, namespace: str, files: dict[str, bytes], labels: dict[str, str], kind: str = "Opaque") -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
        "type": kind,
        "data": {k: base64.b64encode(v).decode() for k, v in sorted(files.items())},
    }


def still_valid(pem: bytes | None, now: dt.datetime | None = None) -> bool:
    if not pem:
        return False
    try:
        cert = x509.load_pem_x509_certificate(pem)
    except ValueError:
        return False
    return cert.not_valid_after_utc > (now or dt.datetime.now(dt.UTC))


def ca_bundle(current_ca: bytes, previous_ca: bytes | None) -> str:
    """caBundle for the webhook: the current CA, plus the previous one while it is still valid.

    After a CA renewal, webhook pods keep serving the old certificate until they notice the new
    files; trusting both CAs for that time means no admission call fails during the rollover.
    """
    pem = current_ca
    if previous_ca and previous_ca != current_ca and still_valid(previous_ca):
        pem = current_ca.rstrip(b"\n") + b"\n" + previous_ca
    return base64.b64encode(pem).decode()


def patch_ca_bundle(api: Api, configuration: str, bundle: str) -> str:
    path = f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{configuration}"
    current = api.get(path)
    if current is None:
        return "absent (patched after install)"
    webhooks = current.get("webhooks") or []
    if all((w.get("clientConfig") or {}).get("caBundle") == bundle for w in webhooks):
        return "unchanged"
    ops = [{"op": "add", "path": f"/webhooks/{i}/clientConfig/caBundle", "value": bundle} for i in range(len(webhooks))]
    api.request("PATCH", path, ops, content_type="application/json-patch+json")
    return "patched"


def run(api: Api, env: dict[str, str], certs_cmd: list[str]) -> dict[str, str]:
    """One idempotent pass; returns a summary of what happened to each object."""
    ns = env["NAMESPACE"]
    labels = json.loads(env.get("LABELS", "{}"))
    tls_name, ca_name = env.get("TLS_SECRET", ""), env.get("CA_SECRET", "")
    signing_name, verify_name = env.get("SIGNING_SECRET", ""), env["VERIFY_CONFIGMAP"]
    summary: dict[str, str] = {}
    with tempfile.TemporaryDirectory(dir=env.get("WORK_DIR") or None) as tmp:
        out = Path(tmp)
        existing_ca = read_secret(api, ns, ca_name) if ca_name else {}
        existing_tls = read_secret(api, ns, tls_name) if tls_name else {}
        existing_signing = read_secret(api, ns, signing_name) if signing_name else {}
        for files, wanted in ((existing_ca, CA_FILES), (existing_tls, TLS_KEYS), (existing_signing, SIGNING_FILES)):
            for key in wanted:
                if key in files:
                    (out / key).write_bytes(files[key])
                    (out / key).chmod(0o600)
        args = [
            "--out", str(out),
            "--service", env["SERVICE"], "--namespace", ns,
            "--cluster-domain", env.get("CLUSTER_DOMAIN", "cluster.local"),
            "--days", env.get("DAYS", "365"), "--ca-days", env.get("CA_DAYS", "3650"),
            "--renew-within-days", env.get("RENEW_WITHIN_DAYS", "30"),
        ]  # fmt: skip
        if not signing_name:
            args.append("--no-signing-key")
        result = subprocess.run([*certs_cmd, *args], check=True, capture_output=True, text=True)
        summary["certs"] = result.stdout.strip()
        files = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}

        secrets_path = f"/api/v1/namespaces/{ns}/secrets"
        if tls_name:
            # Remember the CA being replaced, so the bundle trusts both during the rollover.
            previous = existing_ca.get("previous-ca.crt")
            if existing_ca.get("ca.crt") and existing_ca["ca.crt"] != files["ca.crt"]:
                previous = existing_ca["ca.crt"]
            ca_files = {k: files[k] for k in CA_FILES} | ({"previous-ca.crt": previous} if previous else {})
            summary["ca_secret"] = apply_object(
                api, secrets_path, ca_name, secret(ca_name, ns, ca_files, labels), "data"
            )
            tls = {"tls.crt": files["tls.crt"], "tls.key": files["tls.key"], "ca.crt": files["ca.crt"]}
            summary["tls_secret"] = apply_object(
                api, secrets_path, tls_name, secret(tls_name, ns, tls, labels, "kubernetes.io/tls"), "data"
            )
            bundle = ca_bundle(files["ca.crt"], previous)
            summary["ca_bundle"] = patch_ca_bundle(api, env["WEBHOOK_CONFIGURATION"], bundle)
        if signing_name:
            summary["signing_secret"] = apply_object(
                api,
                secrets_path,
                signing_name,
                secret(signing_name, ns, {"signing.key": files["signing.key"]}, labels),
                "data",
            )
            verify = {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": verify_name, "namespace": ns, "labels": labels},
                "data": {"verify.pem": files["signing.pub"].decode()},
            }
            summary["verify_configmap"] = apply_object(
                api, f"/api/v1/namespaces/{ns}/configmaps", verify_name, verify, "data"
            )
    return summary


def main() -> int:
    summary = run(Api.in_cluster(), dict(os.environ), [sys.executable, "-m", "certs"])
    print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
