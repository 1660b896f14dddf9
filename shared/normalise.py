"""raw analyser output -> canonical intent document (ARCHITECTURE.md 2.2).

Every backend (embedded, Bedrock, OpenAI-compatible) ends here, so the same meaning gives the
same bytes whatever produced it. The normaliser never raises on content: what it cannot use it
drops and reports in ``notes``. Only a top-level shape that is not analyser output at all
(``NormalisationError``) is an error, which the caller records as status ``failed``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.catalogue import BY_NAME, IntentSpec, MetaType
from shared.intents import STRENGTHS, Intent, IntentDocument, MetaValue
from shared.schemas import MAX_EXPLANATION_CHARS, MAX_ITEM_CHARS, MAX_LIST_ITEMS, RAW_VALIDATOR, schema_errors


class NormalisationError(ValueError):
    """The input is not analyser output (wrong top-level shape)."""


@dataclass(frozen=True, slots=True)
class Normalised:
    document: IntentDocument
    notes: tuple[str, ...] = ()  # what was dropped or coerced, for logs and admission warnings


# --- numbers with units ---------------------------------------------------------------------------

# "1,000" / "12,500.5" use thousands separators; otherwise a comma is a decimal point ("1,5" in es/de).
_THOUSANDS = r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?"
_NUMBER = re.compile(
    r"^\s*(?:>=|≥|>|at least|min(?:imum)?)?\s*(" + _THOUSANDS + r"|[0-9]+(?:[.,][0-9]+)?)\s*([a-zA-Z/%]*)"
)
# Binary and decimal prefixes are treated alike for sizes: users write "64GB" and mean "64 GiB".
_SIZE_FACTOR = {"": 1.0, "g": 1.0, "gb": 1.0, "gib": 1.0, "gi": 1.0,
                "t": 1024.0, "tb": 1024.0, "tib": 1024.0, "ti": 1024.0,
                "m": 1 / 1024, "mb": 1 / 1024, "mib": 1 / 1024, "mi": 1 / 1024}
_RATE_FACTOR = {"": 1.0, "g": 1.0, "gb": 1.0, "gbps": 1.0, "gbit": 1.0, "gbit/s": 1.0, "gb/s": 1.0,
                "gbe": 1.0, "gig": 1.0,
                "t": 1000.0, "tbps": 1000.0, "tb/s": 1000.0, "m": 0.001, "mbps": 0.001, "mb/s": 0.001}
_COUNT_FACTOR = {"": 1.0, "x": 1.0, "core": 1.0, "cores": 1.0, "cpu": 1.0, "cpus": 1.0, "vcpu": 1.0,
                 "vcpus": 1.0, "gpu": 1.0, "gpus": 1.0, "m": 0.001}  # "m" = millicores (Kubernetes)
_FACTORS = {"GB": _SIZE_FACTOR, "Gbps": _RATE_FACTOR, "cores": _COUNT_FACTOR, "GPUs": _COUNT_FACTOR}


def coerce_number(value: Any, unit: str) -> float | None:
    """``"16"`` -> 16.0, ``"64 GiB"`` -> 64.0, ``"100G"`` -> 100.0, ``"500m"`` cores -> 0.5; None if unusable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = _float(value)
    elif isinstance(value, str):
        match = _NUMBER.match(value.strip().lower())
        if not match:
            return None
        factor = _FACTORS.get(unit, _COUNT_FACTOR).get(match.group(2))
        if factor is None:
            return None
        digits = match.group(1)
        digits = digits.replace(",", "") if re.fullmatch(_THOUSANDS, digits) else digits
        number = float(digits.replace(",", ".")) * factor
    else:
        return None
    if not math.isfinite(number) or number < 0:
        return None
    return float(round(number, 4))


def _coerce_list(value: Any) -> tuple[list[str], list[str]]:
    """A list of non-empty strings (a bare string is a one-item list); returns (items, problems)."""
    raw = [value] if isinstance(value, str | int | float) and not isinstance(value, bool) else value
    if not isinstance(raw, list):
        return [], [f"not a list: {type(value).__name__}"]
    items, problems = [], []
    for item in raw:
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            problems.append(f"dropped non-string item {item!r}")
            continue
        text = " ".join(str(item).split())
        if not text:
            continue
        if "*" in text or "?" in text:
            problems.append(f"dropped wildcard {text!r}")
            continue
        items.append(text[:MAX_ITEM_CHARS].rstrip())  # rstrip: a cut must not leave a space (idempotence)
    return items, problems


