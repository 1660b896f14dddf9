"""The normaliser, raw analyser output -> canonical document (ARCHITECTURE.md 2.2), case by case."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from shared.catalogue import CATALOGUE
from shared.normalise import NormalisationError, coerce_number, find_conflicts, normalise, snap_strength
from shared.schemas import CANONICAL_VALIDATOR, MAX_EXPLANATION_CHARS, MAX_ITEM_CHARS, schema_errors


def only(raw: Any) -> dict[str, Any]:
    """The single intent the raw output normalises to, as it appears on the wire."""
    intents = normalise(raw).document.to_dict()["intents"]
    assert len(intents) == 1, intents
    return intents[0]


def notes_of(raw: Any) -> str:
    return "\n".join(normalise(raw).notes)


# --- numbers with units -------------------------------------------------------------------------------

NUMBERS = [
    # (value, unit, expected)
    ("16", "cores", 16.0),
    (16, "cores", 16.0),
    ("16 cores", "cores", 16.0),
    ("16 vCPUs", "cores", 16.0),
    ("at least 16 cores", "cores", 16.0),
    (">= 16", "cores", 16.0),
    ("≥ 16", "cores", 16.0),
    ("8000m", "cores", 8.0),  # Kubernetes millicores
    ("500m", "cores", 0.5),
    ("64GB", "GB", 64.0),
    ("64 GiB", "GB", 64.0),
    ("64Gi", "GB", 64.0),
    ("64 gb RAM", "GB", 64.0),
    ("1.5 TB", "GB", 1536.0),
    ("512Mi", "GB", 0.5),
    ("1,5 TB", "GB", 1536.0),  # Spanish/German decimal comma
    ("100G", "Gbps", 100.0),
    ("100 Gbps", "Gbps", 100.0),
    ("100 Gb/s", "Gbps", 100.0),
    ("25GbE", "Gbps", 25.0),
    ("1 Tbps", "Gbps", 1000.0),
    ("500 Mbps", "Gbps", 0.5),
    ("1,000 Gbps", "Gbps", 1000.0),  # thousands separator
    ("12,500.5", "GB", 12500.5),
    ("2 GPUs", "GPUs", 2.0),
    ("4x", "GPUs", 4.0),
    (2.5, "GB", 2.5),
    # unusable
    ("lots", "GB", None),
    ("-4", "cores", None),
    (-4, "cores", None),
    (True, "cores", None),
    (None, "cores", None),
    ([16], "cores", None),
    (float("inf"), "GB", None),
    (float("nan"), "GB", None),
    (10**400, "GB", None),  # valid JSON, too large for a float
    ("64 parsecs", "GB", None),
    ("100 GB", "cores", None),  # a size is not a core count
]


@pytest.mark.parametrize(("value", "unit", "expected"), NUMBERS, ids=[f"{v!r}-{u}" for v, u, _ in NUMBERS])
def test_coerce_number(value: Any, unit: str, expected: float | None) -> None:
    result = coerce_number(value, unit)
    assert result == expected
    if expected is not None:
        assert type(result) is float


@pytest.mark.parametrize(
    ("intent", "key", "value", "expected"),
    [
        ("prefer_cpu_cores", "prefer_cpu_cores", "16", 16.0),
        ("prefer_cpu_cores", "prefer_cpu_cores", "8000m", 8.0),
        ("prefer_memory_gb", "prefer_memory_gb", "64GB", 64.0),
        ("prefer_memory_gb", "prefer_memory_gb", "64 GiB", 64.0),
        ("prefer_network_speed", "prefer_network_speed_gbps", "100G", 100.0),
        ("prefer_ephemeral_storage", "prefer_ephemeral_storage_gb", "2 TB", 2048.0),
        ("prefer_gpu", "prefer_gpu_cores", 4, 4.0),
        ("prefer_gpu_memory_gb", "prefer_gpu_memory_gb", "80GB", 80.0),
    ],
)
def test_metadata_numbers_are_coerced_to_floats(intent: str, key: str, value: Any, expected: float) -> None:
    item = only({"intents": [{"intent": intent, "metadata": {key: value}}]})
    assert item["metadata"] == {key: expected}
    assert type(item["metadata"][key]) is float


def test_unusable_or_missing_number_defaults_to_one_and_is_reported() -> None:
    raw = {"intents": [{"intent": "prefer_memory_gb", "metadata": {"prefer_memory_gb": "plenty"}}]}
    assert only(raw)["metadata"] == {"prefer_memory_gb": 1.0}
    assert "not a number" in notes_of(raw)
    missing = {"intents": [{"intent": "prefer_memory_gb"}]}
    assert only(missing)["metadata"] == {"prefer_memory_gb": 1.0}
    assert normalise(missing).notes == ()


# --- lists ------------------------------------------------------------------------------------------------

LISTS = [
    # (value, expected items, note fragment or "")
    ("us-east-1a", ["us-east-1a"], ""),  # bare string -> one-item list
    (["us-east-1b", "us-east-1a", "us-east-1b"], ["us-east-1a", "us-east-1b"], ""),
    ([" us-east-1a ", "us-east-1a"], ["us-east-1a"], ""),
    (["us  east\t1a"], ["us east 1a"], ""),
    (["us-east-*", "us-east-1a"], ["us-east-1a"], "dropped wildcard 'us-east-*'"),
    (["us-east-1?"], None, "empty prefer_zones"),
    (["*"], None, "empty prefer_zones"),
    ([], None, "empty prefer_zones"),
    (["", "  "], None, "empty prefer_zones"),
    ([7, "a"], ["7", "a"], ""),
    ([None, {"x": 1}, "a"], ["a"], "dropped non-string item"),
    ({"zone": "a"}, None, "not a list: dict"),
]


@pytest.mark.parametrize(("value", "expected", "note"), LISTS, ids=[repr(v) for v, _, _ in LISTS])
def test_list_metadata(value: Any, expected: list[str] | None, note: str) -> None:
    raw = {"intents": [{"intent": "prefer_zones", "metadata": {"prefer_zones": value}}, {"intent": "spread_nodes"}]}
    result = normalise(raw)
    by_name = {i["intent"]: i for i in result.document.to_dict()["intents"]}
    assert "spread_nodes" in by_name  # a dropped list intent never takes others with it
    if expected is None:
        assert "prefer_zones" not in by_name
    else:
        assert by_name["prefer_zones"]["metadata"] == {"prefer_zones": expected}
    assert note in "\n".join(result.notes)


def test_list_intent_without_metadata_is_dropped() -> None:
    raw = {"intents": [{"intent": "prefer_nodes"}, {"intent": "avoid_same_node_as_deployments", "metadata": None}]}
    result = normalise(raw)
    assert result.document.intents == ()
    assert "dropped prefer_nodes: empty prefer_nodes" in result.notes
    assert "dropped avoid_same_node_as_deployments: empty deployments" in result.notes


def test_long_list_items_are_cut_without_a_trailing_space() -> None:
    item = "x" * (MAX_ITEM_CHARS - 1) + " tail"
    value = only({"intents": [{"intent": "prefer_nodes", "metadata": {"prefer_nodes": [item]}}]})
    assert value["metadata"]["prefer_nodes"] == ["x" * (MAX_ITEM_CHARS - 1)]


# --- metadata keys ------------------------------------------------------------------------------------------


def test_unknown_metadata_keys_are_dropped_and_reported() -> None:
    raw = {"intents": [{"intent": "prefer_gpu", "metadata": {"prefer_gpu_cores": 2, "vendor": "nvidia"}}]}
    assert only(raw)["metadata"] == {"prefer_gpu_cores": 2.0}
    assert "prefer_gpu: dropped unknown metadata key 'vendor'" in normalise(raw).notes


def test_a_single_misnamed_key_is_read_as_the_only_field() -> None:
    raw = {"intents": [{"intent": "prefer_zones", "metadata": {"zones": ["us-east-1a"]}}]}
    assert only(raw)["metadata"] == {"prefer_zones": ["us-east-1a"]}
    assert "prefer_zones: metadata key 'zones' read as 'prefer_zones'" in normalise(raw).notes


def test_metadata_on_an_intent_without_fields_is_dropped() -> None:
    raw = {"intents": [{"intent": "spread_zones", "metadata": {"zones": ["a"]}}]}
    assert only(raw)["metadata"] == {}


# --- intents, confidence, strength --------------------------------------------------------------------------


def test_unknown_intents_are_dropped_and_reported() -> None:
    raw = {"intents": [{"intent": "prefer_moon_phase"}, {"intent": "prefer_ssd_storage"}, {"intent": ""}]}
    result = normalise(raw)
    assert result.document.names == ("prefer_ssd_storage",)
    assert "dropped unknown intent 'prefer_moon_phase'" in result.notes
    assert "dropped unknown intent ''" in result.notes


def test_intent_names_are_trimmed_and_lower_cased() -> None:
    assert only({"intents": [{"intent": "  Prefer_SSD_Storage "}]})["intent"] == "prefer_ssd_storage"


def test_items_that_are_not_intent_objects_are_dropped_and_reported() -> None:
    raw = {"intents": ["prefer_gpu", 3, None, {"confidence": 1}, {"intent": 7}, {"intent": "spread_nodes"}]}
    result = normalise(raw)
    assert result.document.names == ("spread_nodes",)
    assert [n for n in result.notes if "not an intent object" in n] == [
        f"dropped intents[{i}]: not an intent object" for i in range(5)
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.3, 0.5), (0.5, 0.5), (0.74, 0.5), (0.75, 1.0), (1.0, 1.0), (1.24, 1.0), (1.25, 1.5), (1.5, 1.5),
        (3, 1.5), (-1, 0.5), ("1.5", 1.5), ("0.5", 0.5), ("150%", 1.5), (None, 1.0), ("strong", 1.0),
    ],
)
def test_strength_is_snapped(value: Any, expected: float) -> None:
    assert only({"intents": [{"intent": "prefer_nvlink", "strength": value}]})["strength"] == expected


@pytest.mark.parametrize(("value", "expected"), [(0.3, 0.5), (0.75, 1.0), (1.25, 1.5), (99.0, 1.5)])
def test_snap_strength_direct(value: float, expected: float) -> None:
    assert snap_strength(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.876, 0.88), (0.874, 0.87), (1.7, 1.0), (-0.2, 0.0), (0, 0.0), ("0.9", 0.9), ("95%", 0.95),
        (None, 1.0), ("very", 1.0), (float("nan"), 1.0), (10**400, 1.0), ("1e999", 1.0),
    ],
)
def test_confidence_is_clamped_and_rounded(value: Any, expected: float) -> None:
    assert only({"intents": [{"intent": "prefer_nvlink", "confidence": value}]})["confidence"] == expected


def test_unreadable_scores_are_reported() -> None:
    notes = notes_of({"intents": [{"intent": "prefer_nvlink", "confidence": "very", "strength": "strong"}]})
    assert "prefer_nvlink: unreadable confidence 'very', using 1.0" in notes
    assert "prefer_nvlink: unreadable strength 'strong', using 1.0" in notes


def test_explanation_falls_back_collapses_and_is_capped() -> None:
    assert only({"intents": [{"intent": "prefer_nvlink", "strength_explanation": " 'must'\n "}]})[
        "explanation"
    ] == "'must'"
    long = "word " * 100
    explanation = only({"intents": [{"intent": "prefer_nvlink", "explanation": long}]})["explanation"]
    assert len(explanation) <= MAX_EXPLANATION_CHARS
    assert explanation == explanation.strip()
    assert explanation.startswith("word word")


def test_duplicates_keep_the_more_confident_entry() -> None:
    raw = {"intents": [
        {"intent": "prefer_gpu", "confidence": 0.6, "strength": 1.5, "explanation": "low",
         "metadata": {"prefer_gpu_cores": 4}},
        {"intent": "prefer_gpu", "confidence": 0.9, "strength": 0.5, "explanation": "high",
         "metadata": {"prefer_gpu_cores": 1}},
    ]}
    item = only(raw)
    assert (item["confidence"], item["strength"], item["explanation"]) == (0.9, 0.5, "high")
    assert item["metadata"] == {"prefer_gpu_cores": 1.0}
    assert "merged duplicate prefer_gpu" in normalise(raw).notes


def test_duplicates_union_their_lists() -> None:
    raw = {"intents": [
        {"intent": "avoid_zones", "confidence": 0.5, "metadata": {"avoid_zones": ["us-east-1c", "us-east-1a"]}},
        {"intent": "avoid_zones", "confidence": 0.9, "metadata": {"avoid_zones": "us-east-1b"}},
        {"intent": "AVOID_ZONES", "confidence": 0.7, "metadata": {"avoid_zones": ["us-east-1a"]}},
    ]}
    item = only(raw)
    assert item["confidence"] == 0.9
    assert item["metadata"] == {"avoid_zones": ["us-east-1a", "us-east-1b", "us-east-1c"]}


def test_intents_are_sorted_by_name() -> None:
    names = ["spread_zones", "prefer_gpu", "avoid_gpu_nodes", "prefer_least_loaded_nodes", "prefer_cpu_cores"]
    document = normalise({"intents": [{"intent": n} for n in names]}).document
    assert list(document.names) == sorted(names)


# --- input shapes ------------------------------------------------------------------------------------------


def test_bare_list_and_paper_shape_are_accepted() -> None:
    expected = normalise({"intents": [{"intent": "prefer_gpu", "confidence": 0.9}, {"intent": "spread_nodes"}]})
    assert normalise([{"intent": "prefer_gpu", "confidence": 0.9}, {"intent": "spread_nodes"}]) == expected
    assert normalise({"prefer_gpu": {"confidence": 0.9}, "spread_nodes": {}}).document == expected.document


def test_no_intents_is_an_empty_document() -> None:
    result = normalise({"intents": []})
    assert result.document.canonical_bytes() == b'{"conflicts":[],"intents":[],"version":1}'


@pytest.mark.parametrize("raw", [None, "prefer_gpu", 3, {"intent": "prefer_gpu"}, {"intents": "prefer_gpu"}, {}])
def test_non_analyser_output_raises(raw: Any) -> None:
    with pytest.raises(NormalisationError):
        normalise(raw)


def test_the_contract_example_encodes_to_exact_bytes() -> None:
    """ARCHITECTURE.md 2.2's example, as an LLM might return it, gives exactly these bytes."""
    raw = {"intents": [
        {"intent": "spread_zones", "confidence": "0.9", "strength": 1, "explanation": None},
        {"intent": "prefer_gpu", "confidence": 0.951, "strength": "1.5", "explanation": "'must'",
         "metadata": {"prefer_gpu_cores": "1"}},
    ]}
    assert normalise(raw).document.canonical_bytes() == (
        b'{"conflicts":[],"intents":['
        b'{"confidence":0.95,"explanation":"\'must\'","intent":"prefer_gpu","metadata":{"prefer_gpu_cores":1.0},'
        b'"strength":1.5},'
        b'{"confidence":0.9,"explanation":"","intent":"spread_zones","metadata":{},"strength":1.0}],"version":1}'
    )


