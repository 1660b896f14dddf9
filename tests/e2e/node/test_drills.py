"""Failure drills on the chart-installed release: each one ends with no pod lost and none left gated.

Every drill disturbs the release while hinted pods are in flight (the leader webhook pod or the
active scheduler pod force-deleted, a ``helm upgrade``, a serving-certificate rotation through the
chart's certificate Job) and then checks every pod it created: it still exists, carries no
scheduling gate of ours, and is bound to one of the paper's nodes by the semantic scheduler.
"""

from __future__ import annotations

import base64
import contextlib
import socket
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography import x509

from localcluster.cluster import LocalCluster
from localcluster.kube import ApiError, wait_for
from localcluster.nodes import paper_cluster
from localcluster.workloads import apply, deployment, wait_bound
from shared.codec import HINT, SCHEDULING_GATE, STATUS

pytestmark = [pytest.mark.e2e, pytest.mark.node]
PAPER_NODES = {spec.name for spec in paper_cluster()}
GPU_HINT = "critical ML training job, needs a GPU node"
SETTLE_TIMEOUT_S = 180.0  # ungate deadline (30 s) + a Lease takeover (15 s) + scheduling, on 2 busy cores


@pytest.fixture
def namespace(cluster: LocalCluster) -> Iterator[str]:
    assert cluster.plane is not None
    name = f"drill-{uuid.uuid4().hex[:6]}"
    cluster.plane.create_namespace(name)
    yield name
    cluster.plane.delete_namespace(name)


def bare_pod(name: str, hint: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "annotations": {HINT: hint}},
        "spec": {
            "terminationGracePeriodSeconds": 0,
            "containers": [
                {
                    "name": "app",
                    "image": "registry.k8s.io/pause:3.10",
                    "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}},
                }
            ],
        },
    }


def lease_holder(cluster: LocalCluster, name: str) -> str:
    assert cluster.plane is not None
    lease = cluster.plane.kube.get(f"/apis/coordination.k8s.io/v1/namespaces/{cluster.namespace}/leases/{name}")
    return str(lease["spec"].get("holderIdentity") or "")


def leader_pod(cluster: LocalCluster, component: str) -> str:
    """The release pod of ``component`` holding its Lease (kube-scheduler's identity is ``<pod>_<uuid>``)."""
    lease = f"{cluster.release}-semantic-affinity-{component}"

    def holder() -> str | None:
        identity = lease_holder(cluster, lease)
        for pod in cluster.release_pods(component):
            name = pod["metadata"]["name"]
            if identity == name or identity.startswith(name + "_"):
                return name
        return None

    return wait_for(f"the {component} Lease held by a running pod", holder, 90)


def force_delete(cluster: LocalCluster, pod: str) -> None:
    assert cluster.plane is not None
    cluster.plane.kube.delete(f"/api/v1/namespaces/{cluster.namespace}/pods/{pod}", gracePeriodSeconds=0)


def gated(pod: dict[str, Any]) -> bool:
    return any(g.get("name") == SCHEDULING_GATE for g in pod["spec"].get("schedulingGates") or [])


def assert_settled(cluster: LocalCluster, namespace: str, names: set[str], timeout: float = SETTLE_TIMEOUT_S,
                   missed_ok: bool = False) -> dict:
    """Every pod in ``names`` exists, is ungated and bound to a paper node by the semantic scheduler.

    ``missed_ok``: a pod the apiserver admitted without our webhook (its call failed: failurePolicy
    Ignore) keeps the default scheduler; allowed, and counted by the caller, while a replica is killed.
    """
    assert cluster.plane is not None
    kube = cluster.plane.kube
    state: dict[str, Any] = {}

    def settled() -> bool:
        found = {p["metadata"]["name"]: p for p in kube.items(f"/api/v1/namespaces/{namespace}/pods")}
        state["found"] = found
        missing = names - set(found)
        assert not missing, f"pods lost: {sorted(missing)[:5]} ({len(missing)})"
        return all(not gated(found[n]) and found[n]["spec"].get("nodeName") in PAPER_NODES for n in names)

    try:
        wait_for(f"{len(names)} pods ungated and bound", settled, timeout, interval=1.0)
    except TimeoutError:
        found = state.get("found", {})
        still = [n for n in names if gated(found[n])]
        unbound = [n for n in names if not found[n]["spec"].get("nodeName")]
        raise AssertionError(f"after {timeout:.0f}s: {len(still)} still gated, {len(unbound)} unbound") from None
    pods = state["found"]
    for name in names:
        if not (missed_ok and STATUS not in (pods[name]["metadata"].get("annotations") or {})):
            assert pods[name]["spec"]["schedulerName"] == "semantic-scheduler", name
    return {n: pods[n] for n in names}


