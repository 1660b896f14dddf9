"""events.k8s.io/v1 Events on pods, shaped so ``kubectl describe pod`` shows them.

describe finds events by ``involvedObject`` name, namespace, kind *and uid* (converted from
``regarding``), so the reference must carry the real pod uid: only the controller, after the pod
exists, can emit them (research/k8s-contracts.md section 5).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Any, Protocol

log = logging.getLogger(__name__)

REPORTING_CONTROLLER = "semantic-affinity.io/webhook"
ACTION = "AnalyseIntent"
NOTE_LIMIT = 1024  # NoteLengthLimit in events validation

ANALYZED = "IntentAnalyzed"
FAILED = "IntentAnalysisFailed"
CONFLICT = "IntentConflict"
NOT_APPLIED = "HintNotApplied"


def micro_time(moment: datetime) -> str:
    """MicroTime as the apiserver writes it: RFC 3339 in UTC with exactly six fractional digits."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def read_time(value: Any) -> datetime | None:
    """An RFC 3339 Time or MicroTime from the API (``Z`` or an offset), None if absent or bad."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def build_event(
    pod: dict[str, Any], *, reason: str, note: str, warning: bool, instance: str,
    now: datetime, nanos: int, action: str = ACTION,
) -> dict[str, Any]:
    """One Event about ``pod`` (which must carry name, namespace and uid)."""
    metadata = pod["metadata"]
    return {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": {"name": f"{metadata['name']}.{nanos:x}"[:253], "namespace": metadata["namespace"]},
        "eventTime": micro_time(now),
        "reportingController": REPORTING_CONTROLLER,
        "reportingInstance": (instance or "semantic-affinity-webhook")[:128],
        "action": action[:128],
        "reason": reason[:128],
        "type": "Warning" if warning else "Normal",
        "note": _clip(note, NOTE_LIMIT),
        "regarding": {
            "apiVersion": "v1",
            "kind": "Pod",
            "name": metadata["name"],
            "namespace": metadata["namespace"],
            "uid": metadata["uid"],
            **({"resourceVersion": metadata["resourceVersion"]} if metadata.get("resourceVersion") else {}),
        },
    }


class EventApi(Protocol):
    async def create_event(self, namespace: str, event: dict[str, Any]) -> dict[str, Any]: ...


# Events in flight at once: a new leader may owe Events for thousands of pending pods, and a burst of
# that many requests would compete with the calls that finish gated pods.
EVENTS_IN_FLIGHT = 8


class EventRecorder:
    """Emits events; a failed emit is logged and counted, never raised (events are best effort)."""

    def __init__(self, api: EventApi, instance: str, metrics: Any = None) -> None:
        self._api = api
        self._instance = instance
        self._metrics = metrics
        self._gate = asyncio.Semaphore(EVENTS_IN_FLIGHT)

    async def emit(self, pod: dict[str, Any], reason: str, note: str, *, warning: bool = False) -> None:
        event = build_event(pod, reason=reason, note=note, warning=warning, instance=self._instance,
                            now=datetime.now(UTC), nanos=time.time_ns())
        try:
            async with self._gate:
                await self._api.create_event(event["metadata"]["namespace"], event)
            result = "ok"
        except Exception as exc:
            result = "error"
            log.warning("event not recorded", extra={"reason": reason, "pod": pod["metadata"].get("name"),
                                                     "error": str(exc)})
        if self._metrics is not None:
            self._metrics.events.labels(reason, result).inc()
