"""The MutatingWebhookConfiguration as the real apiserver applies it: which pods reach the webhook.

matchConditions (CEL) and the namespaceSelector are evaluated by the apiserver, so only a real one
can show them right. Calls are counted on the webhook's own /metrics; pods are created with
server-side dryRun=All (sideEffects NoneOnDryRun), so nothing is left behind.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from typing import Any

import pytest

from certs import tool as certs
from localcluster import SYSTEM_NAMESPACE, ControlPlane
from localcluster.kube import wait_for
from localcluster.metrics import scrape, total
from shared.codec import INTENTS, STATUS

pytestmark = pytest.mark.e2e
NAMESPACE = "webhook-registration"


@pytest.fixture(scope="module")
def webhook(control_plane: ControlPlane) -> Iterator[ControlPlane]:
    control_plane.start_webhook()
    control_plane.create_namespace(NAMESPACE)
    yield control_plane
    control_plane.stop_service("webhook")
    control_plane.delete_namespace(NAMESPACE)


def admission_calls(plane: ControlPlane) -> float:
    context = ssl.create_default_context(cafile=str(plane.service_certs() / certs.CA_CERT))
    return total(scrape(f"{plane.webhook_url}/metrics", context), "semaff_admission_latency_seconds_count")


def dry_run_pod(plane: ControlPlane, annotations: dict[str, str] | None, namespace: str = NAMESPACE) -> dict[str, Any]:
    pod: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"generateName": "registration-"},
        "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]},
    }
    if annotations is not None:
        pod["metadata"]["annotations"] = annotations
    return plane.kube.create(f"/api/v1/namespaces/{namespace}/pods", pod, dryRun="All")


@pytest.mark.parametrize(
    "annotations",
    [None, {}, {"team": "payments", "example.com/semantic-affinity.io": "x"}],
    ids=["no-annotations", "empty", "unrelated"],
)
def test_pods_without_hint_or_our_annotations_are_not_sent(webhook: ControlPlane, annotations) -> None:
    before = admission_calls(webhook)
    got = dry_run_pod(webhook, annotations)
    assert admission_calls(webhook) == before
    assert STATUS not in (got["metadata"].get("annotations") or {})
    assert got["spec"]["schedulerName"] == "default-scheduler"


@pytest.mark.parametrize("key", ["semantic-affinity.io/hint", "allocation_hint"])
def test_pods_with_a_hint_are_sent_and_routed_to_our_scheduler(webhook: ControlPlane, key: str) -> None:
    before = admission_calls(webhook)
    got = dry_run_pod(webhook, {key: "at least 100 Gbps network speed"})
    assert admission_calls(webhook) == before + 1
    assert got["metadata"]["annotations"][STATUS] in {"pending", "analyzed"}
    assert got["spec"]["schedulerName"] == "semantic-scheduler"


def test_forged_output_annotations_are_sent_and_stripped(webhook: ControlPlane) -> None:
    forged = (
        '{"conflicts":[],"intents":[{"confidence":1.0,"explanation":"","intent":"prefer_gpu",'
        '"metadata":{},"strength":1.5}],"version":1}'
    )
    before = admission_calls(webhook)
    got = dry_run_pod(webhook, {INTENTS: forged})
    assert admission_calls(webhook) == before + 1
    assert INTENTS not in (got["metadata"].get("annotations") or {})


def test_the_webhooks_own_namespace_is_excluded(webhook: ControlPlane) -> None:
    webhook.create_namespace(SYSTEM_NAMESPACE)
    before = admission_calls(webhook)
    got = dry_run_pod(webhook, {"semantic-affinity.io/hint": "needs a GPU"}, namespace=SYSTEM_NAMESPACE)
    assert admission_calls(webhook) == before
    assert STATUS not in got["metadata"]["annotations"]


def test_a_hinted_pod_admitted_while_the_webhook_is_down_gets_hint_not_applied(webhook: ControlPlane) -> None:
    """failurePolicy Ignore lets the pod through unmutated; the next controller to start says so on the pod."""
    webhook.stop_service("webhook")
    pod = webhook.kube.create(f"/api/v1/namespaces/{NAMESPACE}/pods", {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"generateName": "missed-", "annotations": {"semantic-affinity.io/hint": "am liebsten mit GPU"}},
        "spec": {"containers": [{"name": "c", "image": "registry.invalid/pause:3.10"}]},
    })
    name = pod["metadata"]["name"]
    assert STATUS not in pod["metadata"]["annotations"]  # admitted without a webhook call
    webhook.start_webhook()

    def warning() -> dict[str, Any] | None:
        found = webhook.kube.items(f"/apis/events.k8s.io/v1/namespaces/{NAMESPACE}/events")
        return next((e for e in found if e["regarding"]["name"] == name and e["reason"] == "HintNotApplied"), None)

    event = wait_for("the HintNotApplied Event", warning, 60)
    assert event["type"] == "Warning" and "failurePolicy Ignore" in event["note"]
    assert event["regarding"]["uid"] == pod["metadata"]["uid"]  # so kubectl describe pod shows it
    context = ssl.create_default_context(cafile=str(webhook.service_certs() / certs.CA_CERT))
    assert total(scrape(f"{webhook.webhook_url}/metrics", context), "semaff_hints_not_applied_total") >= 1
    webhook.kube.delete(f"/api/v1/namespaces/{NAMESPACE}/pods/{name}", gracePeriodSeconds=0)
