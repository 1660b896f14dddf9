"""Robustness of the embedded analyser's vocabulary: a typo outside names reads the same wish (typo
tolerance covers stems, inflected forms and words only found inside longer patterns), the node-name shapes
real clusters use are nodes, and chat-style words mean what their formal synonyms mean.

The development files are perturbed through ``webhook.perturbations``; the probe hints are our own wording
(no evaluation row).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents, names
from webhook.analysers.embedded.typos import correct


@pytest.mark.parametrize(("text", "expected"), [
    # a stem of the rules with a slip, and the word's own ending after it
    ("répartiisez les pods", "répartissez les pods"),
    ("die am wenigsten belsteten knoten", "die am wenigsten belasteten knoten"),
    ("que no comaprtan nodo", "que no compartan nodo"),
    ("nvlniked gpus please", "nvlinked gpus please"),
    # the hint's own language first: an English slip is no German word ("machen")
    ("same machne as redis", "same machine as redis"),
    # a keyword before a word that only happens to be in a pattern
    ("auf demselben knotne wie redis", "auf demselben knoten wie redis"),
    ("waurm ist das so", "warum ist das so"),
])
def test_a_slip_of_a_stem_or_an_inflected_form_is_corrected(text: str, expected: str) -> None:
    assert correct(text) == expected


@pytest.mark.parametrize("word", [
    # real words one slip from the start of a rule stem are no slips
    "comparar", "interior", "combined", "comentario", "verehrt", "précédents", "blanc", "crossing", "wies",
])
def test_a_real_word_is_never_corrected(word: str) -> None:
    assert correct(f"a {word} b") == f"a {word} b"


@pytest.mark.parametrize("hint", [
    # a question about the cluster stays a question, however its question word is typed
    "Pourqoui évite-t-il le rack-4 ?",
    "Pourquoi évite-t-il le rack-4 ?",
    "Évite-t-elle le nœud worker-9 ?",
    "Waurm meidet er die Zone eu-central-1b?",
])
def test_a_slip_never_turns_a_question_into_a_wish(hint: str) -> None:
    found = names(hint)
    assert found == set(), found


def test_a_statement_with_a_slip_stays_a_statement() -> None:
    assert names("Unsere Knotne haben je 256 GB RAM.") == set()
    assert names("Nuestros nodso tienen 64 GB de RAM.") == set()


@pytest.mark.parametrize(("hint", "expected"), [
    # node names as managed clusters and their users spell them are nodes, whatever is said of them
    ("gke-web-pool-2-7c1d is broken, don't use it", {"avoid_nodes": ["gke-web-pool-2-7c1d"]}),
    ("keep off gke-prod-default-pool-8d2e4f6a-q9z1", {"avoid_nodes": ["gke-prod-default-pool-8d2e4f6a-q9z1"]}),
    ("evita aks-userpool2-87654321-vmss000004", {"avoid_nodes": ["aks-userpool2-87654321-vmss000004"]}),
    ("nicht auf ip-10-2-7-44.ec2.internal", {"avoid_nodes": ["ip-10-2-7-44.ec2.internal"]}),
    ("évitez ip-10-4-1-9.eu-west-3.compute.internal", {"avoid_nodes": ["ip-10-4-1-9.eu-west-3.compute.internal"]}),
    ("run it on node12 please", {"prefer_nodes": ["node12"]}),
    ("skip w-9 and worker8", {"avoid_nodes": ["w-9", "worker8"]}),
    ("box-4 is flaky, skip it", {"avoid_nodes": ["box-4"]}),
    # a GPU model inside a node's name is no GPU wish
    ("not on gpu-h100-05", {"avoid_nodes": ["gpu-h100-05"]}),
    ("schedule on gpu-l4-11", {"prefer_nodes": ["gpu-l4-11"]}),
    ("ponlo en gpu-node-8", {"prefer_nodes": ["gpu-node-8"]}),
    ("h100-node-5 keeps crashing, skip it", {"avoid_nodes": ["h100-node-5"]}),
    # ... and a node's name after a node's cue is that node, never a workload
    ("put it next to k8s-worker-07", {"prefer_nodes": ["k8s-worker-07"]}),
    ("not on the same node as worker-6", {"avoid_nodes": ["worker-6"]}),
])
def test_node_name_shapes_are_nodes(hint: str, expected: dict[str, list[str]]) -> None:
    found = intents(hint)
    assert set(found) == set(expected), found
    for name, nodes in expected.items():
        assert found[name][name] == nodes, found


def test_a_node_name_after_a_zone_cue_is_neither_node_nor_workload() -> None:
    assert names("same zone as worker-6") == set()
    assert names("same zone as the api-gateway-2 pods") == {"prefer_same_zone_as_deployments"}


@pytest.mark.parametrize(("hint", "expected"), [
    # chat-style words people type into annotations mean what their formal synonyms mean
    ("multi-az pls", {"spread_zones"}),
    ("replicas on diff nodes", {"spread_nodes"}),
    ("diff racks for the db pls", {"spread_racks"}),
    ("anti affinity between the replicas", {"spread_nodes"}),
    ("anti affinity with elastic", {"avoid_same_node_as_deployments"}),
    ("anti-affinity w/ itself", {"spread_nodes"}),
    ("1 replica par node stp", {"spread_nodes"}),
    ("mets-le sur gpu-node-12", {"prefer_nodes"}),
    ("run it w/o gpus", {"avoid_gpu_nodes"}),
    ("anti-affinity w/ elastic", {"avoid_same_node_as_deployments"}),
    ("stay away from etl-jobs", {"avoid_same_node_as_deployments"}),
    ("no node shared with elastic", {"avoid_same_node_as_deployments"}),
    ("ningún nodo compartido con elastic", {"avoid_same_node_as_deployments"}),
    ("lejos de los etl-jobs", {"avoid_same_node_as_deployments"}),
    ("kein Knoten gemeinsam mit elastic", {"avoid_same_node_as_deployments"}),
    ("weg von etl-jobs", {"avoid_same_node_as_deployments"}),
    ("pas de nœud partagé avec elastic", {"avoid_same_node_as_deployments"}),
    # indifference is no wish
    ("don't care which zone tbh", set()),
    ("Zone ist mir egal", set()),
    ("me da igual la zona", set()),
    ("peu importe la zone", set()),
])
def test_chat_vocabulary(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    ("keep the shards inside a single rack", {"prefer_nearby_nodes_same_deployment"}),
    ("las réplicas dentro de un único rack", {"prefer_nearby_nodes_same_deployment"}),
    ("die Replikate bitte im selben Rack", {"prefer_nearby_nodes_same_deployment"}),
    ("les réplicas dans une même baie", {"prefer_nearby_nodes_same_deployment"}),
    # one rack is close, not one node; and refusing one rack never asks for closeness
    ("do not put every shard in one rack", {"spread_racks"}),
])
def test_one_rack_is_nearby(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected
