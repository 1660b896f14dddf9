"""Polarity safety (issue 12, point 3): where a negation or a refusal scopes, the analyser never prefers,
co-locates or spreads what the negation may have been meant for; it drops the intent instead. And a
dashed workload name is never cut short where its last part is a name, not a head noun.

The hints are our own wording, written for these rules (no evaluation row).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents

POSITIVE = ("prefer_", "spread_")


@pytest.mark.parametrize("hint", [
    # zone letters refused inside a region: the region says where they are, it is no wish
    "please avoid zones c and d over in eu-west-3",
    "steer clear of zones b or c of ap-south-1",
    "don't land on zone a in us-west-2",
    "keep away from zones a, b in eu-north-1 this week",
    "evita las zonas a y c de sa-east-1",
    "bitte nicht in Zone b oder c von eu-central-1",
    "évitez les zones b et c de eu-west-3",
    # ... and a region that says where a refused workload runs
    "never beside the queue-worker pods in eu-south-2",
    "nicht neben dem auth-proxy in eu-central-2",
])
def test_a_place_after_refused_items_of_another_level_is_neither_preferred_nor_avoided(hint: str) -> None:
    found = intents(hint)
    assert not any(name.endswith(("_regions", "_zones")) for name in found), found


@pytest.mark.parametrize("hint", [
    # a failing node, then a refusal that points back at it: no spread, no preference
    "el nodo w-9 falla mucho, no lo uses",
    "el servidor db-4 anda raro, no lo toques",
    "der Knoten k-12 spinnt, nimm ihn nicht",
    "worker-12 keeps dying on us, don't use it",
])
def test_a_refusal_pointing_back_never_becomes_a_preference_or_a_spread(hint: str) -> None:
    found = intents(hint)
    assert not any(name.startswith(POSITIVE) or name == "prefer_colocate_same_deployment" for name in found), found


@pytest.mark.parametrize(("hint", "expected"), [
    # the wish after the refusal is a wish of its own
    ("avoid zones a and b, go with eu-west-1 instead, ideally", {"prefer_regions"}),
    ("skip rack-6 and rack-9, prefer us-east-2", {"avoid_racks", "prefer_regions"}),
    # the zone says where rack-2 is (clauses.py: places joined by a locative): the rack alone is refused
    ("never on rack-2 in us-east-1c", {"avoid_racks"}),
    ("no GPUs please, eu-west-2 preferably", {"avoid_gpu_nodes", "prefer_regions"}),
])
def test_a_wish_of_its_own_after_a_negation_stands(hint: str, expected: set[str]) -> None:
    assert expected <= set(intents(hint)), intents(hint)


@pytest.mark.parametrize(("hint", "intent", "names"), [
    ("must not share a zone with mongo-replica", "avoid_same_zone_as_deployments", ["mongo-replica"]),
    ("stay far from the mongo-replica pods", "avoid_same_node_as_deployments", ["mongo-replica"]),
    ("put it next to cassandra-pod, same node", "prefer_same_node_as_deployments", ["cassandra-pod"]),
    # a plural head names the instances of the workload before it
    ("same node as the etl-replicas", "prefer_same_node_as_deployments", ["etl"]),
    # a German compound writes its head as a noun: "Dienst", "Pods"
    ("nicht im selben Knoten wie der billing-Dienst", "avoid_same_node_as_deployments", ["billing"]),
])
def test_a_dashed_name_is_cut_only_at_a_head_noun(hint: str, intent: str, names: list[str]) -> None:
    found = intents(hint)
    assert found.get(intent, {}).get("deployments") == names, found


@pytest.mark.parametrize(("hint", "intent", "names"), [
    # a refusal pointing back at the one place its sentence names: that place is avoided
    ("box w-14 is acting up again, skip it", "avoid_nodes", ["w-14"]),
    ("rack-9 overheats every night, avoid it", "avoid_racks", ["rack-9"]),
    ("der Server s-31 hängt ständig, nimm ihn nicht", "avoid_nodes", ["s-31"]),
])
def test_a_refusal_pointing_back_at_one_place_avoids_it(hint: str, intent: str, names: list[str]) -> None:
    found = intents(hint)
    assert found.get(intent, {}).get(intent) == names, found


@pytest.mark.parametrize("hint", [
    # a wish, or more than the place, before the refusal: which one is refused is not certain
    "put it on m11, skip it",
    "m08 has four GPUs, don't use it",
])
def test_a_refusal_after_a_wish_or_more_than_a_place_refuses_nothing_for_sure(hint: str) -> None:
    found = intents(hint)
    assert not any(name.startswith(POSITIVE) and name != "prefer_gpu" for name in found), found
    assert "avoid_nodes" not in found, found


@pytest.mark.parametrize(("hint", "intent", "names"), [
    # a wish word after a name opens a new clause: it is never one more workload name
    ("do not co-locate with etl-runner, stay in eu-north-1", "avoid_same_node_as_deployments", ["etl-runner"]),
    ("beside the api-edge pods, keep it in us-west-1", "prefer_same_node_as_deployments", ["api-edge"]),
])
def test_a_wish_word_ends_a_list_of_workload_names(hint: str, intent: str, names: list[str]) -> None:
    found = intents(hint)
    assert found.get(intent, {}).get("deployments") == names, found


@pytest.mark.parametrize("hint", [
    "node ab-4 please and not on ab-5",
    "auf knoten ab-4 bitte und nicht auf ab-5",
    "en el nodo ab-4 y no en ab-5",
    "sur le nœud ab-4 et pas sur ab-5",
])
def test_a_bare_sibling_of_a_named_node_is_refused_as_a_node(hint: str) -> None:
    # "ab-5" has the shape of the node named before it: the refusal is read, not dropped with the wish
    assert {name: meta.get(name) for name, meta in intents(hint).items()} == {
        "prefer_nodes": ["ab-4"], "avoid_nodes": ["ab-5"]}


@pytest.mark.parametrize(("hint", "avoided"), [
    # typed without punctuation, an approval after the last name ends the refused list before it
    ("keep off node-3 node-4 works", ["node-3"]),
    ("not rack-4 rack-5 is better", ["rack-4"]),
    ("evita rack-4 rack-5 está bien", ["rack-4"]),
    ("nicht auf rack-4 rack-5 ist ok", ["rack-4"]),
    ("pas sur rack-4 rack-5 c'est bon", ["rack-4"]),
    # ... and so do words that join no list before the next name
    ("never on node-3 always on node-4", ["node-3"]),
    ("skip rack-4 go with rack-6", ["rack-4"]),
    ("not in eu-west-1 only in eu-central-1", ["eu-west-1"]),
    ("nie auf node-3 immer auf node-4", ["node-3"]),
    ("nunca en node-3 siempre en node-4", ["node-3"]),
    ("jamais sur node-3 toujours sur node-4", ["node-3"]),
    ("evita el rack-4 y también el rack-5", ["rack-4"]),
    # a refusal of one place is not in doubt; joiners, articles and level words keep a list whole
    ("keep off node-3 instead", ["node-3"]),
    ("avoid rack-4 rack-5", ["rack-4", "rack-5"]),
    ("not on node-3 or on node-4", ["node-3", "node-4"]),
    ("weder auf node-3 noch auf node-4", ["node-3", "node-4"]),
    ("ni en rack-4 ni en el rack-5", ["rack-4", "rack-5"]),
])
def test_a_refusal_typed_without_punctuation_ends_before_an_approved_or_unjoined_name(
        hint: str, avoided: list[str]) -> None:
    read = intents(hint)
    assert not any(name.startswith(POSITIVE) for name in read)
    assert sorted(v for meta in read.values() for values in meta.values() for v in values) == avoided
