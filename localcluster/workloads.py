"""Workloads on the harness: apply manifests, wait until pods are bound, read placements, describe a pod.

"Scheduled" means bound here (no kubelet): a pod counts once ``spec.nodeName`` is set.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from localcluster.kube import ApiError, Kube

PAUSE_IMAGE = "registry.k8s.io/pause:3.10"

_PATHS = {
    ("apps/v1", "Deployment"): "/apis/apps/v1/namespaces/{ns}/deployments",
    ("v1", "Pod"): "/api/v1/namespaces/{ns}/pods",
    ("v1", "ConfigMap"): "/api/v1/namespaces/{ns}/configmaps",
}


def deployment(
    name: str,
    replicas: int,
    *,
    hint: str | None = None,
    scheduler_name: str | None = None,
    affinity: Mapping[str, Any] | None = None,
    topology_spread: Iterable[Mapping[str, Any]] = (),
    labels: Mapping[str, str] | None = None,
    cpu: str = "100m",
    memory: str = "64Mi",
) -> dict[str, Any]:
    """An apps/v1 Deployment of pause containers; the hint goes on the pod template, as a user writes it."""
    pod_labels = {"app": name, **(labels or {})}
    spec: dict[str, Any] = {
        "containers": [
            {"name": "app", "image": PAUSE_IMAGE, "resources": {"requests": {"cpu": cpu, "memory": memory}}}
        ],
        "terminationGracePeriodSeconds": 0,
    }
    if scheduler_name:
        spec["schedulerName"] = scheduler_name
    if affinity:
        spec["affinity"] = dict(affinity)
    if topology_spread:
        spec["topologySpreadConstraints"] = [dict(c) for c in topology_spread]
    template_meta: dict[str, Any] = {"labels": pod_labels}
    if hint:
        template_meta["annotations"] = {"semantic-affinity.io/hint": hint}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": template_meta, "spec": spec},
        },
    }


def load_manifests(path: str | Path) -> list[dict[str, Any]]:
    """Every object of a (multi-document) YAML file."""
    return [d for d in yaml.safe_load_all(Path(path).read_text()) if d]


def apply(kube: Kube, namespace: str, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Create the object, or replace it if it exists (what ``kubectl apply`` amounts to for these tests)."""
    key = (manifest["apiVersion"], manifest["kind"])
    if key not in _PATHS:
        raise ValueError(f"apply does not know {key}")
    base = _PATHS[key].format(ns=namespace)
    try:
        return kube.create(base, manifest)
    except ApiError as exc:
        if exc.status != 409:
            raise
    name = manifest["metadata"]["name"]
    current = kube.get(f"{base}/{name}")
    body = {**manifest, "metadata": {**manifest["metadata"], "resourceVersion": current["metadata"]["resourceVersion"]}}
    return kube.request("PUT", f"{base}/{name}", body)


def pods(kube: Kube, namespace: str, selector: str | None = None) -> list[dict[str, Any]]:
    """Live pods (being deleted ones left out), sorted by name."""
    items = kube.items(f"/api/v1/namespaces/{namespace}/pods", labelSelector=selector)
    return sorted((p for p in items if not p["metadata"].get("deletionTimestamp")), key=lambda p: p["metadata"]["name"])


def wait_bound(kube: Kube, namespace: str, selector: str, count: int, timeout: float = 120) -> dict[str, str]:
    """Wait until ``count`` pods match and every one has ``spec.nodeName``; return {pod: node}.

    On timeout the error lists the pods still unbound with their PodScheduled condition.
    """
    deadline = time.monotonic() + timeout
    while True:
        current = pods(kube, namespace, selector)
        bound = {p["metadata"]["name"]: p["spec"].get("nodeName") for p in current}
        if len(bound) >= count and all(bound.values()):
            return bound  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise TimeoutError(
                f"{namespace}/{selector}: {sum(1 for n in bound.values() if n)}/{count} pods bound "
                f"after {timeout:.0f}s; "
                + "; ".join(
                    f"{p['metadata']['name']}: {unscheduled_reason(p)}"
                    for p in current
                    if not p["spec"].get("nodeName")
                )
            )
        time.sleep(0.3)


