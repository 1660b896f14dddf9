"""The canonical intent document (ARCHITECTURE.md 2.2): typed model and canonical bytes.

Canonical JSON = orjson with sorted keys and no whitespace. Every number in metadata is a float
and confidence is rounded to 2 decimals, so two equal documents always encode to the same bytes;
the signature (``shared.signing``) is computed over those bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

DOCUMENT_VERSION = 1
STRENGTHS = (0.5, 1.0, 1.5)

MetaValue = float | tuple[str, ...]


def canonical_json(value: Any) -> bytes:
    """Compact JSON with sorted keys: the one encoding used for signing and annotations."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


@dataclass(frozen=True, slots=True)
class Intent:
    """One placement wish. ``metadata`` holds exactly the catalogue keys of the intent."""

    name: str
    confidence: float = 1.0
    strength: float = 1.0
    explanation: str = ""
    metadata: Mapping[str, MetaValue] = field(default_factory=dict)

    def number(self, key: str, default: float = 1.0) -> float:
        """A float metadata value (the paper's default 1.0 when absent)."""
        value = self.metadata.get(key, default)
        return value if isinstance(value, float) else default

    def items(self, key: str) -> tuple[str, ...]:
        """A list metadata value as a tuple (empty when absent)."""
        value = self.metadata.get(key, ())
        return value if isinstance(value, tuple) else ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "intent": self.name,
            "confidence": self.confidence,
            "strength": self.strength,
            "explanation": self.explanation,
            "metadata": {k: list(v) if isinstance(v, tuple) else v for k, v in self.metadata.items()},
        }


@dataclass(frozen=True, slots=True)
class IntentDocument:
    """What the analyser concluded about one hint, in canonical form."""

    intents: tuple[Intent, ...] = ()
    conflicts: tuple[tuple[str, str], ...] = ()
    version: int = DOCUMENT_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "intents": [intent.to_dict() for intent in self.intents],
            "conflicts": [list(pair) for pair in self.conflicts],
        }

    def canonical_bytes(self) -> bytes:
        return canonical_json(self.to_dict())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(intent.name for intent in self.intents)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IntentDocument:
        """Build from a dict that already passed the canonical schema (``shared.schemas``)."""
        intents = tuple(
            Intent(
                name=item["intent"],
                confidence=float(item["confidence"]),
                strength=float(item["strength"]),
                explanation=item["explanation"],
                metadata={
                    k: tuple(v) if isinstance(v, list) else float(v) for k, v in item["metadata"].items()
                },
            )
            for item in data["intents"]
        )
        conflicts = tuple((a, b) for a, b in data["conflicts"])
        return cls(intents=intents, conflicts=conflicts, version=int(data["version"]))


EMPTY_DOCUMENT = IntentDocument()

_STRENGTH_WORDS = {0.5: "weak", 1.5: "strong"}


def summarise(document: IntentDocument, limit: int = 512) -> str:
    """One human line for ``kubectl describe``, e.g. ``prefer_gpu ≥1 GPU (0.95, strong); spread_zones (0.90)``."""
    if not document.intents:
        return "no placement intent"
    parts = []
    for intent in document.intents:
        text = intent.name
        for key, value in intent.metadata.items():
            if isinstance(value, tuple):
                text += " [" + ", ".join(value) + "]"
            else:
                unit = _UNITS.get(key, "")
                text += f" ≥{value:g}{unit}"
        qualifier = f"{intent.confidence:.2f}"
        if intent.strength in _STRENGTH_WORDS:
            qualifier += ", " + _STRENGTH_WORDS[intent.strength]
        parts.append(f"{text} ({qualifier})")
    line = "; ".join(parts)
    if document.conflicts:
        line += "; conflicts: " + ", ".join(f"{a} vs {b}" for a, b in document.conflicts)
    return line if len(line) <= limit else line[: limit - 1] + "…"


_UNITS = {
    "prefer_gpu_cores": " GPU",
    "prefer_gpu_memory_gb": " GB",
    "prefer_cpu_cores": " cores",
    "prefer_memory_gb": " GB",
    "prefer_ephemeral_storage_gb": " GB",
    "prefer_network_speed_gbps": " Gbps",
}
