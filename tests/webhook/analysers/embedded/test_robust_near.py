"""Replicas of one deployment: close, one per node, or one node (session 8, helper "near"), in en, es, de and fr.

The probes are our own wording (no evaluation row). The rules they pin down:

* one node apiece ("one host each", "a node per replica", "pro Replikat ein eigener Knoten") and keeping a distance
  from one another are one per node (spread), never one node;
* "not necessarily / not obliged / without forcing them onto one node" lifts a requirement: it asks for neither one
  node nor one per node; said after "together" it leaves the replicas close (nearby);
* "they may / dürfen / pueden estar on different nodes" is a permission, not a wish to spread; negated ("may not",
  "dürfen nicht") it is a prohibition, and with a limit ("darf höchstens eine") a restriction, both read as spread;
* "all together on one" after a node word is one node (the contradiction of one per node and one node reads both).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

COLOCATE = {"prefer_colocate_same_deployment"}
NEARBY = {"prefer_nearby_nodes_same_deployment"}
SPREAD = {"spread_nodes"}
NOTHING: set[str] = set()

ONE_APIECE = [
    ("give the workers one machine each", SPREAD),
    ("one node per pod, please", SPREAD),
    ("a host for every replica", SPREAD),
    ("los pods: un servidor para cada réplica", SPREAD),
    ("una máquina por réplica", SPREAD),
    ("je Pod ein Rechner", SPREAD),
    ("pro Instanz ein eigener Server, bitte", SPREAD),
    ("une machine pour chaque réplique", SPREAD),
    ("les pods, un serveur chacun", SPREAD),
    # a distance kept from one another is apart
    ("the pods need to keep some distance from each other", SPREAD),
    ("que los pods mantengan distancia entre ellos", SPREAD),
    ("die Instanzen sollen Abstand voneinander halten", SPREAD),
    ("les instances gardent leurs distances entre elles", SPREAD),
    # never two of them on one machine
    ("no quiero dos pods compartiendo servidor", SPREAD),
    ("nunca dos instancias en la misma máquina", SPREAD),
]

LIFTED = [
    # a requirement lifted after "close": close only
    ("pods close to each other, without forcing them onto one node", NEARBY),
    ("the replicas near one another, they don't have to be on one host", NEARBY),
    ("instancias cercanas entre sí pero no forzosamente en la misma máquina", NEARBY),
    ("réplicas juntitas, no por fuerza en el mismo servidor", NEARBY),
    ("los pods que estén cerquita, sin obligarlos a compartir máquina", NEARBY),
    ("Pods nah beieinander, aber nicht zwangsläufig auf demselben Rechner", NEARBY),
    ("die Instanzen dicht beisammen, nicht notwendigerweise auf dem gleichen Server", NEARBY),
    ("les pods proches entre eux, sans les obliger à partager une machine", NEARBY),
    ("instances voisines les unes des autres, pas obligé qu'elles tournent sur le même serveur", NEARBY),
    # together, but one node only hedged: close
    ("keep the pods together, though not necessarily on one machine", NEARBY),
    ("las instancias juntas pero no necesariamente en un solo servidor", NEARBY),
    # lifted alone: nothing
    ("the pods are not obliged to share a node", NOTHING),
    ("no tienen por qué compartir nodo", NOTHING),
    ("pas obligatoire qu'elles partagent un nœud", NOTHING),
]

PERMITTED = [
    ("pods close together; they may sit on different machines", NEARBY),
    ("las instancias bien cerca, aunque pueden estar en máquinas distintas", NEARBY),
    ("die Pods nah zusammen, sie dürfen aber auf unterschiedlichen Rechnern laufen", NEARBY),
    ("les pods proches les uns des autres, ils peuvent être sur des machines différentes", NEARBY),
    ("replicas may end up on separate hosts", NOTHING),
    # a prohibition or a limit is a wish
    ("two pods may never share a machine", SPREAD),
    ("die Instanzen dürfen nicht auf demselben Rechner landen", SPREAD),
    ("pro Rechner darf nur ein Pod laufen", SPREAD),
]

CONTRADICTIONS = [
    ("each pod on a node of its own, and at the same time all of them together on one", COLOCATE | SPREAD),
    ("cada instancia en su propia máquina y a la vez todas juntas en una", COLOCATE | SPREAD),
    ("jede Instanz auf einem eigenen Rechner und zugleich alle zusammen auf einem", COLOCATE | SPREAD),
    ("chaque pod sur sa propre machine et en même temps tous ensemble sur une seule", COLOCATE | SPREAD),
]

CONTROLS = [
    ("all replicas on one node", COLOCATE),
    ("todo en un solo nodo por favor", COLOCATE),
    ("alle Replikas auf einen Knoten", COLOCATE),
    ("one replica per node", SPREAD),
    ("keep the replicas close together", NEARBY),
    # "one" after a rack is no node: never one node
    ("spread over racks, but all together in one", {"spread_racks"}),
    # typed without a comma, "each" opens the next wish: a contradiction in one clause reads neither
    ("all on one node each pod on its own node", NOTHING),
    ("keep your distance from redis-cache", NOTHING),
]


@pytest.mark.parametrize(("hint", "expected"), ONE_APIECE + LIFTED + PERMITTED + CONTRADICTIONS + CONTROLS)
def test_replica_relations(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint
