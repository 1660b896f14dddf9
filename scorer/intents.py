"""Decode and verify a pod's intents on the scheduling path, once per distinct annotation set.

A pod is scored many times (retries, every replica of a workload carries the same annotations), and
verifying an Ed25519 signature plus schema-checking the document costs far more than scoring, so
the verdict is cached by the exact annotation strings (intents, signature, hint). Keying by content
rather than by uid means a forged or edited annotation can never reuse a good verdict.

Anything untrusted or unreadable (unsigned, forged, unknown key, undecodable, non-canonical) gives
no intents, so the pod is scored neutrally; ``reason`` says why, for the metric.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from shared.codec import HINT, INTENTS, LEGACY_HINT, SIGNATURE, IntentRejected, read_intents
from shared.intents import EMPTY_DOCUMENT, IntentDocument
from shared.sanitise import DEFAULT_MAX_CHARS
from shared.signing import Verifier


@dataclass(frozen=True, slots=True)
class Verdict:
    """The trusted document (empty when none) and, when it is empty, why (``None`` = trusted)."""

    document: IntentDocument
    reason: str | None = None


NO_INTENTS = Verdict(EMPTY_DOCUMENT, "no-intents")


class IntentReader:
    """Verified intent documents of pods, with an LRU cache keyed by the annotation contents."""

    def __init__(self, verifier: Verifier | None, capacity: int = 4096, max_hint_chars: int = DEFAULT_MAX_CHARS
                 ) -> None:
        """``max_hint_chars`` must equal the webhook's SEMAFF_HINT_MAX_CHARS: the signature covers the hint as
        sanitised with that cap, so a different cap rejects every hint longer than the smaller one."""
        self._verifier = verifier
        self._max_hint_chars = max_hint_chars
        self._capacity = capacity
        self._cache: OrderedDict[tuple[str, str, str, str], Verdict] = OrderedDict()

    def read(self, annotations: Mapping[str, str] | None) -> Verdict:
        """The verdict for one pod's annotations; never raises."""
        if not annotations or not isinstance(annotations, dict | Mapping):  # dict first: the ABC check is slow
            return NO_INTENTS
        text = annotations.get(INTENTS)
        if not text:
            return NO_INTENTS
        key = (_s(text), _s(annotations.get(SIGNATURE)), _s(annotations.get(HINT)), _s(annotations.get(LEGACY_HINT)))
        verdict = self._cache.get(key)
        if verdict is not None:
            self._cache.move_to_end(key)
            return verdict
        verdict = self._verify(annotations)
        self._cache[key] = verdict
        if len(self._cache) > self._capacity:
            self._cache.popitem(last=False)
        return verdict

    def _verify(self, annotations: Mapping[str, str]) -> Verdict:
        if self._verifier is None:
            return Verdict(EMPTY_DOCUMENT, "no-verify-keys")
        if any(not isinstance(annotations.get(k, ""), str) for k in (INTENTS, SIGNATURE, HINT, LEGACY_HINT)):
            return Verdict(EMPTY_DOCUMENT, "undecodable")
        try:
            document = read_intents(annotations, self._verifier, self._max_hint_chars)
        except IntentRejected as exc:
            return Verdict(EMPTY_DOCUMENT, exc.reason)
        except Exception:  # a malformed annotation must never fail scheduling
            return Verdict(EMPTY_DOCUMENT, "undecodable")
        return Verdict(document, None if document.intents else "no-intents")


def _s(value: object) -> str:
    return value if isinstance(value, str) else repr(value)
