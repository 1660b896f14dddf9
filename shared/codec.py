"""Annotation keys and the codec between pods and intent documents (ARCHITECTURE.md 2.1).

Kubernetes limits: an annotation key's name part is at most 63 characters and its prefix at most
253; all annotations of one object together at most 256 KiB. We cap what we write far lower
(``MAX_INTENTS_BYTES`` for the document, ``MAX_OUTPUT_BYTES`` for all our keys) so a hint can
never push a pod over the object limit; exceeding a cap raises ``AnnotationTooLarge``.

Reading is strict: the intents annotation must validate against the canonical schema, be byte-for-
byte canonical, and carry a valid signature over the pod's own hint. Anything else raises
``IntentRejected`` with a short ``reason`` that the scorer counts in a metric.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import orjson

from shared.intents import IntentDocument, canonical_json, summarise
from shared.sanitise import DEFAULT_MAX_CHARS, sanitise
from shared.schemas import CANONICAL_VALIDATOR
from shared.signing import SignatureError, Signer, Verifier

PREFIX = "semantic-affinity.io/"
HINT = PREFIX + "hint"
LEGACY_HINT = "allocation_hint"  # the paper's key
INTENTS = PREFIX + "intents"
SIGNATURE = PREFIX + "signature"
STATUS = PREFIX + "status"
ANALYSIS = PREFIX + "analysis"
SUMMARY = PREFIX + "summary"
SCHEDULING_GATE = PREFIX + "intent-analysis"

OUTPUT_KEYS = (INTENTS, SIGNATURE, STATUS, ANALYSIS, SUMMARY)

MAX_INTENTS_BYTES = 8 * 1024
MAX_OUTPUT_BYTES = 16 * 1024
MAX_OBJECT_ANNOTATION_BYTES = 256 * 1024  # Kubernetes' TotalAnnotationSizeLimitB
MAX_ERROR_CHARS = 500


class Status(StrEnum):
    PENDING = "pending"
    ANALYZED = "analyzed"
    NO_INTENT = "no-intent"
    FAILED = "failed"


class AnnotationTooLarge(ValueError):
    """What we would write exceeds our cap; the caller records status ``failed`` instead."""


class IntentRejected(ValueError):
    """The pod's intents cannot be trusted or read; ``reason`` is a short metric label."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Analysis:
    """The ``analysis`` annotation: how the document came to be."""

    analyser: str
    model: str
    prompt_version: str
    hint_sha256: str
    latency_ms: float = 0.0
    cached: bool = False
    error: str | None = None
    reason: str | None = None  # why an analysis found no intent, when the analyser knows

    def to_json(self) -> str:
        extra = {"reason": self.reason} if self.reason else {}
        return canonical_json({
            **extra,
            "analyser": self.analyser,
            "model": self.model,
            "prompt_version": self.prompt_version,
            "latency_ms": round(self.latency_ms, 1),
            "cached": self.cached,
            "hint_sha256": self.hint_sha256,
            "error": self.error,
        }).decode()

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        data = orjson.loads(text)
        return cls(
            analyser=str(data["analyser"]),
            model=str(data["model"]),
            prompt_version=str(data["prompt_version"]),
            hint_sha256=str(data["hint_sha256"]),
            latency_ms=float(data.get("latency_ms", 0.0)),
            cached=bool(data.get("cached", False)),
            error=data.get("error"),
            reason=data.get("reason"),
        )


def read_hint(annotations: Mapping[str, str] | None) -> str | None:
    """The user's hint: ``semantic-affinity.io/hint`` wins over ``allocation_hint``; blank is none."""
    if not annotations:
        return None
    for key in (HINT, LEGACY_HINT):
        value = annotations.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def encode_document(document: IntentDocument) -> str:
    data = document.canonical_bytes()
    if len(data) > MAX_INTENTS_BYTES:
        raise AnnotationTooLarge(f"intent document is {len(data)} bytes, cap is {MAX_INTENTS_BYTES}")
    return data.decode()


def build_annotations(
    document: IntentDocument, analysis: Analysis, signer: Signer, status: Status | None = None
) -> dict[str, str]:
    """Every output annotation for an analysed hint (status ``analyzed`` or ``no-intent``)."""
    if status is None:
        status = Status.ANALYZED if document.intents else Status.NO_INTENT
    annotations = {
        INTENTS: encode_document(document),
        SIGNATURE: signer.sign(analysis.hint_sha256, document),
        STATUS: status.value,
        ANALYSIS: analysis.to_json(),
        SUMMARY: summarise(document),
    }
    size = sum(len(k) + len(v.encode()) for k, v in annotations.items())
    if size > MAX_OUTPUT_BYTES:
        raise AnnotationTooLarge(f"output annotations are {size} bytes, cap is {MAX_OUTPUT_BYTES}")
    return annotations


def failed_annotations(analysis: Analysis) -> dict[str, str]:
    """Annotations for a hint whose analysis failed: no intents, so the pod schedules neutrally.

    The error text (often a backend's response body) is cut to ``MAX_ERROR_CHARS`` so a failure can
    never push the pod over the annotation size limit.
    """
    error = analysis.error
    if error is not None and len(error) > MAX_ERROR_CHARS:
        analysis = replace(analysis, error=error[: MAX_ERROR_CHARS - 1] + "…")
    return {STATUS: Status.FAILED.value, ANALYSIS: analysis.to_json(), SUMMARY: f"analysis failed: {analysis.error}"}


def decode_document(text: str) -> IntentDocument:
    """Parse an intents annotation; it must be valid *and* canonical. Raises IntentRejected."""
    if len(text) > MAX_INTENTS_BYTES:
        raise IntentRejected("too-large", f"{len(text)} bytes")
    try:
        data: Any = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise IntentRejected("undecodable", str(exc)) from exc
    errors = list(CANONICAL_VALIDATOR.iter_errors(data))
    if errors:
        raise IntentRejected("invalid", errors[0].message[:200])
    document = IntentDocument.from_dict(data)
    if document.canonical_bytes() != text.encode():
        raise IntentRejected("non-canonical")
    return document


def read_intents(
    annotations: Mapping[str, str] | None, verifier: Verifier, max_hint_chars: int = DEFAULT_MAX_CHARS
) -> IntentDocument:
    """The verified intent document of a pod. Raises IntentRejected (``no-intents``, ``unsigned``, ...)."""
    annotations = annotations or {}
    text = annotations.get(INTENTS)
    if not text:
        raise IntentRejected("no-intents")
    signature = annotations.get(SIGNATURE)
    if not signature:
        raise IntentRejected("unsigned")
    hint = read_hint(annotations)
    if hint is None:
        raise IntentRejected("no-hint")
    document = decode_document(text)
    try:
        verifier.verify(signature, sanitise(hint, max_hint_chars).sha256, document)
    except SignatureError as exc:
        raise IntentRejected(exc.reason) from exc
    return document
