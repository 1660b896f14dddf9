"""JSON Schemas: the lenient *raw* analyser output and the strict *canonical* document (2.2).

The raw schema accepts what an LLM plausibly returns (numbers as strings, a bare string where a
list belongs, extra keys); the normaliser turns that into the canonical form. The canonical
schema is what the scorer accepts from an annotation: exact catalogue names, exact metadata keys
per intent, floats, strengths from {0.5, 1.0, 1.5}. Both are generated from the catalogue.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from shared.catalogue import CATALOGUE, INTENT_NAMES, MetaType

MAX_LIST_ITEMS = 64
MAX_ITEM_CHARS = 253  # a DNS subdomain (node names) is the longest thing a list holds
MAX_EXPLANATION_CHARS = 160

_scalar = {"type": ["number", "string", "null"]}  # null: the normaliser uses the default

RAW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "raw analyser output (lenient)",
    "type": "object",
    "required": ["intents"],
    "properties": {
        "intents": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "intent": {"type": "string"},
                    "confidence": _scalar,
                    "strength": _scalar,
                    "explanation": {"type": ["string", "null"]},
                    "strength_explanation": {"type": ["string", "null"]},
                    "metadata": {"type": ["object", "null"]},
                },
                "required": ["intent"],
            },
        },
    },
}


def _canonical_intent(spec_name: str) -> dict[str, Any]:
    spec = next(s for s in CATALOGUE if s.name == spec_name)
    meta_props: dict[str, Any] = {}
    for meta in spec.metadata:
        if meta.type is MetaType.FLOAT:
            meta_props[meta.key] = {"type": "number", "minimum": 0}
        else:
            meta_props[meta.key] = {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_LIST_ITEMS,
                "uniqueItems": True,
                "items": {"type": "string", "minLength": 1, "maxLength": MAX_ITEM_CHARS},
            }
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["intent", "confidence", "strength", "explanation", "metadata"],
        "properties": {
            "intent": {"const": spec.name},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "strength": {"enum": [0.5, 1.0, 1.5]},
            "explanation": {"type": "string", "maxLength": MAX_EXPLANATION_CHARS},
            "metadata": {
                "type": "object",
                "additionalProperties": False,
                "required": sorted(meta_props),
                "properties": meta_props,
            },
        },
    }


CANONICAL_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "semantic-affinity intent document v1 (canonical)",
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "intents", "conflicts"],
    "properties": {
        "version": {"const": 1},
        "intents": {
            "type": "array",
            "maxItems": len(INTENT_NAMES),
            "items": {
                "type": "object",
                "required": ["intent"],
                "properties": {"intent": {"enum": list(INTENT_NAMES)}},
                # One branch per intent, selected by name, so errors point at the right rule.
                "allOf": [
                    {"if": {"properties": {"intent": {"const": name}}}, "then": _canonical_intent(name)}
                    for name in INTENT_NAMES
                ],
            },
        },
        "conflicts": {
            "type": "array",
            "items": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": {"enum": list(INTENT_NAMES)},
            },
        },
    },
}

RAW_VALIDATOR = Draft202012Validator(RAW_SCHEMA)
CANONICAL_VALIDATOR = Draft202012Validator(CANONICAL_SCHEMA)


def schema_errors(validator: Draft202012Validator, instance: Any) -> list[str]:
    """Every validation error as ``path: message``, sorted, so reports are stable."""
    return sorted(
        f"{'/'.join(str(p) for p in error.absolute_path) or '$'}: {error.message}"
        for error in validator.iter_errors(instance)
    )