def _coerce_score(value: Any, default: float) -> float | None:
    if value is None:
        return default
    if isinstance(value, str):
        text = value.strip().rstrip("%")
        try:
            number = float(text) / (100.0 if value.strip().endswith("%") else 1.0)
        except ValueError:
            return None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = _float(value)
    else:
        return None
    return number if math.isfinite(number) else None


def _float(value: int | float) -> float:
    """float() that maps an int too large for a float (JSON allows 1e400 as an integer) to infinity."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def snap_strength(value: float) -> float:
    """Nearest of {0.5, 1.0, 1.5}; below 0.75 is weak, from 1.25 up is strong."""
    if value < 0.75:
        return STRENGTHS[0]
    if value >= 1.25:
        return STRENGTHS[2]
    return STRENGTHS[1]


# --- one intent -------------------------------------------------------------------------------------


def _metadata(spec: IntentSpec, raw: Mapping[str, Any], notes: list[str]) -> dict[str, MetaValue]:
    raw = dict(raw)
    known = {meta.key for meta in spec.metadata}
    unknown = sorted(k for k in raw if k not in known)
    # An LLM that wrote "zones" for "prefer_zones" still meant it: with a single field and a single
    # unknown key, read the one as the other (and say so).
    if len(spec.metadata) == 1 and spec.metadata[0].key not in raw and len(unknown) == 1:
        notes.append(f"{spec.name}: metadata key {unknown[0]!r} read as {spec.metadata[0].key!r}")
        raw[spec.metadata[0].key] = raw.pop(unknown[0])
        unknown = []
    for key in unknown:
        notes.append(f"{spec.name}: dropped unknown metadata key {key!r}")
    result: dict[str, MetaValue] = {}
    for meta in spec.metadata:
        value = raw.get(meta.key)
        if meta.type is MetaType.FLOAT:
            number = None if value is None else coerce_number(value, meta.unit)
            if value is not None and number is None:
                notes.append(f"{spec.name}: {meta.key}={value!r} is not a number, using 1.0")
            result[meta.key] = 1.0 if number is None else number
        else:
            items, problems = ([], []) if value is None else _coerce_list(value)
            notes.extend(f"{spec.name}: {meta.key}: {p}" for p in problems)
            result[meta.key] = tuple(sorted(set(items)))[:MAX_LIST_ITEMS]
    return result


def _intent(item: Mapping[str, Any], notes: list[str]) -> Intent | None:
    name = str(item.get("intent", "")).strip().lower()
    spec = BY_NAME.get(name)
    if spec is None:
        notes.append(f"dropped unknown intent {name!r}")
        return None
    confidence = _coerce_score(item.get("confidence"), 1.0)
    if confidence is None:
        notes.append(f"{name}: unreadable confidence {item.get('confidence')!r}, using 1.0")
        confidence = 1.0
    strength = _coerce_score(item.get("strength"), 1.0)
    if strength is None:
        notes.append(f"{name}: unreadable strength {item.get('strength')!r}, using 1.0")
        strength = 1.0
    explanation = item.get("explanation") or item.get("strength_explanation") or ""
    metadata = _metadata(spec, item.get("metadata") or {}, notes)
    if spec.list_key is not None and not metadata[spec.list_key]:
        notes.append(f"dropped {name}: empty {spec.list_key}")
        return None
    return Intent(
        name=name,
        confidence=round(min(1.0, max(0.0, confidence)), 2),
        strength=snap_strength(strength),
        explanation=" ".join(str(explanation).split())[:MAX_EXPLANATION_CHARS].rstrip(),
        metadata=metadata,
    )


def _merge(a: Intent, b: Intent) -> Intent:
    """Two entries for one intent: keep the more confident one (then the stronger), union the lists.

    The order is total over everything that is not unioned (ties on confidence and strength go to the
    larger numbers, then the explanation), so the result does not depend on the order of the input.
    """

    def rank(i: Intent) -> tuple[Any, ...]:
        numbers = tuple(-v for _, v in sorted(i.metadata.items()) if isinstance(v, float))
        return (-i.confidence, -i.strength, numbers, i.explanation)

    first, second = sorted((a, b), key=rank)
    metadata = dict(first.metadata)
    for key, value in second.metadata.items():
        if isinstance(value, tuple):
            metadata[key] = tuple(sorted(set(value) | set(first.items(key))))[:MAX_LIST_ITEMS]
    return Intent(first.name, first.confidence, first.strength, first.explanation, metadata)


# --- conflicts ---------------------------------------------------------------------------------------

_SPREADS = ("spread_nodes", "spread_racks", "spread_regions", "spread_zones")
_GPU_WISHES = ("prefer_gpu", "prefer_gpu_memory_gb", "prefer_gpu_models", "prefer_nvlink")
# Pairs that contradict whatever their metadata says.
_ALWAYS = (
    *(("prefer_colocate_same_deployment", s) for s in _SPREADS),
    *(("prefer_nearby_nodes_same_deployment", s) for s in ("spread_racks", "spread_regions", "spread_zones")),
    *((g, "avoid_gpu_nodes") for g in _GPU_WISHES),
)
# Pairs that contradict when their lists share a value.
_OVERLAPPING = (
    ("prefer_zones", "avoid_zones"),
    ("prefer_racks", "avoid_racks"),
    ("prefer_regions", "avoid_regions"),
    ("prefer_nodes", "avoid_nodes"),
    ("prefer_same_node_as_deployments", "avoid_same_node_as_deployments"),
    ("prefer_same_node_as_deployments", "avoid_same_zone_as_deployments"),
    ("prefer_same_zone_as_deployments", "avoid_same_zone_as_deployments"),
)


def find_conflicts(intents: Iterable[Intent]) -> tuple[tuple[str, str], ...]:
    """Pairs of intents that cannot both be satisfied, each pair and the list sorted."""
    by_name = {intent.name: intent for intent in intents}
    found: set[tuple[str, str]] = set()
    for a, b in _ALWAYS:
        if a in by_name and b in by_name:
            found.add((min(a, b), max(a, b)))
    for a, b in _OVERLAPPING:
        if a in by_name and b in by_name:
            key_a, key_b = BY_NAME[a].list_key, BY_NAME[b].list_key
            assert key_a and key_b
            shared = {v.lower() for v in by_name[a].items(key_a)} & {v.lower() for v in by_name[b].items(key_b)}
            if shared:
                found.add((min(a, b), max(a, b)))
    return tuple(sorted(found))


# --- the document --------------------------------------------------------------------------------------


def normalise(raw: Any) -> Normalised:
    """Turn raw analyser output into the canonical document. Idempotent; identical input, identical bytes.

    Accepts ``{"intents": [...]}`` (what the prompt asks for), a bare list of intent objects, or the
    paper's shape keyed by intent name (``{"prefer_gpu": {"confidence": ...}}``).
    """
    if isinstance(raw, list):
        raw = {"intents": raw}
    elif isinstance(raw, dict) and "intents" not in raw and raw and all(k in BY_NAME for k in raw):
        raw = {"intents": [{"intent": k, **(v if isinstance(v, dict) else {})} for k, v in raw.items()]}
    if not isinstance(raw, dict) or not isinstance(raw.get("intents"), list):
        raise NormalisationError("analyser output is not an object with an 'intents' list")
    notes: list[str] = []
    items = []
    for index, item in enumerate(raw["intents"]):
        if isinstance(item, dict) and not schema_errors(RAW_VALIDATOR, {"intents": [item]}):
            items.append(item)
        else:
            notes.append(f"dropped intents[{index}]: not an intent object")
    merged: dict[str, Intent] = {}
    for item in items:
        intent = _intent(item, notes)
        if intent is None:
            continue
        if intent.name in merged:
            notes.append(f"merged duplicate {intent.name}")
            intent = _merge(merged[intent.name], intent)
        merged[intent.name] = intent
    intents = tuple(merged[name] for name in sorted(merged))
    return Normalised(IntentDocument(intents=intents, conflicts=find_conflicts(intents)), tuple(notes))