def not_applied(kube: Any, namespace: str) -> set[str]:
    """Pods in ``namespace`` that carry a HintNotApplied Event."""
    found = kube.items(f"/apis/events.k8s.io/v1/namespaces/{namespace}/events")
    return {e["regarding"]["name"] for e in found if e.get("reason") == "HintNotApplied"}


def statuses(pods: dict[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for pod in pods.values():
        status = (pod["metadata"].get("annotations") or {}).get(STATUS, "none")
        counts[status] = counts.get(status, 0) + 1
    return counts


def test_leader_webhook_pod_force_deleted_while_50_hinted_pods_are_created(
    cluster: LocalCluster, namespace: str, node_report: dict[str, Any]
) -> None:
    assert cluster.plane is not None
    kube = cluster.plane.client()
    leader = leader_pod(cluster, "webhook")
    names = {f"p{i:02d}" for i in range(50)}
    errors: list[str] = []

    def create() -> None:
        for i, name in enumerate(sorted(names)):
            # Distinct hints for half the pods: cache misses, so those wait on the gate for analysis.
            hint = GPU_HINT if i % 2 else f"{GPU_HINT}, batch {i}"
            try:
                kube.create(f"/api/v1/namespaces/{namespace}/pods", bare_pod(name, hint))
            except ApiError as exc:  # a create refused would be a lost pod: fail on it
                errors.append(f"{name}: {exc}")

    began = time.monotonic()
    creator = threading.Thread(target=create)
    creator.start()
    time.sleep(1.0)
    force_delete(cluster, leader)
    creator.join()
    assert not errors, errors
    pods = assert_settled(cluster, namespace, names, missed_ok=True)
    took = time.monotonic() - began
    # While the killed pod is still a Service endpoint, an admission call can fail and the apiserver admits
    # the pod unmutated (fail-open): reported here, and bounded so the drill still fails if admission breaks.
    missed = sorted(n for n in names if STATUS not in (pods[n]["metadata"].get("annotations") or {}))
    assert len(missed) <= 10, f"{len(missed)} of 50 pods admitted without the webhook: {missed}"
    new_leader = leader_pod(cluster, "webhook")
    assert new_leader != leader
    # ... and never silently: the new leader's start-up sweep gives each one a HintNotApplied Warning.
    def every_miss_warned() -> set[str] | None:
        got = not_applied(kube, namespace)
        return got if got >= set(missed) else None

    warned = wait_for(f"HintNotApplied on the {len(missed)} missed pods", every_miss_warned, 90) if missed else set()
    assert warned == set(missed), f"HintNotApplied on pods the webhook did mutate: {sorted(warned - set(missed))}"
    counts = statuses(pods)
    node_report["drills"].append(
        f"drill webhook leader {leader} deleted: 50/50 pods ungated and bound in {took:.0f}s; statuses {counts};"
        f" {len(missed)} admitted without the webhook (its call failed, failurePolicy Ignore), each with"
        f" a HintNotApplied Event;"
        f" new leader {new_leader}"
    )
    assert counts.get("analyzed", 0) >= 25, f"most pods are analysed, not only released by deadline: {counts}"
    cluster.wait_release_ready()


def test_active_scheduler_pod_force_deleted_while_a_hinted_deployment_scales_to_20(
    cluster: LocalCluster, namespace: str, node_report: dict[str, Any]
) -> None:
    """The replicas created after the kill are placed by the scheduler that takes over, hint honoured.

    The scale-up follows the kill so that the killed process cannot place them in its last second (it
    did, within 1 s, and the drill then proved nothing about the successor); which pod takes the Lease
    (the standby or the Deployment's replacement) is left to the race, as in production.
    """
    assert cluster.plane is not None
    kube = cluster.plane.kube
    apply(kube, namespace, deployment("drill-scale", 2, hint=GPU_HINT))
    wait_bound(kube, namespace, "app=drill-scale", 2, 120)
    active = leader_pod(cluster, "scheduler")
    began = time.monotonic()
    force_delete(cluster, active)
    kube.patch(f"/apis/apps/v1/namespaces/{namespace}/deployments/drill-scale", {"spec": {"replicas": 20}})
    bound = wait_bound(kube, namespace, "app=drill-scale", 20, SETTLE_TIMEOUT_S)
    took = time.monotonic() - began
    new_active = leader_pod(cluster, "scheduler")
    assert new_active != active
    assert set(bound.values()) == {"m02"}, f"the GPU hint still places every replica on m02 ({new_active}): {bound}"
    node_report["drills"].append(
        f"drill active scheduler {active} deleted, then a scale to 20: 20/20 on m02 in {took:.0f}s; new {new_active}"
    )
    cluster.wait_release_ready()


@contextlib.contextmanager
def pods_in_flight(cluster: LocalCluster, namespace: str, prefix: str) -> Iterator[list[dict[str, Any]]]:
    """Create a hinted pod every 0.5 s (on its own client and thread) while the block runs; yield them."""
    assert cluster.plane is not None
    kube, stop, created = cluster.plane.client(), threading.Event(), []

    def create() -> None:
        while not stop.is_set():
            pod = bare_pod(f"{prefix}{len(created):03d}", GPU_HINT)
            created.append(kube.create(f"/api/v1/namespaces/{namespace}/pods", pod))
            time.sleep(0.5)

    creator = threading.Thread(target=create)
    creator.start()
    try:
        yield created
    finally:
        stop.set()
        creator.join()


def test_helm_upgrade_changing_a_value_with_pods_in_flight(
    cluster: LocalCluster, namespace: str, node_report: dict[str, Any]
) -> None:
    assert cluster.plane is not None
    before = {p["metadata"]["name"] for p in cluster.release_pods("webhook")}
    began = time.monotonic()
    with pods_in_flight(cluster, namespace, "u") as created:
        cluster.upgrade({"logLevel": "debug"})
    took = time.monotonic() - began
    # A replaced replica serves on for webhook.shutdownDelaySeconds (its preStop) after helm --wait returns, and then
    # finishes its calls: the rollout is over when the old pods are gone.
    wait_for("the upgrade rolled the webhook pods (a changed value reaches them)",
             lambda: not before & {p["metadata"]["name"] for p in cluster.release_pods("webhook")}, 120)
    names = {p["metadata"]["name"] for p in created}
    assert len(names) >= 10
    pods = assert_settled(cluster, namespace, names)
    node_report["drills"].append(
        f"drill helm upgrade (logLevel=debug) took {took:.0f}s with {len(names)} pods created meanwhile:"
        f" all ungated and bound; statuses {statuses(pods)}"
    )
    cluster.upgrade()  # back to the defaults for the drills after this one


def _tls_secret_cert(cluster: LocalCluster) -> x509.Certificate:
    assert cluster.plane is not None
    secret = cluster.plane.kube.get(
        f"/api/v1/namespaces/{cluster.namespace}/secrets/{cluster.release}-semantic-affinity-webhook-tls"
    )
    return x509.load_pem_x509_certificate(base64.b64decode(secret["data"]["tls.crt"]))


def _served_cert(ip: str, port: int = 8443) -> x509.Certificate:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection((ip, port), timeout=5) as raw, context.wrap_socket(raw) as tls:
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der)


def test_serving_certificate_rotated_by_the_chart_while_admission_keeps_answering(
    cluster: LocalCluster, namespace: str, node_report: dict[str, Any]
) -> None:
    assert cluster.plane is not None
    old = _tls_secret_cert(cluster)
    began = time.monotonic()
    with pods_in_flight(cluster, namespace, "c") as created:
        # Renew what expires within 366 days (the 365-day serving certificate does; the 10-year CA
        # does not) into 10-year certificates: the chart's own rotation path, the certificate Job.
        cluster.upgrade({"tls": {"job": {"days": 3650, "renewWithinDays": 366}}})
        new = _tls_secret_cert(cluster)
        assert new.serial_number != old.serial_number, "the certificate Job renewed the serving certificate"
        # a replica being replaced (still Running during its preStop delay) is leaving: only the others must serve it
        ips = [p["status"]["podIP"] for p in cluster.release_pods("webhook")
               if p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp")]

        def serving_new() -> bool:
            return all(_served_cert(ip).serial_number == new.serial_number for ip in ips)

        wait_for("every webhook pod serving the renewed certificate", serving_new, 180, interval=2.0)
    took = time.monotonic() - began
    # failurePolicy is Ignore: an admission call that failed would leave a pod without our gate or status.
    unanswered = [
        p["metadata"]["name"]
        for p in created
        if STATUS not in (p["metadata"].get("annotations") or {}) and not gated(p)
    ]
    assert not unanswered, f"admission did not answer for {unanswered}"
    pods = assert_settled(cluster, namespace, {p["metadata"]["name"] for p in created})
    node_report["drills"].append(
        f"drill certificate rotation (serial {old.serial_number:x} -> {new.serial_number:x}) took {took:.0f}s:"
        f" {len(created)} pods admitted meanwhile, all answered by the webhook; statuses {statuses(pods)}"
    )
    cluster.upgrade()


def test_helm_uninstall_with_gated_pods_leaves_none_gated_and_reports_the_pending(
    cluster: LocalCluster, namespace: str, node_report: dict[str, Any]
) -> None:
    assert cluster.plane is not None
    kube = cluster.plane.kube
    pods_path = f"/api/v1/namespaces/{namespace}/pods"
    # Hinted pods that can never fit: they stay Pending for the semantic scheduler.
    huge = {"huge0", "huge1"}
    for name in sorted(huge):
        pod = bare_pod(name, GPU_HINT)
        pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "500"
        created = kube.create(pods_path, pod)
        assert gated(created) or created["spec"].get("schedulerName") == "semantic-scheduler"
    wait_for("the huge pods analysed", lambda: all(not gated(kube.get(f"{pods_path}/{n}")) for n in huge), 90)
    # Pods behind our gate with no controller left to finish them: the webhook pods are down (scaled
    # to 0, as in a crash loop) and the pods carry the gate already.
    webhook = f"/apis/apps/v1/namespaces/{cluster.namespace}/deployments/{cluster.release}-semantic-affinity-webhook"
    kube.patch(webhook, {"spec": {"replicas": 0}})
    wait_for("no webhook pods", lambda: not cluster.release_pods("webhook"), 90)
    held = {f"held{i}" for i in range(5)}
    for name in sorted(held):
        pod = bare_pod(name, "")
        pod["metadata"]["annotations"] = {}
        pod["spec"]["schedulingGates"] = [{"name": SCHEDULING_GATE}]
        kube.create(pods_path, pod)
    time.sleep(3)
    assert all(gated(kube.get(f"{pods_path}/{n}")) for n in held)
    began = time.monotonic()
    try:
        cluster.helm("uninstall", cluster.release, "--namespace", cluster.namespace, "--wait", "--timeout", "3m")
        took = time.monotonic() - began
        pods = {p["metadata"]["name"]: p for p in kube.items(pods_path)}
        assert held | huge <= set(pods), "no pod lost"
        still = sorted(n for n, p in pods.items() if gated(p))
        assert not still, f"pods left behind our gate after helm uninstall: {still}"
        reasons: dict[str, set[str]] = {}
        for e in kube.items(f"/apis/events.k8s.io/v1/namespaces/{namespace}/events"):
            reasons.setdefault(e.get("reason", ""), set()).add(e["regarding"]["name"])
        assert held <= reasons.get("IntentGateReleased", set()), "each released pod says why (Event)"
        assert huge <= reasons.get("SchedulerUninstalled", set()), "each pod left Pending is told why (Event)"
        # Released pods keep their scheduler (the default one here) and are placed.
        wait_for(
            "released pods bound", lambda: all(kube.get(f"{pods_path}/{n}")["spec"].get("nodeName") for n in held), 60
        )
        node_report["drills"].append(
            f"drill helm uninstall ({took:.0f}s) with {len(held)} gated pods and no webhook pod: none gated after,"
            f" each released with an IntentGateReleased Event and then bound; {len(huge)} hinted pods Pending for"
            " the removed semantic-scheduler, each with a SchedulerUninstalled Event"
        )
    finally:
        cluster.install()
