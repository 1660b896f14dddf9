"""Our two services as real processes next to the control plane, registered the way a cluster does it.

- the webhook (``python -m webhook``, HTTPS on 127.0.0.1) behind a real MutatingWebhookConfiguration
  (url + caBundle, matchConditions, failurePolicy Ignore, timeoutSeconds 3, sideEffects NoneOnDryRun),
  then probed with a server-side dry-run pod until the apiserver's informer has picked it up;
- the scorer (``python -m scorer``, HTTP on 127.0.0.1) on the port the scheduler's extender entry
  already points at.
"""

from __future__ import annotations

import os
import ssl
import sys
import urllib.request
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from certs import tool as certs
from localcluster.binaries import REPO
from localcluster.kube import ApiError, wait_for
from localcluster.processes import Process
from shared.codec import HINT, LEGACY_HINT, PREFIX, STATUS

if TYPE_CHECKING:
    from localcluster.controlplane import ControlPlane

WEBHOOK_CONFIG_NAME = "semantic-affinity"
WEBHOOK_NAME = "intents.semantic-affinity.io"
SERVICE_START_TIMEOUT_S = 120.0  # the embedded analyser loads its model at start

# Only pods that carry a hint or any of our annotations are sent: a pod with forged output
# annotations must reach the webhook so it can strip them.
MATCH_CONDITION = (
    "has(object.metadata.annotations) && ("
    f"'{LEGACY_HINT}' in object.metadata.annotations || "
    f"object.metadata.annotations.exists(k, k.startsWith('{PREFIX}')))"
)


# The namespaces the webhook configuration never sends (as the chart's namespaceSelector); the webhook is told too.
EXCLUDED_NAMESPACES = ("kube-system", "semaff-system")


def webhook_configuration(url: str, ca_bundle: str, excluded_namespaces: tuple[str, ...]) -> dict[str, Any]:
    """The MutatingWebhookConfiguration registering our webhook by URL (the chart uses a Service instead)."""
    return {
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "MutatingWebhookConfiguration",
        "metadata": {"name": WEBHOOK_CONFIG_NAME},
        "webhooks": [
            {
                "name": WEBHOOK_NAME,
                "clientConfig": {"url": url, "caBundle": ca_bundle},
                "rules": [
                    {
                        "operations": ["CREATE"],
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "resources": ["pods"],
                        "scope": "Namespaced",
                    }
                ],
                "matchConditions": [{"name": "has-hint-or-our-annotations", "expression": MATCH_CONDITION}],
                "namespaceSelector": {
                    "matchExpressions": [
                        {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": list(excluded_namespaces)}
                    ]
                },
                "failurePolicy": "Ignore",
                "sideEffects": "NoneOnDryRun",
                "timeoutSeconds": 3,
                "admissionReviewVersions": ["v1"],
                "reinvocationPolicy": "Never",
                "matchPolicy": "Equivalent",
            }
        ],
    }


def _python_env(plane: ControlPlane, extra: Mapping[str, str]) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("SEMAFF_") and k.lower() not in {"http_proxy", "https_proxy", "all_proxy"}
    }
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["KUBECONFIG"] = str(plane.kubeconfig)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    env["SEMAFF_LISTEN_ADDRESS"] = "127.0.0.1"
    env.update(extra)
    return env


def probe(url: str, context: ssl.SSLContext | None, proc: Process) -> bool:
    """One readiness probe of ``proc`` (for ``wait_for``: a dead process or a refused call raises)."""
    proc.check_alive()
    with urllib.request.urlopen(url, timeout=3, context=context) as r:
        return r.status == 200


def start_scorer(plane: ControlPlane, extra_env: Mapping[str, str]) -> Process:
    """``python -m scorer`` on the reserved port, verifying signatures with the webhook's public key."""
    plane.stop_service("scorer")
    material = plane.service_certs()
    env = _python_env(
        plane,
        {
            "SEMAFF_PORT": str(plane.ports.scorer),
            "SEMAFF_VERIFY_KEY_FILES": str(material / certs.SIGNING_PUB),
            "SEMAFF_LOG_LEVEL": "info",
            **extra_env,
        },
    )
    proc = Process.start("scorer", [sys.executable, "-m", "scorer"], plane.log_dir, env=env, cwd=REPO)
    plane.procs["scorer"] = proc
    wait_for("scorer /readyz", lambda: probe(f"{plane.scorer_url}/readyz", None, proc), SERVICE_START_TIMEOUT_S, 0.5)
    return proc


def start_webhook(plane: ControlPlane, extra_env: Mapping[str, str], register: bool = True) -> Process:
    """``python -m webhook`` over HTTPS, registered and probed until the apiserver calls it."""
    plane.stop_service("webhook")
    material = plane.service_certs()
    env = _python_env(
        plane,
        {
            "SEMAFF_PORT": str(plane.ports.webhook),
            "SEMAFF_TLS_CERT_FILE": str(material / certs.TLS_CERT),
            "SEMAFF_TLS_KEY_FILE": str(material / certs.TLS_KEY),
            "SEMAFF_SIGNING_KEY_FILE": str(material / certs.SIGNING_KEY),
            "SEMAFF_ANALYSER": "embedded",
            "SEMAFF_SCHEDULER_NAME": "semantic-scheduler",
            "SEMAFF_NAMESPACE": "semaff-system",
            "SEMAFF_EXCLUDED_NAMESPACES": ",".join(EXCLUDED_NAMESPACES),
            "SEMAFF_LEADER_ELECTION": "false",
            "SEMAFF_LOG_LEVEL": "info",
            **extra_env,
        },
    )
    proc = Process.start("webhook", [sys.executable, "-m", "webhook"], plane.log_dir, env=env, cwd=REPO)
    plane.procs["webhook"] = proc
    context = ssl.create_default_context(cafile=str(material / certs.CA_CERT))
    wait_for(
        "webhook /readyz", lambda: probe(f"{plane.webhook_url}/readyz", context, proc), SERVICE_START_TIMEOUT_S, 0.5
    )
    if register:
        register_webhook(plane, certs.ca_bundle((material / certs.CA_CERT).read_bytes()))
    return proc


def register_webhook(plane: ControlPlane, ca_bundle: str) -> None:
    """Create or replace the configuration, then wait until a dry-run pod comes back patched."""
    path = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"
    body = webhook_configuration(f"{plane.webhook_url}/mutate", ca_bundle, EXCLUDED_NAMESPACES)
    try:
        plane.kube.create(path, body)
    except ApiError as exc:
        if exc.status != 409:
            raise
        current = plane.kube.get(f"{path}/{WEBHOOK_CONFIG_NAME}")
        body["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"]
        plane.kube.request("PUT", f"{path}/{WEBHOOK_CONFIG_NAME}", body)
    plane.create_namespace("semaff-probe")
    probe = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"generateName": "webhook-probe-", "annotations": {HINT: "must run on nodes with GPUs"}},
        "spec": {"containers": [{"name": "c", "image": "registry.invalid/pause:3.10"}]},
    }

    def patched() -> bool:
        plane.procs["webhook"].check_alive()
        got = plane.kube.create("/api/v1/namespaces/semaff-probe/pods", probe, dryRun="All")
        return STATUS in (got["metadata"].get("annotations") or {})

    # The apiserver reads webhook configurations through an informer: early pods may not be sent.
    wait_for("the apiserver to call the webhook (dry-run probe)", patched, 60, 0.5)
