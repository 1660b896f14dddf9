"""Polarity safety against descriptions (issue 12): a clause that complains about or describes a place or a
workload never prefers or co-locates it; a clear wish about it (avoid, keep off) is read; the unsure is dropped.
And a negation without a named place never carries into the wish after it.

The probe hints are our own wording (no evaluation row), in en, es, de and fr, typed with and without
punctuation.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents, places
from webhook.evaluation import parse_row
from webhook.perturbations import PERTURBATIONS


@pytest.mark.parametrize("hint", [
    "not in zone a needs 4 GPUs",
    "not in zone a needs 4 gpus pls",
    "never in zone c, needs 4 GPUs",
    "no en la zona a necesita 4 GPUs",
    "nada en la zona b necesita 4 gpus",
    "nicht in zone a braucht 4 GPUs",
    "nicht in der Zone b braucht 4 gpus",
    "pas dans la zone a il faut 4 GPU",
    "pas en zone b besoin de 4 gpu",
])
def test_an_unnamed_refused_place_leaves_the_wish_after_it_alone(hint: str) -> None:
    assert intents(hint) == {"prefer_gpu": {"prefer_gpu_cores": 4.0}}


def test_a_named_refused_place_is_avoided_and_the_wish_after_it_read() -> None:
    assert intents("not in zone us-east-1a needs 4 GPUs") == {
        "avoid_zones": {"avoid_zones": ["us-east-1a"]}, "prefer_gpu": {"prefer_gpu_cores": 4.0}}


@pytest.mark.parametrize(("hint", "expected"), [
    # a wish said with its subject after a refusal is a wish of its own, never refused with it
    ("keep off rack-3 we need 4 gpus", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                        "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("pas sur le rack-3 on a besoin de 4 gpu", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                                "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("no en el rack-3 necesitamos 4 gpus", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                            "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("lass die zone eu-central-1a weg wir brauchen 2 gpus", {"avoid_zones": {"avoid_zones": ["eu-central-1a"]},
                                                             "prefer_gpu": {"prefer_gpu_cores": 2.0}}),
    # a subjunctive wish after a refusal, typed without a comma
    ("no en el rack-3 que tenga ssd", {"avoid_racks": {"avoid_racks": ["rack-3"]}, "prefer_ssd_storage": {}}),
])
def test_a_refusal_never_reaches_the_wish_said_with_its_subject(hint: str, expected: dict) -> None:
    assert intents(hint) == expected


def test_a_refused_rack_never_refuses_the_gpu_wished_after_it() -> None:
    assert "avoid_gpu_nodes" not in intents("evita el rack r-b3 que tenga gpu es importante")


@pytest.mark.parametrize(("hint", "avoided"), [
    # "lass X weg" (leave X out), with a plea of any language at the end or inside
    ("m04 lass den weg pls", "m04"),
    ("w-12 lass den weg plz", "w-12"),
    ("lass m04 weg pls", "m04"),
    ("lass den Knoten k-7 bitte weg", "k-7"),
    ("lass den m04 mal weg heute", "m04"),
    ("knoten k-9 lass mal weg", "k-9"),
    ("m04 lass weg der spinnt", "m04"),
    ("lass den Knoten k-3 aus dem Spiel", "k-3"),
    ("el nodo w-3 no porfa", "w-3"),
    ("pas le nœud n-4 svp", "n-4"),
])
def test_a_refusal_with_a_plea_avoids_and_never_prefers(hint: str, avoided: str) -> None:
    assert intents(hint) == {"avoid_nodes": {"avoid_nodes": [avoided]}}


def test_a_refusal_bracket_leaves_the_wish_after_it() -> None:
    assert intents("lass m04 weg pls nimm m05") == {"avoid_nodes": {"avoid_nodes": ["m04"]},
                                                    "prefer_nodes": {"prefer_nodes": ["m05"]}}


@pytest.mark.parametrize("hint", [
    # a complaint right after the name, or a few plain words on
    "m04 keeps crashing",
    "worker-9 has been flaky all week",
    "us-east-1b is down again",
    "rack r7 is overheating lately",
    "nodes running kafka are bad",
    "the nodes that run kafka keep crashing",
    "the nodes with kafka on them are flaky",
    "der knoten gpu-host-8 spinnt",
    "k-4 ist total kaputt",
    "knoten auf denen kafka läuft sind kaputt",
    "die knoten mit kafka sind langsam",
    "el nodo w-3 falla mucho",
    "w-3 se cuelga cada noche",
    "los nodos que corren kafka son lentos",
    "los nodos con kafka fallan mucho",
    "le nœud n-12 est instable",
    "n-12 rame depuis ce matin",
    "les nœuds qui font tourner kafka sont lents",
    "les nœuds avec kafka plantent",
])
def test_a_complained_about_place_or_workload_is_never_preferred(hint: str) -> None:
    found = intents(hint)
    assert not any(name.startswith("prefer_") or name.startswith("spread_") for name in found), found


@pytest.mark.parametrize(("hint", "expected"), [
    ("put it on m07, m04 keeps crashing", {"prefer_nodes": ["m07"]}),
    ("put it on m07 m04 keeps crashing", {"prefer_nodes": ["m07"]}),
    ("prefer m07 over m04 which keeps crashing", {"prefer_nodes": ["m07"]}),
    ("rack-3 is flaky, use rack-4", {"prefer_racks": ["rack-4"]}),
    ("rack-5 is overloaded use rack-6", {"prefer_racks": ["rack-6"]}),
    ("us-east-1b is down again so use us-east-1a", {"prefer_zones": ["us-east-1a"]}),
    ("bitte auf m07, m04 ist kaputt", {"prefer_nodes": ["m07"]}),
    ("el nodo w-3 está roto usa w-4", {"prefer_nodes": ["w-4"]}),
    ("el nodo w-3 está caído, usa el w-4", {"prefer_nodes": ["w-4"]}),
    # an outage said of a named node is a complaint about it, no wish to survive outages
    ("le nœud n-4 est en panne utilise n-5", {"prefer_nodes": ["n-5"]}),
    ("le nœud n-4 est en panne, utilise n-5", {"prefer_nodes": ["n-5"]}),
])
def test_only_the_complained_about_name_is_dropped(hint: str, expected: dict) -> None:
    assert places(hint) == expected
    assert not any(name.startswith("spread_") for name in intents(hint)), intents(hint)


@pytest.mark.parametrize(("hint", "expected"), [
    # a clear refusal of the bad place or workload is read, with its reason or without
    ("keep away from nodes running kafka", {"avoid_same_node_as_deployments": ["kafka"]}),
    ("keep it off nodes running kafka they are slow", {"avoid_same_node_as_deployments": ["kafka"]}),
    ("stay away from the nodes running kafka because they were flaky",
     {"avoid_same_node_as_deployments": ["kafka"]}),
    ("aléjalo de los nodos donde corre kafka", {"avoid_same_node_as_deployments": ["kafka"]}),
    ("eloigne le des noeuds ou tourne kafka", {"avoid_same_node_as_deployments": ["kafka"]}),
    ("avoid m04 m04 keeps crashing", {"avoid_nodes": ["m04"]}),
    ("m04 is flaky, skip it", {"avoid_nodes": ["m04"]}),
    ("avoid rack-2 because it was flaky", {"avoid_racks": ["rack-2"]}),
    ("avoid rack-2 because it was flaky last week", {"avoid_racks": ["rack-2"]}),
    ("keep it off m03 which crashed yesterday", {"avoid_nodes": ["m03"]}),
    ("evita el rack-2 porque estaba roto", {"avoid_racks": ["rack-2"]}),
    ("evita el rack-2 porque fallaba", {"avoid_racks": ["rack-2"]}),
    ("meide rack-2 weil es gestern ausgefallen ist", {"avoid_racks": ["rack-2"]}),
    ("evita el rack-4 ahí hubo un corte ayer", {"avoid_racks": ["rack-4"]}),
    ("replicas of the api shhouldnt share a node", {}),
    ("évite le rack-2 parce qu'il était instable", {"avoid_racks": ["rack-2"]}),
    ("évite le rack-2 parce quil était instable", {"avoid_racks": ["rack-2"]}),
    ("évite le rack-2 parce quil plantait", {"avoid_racks": ["rack-2"]}),
])
def test_a_clear_refusal_of_a_bad_place_is_read(hint: str, expected: dict) -> None:
    assert places(hint) == expected


@pytest.mark.parametrize(("hint", "told"), [
    ("m03 crashed yesterday", "m03"),
    ("the zone us-east-1b is down again", "us-east-1b"),
    ("rack-2 went down yesterday use rack-3", "rack-2"),
    ("der knoten k-4 ist ausgefallen nimm k-5", "k-4"),
    ("el nodo w-8 se cayó anoche, usa w-9", "w-8"),
    ("le nœud n-3 est tombé hier, prends n-2", "n-3"),
])
def test_a_place_told_about_is_never_preferred(hint: str, told: str) -> None:
    found = places(hint)
    assert not any(told in names for name, names in found.items() if name.startswith("prefer_")), found


def test_a_plain_wish_for_a_place_still_counts() -> None:
    assert places("run on m07") == {"prefer_nodes": ["m07"]}
    assert places("m07 pls") == {"prefer_nodes": ["m07"]}
    assert places("en el nodo w-3 por favor") == {"prefer_nodes": ["w-3"]}
    assert places("mets-le sur le nœud n-5 svp") == {"prefer_nodes": ["n-5"]}
    assert places("bitte auf den Knoten k-5") == {"prefer_nodes": ["k-5"]}


@pytest.mark.parametrize(("hint", "expected"), [
    # French "dont" (of which) is no English "don't" typed without its apostrophe
    ("mettez-le sur le rack-3 dont les nœuds ont des gpu", {"prefer_racks": ["rack-3"]}),
    ("mets le sur le noeud n-4 dont le disque est rapide", {"prefer_nodes": ["n-4"]}),
    ("utilisez la zone eu-west-3a dont la latence est faible", {"prefer_zones": ["eu-west-3a"]}),
    ("Placez-le dans la zone eu-west-3b, dont le réseau est rapide.", {"prefer_zones": ["eu-west-3b"]}),
    # ... and in an English hint it is
    ("dont put it on m04", {"avoid_nodes": ["m04"]}),
    ("dont use m04 its flaky", {"avoid_nodes": ["m04"]}),
    ("i dont want rack-3", {"avoid_racks": ["rack-3"]}),
    ("we cant use us-east-1b", {"avoid_zones": ["us-east-1b"]}),
])
def test_dont_is_a_contraction_only_in_an_english_hint(hint: str, expected: dict) -> None:
    assert places(hint) == expected
    assert "avoid_gpu_nodes" not in intents(hint), intents(hint)


# (language, hint as written, what it asks): a complaint, a reason or a description beside a wish
TYPED = [
    ("en", "Node m04 keeps crashing, so put it on m07.", {"prefer_nodes": {"prefer_nodes": ["m07"]}}),
    ("en", "Avoid rack-2, because it was flaky last week.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("en", "Avoid rack-2, it was flaky last week.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("en", "Keep it off the nodes running kafka, they're slow.",
     {"avoid_same_node_as_deployments": {"deployments": ["kafka"]}}),
    ("en", "rack-5 is overloaded. Use rack-6, please.", {"prefer_racks": {"prefer_racks": ["rack-6"]}}),
    ("en", "Don't put it on m04: it keeps rebooting.", {"avoid_nodes": {"avoid_nodes": ["m04"]}}),
    ("en", "Not in zone a, needs 4 GPUs.", {"prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("es", "El nodo w-3 está roto, usa el w-4.", {"prefer_nodes": {"prefer_nodes": ["w-4"]}}),
    ("es", "Evita el rack-2, porque estaba fallando.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("es", "No lo pongas en w-5, se cuelga cada noche.", {"avoid_nodes": {"avoid_nodes": ["w-5"]}}),
    ("es", "No en la zona a, necesita 4 GPUs.", {"prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("de", "Der Knoten k-4 ist kaputt, nimm den Knoten k-5.", {"prefer_nodes": {"prefer_nodes": ["k-5"]}}),
    ("de", "Meide rack-2, weil es gestern ausgefallen ist.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("de", "Meide rack-2, es ist gestern ausgefallen.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("de", "Den Knoten k-6 lass bitte weg, der spinnt.", {"avoid_nodes": {"avoid_nodes": ["k-6"]}}),
    ("de", "Nicht in Zone a, braucht 4 GPUs.", {"prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("fr", "Le nœud n-4 est en panne, utilisez n-5.", {"prefer_nodes": {"prefer_nodes": ["n-5"]}}),
    ("fr", "Évitez le rack-2, parce qu'il était instable.", {"avoid_racks": {"avoid_racks": ["rack-2"]}}),
    ("fr", "Ne le mettez pas sur n-6 : il plante sans arrêt.", {"avoid_nodes": {"avoid_nodes": ["n-6"]}}),
    ("fr", "Mettez-le sur le nœud n-7, dont le disque est rapide.", {"prefer_nodes": {"prefer_nodes": ["n-7"]}}),
    ("fr", "Pas dans la zone a, il faut 4 GPU.", {"prefer_gpu": {"prefer_gpu_cores": 4.0}}),
]


@pytest.mark.parametrize(("language", "hint", "expected"), TYPED, ids=[hint for _, hint, _ in TYPED])
def test_a_described_place_reads_the_same_however_it_is_typed(language: str, hint: str, expected: dict) -> None:
    assert intents(hint) == expected
    row = parse_row({"id": hint, "hint": hint, "lang": language,
                     "expected": [{"intent": name, "metadata": meta} for name, meta in expected.items()]})
    variants = [variant for change in PERTURBATIONS.values() if (variant := change(row)) is not None]
    assert variants
    assert {v.hint: intents(v.hint) for v in variants} == {v.hint: expected for v in variants}


@pytest.mark.parametrize(("hint", "expected"), [
    # "leave it aside / alone" refuses what it leaves, said before or after it
    ("laissez de côté la zone eu-west-3b", {"avoid_zones": ["eu-west-3b"]}),
    ("laissez eu-west-3c de côté", {"avoid_zones": ["eu-west-3c"]}),
    ("le nœud n-4, laissez-le tranquille", {"avoid_nodes": ["n-4"]}),
    ("le rack r09 a des problèmes de ventilation, on le laisse tranquille", {"avoid_racks": ["r09"]}),
])
def test_leaving_a_place_aside_avoids_it(hint: str, expected: dict) -> None:
    assert places(hint) == expected


def test_a_place_with_problems_is_not_preferred() -> None:
    assert places("le rack r09 a des problèmes de ventilation") == {}


@pytest.mark.parametrize(("hint", "expected"), [
    # "put it elsewhere" after a complaint points back at the one place complained about
    ("m04 keeps crashing, put it somewhere else", {"avoid_nodes": ["m04"]}),
    ("node w-77 is flaky, run it elsewhere", {"avoid_nodes": ["w-77"]}),
    ("der knoten k-4 spinnt, pack ihn woanders hin", {"avoid_nodes": ["k-4"]}),
    ("le nœud n-8 rame, mets le ailleurs", {"avoid_nodes": ["n-8"]}),
    # "d'ailleurs" (besides) is no "elsewhere"
    ("mettez-le en eu-west-3a ; d'ailleurs, c'est plus proche", {"prefer_zones": ["eu-west-3a"]}),
])
def test_elsewhere_after_a_complaint_avoids_the_place(hint: str, expected: dict) -> None:
    assert places(hint) == expected
