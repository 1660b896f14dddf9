"""Constructions the English development rows of session 11 showed missing, probed in our own wording (no
evaluation row): a count of zero GPUs, a refusal said again before the next item of its list ("... and of
rack-x/rack-y"), the goal of a wish ("so that ..."), "whichever zone hosts X", "X is where we want them", memory
"each" after a GPU count with "no less than", and "on one node" said after a relation to another workload.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import check_values, names, values


# --- a count of zero GPUs never asks for a GPU ------------------------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("zero gpu machines for the crawler", {"avoid_gpu_nodes": None}),
    ("zero GPUs, and keep one pod per node for the crawler", {"avoid_gpu_nodes": None, "spread_nodes": None}),
    ("this batch job wants 0 gpu hosts", {"avoid_gpu_nodes": None}),
    ("cero GPUs para este servicio", {"avoid_gpu_nodes": None}),
    ("null GPUs für diesen Dienst bitte", {"avoid_gpu_nodes": None}),
    ("zéro GPU pour ce service", {"avoid_gpu_nodes": None}),
])
def test_a_zero_count_of_gpus_refuses_them(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    "zero cores needed beyond the default",
    "0 GB of scratch is fine",
    "zero downtime please",
])
def test_a_zero_amount_asks_for_nothing(hint: str) -> None:
    assert not {"prefer_gpu", "prefer_cpu_cores", "prefer_memory_gb", "prefer_ephemeral_storage"} & names(hint), hint


# --- a refused list goes on past refused GPU nodes, with its preposition said again -----------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("keep well clear of the gpu machines and also of rack-14/rack-15 (being rewired)", {
        "avoid_gpu_nodes": None, "avoid_racks": ["rack-14", "rack-15"]}),
    ("quarantine-ish: avoid gpu boxes and rack-r7", {"avoid_gpu_nodes": None, "avoid_racks": ["rack-r7"]}),
    ("the sidecar stays away from gpu hosts and from rack-31", {"avoid_gpu_nodes": None, "avoid_racks": ["rack-31"]}),
    ("ops says steer clear of rack-44 and of rack-45 today", {"avoid_racks": ["rack-44", "rack-45"]}),
    ("lejos de las máquinas gpu y de rack-21/rack-22", {
        "avoid_gpu_nodes": None, "avoid_racks": ["rack-21", "rack-22"]}),
    ("weg von gpu-knoten und von rack-21/rack-22 (wartung)", {
        "avoid_gpu_nodes": None, "avoid_racks": ["rack-21", "rack-22"]}),
    ("loin des nœuds gpu et de rack-21/rack-22 (maintenance)", {
        "avoid_gpu_nodes": None, "avoid_racks": ["rack-21", "rack-22"]}),
])
def test_a_list_after_refused_gpu_nodes_is_refused(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    "no gpu nodes and in rack-17",
    "no gpu nodes, and in rack-17",
])
def test_a_place_with_its_own_preposition_after_refused_gpus_is_never_refused(hint: str) -> None:
    assert "avoid_racks" not in names(hint), hint


# --- the goal of a wish explains it and asks for nothing ------------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("one pod per node so that a single dead box only costs us one of the nine", {"spread_nodes": None}),
    ("keep the replicas on separate hosts so that a kernel panic doesn't wipe the fleet", {"spread_nodes": None}),
    ("spread over racks so that a single PDU trip is survivable", {"spread_racks": None}),
    ("un pod por nodo para que la caída de un solo host no tumbe todo", {"spread_nodes": None}),
    ("ein Pod pro Knoten, damit der Ausfall eines einzelnen Hosts nicht alles lahmlegt", {"spread_nodes": None}),
    ("un pod par nœud pour que la perte d'un seul hôte ne casse pas tout", {"spread_nodes": None}),
])
def test_a_goal_after_a_wish_is_no_wish(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


def test_a_wish_said_as_a_goal_alone_is_still_read() -> None:
    assert "spread_nodes" in names("lay the shards out so that no two of them share a node")


# --- "whichever zone hosts X" ---------------------------------------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("put the scrapers into whichever zone hosts the orders-db statefulset", {
        "prefer_same_zone_as_deployments": ["orders-db"]}),
    ("land it in whichever region currently runs billing-core", {
        "prefer_same_region_as_deployments": ["billing-core"]}),
    ("keep out of whichever zone hosts audit-log", {"avoid_same_zone_as_deployments": ["audit-log"]}),
    ("ponlos en cualquier zona que aloje orders-db", {"prefer_same_zone_as_deployments": ["orders-db"]}),
])
def test_whichever_level_hosts_a_workload_is_its_level(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


# --- "X is where we want them" --------------------------------------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("rack-27 is where we want these scrapers", {"prefer_racks": ["rack-27"]}),
    ("honestly eu-west-3 is where we need them", {"prefer_regions": ["eu-west-3"]}),
    ("rack-27 is where those should live", {"prefer_racks": ["rack-27"]}),
    ("rack-27 ist, wo wir sie haben wollen", {"prefer_racks": ["rack-27"]}),
])
def test_a_place_is_where_we_want_them(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    "rack-27 is where they crashed last night",
    "rack-27 is where we don't want them",
])
def test_a_place_is_where_something_else_is_no_wish(hint: str) -> None:
    assert "prefer_racks" not in names(hint), hint


# --- memory "each" after a GPU count, with "no less than" ------------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("a host exposing 4 NVIDIA cards, each one packing no less than 24 GB of memory", {
        "prefer_gpu": 4, "prefer_gpu_memory_gb": 24}),
    ("3 gpus each with no less than 80gb for the finetune", {"prefer_gpu": 3, "prefer_gpu_memory_gb": 80}),
    ("nodo con 4 GPUs, cada una con no menos de 24 GB de memoria", {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24}),
    ("Knoten mit 4 GPUs, jede mit nicht weniger als 24 GB Speicher", {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24}),
    ("un nœud avec 4 GPU, chacun avec pas moins de 24 Go de mémoire", {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24}),
])
def test_memory_each_after_gpus_is_gpu_memory(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


def test_no_less_than_before_a_machine_amount_stays_ram() -> None:
    assert values("the indexer asks for no less than 96 gigs of ram") == {"prefer_memory_gb": 96.0}


# --- "on one node" after a relation is that relation's node ---------------------------------------------
@pytest.mark.parametrize(("hint", "expected"), [
    ("run the exporter beside cache-main on one host", {"prefer_same_node_as_deployments": ["cache-main"]}),
    ("stick them next to ingest-7 on a single node", {"prefer_same_node_as_deployments": ["ingest-7"]}),
])
def test_one_node_after_a_relation_is_its_node(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


def test_own_replicas_on_one_node_stay_read() -> None:
    assert "prefer_colocate_same_deployment" in names("squeeze every replica of the exporter together on one host")
