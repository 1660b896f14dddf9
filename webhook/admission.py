"""``POST /mutate``: AdmissionReview (admission.k8s.io/v1) for pod CREATE.

``review`` is the pure pipeline (bytes in, a ``Decision`` out: HTTP status, reply body, outcome);
``make_handler`` wraps it for aiohttp with timing, metrics, logs and a catch-all, so a hostile or
broken request never raises out of the handler and never blocks a pod: anything we cannot handle
is allowed with a warning. Only a body that is not an AdmissionReview at all gets HTTP 400.

What the patch does (ARCHITECTURE.md 1.1): strip client-written ``semantic-affinity.io/*``
annotations except the hint (anti-forgery); on a cache hit write the signed intents; on a miss
write ``status: pending`` and the scheduling gate; optionally set ``spec.schedulerName``.
"""

from __future__ import annotations

import base64
import functools
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import web

from shared.codec import (
    HINT,
    MAX_OBJECT_ANNOTATION_BYTES,
    PREFIX,
    SCHEDULING_GATE,
    STATUS,
    Status,
    read_hint,
)
from shared.sanitise import SanitisedHint, sanitise
from webhook import patch
from webhook.metrics import Metrics
from webhook.results import Result, admission_warnings

log = logging.getLogger(__name__)

API_VERSIONS = ("admission.k8s.io/v1", "admission.k8s.io/v1beta1")
DEFAULT_SCHEDULER = "default-scheduler"
MAX_BODY_BYTES = 8 * 1024 * 1024  # a pod may carry 256 KiB of annotations plus its spec, twice (UPDATE)


class NotAdmissionReview(ValueError):
    """The body is not an AdmissionReview at all (HTTP 400)."""


@dataclass(frozen=True, slots=True)
class AdmissionConfig:
    """What the pipeline needs besides the request."""

    lookup: Callable[[SanitisedHint], Result | None]  # the intent cache, by sanitised hint
    hint_max_chars: int = 1000
    scheduler_name: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    http_status: int
    body: dict[str, Any]
    outcome: str  # hit, miss, no-hint, bound, too-large, skipped, malformed (the handler adds bad-request, error)
    dry_run: bool = False
    hint: SanitisedHint | None = None  # set on a miss: what the controller will analyse
    ops: tuple[dict[str, Any], ...] = ()
    forged: tuple[str, ...] = ()
    namespace: str = ""
    name: str = ""


def _reply(api_version: str, uid: str, ops: list[dict[str, Any]], warnings: list[str]) -> dict[str, Any]:
    response: dict[str, Any] = {"uid": uid, "allowed": True}
    if ops:
        response["patchType"] = "JSONPatch"
        response["patch"] = base64.b64encode(orjson.dumps(ops)).decode()
    if warnings:
        response["warnings"] = warnings
    return {"apiVersion": api_version, "kind": "AdmissionReview", "response": response}


def _allow(api_version: str, uid: str, outcome: str, warning: str | None = None, **extra: Any) -> Decision:
    return Decision(200, _reply(api_version, uid, [], [warning] if warning else []), outcome, **extra)


def parse(body: bytes) -> dict[str, Any]:
    """The AdmissionReview object, or NotAdmissionReview."""
    try:
        review_ = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise NotAdmissionReview(f"body is not JSON: {exc}") from exc
    if not isinstance(review_, dict) or review_.get("kind") != "AdmissionReview":
        raise NotAdmissionReview("body is not an AdmissionReview")
    if review_.get("apiVersion") not in API_VERSIONS:
        raise NotAdmissionReview(f"unsupported apiVersion {str(review_.get('apiVersion'))[:60]!r}")
    return review_


@functools.lru_cache(maxsize=4096)
def _sanitise_memo(hint: str, max_chars: int) -> SanitisedHint:
    return sanitise(hint, max_chars)


def sanitise_cached(hint: str, max_chars: int) -> SanitisedHint:
    """``sanitise`` memoised for ordinary hints: every replica of a workload sends the same text.

    Long (hostile) hints are not memoised, so the memo holds at most 4096 x 4 x max_chars characters.
    """
    if len(hint) > 4 * max_chars:
        return sanitise(hint, max_chars)
    return _sanitise_memo(hint, max_chars)


def is_ours(key: str) -> bool:
    """An output key only we may write: every ``semantic-affinity.io/*`` key except the user's hint."""
    return key.startswith(PREFIX) and key != HINT


def _size(annotations: Mapping[str, str]) -> int:
    return sum(len(k.encode()) + len(str(v).encode()) for k, v in annotations.items())