def test_every_catalogue_intent_normalises_to_a_valid_canonical_document() -> None:
    raw = {"intents": [
        {"intent": spec.name, "metadata": {m.key: "x" if m.type == "list" else "2" for m in spec.metadata}}
        for spec in CATALOGUE
    ]}
    document = normalise(raw).document
    assert len(document.intents) == len(CATALOGUE)
    assert schema_errors(CANONICAL_VALIDATOR, document.to_dict()) == []


# --- conflicts ---------------------------------------------------------------------------------------------

SPREADS = ["spread_nodes", "spread_racks", "spread_regions", "spread_zones"]

CONFLICTS = [
    # (raw intents, expected conflict pairs)
    *(([{"intent": "prefer_colocate_same_deployment"}, {"intent": s}],
       [["prefer_colocate_same_deployment", s]]) for s in SPREADS),
    ([{"intent": "prefer_gpu"}, {"intent": "avoid_gpu_nodes"}], [["avoid_gpu_nodes", "prefer_gpu"]]),
    ([{"intent": "prefer_nvlink"}, {"intent": "avoid_gpu_nodes"}], [["avoid_gpu_nodes", "prefer_nvlink"]]),
    ([{"intent": "prefer_nearby_nodes_same_deployment"}, {"intent": "spread_zones"}],
     [["prefer_nearby_nodes_same_deployment", "spread_zones"]]),
    # nearby replicas can still be one per node
    ([{"intent": "prefer_nearby_nodes_same_deployment"}, {"intent": "spread_nodes"}], []),
    ([{"intent": "spread_zones"}, {"intent": "spread_nodes"}], []),
    ([{"intent": "prefer_gpu"}, {"intent": "prefer_cpu_cores"}], []),
    *(([{"intent": f"prefer_{d}", "metadata": {f"prefer_{d}": ["x", "y"]}},
        {"intent": f"avoid_{d}", "metadata": {f"avoid_{d}": ["y"]}}], [[f"avoid_{d}", f"prefer_{d}"]])
      for d in ("zones", "racks", "regions", "nodes")),
    # the same pairs with different values are not conflicts
    *(([{"intent": f"prefer_{d}", "metadata": {f"prefer_{d}": ["x"]}},
        {"intent": f"avoid_{d}", "metadata": {f"avoid_{d}": ["y"]}}], [])
      for d in ("zones", "racks", "regions", "nodes")),
    ([{"intent": "prefer_zones", "metadata": {"prefer_zones": ["US-EAST-1A"]}},
      {"intent": "avoid_zones", "metadata": {"avoid_zones": ["us-east-1a"]}}], [["avoid_zones", "prefer_zones"]]),
    ([{"intent": "prefer_same_node_as_deployments", "metadata": {"deployments": ["db"]}},
      {"intent": "avoid_same_node_as_deployments", "metadata": {"deployments": ["db"]}}],
     [["avoid_same_node_as_deployments", "prefer_same_node_as_deployments"]]),
    ([{"intent": "prefer_same_node_as_deployments", "metadata": {"deployments": ["db"]}},
      {"intent": "avoid_same_zone_as_deployments", "metadata": {"deployments": ["db"]}}],
     [["avoid_same_zone_as_deployments", "prefer_same_node_as_deployments"]]),
    # scenario C: near database/cache, away from logging-agent: satisfiable
    ([{"intent": "prefer_same_region_as_deployments", "metadata": {"deployments": ["database", "cache"]}},
      {"intent": "avoid_same_node_as_deployments", "metadata": {"deployments": ["logging-agent"]}}], []),
    # scenario F, plus a third intent: pairs sorted, list sorted
    ([{"intent": "spread_zones"}, {"intent": "prefer_colocate_same_deployment"}, {"intent": "spread_nodes"}],
     [["prefer_colocate_same_deployment", "spread_nodes"], ["prefer_colocate_same_deployment", "spread_zones"]]),
]


