"""The intent model: canonical JSON, dict round trip, metadata accessors and the one-line summary."""

from __future__ import annotations

from shared.intents import EMPTY_DOCUMENT, Intent, IntentDocument, canonical_json, summarise
from shared.normalise import normalise


def test_canonical_json_is_compact_sorted_utf8() -> None:
    assert canonical_json({"b": [1.0, "ä"], "a": {"d": None, "c": True}}) == (
        '{"a":{"c":true,"d":null},"b":[1.0,"ä"]}'.encode()
    )


def test_document_dict_round_trip(gpu_document: IntentDocument) -> None:
    assert IntentDocument.from_dict(gpu_document.to_dict()) == gpu_document
    assert gpu_document.names == ("prefer_gpu", "prefer_zones", "spread_zones")


def test_metadata_accessors_fall_back_to_the_paper_defaults() -> None:
    intent = Intent("prefer_gpu", metadata={"prefer_gpu_cores": 4.0, "x": ("a",)})
    assert intent.number("prefer_gpu_cores") == 4.0
    assert intent.number("missing") == 1.0
    assert intent.number("x") == 1.0  # a list where a number belongs is not a number
    assert intent.items("x") == ("a",)
    assert intent.items("prefer_gpu_cores") == ()
    assert intent.items("missing") == ()


def test_summary_matches_the_contract_example() -> None:
    document = normalise([
        {"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5, "metadata": {"prefer_gpu_cores": 1}},
        {"intent": "spread_zones", "confidence": 0.9},
    ]).document
    assert summarise(document) == "prefer_gpu ≥1 GPU (0.95, strong); spread_zones (0.90)"


def test_summary_of_units_lists_weak_and_conflicts() -> None:
    document = normalise([
        {"intent": "prefer_network_speed", "metadata": {"prefer_network_speed_gbps": "100G"}},
        {"intent": "prefer_memory_gb", "strength": 0.5, "metadata": {"prefer_memory_gb": "64 GiB"}},
        {"intent": "prefer_colocate_same_deployment", "confidence": 0.8},
        {"intent": "spread_zones", "confidence": 0.8},
        {"intent": "avoid_same_node_as_deployments", "metadata": {"deployments": ["logging-agent", "cache"]}},
    ]).document
    assert summarise(document) == (
        "avoid_same_node_as_deployments [cache, logging-agent] (1.00); prefer_colocate_same_deployment (0.80); "
        "prefer_memory_gb ≥64 GB (1.00, weak); prefer_network_speed ≥100 Gbps (1.00); spread_zones (0.80); "
        "conflicts: prefer_colocate_same_deployment vs spread_zones"
    )


def test_summary_of_nothing_and_its_cap() -> None:
    assert summarise(EMPTY_DOCUMENT) == "no placement intent"
    many = normalise([{"intent": "prefer_nodes", "metadata": {"prefer_nodes": [f"node-{i}" for i in range(60)]}}])
    line = summarise(many.document, limit=100)
    assert len(line) == 100 and line.endswith("…") and line.startswith("prefer_nodes [node-0, node-1")
