"""Breadth of the embedded analyser's mechanisms (session 7): each mechanism that reads one wish among several
(a list's later items, a machine shape's RAM, number words, compound spread words, ...) is probed in every
supported language, typed formally and typed sloppily (lower case, no accents, no punctuation).

The probes are our own wording (no evaluation row). A probe's labels map each intent name to its metadata's
one value (a number, the sorted names) or None; the whole reading must be exactly that.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values

# A list of places after a level word: its last item, of another shape than the first, is of that level too
# ("racks b7 or kx-12"), unless it is shaped like another level's name or followed by another level word.
LIST_ITEMS = [
    ("Please use racks q4 or blu-11.", {"prefer_racks": ["blu-11", "q4"]}),
    ("racks q4 or blu-11 pls", {"prefer_racks": ["blu-11", "q4"]}),
    ("Bitte in Rack fra-a3 oder kz-40 unterbringen.", {"prefer_racks": ["fra-a3", "kz-40"]}),
    ("rack fra-a3 oder kz-40 bitte", {"prefer_racks": ["fra-a3", "kz-40"]}),
    ("Colóquelo en el rack mx-b5 o en el sv-31.", {"prefer_racks": ["mx-b5", "sv-31"]}),
    ("en el rack mx-b5 o en el sv-31 porfa", {"prefer_racks": ["mx-b5", "sv-31"]}),
    ("Placez-le dans la baie lyo-c2 ou bx-18.", {"prefer_racks": ["bx-18", "lyo-c2"]}),
    ("dans la baie lyo-c2 ou bx-18 stp", {"prefer_racks": ["bx-18", "lyo-c2"]}),
    ("rack q4 or node-12", {"prefer_racks": ["q4"], "prefer_nodes": ["node-12"]}),
    ("rack q4 or us-west-2", {"prefer_racks": ["q4"], "prefer_regions": ["us-west-2"]}),
]


@pytest.mark.parametrize(("hint", "labels"), LIST_ITEMS)
def test_list_items_keep_their_level(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# "multi region", "multi zone" written with a space, and the German plural compound, ask for a spread
SPREAD_COMPOUNDS = [
    ("Go multi region: us-west-2 and eu-central-1.", {"spread_regions": None,
                                                      "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region us-west-2 and eu-central-1 thx", {"spread_regions": None,
                                                     "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Despliegue multi región en us-west-2 y eu-central-1.", {"spread_regions": None,
                                                              "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region en us-west-2 y eu-central-1", {"spread_regions": None,
                                                  "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Regionenübergreifend in us-west-2 und eu-central-1.", {"spread_regions": None,
                                                            "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("regionenubergreifend us-west-2 und eu-central-1", {"spread_regions": None,
                                                         "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Déploiement multi région sur us-west-2 et eu-central-1.", {"spread_regions": None,
                                                                "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region us-west-2 et eu-central-1 stp", {"spread_regions": None,
                                                    "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("we want it multi zone", {"spread_zones": None}),
    ("lo queremos multi zona", {"spread_zones": None}),
    ("on le veut multi zone", {"spread_zones": None}),
]


@pytest.mark.parametrize(("hint", "labels"), SPREAD_COMPOUNDS)
def test_spread_compounds(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A machine shape: a small size right after a core count is its RAM, also before a kind of disk ("16 cores
# 64g ssd") or "with ssd"; a large one there is the disk's, and so is a size before a scratch word.
SHAPES = [
    ("Give it 12 cores 48g NVMe.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores 48g nvme", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores and 48 gb with ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Dale 12 núcleos y 48 GB con SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("dale 12 nucleos 48g ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Gib ihm 12 Kerne und 48 GB mit SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48,
                                             "prefer_ssd_storage": None}),
    ("12 kerne 48g nvme", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Donnez-lui 12 cœurs et 48 Go avec du SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48,
                                                   "prefer_ssd_storage": None}),
    ("12 coeurs et 48 go avec du ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores 800gb nvme", {"prefer_cpu_cores": 12, "prefer_ephemeral_storage": 800, "prefer_ssd_storage": None}),
    ("12 cores 48g scratch", {"prefer_cpu_cores": 12, "prefer_ephemeral_storage": 48}),
    ("dix coeurs et 40 go mais pas de gpu", {"prefer_cpu_cores": 10, "prefer_memory_gb": 40, "avoid_gpu_nodes": None}),
]


@pytest.mark.parametrize(("hint", "labels"), SHAPES)
def test_machine_shape_ram(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# Number words of two parts
NUMBER_WORDS = [
    ("It also needs forty-eight cores.", {"prefer_cpu_cores": 48}),
    ("plus forty eight cores", {"prefer_cpu_cores": 48}),
    ("Necesita cuarenta y ocho núcleos.", {"prefer_cpu_cores": 48}),
    ("cuarenta y ocho nucleos", {"prefer_cpu_cores": 48}),
    ("Er braucht achtundvierzig Kerne.", {"prefer_cpu_cores": 48}),
    ("achtundvierzig kerne", {"prefer_cpu_cores": 48}),
    ("Il lui faut quarante-huit cœurs.", {"prefer_cpu_cores": 48}),
    ("quarante huit coeurs", {"prefer_cpu_cores": 48}),
]


@pytest.mark.parametrize(("hint", "labels"), NUMBER_WORDS)
def test_number_words(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# Where the load is lowest: the load word with its superlative, in every language ("load" is no workload)
LEAST_LOADED = [
    ("Schedule it where the load is lowest.", {"prefer_least_loaded_nodes": None}),
    ("put it where the load is lowest", {"prefer_least_loaded_nodes": None}),
    ("Colóquelo donde la carga sea menor.", {"prefer_least_loaded_nodes": None}),
    ("ponlo donde la carga sea menor", {"prefer_least_loaded_nodes": None}),
    ("Bitte dort einplanen, wo die Auslastung am geringsten ist.", {"prefer_least_loaded_nodes": None}),
    ("da hin wo die last am kleinsten ist", {"prefer_least_loaded_nodes": None}),
    ("Placez-le là où la charge est la plus faible.", {"prefer_least_loaded_nodes": None}),
    ("mets le la ou la charge est la plus faible", {"prefer_least_loaded_nodes": None}),
]


@pytest.mark.parametrize(("hint", "labels"), LEAST_LOADED)
def test_least_loaded_superlatives(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# Surviving a zone's outage said with the verb first and in the subjunctive ("aunque se caiga una zona"), and
# the French present "tombe en panne" after "même si" (a condition, not a description of the past)
ZONE_OUTAGE = [
    ("It must keep serving even if a whole zone goes down.", {"spread_zones": None}),
    ("keep serving even if a whole zone goes down", {"spread_zones": None}),
    ("Tiene que seguir funcionando aunque se caiga una zona entera.", {"spread_zones": None}),
    ("que siga funcionando aunque falle una zona", {"spread_zones": None}),
    ("Es soll weiterlaufen, auch wenn eine ganze Zone ausfällt.", {"spread_zones": None}),
    ("soll weiterlaufen auch wenn eine ganze zone ausfaellt", {"spread_zones": None}),
    ("Il faut qu'il tienne même si une zone entière tombe en panne.", {"spread_zones": None}),
    ("faut qu'il tienne meme si une zone entiere tombe en panne", {"spread_zones": None}),
]


@pytest.mark.parametrize(("hint", "labels"), ZONE_OUTAGE)
def test_zone_outage_in_every_word_order(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# The workload's own level said first, then the other's ("its zone must not match that of X"), and a
# separation from its level by a pronoun after a relation ("away from X and out of its zone too")
ZONE_OF_ANOTHER = [
    ("Its zone must not match that of ledger-api.", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("its zone should be the one of ledger-api", {"prefer_same_zone_as_deployments": ["ledger-api"]}),
    ("Y que su zona no coincida con la de libro-api.", {"avoid_same_zone_as_deployments": ["libro-api"]}),
    ("que su zona coincida con la de libro-api", {"prefer_same_zone_as_deployments": ["libro-api"]}),
    ("Seine Zone darf nicht die von konto-api sein.", {"avoid_same_zone_as_deployments": ["konto-api"]}),
    ("seine zone soll die von konto-api sein", {"prefer_same_zone_as_deployments": ["konto-api"]}),
    ("Sa zone ne doit pas coïncider avec celle de compta-api.", {"avoid_same_zone_as_deployments": ["compta-api"]}),
    ("sa zone doit etre celle de compta-api", {"prefer_same_zone_as_deployments": ["compta-api"]}),
    ("Keep away from ledger-api, and out of its zone as well.",
     {"avoid_same_node_as_deployments": ["ledger-api"], "avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("away from ledger-api and out of its zone too",
     {"avoid_same_node_as_deployments": ["ledger-api"], "avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("Lejos de libro-api, y también fuera de su zona.",
     {"avoid_same_node_as_deployments": ["libro-api"], "avoid_same_zone_as_deployments": ["libro-api"]}),
    ("lejos de libro-api y fuera de su zona tambien",
     {"avoid_same_node_as_deployments": ["libro-api"], "avoid_same_zone_as_deployments": ["libro-api"]}),
    ("Weg von konto-api und auch raus aus seiner Zone.",
     {"avoid_same_node_as_deployments": ["konto-api"], "avoid_same_zone_as_deployments": ["konto-api"]}),
    ("weg von konto-api und auch raus aus seiner zone",
     {"avoid_same_node_as_deployments": ["konto-api"], "avoid_same_zone_as_deployments": ["konto-api"]}),
    ("Loin de compta-api, et hors de sa zone aussi.",
     {"avoid_same_node_as_deployments": ["compta-api"], "avoid_same_zone_as_deployments": ["compta-api"]}),
    ("loin de compta-api et hors de sa zone aussi",
     {"avoid_same_node_as_deployments": ["compta-api"], "avoid_same_zone_as_deployments": ["compta-api"]}),
]


@pytest.mark.parametrize(("hint", "labels"), ZONE_OF_ANOTHER)
def test_zone_of_another_workload(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# "away from any node hosting X": a separation, a head noun naming the nodes, then the workload
AWAY_FROM_HOSTS = [
    ("Keep it away from any node hosting ledger-api.", {"avoid_same_node_as_deployments": ["ledger-api"]}),
    ("away from any node hosting ledger-api", {"avoid_same_node_as_deployments": ["ledger-api"]}),
    ("Manténgalo lejos de cualquier nodo que aloje libro-api.", {"avoid_same_node_as_deployments": ["libro-api"]}),
    ("lejos de cualquier nodo que aloje libro-api", {"avoid_same_node_as_deployments": ["libro-api"]}),
    ("Fern von jedem Knoten mit konto-api halten.", {"avoid_same_node_as_deployments": ["konto-api"]}),
    ("fern von jedem knoten mit konto-api", {"avoid_same_node_as_deployments": ["konto-api"]}),
    ("Il restera éloigné de tout nœud hébergeant compta-api.", {"avoid_same_node_as_deployments": ["compta-api"]}),
    ("eloigne de tout noeud hebergeant compta-api", {"avoid_same_node_as_deployments": ["compta-api"]}),
]


@pytest.mark.parametrize(("hint", "labels"), AWAY_FROM_HOSTS)
def test_away_from_the_nodes_hosting_another(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# "proximity to X on the same node": the noun of nearness names the workload like "near" does
PROXIMITY = [
    ("Proximity to ledger-api on the same node is wanted.", {"prefer_same_node_as_deployments": ["ledger-api"]}),
    ("proximity to ledger-api on the same node please", {"prefer_same_node_as_deployments": ["ledger-api"]}),
    ("Se desea la proximidad a libro-api en el mismo nodo.", {"prefer_same_node_as_deployments": ["libro-api"]}),
    ("la cercania con libro-api en el mismo nodo porfa", {"prefer_same_node_as_deployments": ["libro-api"]}),
    ("Die Nähe zu konto-api auf demselben Knoten ist erwünscht.", {"prefer_same_node_as_deployments": ["konto-api"]}),
    ("die naehe zu konto-api auf demselben knoten ist erwuenscht", {"prefer_same_node_as_deployments": ["konto-api"]}),
    ("La proximité avec compta-api sur le même nœud est souhaitée.",
     {"prefer_same_node_as_deployments": ["compta-api"]}),
    ("la proximite avec compta-api sur le meme noeud svp", {"prefer_same_node_as_deployments": ["compta-api"]}),
]


@pytest.mark.parametrize(("hint", "labels"), PROXIMITY)
def test_proximity_names_the_workload(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
