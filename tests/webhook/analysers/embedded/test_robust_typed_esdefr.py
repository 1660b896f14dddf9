"""Spanish, German and French as people type them (issue 12): run-on wishes without punctuation, shorthand,
verb-final refusals, pronouns that point back, and strength said after its object.

Each test holds one general mechanism, with probes of our own wording (no evaluation row) in the languages it
touches; polarity probes show that no change turns an avoidance into a preference.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named, names, strengths


@pytest.mark.parametrize(("hint", "expected"), [
    # a bare spread word elsewhere in the sentence never borrows the level another wish reads
    ("distributed training, needs 2 gpus, all in the same rack if you can",
     {"prefer_gpu", "prefer_nearby_nodes_same_deployment"}),
    ("entrenamiento distribuido, 2 gpus, todo en el mismo rack si se puede",
     {"prefer_gpu", "prefer_nearby_nodes_same_deployment"}),
    ("verteiltes training, braucht 2 gpus, alle im gleichen rack wenn moeglich",
     {"prefer_gpu", "prefer_nearby_nodes_same_deployment"}),
    # a level said as the one place to share is none to spread over either
    ("distributed inference, 2 gpus, all in one rack", {"prefer_gpu", "prefer_nearby_nodes_same_deployment"}),
    # ... while a bare spread word still takes the one level its sentence names for nothing else
    ("racks: repartelas", {"spread_racks"}),
])
def test_a_bare_spread_never_borrows_another_wishs_level(hint: str, expected: set[str]) -> None:
    found = names(hint)
    assert found == expected, found
    assert not any(name.startswith("spread_") for name in found - expected)


@pytest.mark.parametrize("hint", [
    "no las amontones, una por maquina",
    "una replica por host y que no se apilen",
    "cada pod en su propio nodo, no los apiles",
])
def test_a_negated_packing_verb_spreads_over_nodes(hint: str) -> None:
    assert names(hint) == {"spread_nodes"}


@pytest.mark.parametrize(("hint", "expected"), [
    # ... over the level the clause names, when it names one
    ("que no se apilen los pods en una misma zona", {"spread_zones"}),
    ("no las amontones en un solo rack", {"spread_racks"}),
])
def test_a_negated_packing_verb_spreads_over_the_level_it_names(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    ("apilalas todas en un nodo", {"prefer_colocate_same_deployment"}),
    # "todo en un nodo" / "tout sur un nœud": everything on one node
    ("repartelas por regiones pero todo en un nodo", {"spread_regions", "prefer_colocate_same_deployment"}),
    ("garde tout sur une machine stp", {"prefer_colocate_same_deployment"}),
    # ... but "all on a node of their own" is no co-location
    ("todas las replicas en un nodo distinto", set()),
    ("toutes sur un noeud different", {"spread_nodes"}),
])
def test_packing_and_everything_on_one_node_colocate(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "relation", "workload"), [
    # a pronoun after a relation's cue is the workload named before it
    ("en la region de pagos-db pero no compartas nodo con el", "avoid_same_node_as_deployments", "pagos-db"),
    ("misma zona que redis-main, sin compartir maquina con él", "avoid_same_node_as_deployments", "redis-main"),
    ("gleiche zone wie vault-core, aber keinen knoten mit ihm teilen", "avoid_same_node_as_deployments",
     "vault-core"),
    ("même zone que kafka-a mais ne partage pas le noeud avec lui", "avoid_same_node_as_deployments", "kafka-a"),
])
def test_a_pronoun_after_a_relation_points_back_at_the_workload(hint: str, relation: str, workload: str) -> None:
    found = named(hint)
    assert found.get(relation) == [workload], found
    assert not any(name.startswith("prefer_same_node") for name in found)  # polarity: never the node shared
    assert "ihm" not in str(found) and "lui" not in str(found)


def test_a_pronoun_without_a_workload_before_it_names_none() -> None:
    found = named("no compartas nodo con el")
    assert not any("deployments" in name for name in found), found


@pytest.mark.parametrize(("hint", "expected"), [
    # a workload's name right after a level's "as" is never "corrected" into a keyword
    ("misma zona que minio, mismo nodo que geo-cache", {"prefer_same_zone_as_deployments": ["minio"],
                                                       "prefer_same_node_as_deployments": ["geo-cache"]}),
    ("gleiche zone wie minio bitte", {"prefer_same_zone_as_deployments": ["minio"]}),
])
def test_a_name_after_same_as_is_no_typo(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    ("api de cobros 1 pod x nodo y zonas distintas", {"spread_nodes", "spread_zones"}),
    ("una replica x rack", {"spread_racks"}),
    ("ein pod je knoten", {"spread_nodes"}),
    # a count of GPUs per node is no spread
    ("2 gpus x nodo", {"prefer_gpu"}),
])
def test_one_per_node_in_shorthand(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "strength"), [
    ("es fundamental que tenga gpu", 1.5),
    ("evitar el rack r-3 si se puede. que tenga gpu es clave", 1.5),
    ("gpu muss sein, region egal", 1.5),
    ("gpu zwingend, zone ist mir egal", 1.5),
    ("la gpu est critique", 1.5),
])
def test_a_gpu_wish_with_its_strength_after_it(hint: str, strength: float) -> None:
    assert strengths(hint).get("prefer_gpu") == strength, strengths(hint)


@pytest.mark.parametrize("hint", ["gpu muss nicht sein", "no hace falta que tenga gpu", "que no tenga gpu"])
def test_a_gpu_refused_or_not_needed_is_never_asked_for(hint: str) -> None:
    assert "prefer_gpu" not in names(hint)


@pytest.mark.parametrize(("hint", "expected"), [
    # a node name with a site code between its prefix and number
    ("bitte nicht auf n-fra-3", {"avoid_nodes": ["n-fra-3"]}),
    ("lieber nicht auf w-ber-7 bitte", {"avoid_nodes": ["w-ber-7"]}),
    ("por favor no en n-mad-12", {"avoid_nodes": ["n-mad-12"]}),
    ("gern auf n-ham-4", {"prefer_nodes": ["n-ham-4"]}),
])
def test_node_names_with_a_site_code(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # "aber" before a refusal that ends the sentence negates its own clause
    ("gleiche region wie loki, die zone eu-west-1b aber bitte meiden",
     {"prefer_same_region_as_deployments": ["loki"], "avoid_zones": ["eu-west-1b"]}),
    ("in eu-central-1 bitte, rack r-4 aber ausschliessen",
     {"prefer_regions": ["eu-central-1"], "avoid_racks": ["r-4"]}),
])
def test_a_verb_final_refusal_after_aber(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "strength"), [
    # "muss aber nicht": a modal's "aber" is a particle, the clause is a hedged negation, no strength
    ("dicht beieinander, muss aber nicht derselbe knoten sein", 1.0),
    ("nah zusammen, muss ja nicht derselbe host sein", 1.0),
])
def test_muss_aber_nicht_hedges(hint: str, strength: float) -> None:
    assert strengths(hint) == {"prefer_nearby_nodes_same_deployment": strength}


@pytest.mark.parametrize(("hint", "expected"), [
    # a list of nodes after its level word, refused after a complaint
    ("die knoten q-3 und q-4 machen probleme also meiden", {"avoid_nodes": ["q-3", "q-4"]}),
    ("los nodos db-1, db-2 y db-3 dan problemas, evitalos", {"avoid_nodes": ["db-1", "db-2", "db-3"]}),
    ("m08 and m09 are flaky, skip them", {"avoid_nodes": ["m08", "m09"]}),
    ("le nœud w-9 plante, ne l'utilisez pas", {"avoid_nodes": ["w-9"]}),
])
def test_a_refusal_pointing_back_at_a_list_refuses_every_name(hint: str, expected: dict) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # a wish before the refusal leaves it unsure: nothing, never the place preferred
    "usa m04, m05 falla, evitalo",
    "use m04, m05 is flaky, skip it",
])
def test_a_refusal_after_a_wish_prefers_nothing(hint: str) -> None:
    assert not any(name.startswith("prefer_") for name in names(hint))


@pytest.mark.parametrize(("hint", "expected"), [
    # two spreads in one run-on: each level is read
    ("ein pod pro knoten ueber racks verteilt 8 kerne", {"spread_nodes", "spread_racks", "prefer_cpu_cores"}),
    ("un pod por nodo repartido por zonas 8 cores", {"spread_nodes", "spread_zones", "prefer_cpu_cores"}),
    ("ueber mehrere regionen und in jeder region ueber die zonen verteilen", {"spread_regions", "spread_zones"}),
])
def test_two_spreads_in_one_run_on(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # a GPU wish with its own strength word after a refused place opens a wish of its own
    ("jamais sur le rack r-9 gpu a100 si dispo", {"avoid_racks": 1.0, "prefer_gpu_models": 0.5}),
    ("nunca en el rack r-9 gpu a100 si se puede", {"avoid_racks": 1.0, "prefer_gpu_models": 0.5}),
    # ... but "GPU nodes" after it may be the rack's: still refused, never asked for
    ("keep off rack-9 gpu nodes", {"avoid_racks": 1.0, "avoid_gpu_nodes": 1.0}),
    ("pas sur le rack r-9 noeuds gpu si possible", {"avoid_racks": 0.5, "avoid_gpu_nodes": 0.5}),
])
def test_a_gpu_wish_after_a_refused_place(hint: str, expected: dict) -> None:
    assert strengths(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # a restated wish's own strength word says how much it matters
    ("cerca unas de otras, mismo rack a ser posible", 0.5),
    ("nah beieinander, gleiches rack wenn moeglich", 0.5),
])
def test_a_restated_wish_takes_its_strength_word(hint: str, expected: float) -> None:
    assert strengths(hint) == {"prefer_nearby_nodes_same_deployment": expected}


@pytest.mark.parametrize(("hint", "expected"), [
    # French run-on hints with several wishes
    ("job ml faut 2 gpu a100 min 64go ram evite le rack r-3 et reparti sur 2 zones",
     {"prefer_gpu", "prefer_gpu_models", "prefer_memory_gb", "avoid_racks", "spread_zones"}),
    ("api paiement 1 pod par noeud pas sur eu-west-3c 8 coeurs ssd",
     {"spread_nodes", "avoid_zones", "prefer_cpu_cores", "prefer_ssd_storage"}),
    ("besoin de 4 coeurs 16go de ram idealement en europe-west9 pas de gpu",
     {"prefer_cpu_cores", "prefer_memory_gb", "prefer_regions", "avoid_gpu_nodes"}),
    ("repartir sur les zones mais eviter w-12 et w-13 ils plantent", {"spread_zones", "avoid_nodes"}),
])
def test_french_run_on_hints(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # a strength word said after the last of several items typed one after another is that item's
    ("6 coeurs nvme obligatoire", {"prefer_cpu_cores": 1.0, "prefer_ssd_storage": 1.5}),
    ("12 cores ssd imprescindible", {"prefer_cpu_cores": 1.0, "prefer_ssd_storage": 1.5}),
    ("16 kerne ssd pflicht", {"prefer_cpu_cores": 1.0, "prefer_ssd_storage": 1.5}),
    # ... not the count of the item it follows
    ("4 gpus h100 idealmente", {"prefer_gpu": 0.5, "prefer_gpu_models": 0.5}),
    ("nvlink ist pflicht. 40gb pro gpu waeren schoen", {"prefer_nvlink": 1.5, "prefer_gpu_memory_gb": 0.5}),
    # ... and a plural verb still takes in the items before it
    ("ssd und 64gb ram sind pflicht", {"prefer_ssd_storage": 1.5, "prefer_memory_gb": 1.5}),
    # a strength word before a refusal is the one said after its object; the refusal keeps its own polarity
    ("nvme de préférence pas de gpu", {"prefer_ssd_storage": 0.5, "avoid_gpu_nodes": 1.0}),
    ("ssd bevorzugt keine gpu", {"prefer_ssd_storage": 0.5, "avoid_gpu_nodes": 1.0}),
    ("nvme de preferencia nada de gpu", {"prefer_ssd_storage": 0.5, "avoid_gpu_nodes": 1.0}),
    ("ideally 8 cores no gpu", {"prefer_cpu_cores": 0.5, "avoid_gpu_nodes": 1.0}),
    # a modal before its verb is no strength said after an object: "must avoid" stays one strong refusal
    ("you must avoid rack-4; preferably eu-west-2", {"avoid_racks": 1.5, "prefer_regions": 0.5}),
    ("wir muessen rack-4 meiden", {"avoid_racks": 1.5}),
])
def test_a_strength_word_after_its_object_in_a_run_on(hint: str, expected: dict) -> None:
    assert strengths(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # "on its node", "en su nodo", "auf seinem Knoten", "sur son nœud": the workload named before
    ("misma zona que redis-x pero no en su nodo",
     {"prefer_same_zone_as_deployments": ["redis-x"], "avoid_same_node_as_deployments": ["redis-x"]}),
    ("gleiche zone wie vault-b, aber nicht auf seinem knoten",
     {"prefer_same_zone_as_deployments": ["vault-b"], "avoid_same_node_as_deployments": ["vault-b"]}),
    ("pas sur le noeud de kafka-c mais dans sa zone oui",
     {"avoid_same_node_as_deployments": ["kafka-c"], "prefer_same_zone_as_deployments": ["kafka-c"]}),
    # each replica's own node is no workload's, and "its zone does not matter" says no place
    ("misma zona que redis-x, cada replica en su nodo", {"prefer_same_zone_as_deployments": ["redis-x"]}),
    ("misma region que kafka-a, su zona da igual", {"prefer_same_region_as_deployments": ["kafka-a"]}),
    ("gleiche region wie kafka-a, seine zone ist egal", {"prefer_same_region_as_deployments": ["kafka-a"]}),
    # no workload named before: nothing to point back at
    ("no en su nodo", {}),
])
def test_a_possessive_after_a_locative_points_back_at_the_workload(hint: str, expected: dict) -> None:
    assert named(hint) == expected
