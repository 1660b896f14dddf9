"""The catalogue against the contract table of ARCHITECTURE.md 2.3 (transcribed here by hand)."""

from __future__ import annotations

import pytest

from shared.catalogue import BY_NAME, CATALOGUE, INTENT_NAMES, Group, Kind, MetaType, spec

# intent: (group, {metadata key: type}, kind, domain)
CONTRACT: dict[str, tuple[Group, dict[str, MetaType], Kind, str]] = {
    "prefer_colocate_same_deployment": (Group.SAME_WORKLOAD, {}, Kind.COLOCATE, ""),
    "prefer_nearby_nodes_same_deployment": (Group.SAME_WORKLOAD, {}, Kind.NEARBY, ""),
    "spread_nodes": (Group.SAME_WORKLOAD, {}, Kind.SPREAD, "node"),
    "spread_zones": (Group.TOPOLOGY, {}, Kind.SPREAD, "zone"),
    "spread_racks": (Group.TOPOLOGY, {}, Kind.SPREAD, "rack"),
    "spread_regions": (Group.TOPOLOGY, {}, Kind.SPREAD, "region"),
    "prefer_zones": (Group.TOPOLOGY, {"prefer_zones": MetaType.LIST}, Kind.PREFER_DOMAIN, "zone"),
    "prefer_racks": (Group.TOPOLOGY, {"prefer_racks": MetaType.LIST}, Kind.PREFER_DOMAIN, "rack"),
    "prefer_regions": (Group.TOPOLOGY, {"prefer_regions": MetaType.LIST}, Kind.PREFER_DOMAIN, "region"),
    "avoid_zones": (Group.TOPOLOGY, {"avoid_zones": MetaType.LIST}, Kind.AVOID_DOMAIN, "zone"),
    "avoid_racks": (Group.TOPOLOGY, {"avoid_racks": MetaType.LIST}, Kind.AVOID_DOMAIN, "rack"),
    "avoid_regions": (Group.TOPOLOGY, {"avoid_regions": MetaType.LIST}, Kind.AVOID_DOMAIN, "region"),
    "prefer_nodes": (Group.NODE, {"prefer_nodes": MetaType.LIST}, Kind.PREFER_DOMAIN, "node"),
    "avoid_nodes": (Group.NODE, {"avoid_nodes": MetaType.LIST}, Kind.AVOID_DOMAIN, "node"),
    "prefer_same_node_as_deployments": (
        Group.OTHER_WORKLOADS, {"deployments": MetaType.LIST}, Kind.PREFER_NEAR_WORKLOADS, "node"),
    "prefer_same_zone_as_deployments": (
        Group.OTHER_WORKLOADS, {"deployments": MetaType.LIST}, Kind.PREFER_NEAR_WORKLOADS, "zone"),
    "prefer_same_region_as_deployments": (
        Group.OTHER_WORKLOADS, {"deployments": MetaType.LIST}, Kind.PREFER_NEAR_WORKLOADS, "region"),
    "avoid_same_node_as_deployments": (
        Group.OTHER_WORKLOADS, {"deployments": MetaType.LIST}, Kind.AVOID_NEAR_WORKLOADS, "node"),
    "avoid_same_zone_as_deployments": (
        Group.OTHER_WORKLOADS, {"deployments": MetaType.LIST}, Kind.AVOID_NEAR_WORKLOADS, "zone"),
    "prefer_gpu": (Group.RESOURCE, {"prefer_gpu_cores": MetaType.FLOAT}, Kind.GPU_COUNT, ""),
    "prefer_gpu_memory_gb": (Group.RESOURCE, {"prefer_gpu_memory_gb": MetaType.FLOAT}, Kind.GPU_MEMORY, ""),
    "prefer_gpu_models": (Group.RESOURCE, {"prefer_gpu_models": MetaType.LIST}, Kind.GPU_MODEL, ""),
    "prefer_nvlink": (Group.RESOURCE, {}, Kind.NVLINK, ""),
    "prefer_numa_aligned": (Group.RESOURCE, {}, Kind.NUMA_ALIGNED, ""),
    "avoid_gpu_nodes": (Group.RESOURCE, {}, Kind.AVOID_GPU, ""),
    "prefer_cpu_cores": (Group.RESOURCE, {"prefer_cpu_cores": MetaType.FLOAT}, Kind.CPU, ""),
    "prefer_memory_gb": (Group.RESOURCE, {"prefer_memory_gb": MetaType.FLOAT}, Kind.MEMORY, ""),
    "prefer_ssd_storage": (Group.RESOURCE, {}, Kind.SSD, ""),
    "prefer_ephemeral_storage": (
        Group.RESOURCE, {"prefer_ephemeral_storage_gb": MetaType.FLOAT}, Kind.EPHEMERAL_STORAGE, ""),
    "prefer_network_speed": (Group.RESOURCE, {"prefer_network_speed_gbps": MetaType.FLOAT}, Kind.NETWORK_SPEED, ""),
    "prefer_least_loaded_nodes": (Group.LOAD, {}, Kind.LEAST_LOADED, ""),
}

# Names the paper's text preserves (marked * in 2.3): they must never be renamed.
PAPER_NAMES = {
    "prefer_colocate_same_deployment", "prefer_nearby_nodes_same_deployment", "spread_nodes", "spread_zones",
    "prefer_zones", "avoid_zones", "avoid_racks", "prefer_gpu", "prefer_cpu_cores", "prefer_memory_gb",
    "prefer_ephemeral_storage", "prefer_network_speed",
}


def test_catalogue_has_exactly_the_contract_intents() -> None:
    assert set(BY_NAME) == set(CONTRACT)
    assert len(CATALOGUE) == len(CONTRACT)  # no duplicates
    assert tuple(sorted(CONTRACT)) == INTENT_NAMES
    assert PAPER_NAMES.issubset(BY_NAME)


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_catalogue_row_matches_the_contract(name: str) -> None:
    group, metadata, kind, domain = CONTRACT[name]
    row = spec(name)
    assert (row.group, row.kind, row.domain) == (group, kind, domain)
    assert {m.key: m.type for m in row.metadata} == metadata
    assert len(row.description) >= 40  # it goes into the LLM prompt
    for meta in row.metadata:
        assert meta.default == (1.0 if meta.type is MetaType.FLOAT else ())  # the paper's defaults
        assert bool(meta.unit) == (meta.type is MetaType.FLOAT)
    lists = [m.key for m in row.metadata if m.type is MetaType.LIST]
    assert row.list_key == (lists[0] if lists else None)


def test_list_intents_of_topology_and_node_groups_use_their_own_name_as_key() -> None:
    for row in CATALOGUE:
        if row.group in (Group.TOPOLOGY, Group.NODE) and row.metadata:
            assert row.list_key == row.name


def test_unknown_intent_raises_key_error() -> None:
    with pytest.raises(KeyError):
        spec("prefer_moon")