def review(body: bytes, config: AdmissionConfig) -> Decision:
    """The whole admission pipeline for one request body. Raises only NotAdmissionReview."""
    document = parse(body)
    api_version = document["apiVersion"]
    request = document.get("request")
    if not isinstance(request, dict):
        return _allow(api_version, "", "malformed", "semantic-affinity: AdmissionReview without a request; ignored")
    uid = request.get("uid")
    if not isinstance(uid, str):
        return _allow(api_version, "", "malformed", "semantic-affinity: request.uid is not a string; ignored")
    dry_run = request.get("dryRun") is True
    kind = request.get("kind") if isinstance(request.get("kind"), dict) else {}
    namespace = str(request.get("namespace") or "")
    if kind.get("kind") != "Pod" or kind.get("group") not in ("", None) or request.get("subResource"):
        return _allow(api_version, uid, "skipped", dry_run=dry_run)
    if request.get("operation") != "CREATE":
        # Only CREATE can add a scheduling gate; updates go through unchanged (intents are signed, so a
        # client editing them later only makes the scorer ignore them).
        return _allow(api_version, uid, "skipped", dry_run=dry_run)

    pod = request.get("object")
    metadata = pod.get("metadata") if isinstance(pod, dict) else None
    spec = pod.get("spec") if isinstance(pod, dict) else None
    if not isinstance(metadata, dict) or not isinstance(spec, dict):
        return _allow(api_version, uid, "malformed", "semantic-affinity: pod without metadata/spec; not analysed",
                      dry_run=dry_run)
    annotations = metadata.get("annotations")
    if annotations is not None and not isinstance(annotations, dict):
        return _allow(api_version, uid, "malformed", "semantic-affinity: metadata.annotations is not a map; ignored",
                      dry_run=dry_run)
    annotations = {str(k): v for k, v in (annotations or {}).items()} if annotations is not None else None
    name = str(metadata.get("name") or metadata.get("generateName") or "")
    warnings: list[str] = []

    forged = tuple(sorted(k for k in (annotations or {}) if is_ours(k)))
    kept = {k: v for k, v in (annotations or {}).items() if k not in forged}
    if forged:
        warnings.append(f"semantic-affinity: removed client-written annotation(s) {', '.join(forged)}"[:240])

    ours: dict[str, str] = {}
    hint_text = read_hint(kept)
    sanitised: SanitisedHint | None = None
    outcome = "no-hint"
    want_gate = False
    if hint_text is not None and spec.get("nodeName"):
        # Already bound (a gate would make the apiserver reject the pod): nothing to schedule.
        hint_text, outcome = None, "bound"
    if hint_text is not None:
        sanitised = sanitise_cached(hint_text, config.hint_max_chars)
        result = config.lookup(sanitised)
        if result is not None:
            outcome = "hit"
            ours = dict(result.hit_annotations)
            if result.document is not None:
                warnings += admission_warnings(result.document)
        else:
            outcome = "miss"
            ours = {STATUS: Status.PENDING.value}
            want_gate = True
        if _size({**kept, **ours}) > MAX_OBJECT_ANNOTATION_BYTES:
            # Writing would push the pod over the apiserver's limit and fail its creation: never block a pod.
            warnings.append("semantic-affinity: annotations too large to add intents; pod not analysed")
            outcome, ours, want_gate = "too-large", {}, False

    ops: list[dict[str, Any]] = []
    if annotations is not None:
        ops += [{"op": "remove", "path": patch.pointer("metadata", "annotations", k)} for k in forged if k not in ours]
        ops += patch.set_map_entries(annotations, ("metadata", "annotations"), ours)
    elif ours:
        ops += patch.set_map_entries(None, ("metadata", "annotations"), ours)

    # Our gate is ours too: a client copy without a miss would hold the pod for nothing.
    gate_at = patch.gate_index(spec, SCHEDULING_GATE)
    if want_gate:
        ops += patch.add_scheduling_gate(spec, SCHEDULING_GATE)
    elif gate_at is not None:
        ops.append({"op": "remove", "path": patch.pointer("spec", "schedulingGates", gate_at)})

    if config.scheduler_name and sanitised is not None and spec.get("schedulerName") in (None, "", DEFAULT_SCHEDULER):
        ops.append({"op": "add", "path": "/spec/schedulerName", "value": config.scheduler_name})

    return Decision(200, _reply(api_version, uid, ops, warnings), outcome, dry_run=dry_run,
                    hint=sanitised if outcome == "miss" else None, ops=tuple(ops), forged=forged,
                    namespace=namespace, name=name)


def _uid_of(body: bytes) -> tuple[str, str]:
    """Best effort (apiVersion, request.uid) for the catch-all reply."""
    try:
        data = orjson.loads(body)
        return str(data.get("apiVersion") or API_VERSIONS[0]), str(data["request"]["uid"])
    except Exception:
        return API_VERSIONS[0], ""


def make_handler(
    config: AdmissionConfig, metrics: Metrics, on_miss: Callable[[SanitisedHint], None] | None = None
) -> Callable[[web.Request], Any]:
    """The aiohttp handler. ``on_miss`` (not for dry-run) may start the analysis before the pod's watch event."""

    async def mutate(request: web.Request) -> web.Response:
        started = time.perf_counter()
        body = b""
        try:
            body = await request.read()
            try:
                decision = review(body, config)
            except NotAdmissionReview as exc:
                metrics.admission_decisions.labels("bad-request").inc()
                return web.json_response({"error": str(exc)}, status=400)
            if decision.forged:
                metrics.forged_annotations.inc(len(decision.forged))
            if decision.outcome in ("hit", "miss"):
                metrics.cache_lookups.labels(decision.outcome).inc()
            if decision.hint is not None and not decision.dry_run and on_miss is not None:
                on_miss(decision.hint)
            metrics.admission_decisions.labels(decision.outcome).inc()
            log.info("admission", extra={"outcome": decision.outcome, "dry_run": decision.dry_run,
                                         "namespace": decision.namespace, "pod": decision.name,
                                         "forged": list(decision.forged), "ops": len(decision.ops)})
            return web.Response(body=orjson.dumps(decision.body), status=decision.http_status,
                                content_type="application/json")
        except Exception:  # never block pod creation because of us
            log.exception("admission handler failed; allowing the pod unchanged")
            metrics.admission_decisions.labels("error").inc()
            api_version, uid = _uid_of(body)
            reply = _reply(api_version, uid, [], ["semantic-affinity: internal error; pod admitted without intents"])
            return web.Response(body=orjson.dumps(reply), content_type="application/json")
        finally:
            metrics.admission_latency.observe(time.perf_counter() - started)

    return mutate
