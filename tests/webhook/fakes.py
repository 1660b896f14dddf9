"""An in-memory stand-in for the few kube-apiserver calls the controller makes (unit tests only).

Clearly a substitute: the real thing is exercised in test_controller_e2e.py against a real
kube-apiserver. What it does model is what the controller's correctness rests on: JSON Patch
applied by the ``jsonpatch`` reference implementation, with the apiserver's two quirks that matter
(a ``test`` compares raw JSON bytes, Go-encoded stored value against the client's encoding, and
fails with HTTP 422; a resourceVersion in the patched object is a precondition, 409), selected
list+watch (label existence, ``spec.nodeName=``) where a pod that stops matching is reported
DELETED, scheduling gates that can only be removed, resourceVersions, 404 for missing pods, and
Lease writes guarded by resourceVersion.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import jsonpatch
import jsonpointer

from webhook.kube import KubeError, Resource


def go_json(value: Any) -> str:
    """``value`` as Go's encoding/json writes it into a stored object: UTF-8 kept raw, but ``<``, ``>``,
    ``&``, U+2028 and U+2029 escaped."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def client_json(value: Any) -> str:
    """``value`` as kubernetes-asyncio sends it in a patch body (``json.dumps``: non-ASCII escaped)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def raw_test_failures(document: dict[str, Any], ops: list[dict[str, Any]]) -> list[str]:
    """Paths of ``test`` ops that kube-apiserver's JSON-Patch library would fail: it compares the two
    values' JSON bytes without decoding escapes (evanphx/json-patch ``lazyNode.equal``)."""
    failed = []
    for op in ops:
        if op.get("op") != "test":
            continue
        try:
            current = jsonpointer.resolve_pointer(document, op["path"])
        except jsonpointer.JsonPointerException:
            failed.append(op["path"])
            continue
        if go_json(current) != client_json(op.get("value")):
            failed.append(op["path"])
    return failed


