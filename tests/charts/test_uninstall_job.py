"""files/uninstall_job.py (the pre-delete Job) on real pod payloads, without a cluster."""

from __future__ import annotations

import re
from types import ModuleType

import jsonpatch
import pytest

from shared.codec import SCHEDULING_GATE
from tests.charts.render import load_script

# metadata.name of an Event: an RFC 1123 subdomain.
SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


@pytest.fixture(scope="module")
def job() -> ModuleType:
    return load_script("uninstall_job")


def pod(gates: list[str], scheduler: str = "semantic-scheduler", node: str = "") -> dict:
    return {
        "metadata": {"name": "web-7d4b9c-x2x9z", "namespace": "shop", "uid": "0b7c3f2e-1d2a-4c1e-9f6d-3a9e1b2c4d5e"},
        "spec": {
            "schedulerName": scheduler,
            "schedulingGates": [{"name": g} for g in gates],
            "containers": [{"name": "app", "image": "nginx"}],
            **({"nodeName": node} if node else {}),
        },
        "status": {"phase": "Pending"},
    }


def test_release_patch_removes_only_our_gate(job: ModuleType) -> None:
    gated = pod(["example.com/quota", SCHEDULING_GATE, "example.com/other"])
    index = job.gate_index(gated, SCHEDULING_GATE)
    released = jsonpatch.apply_patch(gated, job.release_patch(index, SCHEDULING_GATE))
    assert [g["name"] for g in released["spec"]["schedulingGates"]] == ["example.com/quota", "example.com/other"]


def test_release_patch_fails_when_the_gate_moved(job: ModuleType) -> None:
    # The test op protects someone else's gate if ours was removed between list and patch.
    patch = job.release_patch(1, SCHEDULING_GATE)
    with pytest.raises(jsonpatch.JsonPatchTestFailed):
        jsonpatch.apply_patch(pod(["example.com/quota", "example.com/other"]), patch)


def test_pods_without_our_gate_are_left_alone(job: ModuleType) -> None:
    assert job.gate_index(pod(["example.com/quota"]), SCHEDULING_GATE) is None
    assert job.gate_index(pod([]), SCHEDULING_GATE) is None


def test_only_unbound_pending_pods_of_our_scheduler_are_reported(job: ModuleType) -> None:
    assert job.pending_for(pod([]), "semantic-scheduler")
    assert not job.pending_for(pod([], node="m02"), "semantic-scheduler")
    assert not job.pending_for(pod([], scheduler="default-scheduler"), "semantic-scheduler")


def test_event_is_a_valid_events_k8s_io_v1_event(job: ModuleType) -> None:
    event = job.event(pod([]), "SchedulerUninstalled", "stays Pending", "semaff-uninstall-abcde")
    assert SUBDOMAIN.fullmatch(event["metadata"]["name"]), event["metadata"]["name"]
    assert event["metadata"]["namespace"] == "shop"
    assert event["regarding"]["uid"] == "0b7c3f2e-1d2a-4c1e-9f6d-3a9e1b2c4d5e"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", event["eventTime"])  # MicroTime
    assert event["type"] == "Warning" and event["action"] and event["reportingController"]