@pytest.mark.parametrize(("intents", "expected"), CONFLICTS)
def test_conflicts(intents: list[dict[str, Any]], expected: list[list[str]]) -> None:
    document = normalise({"intents": intents}).document
    assert document.to_dict()["conflicts"] == expected
    assert find_conflicts(reversed(document.intents)) == document.conflicts


# --- determinism -------------------------------------------------------------------------------------------

PERMUTABLE = [
    {"intent": "prefer_zones", "confidence": 0.8, "metadata": {"prefer_zones": ["b", "a"]}},
    {"intent": "prefer_zones", "confidence": 0.8, "metadata": {"prefer_zones": "c"}},
    {"intent": "prefer_cpu_cores", "confidence": 0.7, "metadata": {"prefer_cpu_cores": "16"}},
    {"intent": "prefer_cpu_cores", "confidence": 0.7, "metadata": {"prefer_cpu_cores": 32}},
    {"intent": "avoid_zones", "metadata": {"avoid_zones": ["a"]}},
    {"intent": "spread_zones", "strength": 0.5},
]


def test_identical_input_gives_identical_bytes() -> None:
    import copy

    first = normalise({"intents": copy.deepcopy(PERMUTABLE)}).document.canonical_bytes()
    second = normalise({"intents": copy.deepcopy(PERMUTABLE)}).document.canonical_bytes()
    assert first == second


def test_permuted_input_gives_identical_bytes() -> None:
    outputs = {
        normalise({"intents": list(order)}).document.canonical_bytes()
        for order in itertools.permutations(PERMUTABLE)
    }
    assert len(outputs) == 1
    document = normalise({"intents": PERMUTABLE}).document
    by_name = {i.name: i for i in document.intents}
    assert by_name["prefer_zones"].items("prefer_zones") == ("a", "b", "c")
    assert by_name["prefer_cpu_cores"].number("prefer_cpu_cores") == 32.0  # tie: the larger number
    assert document.conflicts == (("avoid_zones", "prefer_zones"),)


def test_normalising_the_canonical_form_changes_nothing() -> None:
    document = normalise({"intents": PERMUTABLE}).document
    again = normalise(document.to_dict())
    assert again.document == document
    assert again.notes == ()