def unscheduled_reason(pod: Mapping[str, Any]) -> str:
    """Why a pod is not bound: scheduling gates, or the PodScheduled condition's reason and message."""
    gates = [g["name"] for g in pod["spec"].get("schedulingGates") or []]
    if gates:
        return f"gated by {', '.join(gates)}"
    for condition in pod.get("status", {}).get("conditions") or []:
        if condition["type"] == "PodScheduled" and condition["status"] != "True":
            return f"{condition.get('reason')}: {condition.get('message', '')}"
    return "not yet seen by the scheduler"


def wait_settled(kube: Kube, namespace: str, selector: str, count: int, timeout: float = 60) -> list[dict[str, Any]]:
    """Wait until ``count`` pods exist and each is either bound or marked Unschedulable (for baselines that fail)."""
    deadline = time.monotonic() + timeout
    while True:
        current = pods(kube, namespace, selector)
        settled = [p for p in current if p["spec"].get("nodeName") or _unschedulable(p)]
        if len(current) >= count and len(settled) == len(current):
            return current
        if time.monotonic() >= deadline:
            return current
        time.sleep(0.3)


def _unschedulable(pod: Mapping[str, Any]) -> bool:
    return any(
        c["type"] == "PodScheduled" and c.get("reason") == "Unschedulable"
        for c in pod.get("status", {}).get("conditions") or []
    )


def placement(bound: Mapping[str, str | None]) -> dict[str, int]:
    """Pods per node (unbound pods under ``Pending``), sorted by node name."""
    counts = collections.Counter(node or "Pending" for node in bound.values())
    return dict(sorted(counts.items()))


def describe_pod(kube: Kube, namespace: str, name: str) -> str:
    """A ``kubectl describe pod``-like text: identity, node, annotations, conditions and Events."""
    pod = kube.get(f"/api/v1/namespaces/{namespace}/pods/{name}")
    meta, spec, status = pod["metadata"], pod["spec"], pod.get("status", {})
    lines = [
        f"Name:             {meta['name']}",
        f"Namespace:        {meta['namespace']}",
        f"Scheduler:        {spec.get('schedulerName', '')}",
        f"Node:             {spec.get('nodeName') or '<none>'}",
        "Labels:           "
        + "\n                  ".join(f"{k}={v}" for k, v in sorted((meta.get("labels") or {}).items())),
        "Annotations:",
    ]
    for key, value in sorted((meta.get("annotations") or {}).items()):
        lines.append(f"  {key}: {value}")
    lines.append(f"Status:           {status.get('phase', '')}")
    gates = spec.get("schedulingGates") or []
    lines.append(f"Scheduling Gates: {', '.join(g['name'] for g in gates) or '<none>'}")
    lines.append("Conditions:")
    for condition in status.get("conditions") or []:
        lines.append(f"  {condition['type']:<16} {condition['status']:<6} {condition.get('reason', '')}")
    events = kube.items(
        f"/api/v1/namespaces/{namespace}/events",
        fieldSelector=f"involvedObject.name={name},involvedObject.namespace={namespace},"
        f"involvedObject.kind=Pod,involvedObject.uid={meta['uid']}",
    )
    lines.append("Events:")
    lines.append(f"  {'Type':<8} {'Reason':<22} {'From':<36} Message")
    for event in sorted(events, key=lambda e: e.get("eventTime") or e.get("firstTimestamp") or ""):
        source = (event.get("source") or {}).get("component") or event.get("reportingComponent") or ""
        lines.append(
            f"  {event.get('type', ''):<8} {event.get('reason', ''):<22} {source:<36} {event.get('message', '')}"
        )
    if not events:
        lines.append("  <none>")
    return "\n".join(lines)
