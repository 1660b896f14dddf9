"""Context before the wishes (session 9): a past event told before a colon and the list of wishes after it, a level
said after a workload's name ("near X region-wise"), a node refused at the end of a list ("..., nicht auf X"), a
refusal explained by a past event after it, and a short dashed name complained about (a node, never a workload).

The probes are our own wording (no evaluation row), in every supported language, typed formally and sloppily. A
place named in the past clause is never preferred.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values

_LIST = {"spread_regions": None, "prefer_same_region_as_deployments": ["ledger-api"]}

# The past told before a colon is the reason; the list after the colon is read, the past's place never preferred.
PAST_THEN_LIST = [
    ("After the incident in eu-west-3 two weeks ago the team wants: out of eu-west-3, spread over several regions, "
     "same region as ledger-api.", {"avoid_regions": ["eu-west-3"], **_LIST}),
    ("after the incident in eu-west-3 two weeks ago the team wants: out of eu-west-3, spread over several regions, "
     "same region as ledger-api", {"avoid_regions": ["eu-west-3"], **_LIST}),
    ("Nach der Störung in ap-south-1 vorige Woche wünscht sich das Team: raus aus ap-south-1, über Regionen "
     "verteilt, dieselbe Region wie ledger-api.", {"avoid_regions": ["ap-south-1"], **_LIST}),
    ("nach der stoerung in ap-south-1 vorige woche wuenscht sich das team: raus aus ap-south-1, ueber regionen "
     "verteilt, dieselbe region wie ledger-api", {"avoid_regions": ["ap-south-1"], **_LIST}),
    ("Après l'incident de ca-central-1 la semaine dernière : hors de ca-central-1, réparti sur plusieurs régions, "
     "même région que ledger-api.", {"avoid_regions": ["ca-central-1"], **_LIST}),
    ("apres l incident de ca-central-1 la semaine derniere : hors de ca-central-1, reparti sur plusieurs regions, "
     "meme region que ledger-api", {"avoid_regions": ["ca-central-1"], **_LIST}),
    ("Tras la caída de sa-east-1 el mes pasado el equipo quiere: fuera de sa-east-1, repartido en varias regiones, "
     "misma región que ledger-api.", {"avoid_regions": ["sa-east-1"], **_LIST}),
    ("tras la caida de sa-east-1 el mes pasado el equipo quiere: fuera de sa-east-1, repartido en varias regiones, "
     "misma region que ledger-api", {"avoid_regions": ["sa-east-1"], **_LIST}),
    # a description after the colon too: the whole sentence describes
    ("we moved everything to us-east-2 last year: it was a mess", {}),
    ("incident 44: move it to us-east-1", {"prefer_regions": ["us-east-1"]}),
]


@pytest.mark.parametrize(("hint", "labels"), PAST_THEN_LIST)
def test_past_before_a_colon_leaves_the_list_after_it(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A level said after the workload's name is the relation's level.
LEVEL_AFTER_NAME = [
    ("keep it close to ledger-api region-wise", {"prefer_same_region_as_deployments": ["ledger-api"]}),
    ("keep it near ledger-api zone wise", {"prefer_same_zone_as_deployments": ["ledger-api"]}),
    ("mets-le près de ledger-api côté zone", {"prefer_same_zone_as_deployments": ["ledger-api"]}),
    ("ponlo cerca de ledger-api a nivel de región", {"prefer_same_region_as_deployments": ["ledger-api"]}),
    ("put it next to ledger-api", {"prefer_same_node_as_deployments": ["ledger-api"]}),
]


@pytest.mark.parametrize(("hint", "labels"), LEVEL_AFTER_NAME)
def test_a_level_after_the_name_is_the_relations_level(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A node refused at the end of a list, named by a longer word than a node's prefix ("rendr-12").
REFUSED_NODE_IN_LIST = [
    ("4 gpus, nvme, not on rendr-12", {"avoid_nodes": ["rendr-12"], "prefer_gpu": 4, "prefer_ssd_storage": None}),
    ("4 GPUs mit NVLink, bitte nicht auf rendr-12", {"avoid_nodes": ["rendr-12"], "prefer_gpu": 4,
                                                     "prefer_nvlink": None}),
    ("4 gpus avec nvlink, mais pas sur rendr-12", {"avoid_nodes": ["rendr-12"], "prefer_gpu": 4,
                                                   "prefer_nvlink": None}),
    ("4 gpus con nvlink, pero no en rendr-12", {"avoid_nodes": ["rendr-12"], "prefer_gpu": 4,
                                                "prefer_nvlink": None}),
    ("64g ram, nicht auf calcul-07", {"avoid_nodes": ["calcul-07"], "prefer_memory_gb": 64}),
    # no refusal: the name's shape alone says nothing
    ("put it on rendr-12", {}),
]


@pytest.mark.parametrize(("hint", "labels"), REFUSED_NODE_IN_LIST)
def test_a_node_refused_at_the_end_of_a_list(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A refusal explained by the past after it is still a refusal.
REFUSAL_THEN_PAST = [
    ("Lass es bloß von us-east-2 fern, dort gab es gestern Ausfälle.", {"avoid_regions": ["us-east-2"]}),
    ("lass es von us-east-2 fern, da gab es gestern ausfaelle", {"avoid_regions": ["us-east-2"]}),
    ("keep it off us-east-2, there were outages there yesterday", {"avoid_regions": ["us-east-2"]}),
    ("tenlo fuera de us-east-2, ayer hubo caídas allí", {"avoid_regions": ["us-east-2"]}),
    ("tenlo fuera de us-east-2, ayer hubo caidas alli", {"avoid_regions": ["us-east-2"]}),
    ("there were outages in us-east-2 yesterday", {}),
]


@pytest.mark.parametrize(("hint", "labels"), REFUSAL_THEN_PAST)
def test_a_refusal_explained_by_the_past(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A short dashed name a complaint follows is a node: the refusal pointing back at it avoids the node.
COMPLAINED_NODE = [
    ("gx-4 keeps crashing, stay away from it", {"avoid_nodes": ["gx-4"]}),
    ("gx-4 keeps rebooting, keep away from it", {"avoid_nodes": ["gx-4"]}),
    ("gx-4 spinnt ständig, bitte meiden", {"avoid_nodes": ["gx-4"]}),
    ("gx-4 plante sans arrêt, évitez-le", {"avoid_nodes": ["gx-4"]}),
    ("gx-4 se cae cada rato, evítalo", {"avoid_nodes": ["gx-4"]}),
    # never preferred, nor co-located with
    ("gx-4 keeps crashing, put it on gx-5", {"prefer_nodes": ["gx-5"]}),
    ("gx-4 keeps crashing, keep it next to it", {}),
    # a workload's name stays a workload
    ("billing-api keeps crashing, stay away from it", {"avoid_same_node_as_deployments": ["billing-api"]}),
]


@pytest.mark.parametrize(("hint", "labels"), COMPLAINED_NODE)
def test_a_complained_short_name_is_a_node(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A node whose site parts hold a number before its prefix and number ("hz-fsn-1-w7") is a node.
SITE_NUMBERED_NODE = [
    ("en aucun cas sur scw-fr-par-2-n5 !", {"avoid_nodes": ["scw-fr-par-2-n5"]}),
    ("jamais sur scw-fr-par-2-n5", {"avoid_nodes": ["scw-fr-par-2-n5"]}),
    ("auf keinen fall auf hz-fsn-1-w7", {"avoid_nodes": ["hz-fsn-1-w7"]}),
    ("evita ovh-gra-7-n3", {"avoid_nodes": ["ovh-gra-7-n3"]}),
    ("Keep it off hz-fsn-1-w7.", {"avoid_nodes": ["hz-fsn-1-w7"]}),
    ("in us-east-1, 4 cores", {"prefer_regions": ["us-east-1"], "prefer_cpu_cores": 4}),
]


@pytest.mark.parametrize(("hint", "labels"), SITE_NUMBERED_NODE)
def test_a_site_numbered_node(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
