"""Refusals said after their object, refusals followed by a softer wish, wishes asked in two clauses that
contradict each other, and the small readings around them (issue 12, dev7's es/de failures), in en, es, de, fr.

Each test holds one general mechanism, with probes of our own wording (no evaluation row); the polarity probes
show that no change turns an avoidance into a preference.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents, named, names, strengths


@pytest.mark.parametrize(("hint", "expected"), [
    # a refusal said after the place ("... stays out", "bleibt außen vor"), after another wish of the sentence
    ("6 cores, and zone ap-south-1b stays out", {"prefer_cpu_cores": [], "avoid_zones": ["ap-south-1b"]}),
    ("6 cores, region ap-south-1 is left out", {"prefer_cpu_cores": [], "avoid_regions": ["ap-south-1"]}),
    ("6 núcleos, y la región ap-south-1 se queda fuera", {"prefer_cpu_cores": [], "avoid_regions": ["ap-south-1"]}),
    ("6 Kerne, und die Region ap-south-1 bleibt außen vor", {"prefer_cpu_cores": [], "avoid_regions": ["ap-south-1"]}),
    ("6 Kerne, die Zone ap-south-1b bleibt draussen", {"prefer_cpu_cores": [], "avoid_zones": ["ap-south-1b"]}),
    ("die zone ap-south-1b lassen wir aussen vor", {"avoid_zones": ["ap-south-1b"]}),
    ("la région ap-south-1 reste en dehors", {"avoid_regions": ["ap-south-1"]}),
])
def test_a_refusal_said_after_its_place(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    "6 coeurs, et la région ap-south-1 reste en dehors",
    "6 cores, and region ap-south-1 stays out.",
    "6 Kerne, und die Region ap-south-1 bleibt raus.",
])
def test_a_refusal_said_after_its_place_never_prefers_it(hint: str) -> None:
    assert not any(name.startswith("prefer_") and "ap-south-1" in values for name, values in named(hint).items())


@pytest.mark.parametrize(("hint", "expected"), [
    # French elides "de" before a vowel: "loin d'eu-...", "à l'écart d'eu-..." refuse the same as "loin de"
    ("reste bien loin d'eu-central-2", {"avoid_regions": ["eu-central-2"]}),
    ("tenez-vous à l'écart d'eu-central-2, 4 coeurs", {"avoid_regions": ["eu-central-2"], "prefer_cpu_cores": []}),
    ("tout en dehors d'eu-central-2 stp", {"avoid_regions": ["eu-central-2"]}),
])
def test_an_elided_de_after_a_french_refusal(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "strength"), [
    # "il faut absolument rester | à l'écart de": the verb and its refusal are one wish, with its strength word
    ("il faut absolument rester loin de la zone eu-central-2b", 1.5),
    ("vous devez absolument rester à l'écart de la région eu-central-2", 1.5),
])
def test_a_french_rester_keeps_its_refusal_and_strength(hint: str, strength: float) -> None:
    found = strengths(hint)
    assert len(found) == 1 and next(iter(found)).startswith("avoid_"), found
    assert next(iter(found.values())) == strength


@pytest.mark.parametrize(("hint", "relation", "workload"), [
    # another workload refused on the node (or zone) we run on: it is the name said before the refusal
    ("metrics-agent darf nicht auf denselben knoten", "avoid_same_node_as_deployments", "metrics-agent"),
    ("metrics-agent must never be on the same node", "avoid_same_node_as_deployments", "metrics-agent"),
    ("metrics-agent no debe ir al mismo nodo", "avoid_same_node_as_deployments", "metrics-agent"),
    ("metrics-agent ne doit pas aller sur le même nœud", "avoid_same_node_as_deployments", "metrics-agent"),
    ("metrics-agent soll nicht in dieselbe zone", "avoid_same_zone_as_deployments", "metrics-agent"),
])
def test_a_workload_refused_on_the_same_node(hint: str, relation: str, workload: str) -> None:
    assert named(hint) == {relation: [workload]}


@pytest.mark.parametrize("hint", [
    "alle replikas auf einen knoten, metrics-agent darf nicht auf denselben knoten",
    "todas las réplicas en un nodo, metrics-agent no debe ir al mismo nodo",
])
def test_a_workload_refused_on_the_node_is_no_spread_of_our_own(hint: str) -> None:
    assert named(hint) == {"prefer_colocate_same_deployment": [], "avoid_same_node_as_deployments": ["metrics-agent"]}


@pytest.mark.parametrize("hint", [
    # our own replicas refused on one node spread; a name with its head noun is our own pods, no other workload
    "the replicas must not be on the same node",
    "web-shop pods must not be on the same node",
])
def test_our_own_replicas_refused_on_one_node_spread(hint: str) -> None:
    assert names(hint) == {"spread_nodes"}


@pytest.mark.parametrize(("hint", "avoided", "preferred"), [
    # a strong refusal, then a softer wish typed without punctuation: the preference cue ends the refused list
    ("keinesfalls auf pg-alt-3 am liebsten auf pg-neu-9", "pg-alt-3", "pg-neu-9"),
    ("under no circumstances on pg-old-3 ideally on pg-new-9", "pg-old-3", "pg-new-9"),
    ("en aucun cas sur pg-old-3 si possible sur pg-new-9", "pg-old-3", "pg-new-9"),
    ("ni de broma en pg-vieja-3 mejor si al pg-nueva-9", "pg-vieja-3", "pg-nueva-9"),
    # the node named bare before its refusal follows the scheme of the one named after its preposition
    ("pg-vieja-3 ni loco, mejor si va al pg-nueva-9", "pg-vieja-3", "pg-nueva-9"),
])
def test_a_strong_refusal_then_a_soft_preference(hint: str, avoided: str, preferred: str) -> None:
    assert named(hint) == {"avoid_nodes": [avoided], "prefer_nodes": [preferred]}
    found = strengths(hint)
    assert found["avoid_nodes"] == 1.5 and found["prefer_nodes"] == 0.5, found


@pytest.mark.parametrize(("hint", "expected"), [
    # "not needed" gives nothing; the refusal its consequence says ("so keep off GPU nodes") is read
    ("no gpu needed so stay off gpu nodes, 6 cores", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("braucht keine gpu also weg von gpu knoten 6 kerne", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("pas besoin de gpu donc aucun noeud gpu et 6 coeurs", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("no hace falta gpu asi que nada de nodos gpu, 6 nucleos", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    # ... and without that refusal nothing is refused
    ("braucht keine gpu, 6 kerne", {"prefer_cpu_cores"}),
    ("pas besoin de gpu, 6 coeurs", {"prefer_cpu_cores"}),
    # a consequence that refuses nothing joins no refusal: the place the sentence complains about is avoided
    ("le rack r-12 chauffe donc on le laisse tranquille pour ce job", {"avoid_racks"}),
])
def test_not_needed_then_a_refusal_of_gpu_nodes(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # two clearly separate clauses that contradict each other: both are read (the normaliser records the
    # conflict, the scorer weighs both)
    ("same node as pay-api, but far from pay-api",
     {"prefer_same_node_as_deployments": ["pay-api"], "avoid_same_node_as_deployments": ["pay-api"]}),
    ("mismo nodo que pay-api, pero lejos de pay-api",
     {"prefer_same_node_as_deployments": ["pay-api"], "avoid_same_node_as_deployments": ["pay-api"]}),
    ("gleicher knoten wie pay-api, aber weg von pay-api",
     {"prefer_same_node_as_deployments": ["pay-api"], "avoid_same_node_as_deployments": ["pay-api"]}),
    ("même nœud que pay-api, mais loin de pay-api",
     {"prefer_same_node_as_deployments": ["pay-api"], "avoid_same_node_as_deployments": ["pay-api"]}),
    ("spread over zones, but everything in westus2-2", {"spread_zones": [], "prefer_zones": ["westus2-2"]}),
    ("über zonen verteilen, aber alles in westus2-2", {"spread_zones": [], "prefer_zones": ["westus2-2"]}),
    ("repartir por zonas, pero todo en westus2-2", {"spread_zones": [], "prefer_zones": ["westus2-2"]}),
    ("répartir sur les zones, mais tout dans westus2-2", {"spread_zones": [], "prefer_zones": ["westus2-2"]}),
    ("all replicas on one node, and give each replica its own node",
     {"prefer_colocate_same_deployment": [], "spread_nodes": []}),
    ("todo en un nodo y que cada una tenga su propio nodo",
     {"prefer_colocate_same_deployment": [], "spread_nodes": []}),
    ("la région eu-central-2 est obligatoire, et il faut rester loin d'eu-central-2",
     {"prefer_regions": ["eu-central-2"], "avoid_regions": ["eu-central-2"]}),
])
def test_a_contradiction_in_two_clauses_reads_both(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # ... but where the boundary between them is not certain, neither is read
    "same node as pay-api far from pay-api",
    "mismo nodo que pay-api lejos de pay-api",
    "gleicher knoten wie pay-api weg von pay-api",
    "même nœud que pay-api loin de pay-api",
    "all on one node each replica on its own node",
])
def test_a_contradiction_in_one_clause_reads_neither(hint: str) -> None:
    assert names(hint) == set()


@pytest.mark.parametrize(("hint", "expected"), [
    # "far from" a workload named bare (a dashed name, no head noun)
    ("8 gigas de ram, y ojo, lejos del log-router",
     {"prefer_memory_gb": [], "avoid_same_node_as_deployments": ["log-router"]}),
    ("keep it far from log-router", {"avoid_same_node_as_deployments": ["log-router"]}),
    ("bitte weg von log-router", {"avoid_same_node_as_deployments": ["log-router"]}),
    ("loin de log-router stp", {"avoid_same_node_as_deployments": ["log-router"]}),
    # ... while a place so named stays a place
    ("far from gpu-node-12", {"avoid_nodes": ["gpu-node-12"]}),
])
def test_far_from_a_workload_named_bare(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # only what was named, "nothing else": no refusal of it
    ("1 l40s per pod, nothing else", {"prefer_gpu", "prefer_gpu_models"}),
    ("la gpu tiene que ser una l40s, otra no vale", {"prefer_gpu_models"}),
    ("2 l40s pro pod, sonst nichts", {"prefer_gpu", "prefer_gpu_models"}),
    ("carte l40s, rien d'autre", {"prefer_gpu_models"}),
    ("1 l40s x pod y nvlink, nada más", {"prefer_gpu", "prefer_gpu_models", "prefer_nvlink"}),
])
def test_nothing_else_refuses_nothing(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # a size "each" in a sentence of its own after the GPUs is their memory
    ("2 gpus required. ideally 48GB each", "prefer_gpu_memory_gb"),
    ("2 gpus obligatorias. a ser posible 48GB cada una", "prefer_gpu_memory_gb"),
    ("2 GPUs zwingend. am besten 48GB pro stück", "prefer_gpu_memory_gb"),
    ("2 gpu obligatoires. idéalement 48 Go chacune", "prefer_gpu_memory_gb"),
    # ... and after cores it is memory
    ("6 cores. ideally 48GB each", "prefer_memory_gb"),
])
def test_a_size_each_after_a_sentence_of_gpus(hint: str, expected: str) -> None:
    assert expected in intents(hint) and 48.0 in intents(hint)[expected].values()


@pytest.mark.parametrize(("hint", "expected"), [
    ("réplicas separadas por nodos si se puede", {"spread_nodes"}),
    ("replikas nach knoten getrennt", {"spread_nodes"}),
    ("répliques séparées par nœud", {"spread_nodes"}),
    ("replicas separated by node", {"spread_nodes"}),
    ("die replikas gehören nah zueinander", {"prefer_nearby_nodes_same_deployment"}),
    ("un nodo lo más descargado posible", {"prefer_least_loaded_nodes"}),
    # German "hier" (here) is no French "hier" (yesterday): the sentence still asks
    ("mein batch job hier braucht 6 kerne", {"prefer_cpu_cores"}),
    ("le rack r-12 a chauffé hier", set()),
])
def test_small_readings(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize("hint", [
    # a question about a node asks for an answer, no placement
    "oye, ¿cuántas gpus tiene el nodo w-41?",
    "welche gpus hat der knoten k-41?",
    "combien de gpu sur le noeud n-41 ?",
    "how many gpus does node w-41 have?",
])
def test_a_question_about_a_node_asks_for_nothing(hint: str) -> None:
    assert names(hint) == set()


@pytest.mark.parametrize("hint", [
    # a refusal after its place, then why, typed without punctuation: the reason is skipped, the refusal read
    "6 cores and zone eu-west-3b please not it had outages last week",
    "6 núcleos y la zona eu-west-3b no que tuvo caídas la semana pasada",
    "6 kerne und zone eu-west-3b bitte nicht die hatte letzte woche ausfälle",
    "6 coeurs et la zone eu-west-3b non elle a eu des pannes la semaine dernière",
])
def test_a_refusal_after_its_place_then_why(hint: str) -> None:
    assert named(hint) == {"prefer_cpu_cores": [], "avoid_zones": ["eu-west-3b"]}
