"""Hints typed without punctuation read as they do with it (session 9), in en, es, de and fr.

The probes are our own wording (no evaluation row). The rules they pin down:

* a refusal said after its object ("rack r-5 must be avoided") refuses that object, not a wish of another kind
  typed before it ("favour quiet nodes rack r-5 must be avoided"); the refusal's strength, "to be" and a word of
  contrast may stand between them ("ist unbedingt zu meiden", "est toutefois à exclure"), and the object may be a
  wish of its own ("the same node", "spread") that a "not needed" lifts ("... close together same node not needed");
* a place right after a refused place of another level may say where the refused one is, or go on the refused
  list, also with a strength word of its own ("never in zone a region b if possible", "nicht in rack r3 region x",
  "off rack r3 in region x"): neither read, never preferred;
* Spanish "sí en" after a refusal opens the wish it turns to ("no en X sí en Y");
* a wish of another kind after refused GPU nodes is no part of the refusal ("keine gpu-knoten wenig last");
* a courtesy word closes the wish before a refusal ("same zone as x pls not ..."), and a list never names one
  place twice ("zone a bitte und zone a meiden" is a wish and its refusal, both read).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named


@pytest.mark.parametrize(("hint", "expected"), [
    # a wish of another kind before the object of a refusal said after it
    ("favour quiet nodes rack r-5 must be avoided", {"prefer_least_loaded_nodes": [], "avoid_racks": ["r-5"]}),
    ("lieber wenig belastete knoten rack r-5 unbedingt meiden",
     {"prefer_least_loaded_nodes": [], "avoid_racks": ["r-5"]}),
    ("mejor nodos poco cargados el rack r-5 debe evitarse",
     {"prefer_least_loaded_nodes": [], "avoid_racks": ["r-5"]}),
    ("de preference des noeuds peu charges la baie r-5 est a exclure absolument",
     {"prefer_least_loaded_nodes": [], "avoid_racks": ["r-5"]}),
    # the refusal's strength, "to be" and a word of contrast between the object and the refusal
    ("am liebsten in region northeurope die zone northeurope-3 ist unbedingt zu meiden",
     {"prefer_regions": ["northeurope"], "avoid_zones": ["northeurope-3"]}),
    ("idealement dans la region northeurope la zone northeurope-3 est absolument a exclure",
     {"prefer_regions": ["northeurope"], "avoid_zones": ["northeurope-3"]}),
    ("mettez-le dans la region uksouth la region uksouth est cependant a exclure",
     {"prefer_regions": ["uksouth"], "avoid_regions": ["uksouth"]}),
    ("im rack gx-4 einplanen das rack gx-4 ist jedoch auszuschliessen",
     {"prefer_racks": ["gx-4"], "avoid_racks": ["gx-4"]}),
    # a wish of its own lifted by a "not needed" said after it
    ("die pods sollen nah beieinander liegen derselbe knoten ist aber nicht noetig",
     {"prefer_nearby_nodes_same_deployment": []}),
    ("keep the replicas close together same node not needed", {"prefer_nearby_nodes_same_deployment": []}),
    ("repliques proches les unes des autres meme noeud pas necessaire", {"prefer_nearby_nodes_same_deployment": []}),
    ("32 coeurs ssd spread pas necessaire", {"prefer_cpu_cores": [], "prefer_ssd_storage": []}),
])
def test_a_refusal_after_its_object_refuses_that_object_only(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # "sí en" turns a refusal into a wish, also typed without its accent
    ("ni en eu-north-1 ni en eu-south-2 sí en eu-west-3",
     {"avoid_regions": ["eu-north-1", "eu-south-2"], "prefer_regions": ["eu-west-3"]}),
    ("no en el rack k7 si en el rack k9", {"avoid_racks": ["k7"], "prefer_racks": ["k9"]}),
    # a wish of another kind after refused GPU nodes
    ("keine gpu-knoten wenig last 4 kerne",
     {"avoid_gpu_nodes": [], "prefer_least_loaded_nodes": [], "prefer_cpu_cores": []}),
    ("pas de gpu spread sur les noeuds 8 coeurs", {"avoid_gpu_nodes": [], "spread_nodes": [], "prefer_cpu_cores": []}),
    ("sin nodos gpu repartido entre zonas", {"avoid_gpu_nodes": [], "spread_zones": []}),
    ("no gpu nodes quietest nodes pls", {"avoid_gpu_nodes": [], "prefer_least_loaded_nodes": []}),
    # a need with its beneficiary after a refusal
    ("lejos del nodo w-80 le hacen falta 12 nucleos", {"avoid_nodes": ["w-80"], "prefer_cpu_cores": []}),
    # a courtesy closes a wish; a list never names one place twice
    ("same zone as ledger-db pls not in ledger-db's zone",
     {"prefer_same_zone_as_deployments": ["ledger-db"], "avoid_same_zone_as_deployments": ["ledger-db"]}),
    ("zone us-east-2b bitte und us-east-2b meiden", {"prefer_zones": ["us-east-2b"], "avoid_zones": ["us-east-2b"]}),
])
def test_a_new_wish_after_a_refusal_is_read(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # the same level after a refused place may go on the refused list: never preferred
    ("must avoid rack-31 rack-32 if possible", {"avoid_racks": ["rack-31", "rack-32"]}),
    ("never on rack-31 rack-32 if possible", {"avoid_racks": ["rack-31", "rack-32"]}),
    # a place right after a refused place of another level may say where it is or go on the list: neither read,
    # with a strength word of its own too
    ("under no circumstances in zone ap-south-1b region ap-south-1 ideally", {"avoid_zones": ["ap-south-1b"]}),
    ("en ningun caso en ap-south-1b ap-south-1 si se puede", {"avoid_zones": ["ap-south-1b"]}),
    ("keinesfalls in ap-south-1b ap-south-1 wenn moeglich", {"avoid_zones": ["ap-south-1b"]}),
    ("sous aucun pretexte sur ap-south-1b ap-south-1 si possible", {"avoid_zones": ["ap-south-1b"]}),
    ("16 gb ram nicht im rack k7 region uksouth", {"prefer_memory_gb": [], "avoid_racks": ["k7"]}),
    ("batch 8 cores not on rack k7 region uksouth", {"prefer_cpu_cores": [], "avoid_racks": ["k7"]}),
    # a place said with a preposition only after a refused rack may say where the rack is
    ("keep off rack-31 in eu-west-2", {"avoid_racks": ["rack-31"]}),
    ("lejos del rack r2 en eu-south-2", {"avoid_racks": ["r2"]}),
    # an approval after the second of two places leaves which was refused unsure: the second is never avoided
    ("avoid rack-31 rack-32 would be best", {"avoid_racks": ["rack-31"]}),
    ("evita el rack r-31 el rack r-32 seria lo mejor", {"avoid_racks": ["r-31"]}),
    ("rack r-31 meiden rack r-32 waere am besten", {"avoid_racks": ["r-31"]}),
    # "not needed" said after the same node keeps its phrase: "share a node in no case" stays a refusal
    ("partager un noeud avec cache-front en aucun cas", {"avoid_same_node_as_deployments": ["cache-front"]}),
    # "no le hace falta" is no need, nor is a "sí" that is "if" before anything but a place
    ("no le hace falta gpu 8 cores", {"avoid_gpu_nodes": [], "prefer_cpu_cores": []}),
    ("en us-east-2 si es posible", {"prefer_regions": ["us-east-2"]}),
    # gpu nodes refused with what they must have: the refusal keeps it ("with" ties it)
    ("no gpu nodes with ssd", {"avoid_gpu_nodes": []}),
])
def test_what_stays_one_wish_or_unread(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    "under no circumstances in zone ap-south-1b region ap-south-1 ideally",
    "must avoid rack-31 rack-32 if possible",
    "avoid rack-31 rack-32 would be best",
    "nicht im rack k7 region uksouth",
    "no en el rack k7 si en el rack k9",
    "keep the replicas close together same node not needed",
])
def test_a_refused_place_is_never_preferred(hint: str) -> None:
    read = named(hint)
    refused = {n for name, listed in read.items() if name.startswith("avoid_") for n in listed}
    wished = {n for name, listed in read.items() if name.startswith("prefer_") for n in listed}
    assert not refused & wished