class FakeKube:
    def __init__(self) -> None:
        self.pods: dict[tuple[str, str], dict[str, Any]] = {}
        self.workloads: dict[str, list[dict[str, Any]]] = {"deployments": [], "statefulsets": [], "jobs": []}
        self.events: list[dict[str, Any]] = []
        self.leases: dict[tuple[str, str], dict[str, Any]] = {}
        self.patches: list[tuple[str, list[dict[str, Any]]]] = []
        self.fail_patches: list[int | Exception] = []  # statuses (or exceptions) for the next patches
        self._rv = itertools.count(100)
        self._uid = itertools.count(1)
        self._watchers: list[tuple[tuple[str, str], asyncio.Queue[tuple[str, dict[str, Any]]]]] = []

    # -- helpers for tests
    def add_pod(self, pod: dict[str, Any]) -> dict[str, Any]:
        pod = copy.deepcopy(pod)
        metadata = pod["metadata"]
        metadata.setdefault("uid", f"uid-{next(self._uid)}")
        if not metadata.get("creationTimestamp"):  # null at admission, set by the apiserver on create
            metadata["creationTimestamp"] = "2026-11-30T10:00:00Z"
        metadata["resourceVersion"] = str(next(self._rv))
        self.pods[(metadata["namespace"], metadata["name"])] = pod
        self._notify("ADDED", pod, None)
        return copy.deepcopy(pod)

    def pod(self, namespace: str, name: str) -> dict[str, Any]:
        return copy.deepcopy(self.pods[(namespace, name)])

    @staticmethod
    def _matches(pod: dict[str, Any] | None, selector: tuple[str, str]) -> bool:
        if pod is None:
            return False
        label, field = selector
        if label and label not in (pod["metadata"].get("labels") or {}):
            return False
        if field:
            assert field == "spec.nodeName=", field  # the only field selector the controller uses
            return not pod["spec"].get("nodeName")
        return True

    def _notify(self, kind: str, pod: dict[str, Any], before: dict[str, Any] | None) -> None:
        for selector, queue in self._watchers:
            now, was = self._matches(pod, selector) and kind != "DELETED", self._matches(before, selector)
            if now:
                queue.put_nowait(("ADDED" if not was else "MODIFIED", copy.deepcopy(pod)))
            elif was:
                queue.put_nowait(("DELETED", copy.deepcopy(pod)))

    # -- the Kube surface the controller uses
    async def list(self, resource: Resource, label_selector: str = "",
                   field_selector: str = "") -> tuple[list[dict[str, Any]], str]:
        if resource.kind == "pods":
            selector = (label_selector, field_selector)
            items = [copy.deepcopy(p) for p in self.pods.values() if self._matches(p, selector)]
        else:
            items = copy.deepcopy(self.workloads[resource.kind])
        return items, str(next(self._rv))

    async def watch(self, resource: Resource, resource_version: str,
                    label_selector: str = "", field_selector: str = "") -> AsyncIterator[tuple[str, dict[str, Any]]]:
        if resource.kind != "pods":
            await asyncio.Event().wait()  # workloads never change in these tests
        queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        entry = ((label_selector, field_selector), queue)
        self._watchers.append(entry)
        try:
            while True:
                yield await queue.get()
        finally:
            self._watchers.remove(entry)

    async def get_pod(self, namespace: str, name: str) -> dict[str, Any]:
        await asyncio.sleep(0)
        if (namespace, name) not in self.pods:
            raise KubeError(404, "NotFound")
        return self.pod(namespace, name)

    async def patch_pod(self, namespace: str, name: str, ops: list[dict[str, Any]]) -> dict[str, Any]:
        await asyncio.sleep(0)
        self.patches.append((name, copy.deepcopy(ops)))
        if self.fail_patches:
            failure = self.fail_patches.pop(0)
            raise failure if isinstance(failure, Exception) else KubeError(failure, "injected")
        before = self.pods.get((namespace, name))
        if before is None:
            raise KubeError(404, "NotFound")
        failed = raw_test_failures(before, ops)
        if failed:
            raise KubeError(422, "Invalid", json.dumps({"kind": "Status", "code": 422, "reason": "Invalid",
                                                        "message": f"test failed at {failed[0]}"}).encode())
        try:
            after = jsonpatch.apply_patch(before, ops)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as exc:
            raise KubeError(422, "Invalid", str(exc).encode()) from exc
        if after["metadata"].get("resourceVersion") != before["metadata"].get("resourceVersion"):
            raise KubeError(409, "Conflict", b'{"kind":"Status","code":409,"reason":"Conflict",'
                                             b'"message":"the object has been modified"}')
        old_gates = [g["name"] for g in before["spec"].get("schedulingGates") or []]
        new_gates = [g["name"] for g in after["spec"].get("schedulingGates") or []]
        if not set(new_gates) <= set(old_gates):
            raise KubeError(422, "Invalid", b"scheduling gates can only be removed")
        if any(not isinstance(v, str) for v in (after["metadata"].get("annotations") or {}).values()):
            raise KubeError(422, "Invalid", b"annotation values must be strings")
        after["metadata"]["resourceVersion"] = str(next(self._rv))
        self.pods[(namespace, name)] = after
        self._notify("MODIFIED", after, before)
        return copy.deepcopy(after)

    def delete_pod(self, namespace: str, name: str) -> None:
        pod = self.pods.pop((namespace, name))
        self._notify("DELETED", pod, pod)

    async def create_event(self, namespace: str, event: dict[str, Any]) -> dict[str, Any]:
        self.events.append(copy.deepcopy(event))
        return event

    async def get_lease(self, namespace: str, name: str) -> dict[str, Any] | None:
        lease = self.leases.get((namespace, name))
        return copy.deepcopy(lease) if lease else None

    async def create_lease(self, namespace: str, lease: dict[str, Any]) -> dict[str, Any]:
        key = (namespace, lease["metadata"]["name"])
        if key in self.leases:
            raise KubeError(409, "AlreadyExists")
        lease = copy.deepcopy(lease)
        lease["metadata"]["resourceVersion"] = str(next(self._rv))
        self.leases[key] = lease
        return copy.deepcopy(lease)

    async def replace_lease(self, namespace: str, name: str, lease: dict[str, Any]) -> dict[str, Any]:
        current = self.leases.get((namespace, name))
        if current is None:
            raise KubeError(404, "NotFound")
        if lease["metadata"].get("resourceVersion") != current["metadata"]["resourceVersion"]:
            raise KubeError(409, "Conflict")
        lease = copy.deepcopy(lease)
        lease["metadata"]["resourceVersion"] = str(next(self._rv))
        self.leases[(namespace, name)] = lease
        return copy.deepcopy(lease)

    async def close(self) -> None:
        return None
