"""Analysis results as the webhook stores and writes them: cache keys, signed annotations, warnings.

Shared by the admission handler (cache hits) and the intent controller (fresh analyses, seeding
the cache from pods). A result carries its annotations ready-made and signed, so a cache hit at
admission costs a dictionary lookup and no signing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.codec import (
    ANALYSIS,
    STATUS,
    Analysis,
    AnnotationTooLarge,
    IntentRejected,
    Status,
    build_annotations,
    failed_annotations,
    read_hint,
    read_intents,
)
from shared.intents import IntentDocument
from shared.sanitise import SanitisedHint, sanitise
from shared.signing import Signer
from webhook.analysers.base import Outcome
from webhook.analysers.cache import CacheKey

LOW_CONFIDENCE = 0.6  # below this an intent is mentioned in the admission warnings


@dataclass(frozen=True, slots=True)
class AnalyserId:
    """Which backend, model and prompt produced a result: two of them never share cache entries."""

    name: str
    model: str
    prompt_version: str

    @classmethod
    def of(cls, analyser: Any) -> AnalyserId:
        return cls(str(analyser.name), str(analyser.model), str(analyser.prompt_version))

    def key(self, hint_sha256: str) -> CacheKey:
        return CacheKey(hint_sha256, f"{self.name}:{self.model}", self.prompt_version)


@dataclass(frozen=True, slots=True)
class Result:
    """One hint's analysis, with the output annotations for a fresh write and for a cache hit."""

    hint_sha256: str
    document: IntentDocument | None  # None: the analysis failed
    analysis: Analysis
    annotations: Mapping[str, str]
    hit_annotations: Mapping[str, str]  # the same with analysis.cached = true

    @property
    def failed(self) -> bool:
        return self.document is None

    @property
    def status(self) -> Status:
        return Status(self.annotations[STATUS])

    @property
    def error(self) -> str | None:
        return self.analysis.error


def _with_hit(annotations: Mapping[str, str], analysis: Analysis) -> dict[str, str]:
    return {**annotations, ANALYSIS: dataclasses.replace(analysis, cached=True).to_json()}


def from_outcome(outcome: Outcome, hint: SanitisedHint, signer: Signer) -> Result:
    """Sign a backend outcome. A document too large to write becomes a failed result."""
    analysis = Analysis(outcome.analyser, outcome.model, outcome.prompt_version, hint.sha256,
                        latency_ms=outcome.latency_ms, error=outcome.error, reason=outcome.reason)
    if outcome.document is not None:
        try:
            annotations = build_annotations(outcome.document, analysis, signer)
            return Result(hint.sha256, outcome.document, analysis, annotations, _with_hit(annotations, analysis))
        except AnnotationTooLarge as exc:
            analysis = dataclasses.replace(analysis, error=f"too-large: {exc}")
    return failed_result(analysis)


def failed_result(analysis: Analysis) -> Result:
    annotations = failed_annotations(analysis)
    return Result(analysis.hint_sha256, None, analysis, annotations, _with_hit(annotations, analysis))


def from_pod_annotations(annotations: Mapping[str, str], signer: Signer, max_hint_chars: int) -> Result | None:
    """A result rebuilt from an already-analysed pod (the durable record), or None if it does not verify.

    The pod's signature must verify with our own key over the pod's own hint, so a forged or stale
    annotation can never seed the cache.
    """
    try:
        document = read_intents(annotations, signer.verifier(), max_hint_chars)
        analysis = Analysis.from_json(annotations[ANALYSIS])
    except (IntentRejected, KeyError, ValueError, TypeError):
        return None
    # The signature binds the document to the pod's hint; the key must come from that same hint, not
    # from the (unsigned, editable) analysis annotation, or an edited pod could poison another hint's entry.
    hint = read_hint(annotations)
    if hint is None or sanitise(hint, max_hint_chars).sha256 != analysis.hint_sha256:
        return None
    analysis = dataclasses.replace(analysis, cached=False)
    try:
        fresh = build_annotations(document, analysis, signer)
    except AnnotationTooLarge:
        return None
    return Result(analysis.hint_sha256, document, analysis, fresh, _with_hit(fresh, analysis))


def admission_warnings(document: IntentDocument, limit: int = 4) -> list[str]:
    """Short warnings (≤120 characters each where possible) about conflicts and low-confidence intents."""
    warnings = [f"semantic-affinity: conflicting intents {a} vs {b}; both kept, the scorer weighs them"
                for a, b in document.conflicts]
    warnings += [f"semantic-affinity: low confidence {i.confidence:.2f} for intent {i.name}; check the hint wording"
                 for i in document.intents if i.confidence < LOW_CONFIDENCE]
    return [w[:120] for w in warnings[:limit]]
