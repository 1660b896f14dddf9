"""A place is preferred only where the words around it say so (issue 12, polarity safety): a preposition of
place, a wish or strength word that refuses nothing, an approval, other wishes of its clause, or nothing but the
place. A place named with words the analyser does not know (a complaint, then a refusal in other words) is
neither preferred nor guessed to be avoided: "avoid X" must never turn into "prefer X".

The probe hints are our own wording (no evaluation row).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named


@pytest.mark.parametrize("hint", [
    # a complaint about the place, then what to do in words no list holds
    "die zone eu-central-1b hatte ausfälle, andere zone nehmen",
    "zone us-east-1b: hard pass",
    "rack r-8 anda fatal, a otro lado",
    "la region sa-east-1 nos sale carísima",
    "baie b-3 surchauffe, trouve autre chose",
    "la region ap-east-1 coute trop cher chez nous",
    "gx-14 und gx-15 haben kaputte netzteile also lassen wir die",
    "wk-31 et wk-32 ont des disques pourris donc on les evite",
])
def test_a_place_named_without_a_wish_is_never_preferred(hint: str) -> None:
    assert not {name for name in named(hint) if name.startswith("prefer_")}


@pytest.mark.parametrize(("hint", "expected"), [
    # a preposition of place, also the colloquial and contracted ones
    ("deploy into ap-south-1", {"prefer_regions": ["ap-south-1"]}),
    ("ab ins rack gx-r7", {"prefer_racks": ["gx-r7"]}),
    ("mándalo pa la región us-west-2", {"prefer_regions": ["us-west-2"]}),
    ("envoie-le sur le nœud par-w9", {"prefer_nodes": ["par-w9"]}),
    # a wish word of the clause
    ("choisissez le rack r7-02", {"prefer_racks": ["r7-02"]}),
    ("Vorzusehen ist die Region eu-north-1.", {"prefer_regions": ["eu-north-1"]}),
    ("on veut la region us-east-2", {"prefer_regions": ["us-east-2"]}),
    # nothing but the place, or the place and why
    ("rack r-77 pls", {"prefer_racks": ["r-77"]}),
    ("region eu-west-1 for data residency", {"prefer_regions": ["eu-west-1"]}),
    ("zona us-east-1a por la latencia", {"prefer_zones": ["us-east-1a"]}),
    ("Zone eu-central-1a wegen der Latenz", {"prefer_zones": ["eu-central-1a"]}),
    ("zone eu-west-3a pour la latence", {"prefer_zones": ["eu-west-3a"]}),
    # one of several wishes of its clause
    ("batch zone us-east-1a 12 cores 25gbit", {"prefer_zones": ["us-east-1a"], "prefer_cpu_cores": [],
                                               "prefer_network_speed": []}),
    # an approval said after a list speaks for every item; a list goes on from a wished first item
    ("racks r4-41 and r4-42 will do", {"prefer_racks": ["r4-41", "r4-42"]}),
    ("ein Rack r-3 reicht", {"prefer_racks": ["r-3"]}),
    ("run in us-east-1a or 1b", {"prefer_zones": ["us-east-1a", "us-east-1b"]}),
    ("en la zona eu-west-1a o eu-west-1b", {"prefer_zones": ["eu-west-1a", "eu-west-1b"]}),
    # "only", said after the place too; the place given as its level's value
    ("nodo n-4 nomás", {"prefer_nodes": ["n-4"]}),
    ("region eu-central-1 ausschließlich", {"prefer_regions": ["eu-central-1"]}),
    ("region eu-west-1 unicamente", {"prefer_regions": ["eu-west-1"]}),
    ("region is eu-west-1", {"prefer_regions": ["eu-west-1"]}),
    ("la zona es us-east-1a", {"prefer_zones": ["us-east-1a"]}),
    # "exclusively" is no "exclude" ("exclusivement" no "exclure")
    ("exclusively on node n-4", {"prefer_nodes": ["n-4"]}),
    ("exclusivement sur le noeud n-4", {"prefer_nodes": ["n-4"]}),
    ("exclure le noeud n-4", {"avoid_nodes": ["n-4"]}),
])
def test_a_place_the_words_wish_for_is_preferred(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    ("avoid node n-3, likewise rack r-4", {"avoid_nodes": ["n-3"], "avoid_racks": ["r-4"]}),
    ("Knoten k-3 ist zu meiden, ebenso im Rack r-4.", {"avoid_nodes": ["k-3"], "avoid_racks": ["r-4"]}),
    ("no en el nodo n-3, igualmente en el rack r-4", {"avoid_nodes": ["n-3"], "avoid_racks": ["r-4"]}),
    ("pas sur le noeud n-3, de même que dans la baie b-4", {"avoid_nodes": ["n-3"], "avoid_racks": ["b-4"]}),
])
def test_a_likewise_after_a_refusal_refuses_again(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # a one-word refusal between two places may refuse either of them
    "eu-central-1 nope eu-west-1 yes",
    "rack r-3 no rack r-4",
    "knoten k-3 nein knoten k-4",
    "nodo n-3 nunca nodo n-4",
    "baie b-3 non baie b-4",
    # a place after a refusal, with no punctuation and only a preposition of its own, may go on with the refusal
    "weg von zone eu-central-1a rein in zone eu-central-1b",
    "nicht in zone eu-central-1a in zone eu-central-1b",
])
def test_a_place_whose_polarity_the_words_leave_open_is_neither_preferred_nor_avoided(hint: str) -> None:
    read = named(hint)
    preferred = {item for name, items in read.items() if name.startswith("prefer_") for item in items}
    avoided = {item for name, items in read.items() if name.startswith("avoid_") for item in items}
    doubtful = {"eu-west-1", "r-3", "r-4", "k-3", "k-4", "n-3", "n-4", "b-3", "b-4", "eu-central-1b"}
    assert not (preferred | avoided) & doubtful
