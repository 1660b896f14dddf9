"""The chart's pre-delete Job: `helm uninstall` leaves no pod behind our scheduling gate.

Without the webhook nobody would ever remove the gate, so pods that were waiting for analysis
would stay gated for ever. Before Helm deletes the release's objects this Job:

1. deletes the release's MutatingWebhookConfiguration, so no new pod is gated from now on
   (Helm's own delete of it then finds it gone, which it accepts);
2. removes our scheduling gate from every pod that still carries it (a JSON patch that tests the
   gate's name first, so it never removes someone else's gate), with a Warning Event on the pod;
3. reports every pod still Pending for the semantic scheduler, which is being uninstalled too: a
   Warning Event on each pod and a line in this Job's log. Such a pod stays Pending until it is
   recreated (``kubectl rollout restart`` of its workload, or deleting the pod): the webhook is
   gone then, so the new pod keeps its template's scheduler (the default one). ``schedulerName``
   of an existing pod cannot be changed, so this Job cannot move it itself.

Standard library only (kube_api.py beside it), like cert_job.py; configured by environment variables
from the Job template.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
import urllib.error
import uuid

from kube_api import Api

SETTLE_S = 2.0  # the API server's webhook-configuration informer picks the delete up within this


def gate_index(pod: dict, gate: str) -> int | None:
    for i, item in enumerate(pod.get("spec", {}).get("schedulingGates") or []):
        if item.get("name") == gate:
            return i
    return None


def release_patch(index: int, gate: str) -> list[dict]:
    """JSON patch removing the gate at ``index``, only if it still is ours (test before remove)."""
    path = f"/spec/schedulingGates/{index}"
    return [{"op": "test", "path": f"{path}/name", "value": gate}, {"op": "remove", "path": path}]


def pending_for(pod: dict, scheduler: str) -> bool:
    spec, status = pod.get("spec", {}), pod.get("status", {})
    return spec.get("schedulerName") == scheduler and not spec.get("nodeName") and status.get("phase") == "Pending"


def event(pod: dict, reason: str, message: str, instance: str) -> dict:
    meta = pod["metadata"]
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        # A generateName may not end in ".": the name is made here, like kubectl's events are.
        "metadata": {"name": f"{meta['name'][:200]}.{uuid.uuid4().hex[:16]}", "namespace": meta["namespace"]},
        "eventTime": now,
        "reportingController": "semantic-affinity.io/uninstall",
        "reportingInstance": instance,
        "action": "Uninstall",
        "reason": reason,
        "type": "Warning",
        "note": message[:1024],
        "regarding": {"apiVersion": "v1", "kind": "Pod", "namespace": meta["namespace"], "name": meta["name"],
                      "uid": meta["uid"]},
    }


def run(api: Api, env: dict[str, str]) -> dict[str, int]:
    gate, scheduler, instance = env["GATE"], env["SCHEDULER_NAME"], env.get("POD_NAME", "uninstall")
    counts = {"released": 0, "pending": 0}
    configuration = env["WEBHOOK_CONFIGURATION"]
    try:
        api.request("DELETE", f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{configuration}")
    except urllib.error.HTTPError as exc:
        if exc.code != 404:
            raise
    time.sleep(SETTLE_S)
    # Twice: a pod admitted while the configuration was being deleted is caught by the second pass.
    for _ in range(2):
        for pod in api.items("/api/v1/pods"):
            index = gate_index(pod, gate)
            if index is None:
                continue
            meta = pod["metadata"]
            try:
                api.request("PATCH", f"/api/v1/namespaces/{meta['namespace']}/pods/{meta['name']}",
                            release_patch(index, gate), "application/json-patch+json")
            except urllib.error.HTTPError as exc:
                if exc.code in (404, 422):  # gone, or the gate moved (the next pass sees it again)
                    continue
                raise
            counts["released"] += 1
            api.request("POST", f"/apis/events.k8s.io/v1/namespaces/{meta['namespace']}/events", event(
                pod, "IntentGateReleased",
                "semantic-affinity is being uninstalled: the intent-analysis gate was removed, no intents were "
                "written", instance))
        time.sleep(SETTLE_S)
    for pod in api.items("/api/v1/pods"):
        if not pending_for(pod, scheduler):
            continue
        meta = pod["metadata"]
        counts["pending"] += 1
        message = (f"semantic-affinity is being uninstalled and with it the scheduler {scheduler!r}: this pod "
                   "stays Pending until it is recreated (kubectl rollout restart of its workload, or delete the "
                   "pod); a new pod keeps its template's scheduler")
        print(f"{meta['namespace']}/{meta['name']}: {message}", flush=True)
        api.request("POST", f"/apis/events.k8s.io/v1/namespaces/{meta['namespace']}/events",
                    event(pod, "SchedulerUninstalled", message, instance))
    return counts


def main() -> int:
    counts = run(Api.in_cluster(), dict(os.environ))
    print(json.dumps({"msg": "uninstall cleanup done", **counts}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
