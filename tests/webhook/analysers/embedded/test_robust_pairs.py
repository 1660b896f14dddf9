"""Same-workload pairs (session 7): "together" said without a level, refusing to put the replicas together, and
together-but-not-one-node, each in en, es, de and fr, typed formally and sloppily.

The probes are our own wording (no evaluation row). Together said without a level is one node (the catalogue's
"keep together"); next to each other is close (nearby); a refusal to put them together is one per node; "no need to
keep them together" is indifference and gives nothing.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

COLOCATE = {"prefer_colocate_same_deployment"}
NEARBY = {"prefer_nearby_nodes_same_deployment"}
SPREAD = {"spread_nodes"}
NOTHING: set[str] = set()

TOGETHER = [
    ("keep em together", COLOCATE),
    ("Keep the replicas together.", COLOCATE),
    ("the replicas ought to stick together", COLOCATE),
    ("pods together pls", COLOCATE),
    ("Mantenga las réplicas juntas.", COLOCATE),
    ("las replicas juntas porfa", COLOCATE),
    ("Die Replikate bitte zusammen lassen.", COLOCATE),
    ("nicht verteilen, zusammen halten", COLOCATE),
    ("lass die pods zusammen", COLOCATE),
    ("Gardez les pods ensemble.", COLOCATE),
    ("garde les replicas ensemble stp", COLOCATE),
    # next to each other is close, not one node
    ("the replicas should be next to each other", NEARBY),
    ("las replicas una al lado de la otra", NEARBY),
    ("die Replikas nebeneinander", NEARBY),
    # together, but not on one node: close
    ("keep them together but not on the same node", NEARBY),
    ("mantén las réplicas juntas pero no en un solo nodo", NEARBY),
    ("die pods zusammen lassen aber nicht auf demselben knoten", NEARBY),
    ("les pods ensemble mais pas sur le meme noeud", NEARBY),
]

REFUSED = [
    ("Don't put the pods together.", SPREAD),
    ("dont keep them together", SPREAD),
    ("No juntes las réplicas.", SPREAD),
    ("no las juntes", SPREAD),
    ("Die Pods nicht zusammen packen.", SPREAD),
    ("Ne mettez pas les pods ensemble.", SPREAD),
    ("ne les mets pas ensemble", SPREAD),
    # indifference: nothing, never a spread
    ("no need to keep them together", NOTHING),
    ("they dont have to stay together", NOTHING),
    ("no hace falta que estén juntas", NOTHING),
    ("las replicas no tienen que estar juntas", NOTHING),
    ("sie muessen nicht zusammen bleiben", NOTHING),
    ("pas besoin de les garder ensemble", NOTHING),
]

CONTROLS = [
    ("spread the replicas", SPREAD),
    ("no need to spread", NOTHING),
    ("keep replicas apart", SPREAD),
    ("keep the replicas close together", NEARBY),
    ("keep the replicas together in one rack", NEARBY),
    ("halt die replikas nah zusammen", NEARBY),
    ("keep it together with redis-cache", {"prefer_same_node_as_deployments"}),
    ("Guten Morgen zusammen!", NOTHING),
    ("l'ensemble des pods sur le rack r2", {"prefer_racks"}),
    ("Keep them together on one node, and also one per node.", COLOCATE | SPREAD),
]


@pytest.mark.parametrize(("hint", "expected"), TOGETHER + REFUSED + CONTROLS)
def test_same_workload_pairs(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


# Forgetting a place refuses it ("forget", "olvídate de", "vergiss", "on oublie"), and a strong refusal may close
# the clause after the place ("auf worker-12 auf keinen fall"); "don't forget the SSD" refuses nothing.
AVOID = {"avoid_nodes"}

REFUSALS = [
    ("forget about worker-41", AVOID),
    ("Forget node worker-41.", AVOID),
    ("olvídate del nodo worker-41", AVOID),
    ("olvidate de worker-41", AVOID),
    ("vergiss worker-41", AVOID),
    ("worker-41 vergessen", AVOID),
    ("on oublie worker-41", AVOID),
    ("Oubliez le nœud worker-41.", AVOID),
    ("auf worker-41 auf keinen fall", AVOID),
    ("Auf worker-41 keinesfalls.", AVOID),
    ("en worker-41 de ninguna manera", AVOID),
    ("En worker-41 en ningún caso.", AVOID),
    ("sur worker-41 en aucun cas", AVOID),
    ("on worker-41 under no circumstances", AVOID),
    ("forget worker-41, use worker-44", AVOID | {"prefer_nodes"}),
    ("vergiss worker-41, nimm worker-44", AVOID | {"prefer_nodes"}),
    # "don't forget ..." asks for nothing to be avoided
    ("don't forget the ssd", NOTHING),
    ("no olvides el ssd", NOTHING),
    ("vergiss die ssd nicht", NOTHING),
    ("n'oubliez pas le ssd", NOTHING),
]


@pytest.mark.parametrize(("hint", "expected"), REFUSALS)
def test_forgetting_and_late_refusals(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


# "not needed" followed by its object opens a clause of its own: its negation does not reach back over the wish
# before it, typed without punctuation ("... same rack no need for the same node")
NOT_NEEDED_AHEAD = [
    ("pods en el mismo rack no hace falta mismo nodo", NEARBY),
    ("pods en el mismo rack, no hace falta el mismo nodo", NEARBY),
    ("pods cerquita no hace falta que sea el mismo nodo", NEARBY),
    ("les pods dans la meme baie pas besoin du meme noeud", NEARBY),
    ("pods in one rack no need for one node", NEARBY),
    # said after its object it still refuses nothing and asks nothing
    ("mismo nodo no hace falta", NOTHING),
    ("meme noeud pas besoin", NOTHING),
]


@pytest.mark.parametrize(("hint", "expected"), NOT_NEEDED_AHEAD)
def test_not_needed_with_its_object_after_it(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


# A level said first, then how it differs from another workload's ("un nodo distinto al de X"): away from that
# workload on that level, never a spread of the replicas
AVOID_SAME_NODE = {"avoid_same_node_as_deployments"}

OTHER_THAN_AFTER = [
    ("en un nodo distinto al de cobros-api", AVOID_SAME_NODE),
    ("En un nodo diferente del de cobros-api.", AVOID_SAME_NODE),
    ("misma zona que cobros-api pero en un nodo distinto al de cobros-api",
     AVOID_SAME_NODE | {"prefer_same_zone_as_deployments"}),
    ("sur un noeud different de celui de cobros-api", AVOID_SAME_NODE),
    ("Sur un nœud autre que celui de cobros-api.", AVOID_SAME_NODE),
    ("a node different from the cobros-api pods", AVOID_SAME_NODE),
    ("auf einem anderen knoten als cobros-api", AVOID_SAME_NODE),
    # the replicas' own nodes are still a spread
    ("cada réplica en un nodo distinto", SPREAD),
]


@pytest.mark.parametrize(("hint", "expected"), OTHER_THAN_AFTER)
def test_a_level_other_than_a_workloads(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


# "where X has its zone": the place of another workload, named by its own level; refused when a refusal points at
# "there" before it ("nicht dort, wo X läuft" was read as a wish, a flip)
SAME_ZONE = {"prefer_same_zone_as_deployments"}
NOT_SAME_ZONE = {"avoid_same_zone_as_deployments"}

WHERE_OWN_LEVEL = [
    ("put it where cobros-api has its zone", SAME_ZONE),
    ("Run it where cobros-api has its zone.", SAME_ZONE),
    ("alli donde cobros-api tiene su zona", SAME_ZONE),
    ("Dort, wo auch cobros-api seine Zone hat.", SAME_ZONE),
    ("dort wo cobros-api seine zone hat", SAME_ZONE),
    ("la ou cobros-api a sa zone", SAME_ZONE),
    ("Là où cobros-api a sa zone.", SAME_ZONE),
    ("not there, where cobros-api has its zone", NOT_SAME_ZONE),
    ("no alli, donde cobros-api tiene su zona", NOT_SAME_ZONE),
    ("nicht dort, wo cobros-api seine zone hat", NOT_SAME_ZONE),
    ("pas là, où cobros-api a sa zone", NOT_SAME_ZONE),
    ("nicht dort, wo cobros-api läuft", {"avoid_same_node_as_deployments"}),
]


@pytest.mark.parametrize(("hint", "expected"), WHERE_OWN_LEVEL)
def test_where_a_workload_has_its_level(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


# A node's name after its preposition whose first part holds a digit ("n3-gpu-12", "c5-big-04") is a node
NODE_DIGIT_HEAD = [
    ("ideally on c5-big-04, but 32g of ram is a must", {"prefer_nodes", "prefer_memory_gb"}),
    ("am liebsten auf c5-big-04", {"prefer_nodes"}),
    ("de preference sur c5-big-04", {"prefer_nodes"}),
    ("not on c5-big-04", {"avoid_nodes"}),
    ("on eu-west-1", {"prefer_regions"}),
]


@pytest.mark.parametrize(("hint", "expected"), NODE_DIGIT_HEAD)
def test_a_node_name_with_a_digit_in_its_head(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint
