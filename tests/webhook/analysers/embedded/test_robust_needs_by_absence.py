"""A need said through its absence: a place refused because it lacks a resource ("don't schedule it on a box
without a GPU"), or a lack the workload fails without ("with no ssd it won't even start"), asks for that
resource, in every language; a lack said alone ("it runs fine without a GPU") is never a wish for it, and a
job said to be purely CPU-bound stays off GPU machines without asking for cores."""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named, names, readings

NEEDS = [
    # en
    ("don't schedule this on any box without a gpu", "prefer_gpu"),
    ("never place it on machines lacking ssds", "prefer_ssd_storage"),
    ("no host with no nvme, please", "prefer_ssd_storage"),
    ("with no ssd it wont even start", "prefer_ssd_storage"),
    ("it cant run without a gpu", "prefer_gpu"),
    ("without nvme disks the import crawls", "prefer_ssd_storage"),
    # es
    ("no lo mandes a ninguna maquina sin gpu", "prefer_gpu"),
    ("sin nvme el proceso no arranca", "prefer_ssd_storage"),
    ("sin discos ssd va lentisimo", None),  # an adverb of its own, unknown: nothing guessed
    ("evita los servidores sin ssd", "prefer_ssd_storage"),
    # de
    ("bitte nicht auf einen rechner ohne gpu legen", "prefer_gpu"),
    ("ohne ssd laeuft der import nicht", "prefer_ssd_storage"),
    ("keine knoten ohne nvme verwenden", "prefer_ssd_storage"),
    # fr
    ("ne le mets pas sur une machine sans gpu", "prefer_gpu"),
    ("sans nvme le batch ne demarre pas", "prefer_ssd_storage"),
    ("evitez les serveurs depourvus de ssd", "prefer_ssd_storage"),
]


@pytest.mark.parametrize(("hint", "intent"), NEEDS)
def test_a_refused_lack_or_a_lack_that_stops_the_workload_is_a_need(hint: str, intent: str | None) -> None:
    read = names(hint)
    if intent is None:
        assert "avoid_gpu_nodes" not in read, read
        return
    assert intent in read, read
    assert "avoid_gpu_nodes" not in read, read


LACK_ALONE = [
    "it runs fine without a gpu",
    "funciona bien sin gpu",
    "laeuft auch ohne gpu problemlos",
    "tourne tres bien sans gpu",
    "avoid rack-3, nodes without a gpu are fine",
    "works without ssd too",
]


@pytest.mark.parametrize("hint", LACK_ALONE)
def test_a_lack_said_alone_never_asks_for_the_resource(hint: str) -> None:
    read = names(hint)
    assert "prefer_gpu" not in read and "prefer_ssd_storage" not in read, read


PURELY_CPU = [
    "Keep the batch off hosts with graphics cards; it is purely CPU-bound.",
    "stay away from the gpu boxes, the thing is entirely cpu bound",
]


@pytest.mark.parametrize("hint", PURELY_CPU)
def test_purely_cpu_bound_avoids_gpu_nodes_only(hint: str) -> None:
    assert names(hint) == {"avoid_gpu_nodes"}


PLACE_IS_WHERE = [
    ("rack r31-c is where this should go", "prefer_racks", ["r31-c"]),
    ("zone eu-west-1b is where the db should run", "prefer_zones", ["eu-west-1b"]),
    ("region us-east-2 is where it belongs", "prefer_regions", ["us-east-2"]),
    ("el rack r31-c es el sitio adecuado", "prefer_racks", ["r31-c"]),
    ("la zona eu-west-1b es donde deberia ir", "prefer_zones", ["eu-west-1b"]),
    ("rack r31-c ist der richtige ort dafuer", "prefer_racks", ["r31-c"]),
    ("die zone eu-central-1a ist wo es hingehoert", "prefer_zones", ["eu-central-1a"]),
    ("le rack r31-c est le bon endroit", "prefer_racks", ["r31-c"]),
]


@pytest.mark.parametrize(("hint", "intent", "items"), PLACE_IS_WHERE)
def test_a_place_said_to_be_where_it_belongs_is_wished(hint: str, intent: str, items: list[str]) -> None:
    read = named(hint)
    assert set(read) == {intent}, read
    assert read[intent] == items


NOT_WHERE = [
    "rack r31-c is where it should not go",
    "rack r31-c isnt where this should go",
    "rack r31-c is where the outage was",
    "el rack r31-c no es donde debe ir",
]


