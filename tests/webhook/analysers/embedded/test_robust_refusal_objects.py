"""What a refusal takes as its object, and what a size is about (issue 12, session 8): a node named only by a
refusal, a likewise after the name it adds (also as a sentence of its own), colloquial refusal words, a need
verb with its subject between it and "nicht", "each" without any GPU, and a place given in its level's role.

The probe hints are our own wording (no evaluation row).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents, named


@pytest.mark.parametrize(("hint", "expected"), [
    # a dashed name of no known prefix, named by a refusal before or after it, is a node
    ("avoid bx-lon-31", {"avoid_nodes": ["bx-lon-31"]}),
    ("evita el sv-bcn-08 por favor", {"avoid_nodes": ["sv-bcn-08"]}),
    ("dk-muc-12 vermeiden", {"avoid_nodes": ["dk-muc-12"]}),
    ("évite pv-lyo-4", {"avoid_nodes": ["pv-lyo-4"]}),
    # ... unless another reading of it comes first: "those racks" names its level
    ("stay off q3-11 and q3-12, those racks overheat", {"avoid_racks": ["q3-11", "q3-12"]}),
    # a rack name of two or three letters and a number after the level word's dash
    ("anything but rack-tx4", {"avoid_racks": ["rack-tx4"]}),
    # a likewise after the name it adds, in its own sentence or its own clause
    ("Avoid node ab-1. Node ab-2 likewise.", {"avoid_nodes": ["ab-1", "ab-2"]}),
    ("dk-muc-12 vermeiden, dk-muc-14 ebenso", {"avoid_nodes": ["dk-muc-12", "dk-muc-14"]}),
    ("evita el nodo sv-9. el sv-11 igualmente.", {"avoid_nodes": ["sv-11", "sv-9"]}),
    ("evite le noeud pv-2. pv-3 de meme.", {"avoid_nodes": ["pv-2", "pv-3"]}),
    # colloquial refusals
    ("nix auf rack r7 bitte", {"avoid_racks": ["r7"]}),
    ("hay que esquivar la zona us-east-1c", {"avoid_zones": ["us-east-1c"]}),
    ("leave the gpu boxes free for training", {"avoid_gpu_nodes": []}),
    ("las maquinas con gpu dejalas libres", {"avoid_gpu_nodes": []}),
    ("die GPU-Knoten frei lassen", {"avoid_gpu_nodes": []}),
    ("lass die GPU-Knoten frei", {"avoid_gpu_nodes": []}),
    ("laissez les noeuds gpu libres", {"avoid_gpu_nodes": []}),
    # "nothing else" refuses nothing
    ("1x l40s, sonst nix", {"prefer_gpu": [], "prefer_gpu_models": ["L40S"]}),
    # a place given in its level's role, after it
    ("ap-south-1a as the zone pls", {"prefer_zones": ["ap-south-1a"]}),
    ("eu-north-1 als Region bitte", {"prefer_regions": ["eu-north-1"]}),
    ("us-west-2 como region", {"prefer_regions": ["us-west-2"]}),
    ("ca-central-1 comme région stp", {"prefer_regions": ["ca-central-1"]}),
    ("Bind the service to the rack named pq-7.", {"prefer_racks": ["pq-7"]}),
])
def test_what_a_refusal_or_a_role_names(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # "each" with no GPU around counts replicas: the size is RAM
    ("spread over nodes and give each 6 GB of RAM",
     {"spread_nodes": {}, "prefer_memory_gb": {"prefer_memory_gb": 6.0}}),
    ("dale a cada réplica 6 GB", {"prefer_memory_gb": {"prefer_memory_gb": 6.0}}),
    # ... with GPUs named before it in its sentence, it is each GPU's memory
    ("3 L4, each 24 GB", {"prefer_gpu": {"prefer_gpu_cores": 3.0}, "prefer_gpu_models": {"prefer_gpu_models": ["L4"]},
                          "prefer_gpu_memory_gb": {"prefer_gpu_memory_gb": 24.0}}),
    # a German need verb with its subject before "nicht": no GPU asked for, none refused
    ("Eine GPU braucht die Pipeline nicht, aber 200 GB Scratch.",
     {"prefer_ephemeral_storage": {"prefer_ephemeral_storage_gb": 200.0}}),
    ("Zwei GPUs braucht der Dienst unbedingt.", {"prefer_gpu": {"prefer_gpu_cores": 2.0}}),
])
def test_what_a_size_or_a_count_is_about(hint: str, expected: dict[str, dict]) -> None:
    assert intents(hint) == expected


@pytest.mark.parametrize("hint", [
    # a role word that is no level's ("as the primary") and a name after "as zone" told of in the past
    "eu-west-3a as zone was a disaster last year",
    "avoid it: db-pg-2 says the runbook",
])
def test_no_place_is_preferred_without_a_wish(hint: str) -> None:
    assert not {name for name in named(hint) if name.startswith("prefer_")}


@pytest.mark.parametrize(("hint", "expected"), [
    # a workload named in double (or typographic) quotes in "whatever host X is on"
    ('pin it to whatever host "redis-edge" is on', {"prefer_same_node_as_deployments": ["redis-edge"]}),
    # a name with a word that is a cue elsewhere ("log-...") is no cue: the size is RAM
    ("log-forwarder: 1 core 3g", {"prefer_cpu_cores": [], "prefer_memory_gb": []}),
    ("1 nucleo y 3 gigas", {"prefer_cpu_cores": [], "prefer_memory_gb": []}),
    # "but" after a workload's name ends its list
    ("Placez-le dans la région de paie-db, mais sur aucun nœud qui exécute scan-av.",
     {"prefer_same_region_as_deployments": ["paie-db"], "avoid_same_node_as_deployments": ["scan-av"]}),
    ("Ponlo en la región de nomina-db, pero en ningún nodo donde corra scan-av.",
     {"prefer_same_region_as_deployments": ["nomina-db"], "avoid_same_node_as_deployments": ["scan-av"]}),
    # where the pod belongs is a wish
    ("Der Job gehört dorthin, wo die Last am geringsten ist.", {"prefer_least_loaded_nodes": []}),
])
def test_names_sizes_and_wishes_in_context(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # set phrases holding a negation word refuse nothing ("they talk nonstop")
    ("mets-le sur le noeud ou tourne cache-x, ils se parlent sans arret",
     {"prefer_same_node_as_deployments": ["cache-x"]}),
    ("ponlo junto a cache-x, se hablan sin parar", {"prefer_same_node_as_deployments": ["cache-x"]}),
    # a possessive typed without its apostrophe, after a dashed workload name
    ("stick to ledger-apis zone pls", {"prefer_same_zone_as_deployments": ["ledger-api"]}),
    ("stay out of fraud-scorers az", {"avoid_same_zone_as_deployments": ["fraud-scorer"]}),
    ("put it in us-east-1s zone", {"prefer_zones": ["us-east-1s"]}),
])
def test_set_phrases_and_bare_possessives(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected
