"""Event bodies as events.k8s.io/v1 validation and `kubectl describe` need them."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from webhook.events import NOTE_LIMIT, REPORTING_CONTROLLER, build_event, micro_time

POD = {"metadata": {"name": "trainer-6d8f7c9b5-x7k2q", "namespace": "ml",
                    "uid": "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e", "resourceVersion": "4711"}}
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def test_micro_time_is_utc_with_six_digits() -> None:
    moment = datetime(2026, 11, 30, 12, 0, 0, 5, tzinfo=timezone(timedelta(hours=2)))
    assert micro_time(moment) == "2026-11-30T10:00:00.000005Z"


def test_event_shape() -> None:
    event = build_event(POD, reason="IntentAnalysisFailed", note="x" * 5000, warning=True, instance="replica-1",
                        now=datetime(2026, 11, 30, tzinfo=UTC), nanos=1_764_460_800_123_456_789)
    assert event["apiVersion"] == "events.k8s.io/v1" and event["kind"] == "Event"
    assert DNS_SUBDOMAIN.match(event["metadata"]["name"]) and event["metadata"]["namespace"] == "ml"
    assert event["regarding"] == {"apiVersion": "v1", "kind": "Pod", "name": POD["metadata"]["name"],
                                  "namespace": "ml", "uid": POD["metadata"]["uid"], "resourceVersion": "4711"}
    assert event["type"] == "Warning" and event["reportingController"] == REPORTING_CONTROLLER
    assert event["reportingInstance"] == "replica-1" and event["action"] == "AnalyseIntent"
    assert len(event["note"]) == NOTE_LIMIT and event["note"].endswith(" ...")
    assert event["eventTime"] == "2026-11-30T00:00:00.000000Z"
    for forbidden in ("deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount"):
        assert forbidden not in event