@pytest.mark.parametrize("hint", NOT_WHERE)
def test_a_place_refused_or_described_as_where_is_never_wished(hint: str) -> None:
    assert not any(name.startswith("prefer_") for name in names(hint)), names(hint)


SAVES_A_COST = [
    ("same region as the ledger-api stack so we dont pay egress", "ledger-api"),
    ("same region as the billing-svc pods to avoid paying egress", "billing-svc"),
    ("misma region que ledger-api para no pagar trafico", "ledger-api"),
    ("gleiche region wie ledger-api damit wir kein egress zahlen", "ledger-api"),
    ("meme region que ledger-api pour ne pas payer l'egress", "ledger-api"),
]


@pytest.mark.parametrize(("hint", "workload"), SAVES_A_COST)
def test_a_cost_saved_after_a_same_region_wish_negates_nothing(hint: str, workload: str) -> None:
    read = named(hint)
    assert read == {"prefer_same_region_as_deployments": [workload]}, read


RELATION_THEN_REFUSAL = [
    ("sharing a host with orders-db: never", "avoid_same_node_as_deployments", "orders-db", 1.0),
    ("same node as the orders-db pods: absolutely not", "avoid_same_node_as_deployments", "orders-db", 1.5),
    ("mismo nodo que orders-db: bajo ningún concepto", "avoid_same_node_as_deployments", "orders-db", 1.5),
    ("gleicher knoten wie orders-db: auf keinen fall", "avoid_same_node_as_deployments", "orders-db", 1.5),
    ("partager une machine avec orders-db : en aucun cas", "avoid_same_node_as_deployments", "orders-db", 1.5),
]


@pytest.mark.parametrize(("hint", "intent", "workload", "strength"), RELATION_THEN_REFUSAL)
def test_a_relation_then_a_refusal_after_a_colon_is_refused(hint: str, intent: str, workload: str,
                                                           strength: float) -> None:
    read = readings(hint)
    assert set(read) == {intent}, read
    got, metadata = read[intent]
    assert got == strength and metadata["deployments"] == [workload], read


@pytest.mark.parametrize("hint", [
    "same node as orders-db: yes please",
    "same node as orders-db, never rack-3",
    "mismo nodo que orders-db: perfecto",
])
def test_a_relation_before_no_bare_refusal_is_never_refused(hint: str) -> None:
    assert "avoid_same_node_as_deployments" not in names(hint), names(hint)


NO_GPU_INDIRECT = [
    "no hw accel needed, plain machines will do",
    "no gpus needed, regular boxes are fine",
    "no hace falta gpu, las maquinas normales sirven",
    "keine gpu noetig, normale rechner reichen",
    "pas besoin de gpu, les machines standard conviennent",
    "laissez les machines gpu libres, ce batch n'en a pas besoin",
    "ce job n'utilise pas de gpu, laisse les noeuds gpu aux autres",
]


@pytest.mark.parametrize("hint", NO_GPU_INDIRECT)
def test_no_gpu_need_then_plain_nodes_or_gpu_machines_left_to_others_avoids_gpu_nodes(hint: str) -> None:
    assert names(hint) == {"avoid_gpu_nodes"}, names(hint)


@pytest.mark.parametrize("hint", [
    "no gpu needed",
    "regular nodes are fine",
    "needs a gpu, regular nodes are fine for the sidecar",
    "no hace falta gpu",
])
def test_no_gpu_need_or_plain_nodes_alone_avoid_nothing(hint: str) -> None:
    assert "avoid_gpu_nodes" not in names(hint), names(hint)


@pytest.mark.parametrize("hint", [
    "inference: an H100 GPU, spread over zones",
    "batch scoring on an A10 gpu please",
    "an l40s gpu would be nice",
])
def test_an_article_before_a_gpu_model_names_the_model_and_counts_nothing(hint: str) -> None:
    read = names(hint)
    assert "prefer_gpu_models" in read and "prefer_gpu" not in read, read


@pytest.mark.parametrize("hint", [
    "video encoding: needs GPUs, A40 model",
    "training: wants gpus, h100 preferred",
])
def test_a_gpu_request_before_a_comma_and_a_model_asks_for_gpus_and_the_model(hint: str) -> None:
    read = names(hint)
    assert {"prefer_gpu", "prefer_gpu_models"} <= read, read
