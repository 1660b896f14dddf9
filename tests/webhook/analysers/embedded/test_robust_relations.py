"""Relations to other workloads, contradictory hints, "not needed" and "same machine" that is no co-location
(issue 12): read the same however a hint is typed, and never with the opposite polarity.

The probe hints are our own wording (no evaluation row), in every language touched (en, es, de, fr). The
robustness test runs every perturbation of ``webhook.perturbations`` over the development rows of this area
(a relation to another workload, or the category ``contradictory``) through the analyser.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents


@pytest.mark.parametrize(("hint", "expected"), [
    # possession: "<workload>'s <level>", "<level> of <workload>"
    ("run it in billing-api's zone", {"prefer_same_zone_as_deployments": ["billing-api"]}),
    ("not on the node of the cache-warmer deployment", {"avoid_same_node_as_deployments": ["cache-warmer"]}),
    ("nunca en el nodo de image-resizer", {"avoid_same_node_as_deployments": ["image-resizer"]}),
    ("bitte in die Region von report-builder", {"prefer_same_region_as_deployments": ["report-builder"]}),
    ("placez-le sur la machine de queue-relay", {"prefer_same_node_as_deployments": ["queue-relay"]}),
    # hosting and "where": the level first, the verb before or after the name
    ("mettez-le dans la région qui héberge déjà geo-index", {"prefer_same_region_as_deployments": ["geo-index"]}),
    ("put it on the node that already runs thumb-gen", {"prefer_same_node_as_deployments": ["thumb-gen"]}),
    ("ponlo donde corran los pods de pdf-render, en ese mismo nodo",
     {"prefer_same_node_as_deployments": ["pdf-render"]}),
    ("In die Zone legen, wo mail-relay läuft", {"prefer_same_zone_as_deployments": ["mail-relay"]}),
    ("évitez les zones où tourne le déploiement audit-log", {"avoid_same_zone_as_deployments": ["audit-log"]}),
    # "with X on the same node": the level after the name
    ("never with the etl-runner on the same node", {"avoid_same_node_as_deployments": ["etl-runner"]}),
    ("con el api-gw en la misma zona", {"prefer_same_zone_as_deployments": ["api-gw"]}),
    ("bitte nicht mit dem cert-sync auf einem Knoten", {"avoid_same_node_as_deployments": ["cert-sync"]}),
])
def test_a_relation_by_possession_or_hosting_names_the_workload(hint: str, expected: dict) -> None:
    found = intents(hint)
    assert {name: found.get(name, {}).get("deployments") for name in expected} == expected, found


@pytest.mark.parametrize("hint", [
    "the zone of failure should not matter",
    "prends un nœud de calcul rapide",
    "keep it far from any machine",
    "loin de toute machine bruyante",
])
def test_a_common_word_is_no_workload_name(hint: str) -> None:
    assert not any(name.endswith("_as_deployments") for name in intents(hint)), intents(hint)


@pytest.mark.parametrize(("hint", "expected"), [
    # two clauses with opposite wishes about the same target give both (labelling rule "contradictory")
    ("same zone as the search-svc pods, but never search-svc's zone",
     {"prefer_same_zone_as_deployments", "avoid_same_zone_as_deployments"}),
    ("En la misma zona que metrics, pero no en la zona de metrics.",
     {"prefer_same_zone_as_deployments", "avoid_same_zone_as_deployments"}),
    ("Auf denselben Knoten wie cron-agent, aber nicht auf den Knoten von cron-agent.",
     {"prefer_same_node_as_deployments", "avoid_same_node_as_deployments"}),
    ("Mettez-le sur la machine de blob-store, tout en l'éloignant des nœuds où tourne blob-store.",
     {"prefer_same_node_as_deployments", "avoid_same_node_as_deployments"}),
    ("Pon las réplicas en la zona northeu-3 y sácalas de northeu-3.", {"prefer_zones", "avoid_zones"}),
    # "is however excluded": an adverb inside the second clause opens no clause of its own
    ("Mettez-le en zone eu-west-3b ; la zone eu-west-3b est cependant à exclure.", {"prefer_zones", "avoid_zones"}),
    ("Use node-4; node-4 is however off limits.", {"prefer_nodes", "avoid_nodes"}),
])
def test_opposite_wishes_of_two_clauses_give_both(hint: str, expected: set[str]) -> None:
    assert set(intents(hint)) == expected, intents(hint)


@pytest.mark.parametrize("hint", [
    "near each other please, but they don't need to share a node",
    "das Rack darf gleich sein, NUMA muss nicht sein",
    "proches les unes des autres, sans qu'elles aient à partager une machine",
    "no tienen que estar en el mismo nodo",
])
def test_not_needed_asks_for_nothing(hint: str) -> None:
    found = set(intents(hint))
    assert not found & {"spread_nodes", "prefer_numa_aligned", "prefer_colocate_same_deployment"}, found


@pytest.mark.parametrize(("hint", "expected"), [
    ("Ne mettez pas les réplicas ensemble sur un même nœud.", {"spread_nodes"}),
    # two negations ("not on a node without a GPU"): a refused lack is a need, never a refusal of GPU nodes
    ("Ne déployez pas ce calcul sur un nœud sans GPU.", {"prefer_gpu"}),
    ("don't schedule this on a machine that has no gpu", {"prefer_gpu"}),
])
def test_a_refused_grouping_or_a_double_negation_never_flips(hint: str, expected: set[str]) -> None:
    assert set(intents(hint)) == expected, intents(hint)


@pytest.mark.parametrize(("hint", "expected"), [
    ("4 GPUs on the same machine, NVLink", {"prefer_gpu", "prefer_nvlink"}),
    ("6 GPU sur la même machine", {"prefer_gpu"}),
    ("garder CPU et mémoire sur le même nœud NUMA", {"prefer_numa_aligned"}),
    ("all replicas on the same node", {"prefer_colocate_same_deployment"}),
])
def test_same_machine_for_resources_is_no_colocation(hint: str, expected: set[str]) -> None:
    assert set(intents(hint)) == expected, intents(hint)
