"""Spreads said the way people type them (session 9, helper "spread"), in en, es, de and fr.

The probes are our own wording (no evaluation row). The rules they pin down:

* a node owned by each replica ("own box per pod", "nodo propio por réplica", "eigene Node je Pod", "chaque pod
  sur un serveur dédié") is one per node, never one node;
* a trailing "not critical" / "no es crítico" / "nicht kritisch" / "pas critique" grades the wish (0.5), it
  refuses nothing;
* the whole set on one node said with a noun of totality ("the entire set of replicas", "l'ensemble des pods",
  "sämtliche Pods ... gemeinsamen Knoten") is one node; negated it reads nothing, never one node;
* a slash list of racks after "across/en/sur/über" names the racks preferred;
* two levels spread in one phrase keep both ("sur les régions et sur les racks");
* "no two replicas in the same zone" and piling into one bay are the zone's or rack's spread, not the node's;
  close, then a refusal of one node, is close only;
* a level as a label and how many ("regions: more than one") and a dead top-of-rack switch are spreads.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names, places, strengths

SPREAD_NODES = {"spread_nodes"}
COLOCATE = {"prefer_colocate_same_deployment"}
NEARBY = {"prefer_nearby_nodes_same_deployment"}
NOTHING: set[str] = set()

OWN_NODE = [
    ("cache replicas -> own box per replica", SPREAD_NODES),
    ("api pods: own host each", SPREAD_NODES),
    ("every worker gets a machine to itself", SPREAD_NODES),
    ("un servidor propio por cada pod", SPREAD_NODES),
    ("que cada instancia tenga maquina dedicada", SPREAD_NODES),
    ("eigene Maschine je Replikat bitte", SPREAD_NODES),
    ("pro Instanz einen eigenen Server", SPREAD_NODES),
    ("chaque pod sur un serveur dédié", SPREAD_NODES),
    ("un noeud propre par instance", SPREAD_NODES),
    ("donnez a chaque replique un serveur a elle seule", SPREAD_NODES),
    ("una maquina propia por replcia", SPREAD_NODES),  # typed
]

NOT_CRITICAL = [
    ("every worker gets a machine to itself, not critical", "spread_nodes"),
    ("cada pod en su propio servidor, no es critico", "spread_nodes"),
    ("eigene Maschine je Replikat, nicht kritisch", "spread_nodes"),
    ("un serveur dédié pour chaque pod, pas critique", "spread_nodes"),
]

WHOLE_ON_ONE = [
    ("the entire set of replicas on one common host", COLOCATE),
    ("put all of our pods onto a single shared node", COLOCATE),
    ("el conjunto de los pods en un solo servidor", COLOCATE),
    ("la totalidad de las instancias en una maquina compartida", COLOCATE),
    ("sämtliche Replikas auf einer einzigen Maschine", COLOCATE),
    ("alle Instanzen auf einen gemeinsamen Rechner", COLOCATE),
    ("l'intégralité des répliques sur un serveur commun", COLOCATE),
    ("regroupez l'ensemble des pods sur une seule machine", COLOCATE),
    ("la totalite des instances dans un noeud unique", COLOCATE),
    # a contradiction reads both
    ("l'ensemble des pods sur une machine unique, et répartis sur plusieurs racks", COLOCATE | {"spread_racks"}),
    # negated: never one node
    ("the entire set of replicas not on one common host", NOTHING),
    ("l'ensemble des pods ne doit pas tourner sur une machine unique", NOTHING),
    ("el conjunto de los pods no en una maquina compartida", NOTHING),
]

# negated one node said with a level word of its own may be read as apart, never as one node
NEVER_ONE_NODE = [
    "sämtliche Replikas nicht auf einer einzigen Maschine",
    "el conjunto de los pods no en un solo servidor",
]

TWO_LEVELS = [
    ("distribuez les instances sur les zones et sur les baies", {"spread_zones", "spread_racks"}),
    ("répartir les pods entre les régions et les zones", {"spread_regions", "spread_zones"}),
    ("spread the pods over the regions and the racks", {"spread_regions", "spread_racks"}),
    ("pods proches les uns des autres mais chacun dans une baie différente", NEARBY | {"spread_racks"}),
    ("chaque instance dans une autre zone", {"spread_zones"}),
]

ONE_LEVEL_ONLY = [
    ("never two pods in the same rack", {"spread_racks"}),
    ("pas deux instances dans la même région", {"spread_regions"}),
    ("les pods ne doivent pas s'entasser dans une même zone", {"spread_zones"}),
    # close, then one node refused or hedged: close only
    ("keep em close but not piled on one node", NEARBY),
    ("want the pods pretty close, not necessarily on one host", NEARBY),
    ("juntitas cerquita, sin exigir la misma maquina", NEARBY),
    ("haltet die Pods nah, aber nicht auf einem Knoten", NEARBY),
    ("gardez-les proches mais pas sur le même serveur", NEARBY),
    # and never close where it is refused
    ("don't keep them close", NOTHING),
]

LABELLED = [
    ("zones: at least two", {"spread_zones"}),
    ("racks - multiple", {"spread_racks"}),
    ("regiones: mas de una", {"spread_regions"}),
    ("Zonen: mindestens zwei", {"spread_zones"}),
    ("baies : plusieurs", {"spread_racks"}),
    ("régions : au moins deux", {"spread_regions"}),
    # no more than one is no spread
    ("regions: no more than one", NOTHING),
    ("racks: one", NOTHING),
    # a dead rack switch is a lost rack
    ("a failed ToR switch must not take the service down", {"spread_racks"}),
    ("ein toter Rack-Switch darf nichts lahmlegen", {"spread_racks"}),
    ("un switch de baie en panne ne doit rien casser", {"spread_racks"}),
]


@pytest.mark.parametrize(("hint", "expected"), OWN_NODE + WHOLE_ON_ONE + TWO_LEVELS + ONE_LEVEL_ONLY + LABELLED)
def test_a_spread_as_typed_reads_its_intents(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize("hint", NEVER_ONE_NODE)
def test_a_refused_whole_set_on_one_node_is_never_one_node(hint: str) -> None:
    assert not names(hint) & COLOCATE, hint


@pytest.mark.parametrize(("hint", "intent"), NOT_CRITICAL)
def test_not_critical_grades_the_wish(hint: str, intent: str) -> None:
    assert strengths(hint) == {intent: 0.5}, hint


@pytest.mark.parametrize(("hint", "racks"), [
    ("one pod per rack across b1/b2/b3", ["b1", "b2", "b3"]),
    ("una replica por rack en ra-1/ra-2", ["ra-1", "ra-2"]),
    ("ein Pod pro Rack über s-1/s-2/s-3", ["s-1", "s-2", "s-3"]),
    ("une instance par baie sur bay-x/bay-y", ["bay-x", "bay-y"]),
])
def test_a_slash_list_after_across_names_the_racks(hint: str, racks: list[str]) -> None:
    assert places(hint) == {"prefer_racks": racks}, hint
    assert "spread_racks" in names(hint), hint


@pytest.mark.parametrize("hint", [
    "one pod per rack across us-east-1a/us-east-1b",  # zones, not racks
    "one pod per rack, avoid b1/b2",
])
def test_a_slash_list_is_no_rack_preference_otherwise(hint: str) -> None:
    assert "prefer_racks" not in names(hint), hint


@pytest.mark.parametrize(("hint", "level"), [
    # a named place of another level after "and" is no second spread
    ("spread the pods across the zones and the eu-central-1 region is banned", "spread_regions"),
    ("répartir les pods entre les zones et la région eu-west-3 est exclue", "spread_regions"),
    # a complaint about one rack's switch describes that rack, no spread
    ("keep off rack b7, it has a flaky ToR switch", "spread_racks"),
])
def test_no_second_level_and_no_spread_from_a_description(hint: str, level: str) -> None:
    assert level not in names(hint), hint
