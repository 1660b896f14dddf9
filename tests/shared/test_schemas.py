"""The two JSON Schemas: strict canonical document (2.2) and lenient raw analyser output."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared.catalogue import CATALOGUE, INTENT_NAMES
from shared.schemas import (
    CANONICAL_VALIDATOR,
    MAX_EXPLANATION_CHARS,
    MAX_ITEM_CHARS,
    MAX_LIST_ITEMS,
    RAW_VALIDATOR,
    schema_errors,
)

VALID: dict[str, Any] = {
    "version": 1,
    "intents": [
        {"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5, "explanation": "'must'",
         "metadata": {"prefer_gpu_cores": 1.0}},
        {"intent": "prefer_zones", "confidence": 0.8, "strength": 0.5, "explanation": "",
         "metadata": {"prefer_zones": ["us-east-1a", "us-east-1b"]}},
        {"intent": "spread_zones", "confidence": 0.9, "strength": 1.0, "explanation": "", "metadata": {}},
    ],
    "conflicts": [["prefer_colocate_same_deployment", "spread_zones"]],
}


def mutated(path: list[Any], value: Any, *, delete: bool = False) -> dict[str, Any]:
    document = copy.deepcopy(VALID)
    target: Any = document
    for step in path[:-1]:
        target = target[step]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


def test_the_valid_document_passes() -> None:
    assert schema_errors(CANONICAL_VALIDATOR, VALID) == []
    assert schema_errors(CANONICAL_VALIDATOR, {"version": 1, "intents": [], "conflicts": []}) == []


INVALID = {
    # unknown names and keys
    "unknown intent": mutated(["intents", 0, "intent"], "prefer_moon"),
    "unknown top-level key": mutated(["extra"], 1),
    "unknown intent key": mutated(["intents", 2, "weight"], 2.0),
    "unknown metadata key": mutated(["intents", 2, "metadata", "zones"], ["a"]),
    "other intent's metadata key": mutated(["intents", 0, "metadata", "prefer_cpu_cores"], 2.0),
    "missing metadata key": mutated(["intents", 0, "metadata", "prefer_gpu_cores"], None, delete=True),
    "missing explanation": mutated(["intents", 2, "explanation"], None, delete=True),
    "missing conflicts": mutated(["conflicts"], None, delete=True),
    "unknown conflict name": mutated(["conflicts", 0, 1], "spread_moons"),
    "conflict of three": mutated(["conflicts", 0], ["spread_zones", "spread_nodes", "spread_racks"]),
    # wrong types
    "version 2": mutated(["version"], 2),
    "version as string": mutated(["version"], "1"),
    "number as string": mutated(["intents", 0, "metadata", "prefer_gpu_cores"], "1"),
    "negative number": mutated(["intents", 0, "metadata", "prefer_gpu_cores"], -1.0),
    "list as string": mutated(["intents", 1, "metadata", "prefer_zones"], "us-east-1a"),
    "empty list": mutated(["intents", 1, "metadata", "prefer_zones"], []),
    "duplicate list items": mutated(["intents", 1, "metadata", "prefer_zones"], ["a", "a"]),
    "non-string list item": mutated(["intents", 1, "metadata", "prefer_zones"], [3]),
    "empty list item": mutated(["intents", 1, "metadata", "prefer_zones"], [""]),
    "over-long list item": mutated(["intents", 1, "metadata", "prefer_zones"], ["x" * (MAX_ITEM_CHARS + 1)]),
    "too many list items": mutated(
        ["intents", 1, "metadata", "prefer_zones"], [f"z{i}" for i in range(MAX_LIST_ITEMS + 1)]
    ),
    "confidence as string": mutated(["intents", 0, "confidence"], "0.95"),
    "confidence above 1": mutated(["intents", 0, "confidence"], 1.01),
    "confidence below 0": mutated(["intents", 0, "confidence"], -0.01),
    "confidence bool": mutated(["intents", 0, "confidence"], True),
    "explanation null": mutated(["intents", 2, "explanation"], None),
    "over-long explanation": mutated(["intents", 2, "explanation"], "x" * (MAX_EXPLANATION_CHARS + 1)),
    "intents as object": mutated(["intents"], {"prefer_gpu": {}}),
    # bad strengths
    "strength 2.0": mutated(["intents", 0, "strength"], 2.0),
    "strength 0.75": mutated(["intents", 0, "strength"], 0.75),
    "strength 0": mutated(["intents", 0, "strength"], 0),
    "strength as string": mutated(["intents", 0, "strength"], "1.5"),
    "strength as word": mutated(["intents", 0, "strength"], "strong"),
    "strength bool": mutated(["intents", 2, "strength"], True),
}


@pytest.mark.parametrize("document", list(INVALID.values()), ids=list(INVALID))
def test_canonical_schema_rejects(document: dict[str, Any]) -> None:
    assert schema_errors(CANONICAL_VALIDATOR, document) != []


def test_errors_point_at_the_offending_field() -> None:
    errors = schema_errors(CANONICAL_VALIDATOR, INVALID["strength 2.0"])
    assert errors and all(e.startswith("intents/0/strength") for e in errors)


def test_canonical_schema_has_one_branch_per_catalogue_intent() -> None:
    assert len(INTENT_NAMES) == len(CATALOGUE)
    for spec in CATALOGUE:
        item = {"intent": spec.name, "confidence": 1.0, "strength": 1.0, "explanation": "",
                "metadata": {m.key: 1.0 if m.type == "float" else ["x"] for m in spec.metadata}}
        document = {"version": 1, "intents": [item], "conflicts": []}
        assert schema_errors(CANONICAL_VALIDATOR, document) == [], spec.name
        if spec.metadata:
            bare = {**item, "metadata": {}}
            assert schema_errors(CANONICAL_VALIDATOR, {**document, "intents": [bare]}) != [], spec.name


# --- raw: lenient ------------------------------------------------------------------------------------------

RAW_ACCEPTED = {
    "minimal": {"intents": [{"intent": "prefer_gpu"}]},
    "empty": {"intents": []},
    "numbers as strings": {"intents": [{"intent": "prefer_gpu", "confidence": "0.9", "strength": "strong",
                                        "metadata": {"prefer_gpu_cores": "2 GPUs"}}]},
    "null scores": {"intents": [{"intent": "prefer_gpu", "confidence": None, "strength": None}]},
    "null explanation and metadata": {"intents": [{"intent": "x", "explanation": None, "metadata": None}]},
    "extra keys": {"intents": [{"intent": "prefer_gpu", "reasoning": "..."}], "model": "nova", "notes": []},
    "bare string list": {"intents": [{"intent": "prefer_zones", "metadata": {"prefer_zones": "us-east-1a"}}]},
    "unknown intent name": {"intents": [{"intent": "prefer_moon"}]},
    "strength_explanation": {"intents": [{"intent": "spread_zones", "strength_explanation": "'must'"}]},
}


@pytest.mark.parametrize("raw", list(RAW_ACCEPTED.values()), ids=list(RAW_ACCEPTED))
def test_raw_schema_accepts(raw: dict[str, Any]) -> None:
    assert schema_errors(RAW_VALIDATOR, raw) == []


RAW_REJECTED = {
    "no intents key": {"result": []},
    "intents not a list": {"intents": "prefer_gpu"},
    "item without intent": {"intents": [{"confidence": 1}]},
    "intent not a string": {"intents": [{"intent": 3}]},
    "metadata a list": {"intents": [{"intent": "prefer_gpu", "metadata": [1]}]},
    "confidence an object": {"intents": [{"intent": "prefer_gpu", "confidence": {"v": 1}}]},
    "top level a list": [{"intent": "prefer_gpu"}],
}


@pytest.mark.parametrize("raw", list(RAW_REJECTED.values()), ids=list(RAW_REJECTED))
def test_raw_schema_rejects_what_is_not_analyser_output(raw: Any) -> None:
    assert schema_errors(RAW_VALIDATOR, raw) != []
