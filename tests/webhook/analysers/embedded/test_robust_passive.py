"""Refusals said idiomatically or in the passive (session 10, passive): "rack-3 would be best left out", "give rack
r8 a miss", "the gpu nodes can sit this one out", "la región X está vetada", "Rack r12 bleibt außen vor", "le rack
r8, on n'y touche pas". The refusal is read as a refusal, never as a preference: "best" or "better" said with it is
no wish for the place. A refusal said whole after its place ends its clause, so a wish verb or a strength word typed
right after it without punctuation opens the next wish ("... is off limits run it in rack-5"); a place named bare
after it ("rack r8 is off limits, rack r9") is neither refused with it nor wished (which the user meant is not
certain), unless "too" or "as well" says the refusal again; a place approved after it ("..., ws-14 geht", "...,
rack r41 would be best") is wished. Where the polarity is unsure, nothing is read.

The probes are our own wording (no evaluation row); the whole reading must be exactly the labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values, strengths

# "best"/"better" with a refusal: the refusal, never a preference (the flip this file was written for)
BEST_LEFT_OUT = [
    ("rack-3 would be best left out, run it in rack-5", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-5"]}),
    ("rack-3 would be best left out put it on rack-5", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-5"]}),
    ("rack-3 is best left alone", {"avoid_racks": ["rack-3"]}),
    ("rack-3 is best left alone use rack-5", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-5"]}),
    ("zone eu-north-1b would be best left out", {"avoid_zones": ["eu-north-1b"]}),
    ("Zone us-east-2c is best left alone; prefer us-east-2a.", {"avoid_zones": ["us-east-2c"],
                                                               "prefer_zones": ["us-east-2a"]}),
    ("region eu-south-1 is best left out use eu-west-3", {"avoid_regions": ["eu-south-1"],
                                                          "prefer_regions": ["eu-west-3"]}),
    ("node ws-31 is better left alone", {"avoid_nodes": ["ws-31"]}),
    ("node ws-40 is best avoided", {"avoid_nodes": ["ws-40"]}),
    ("the gpu nodes are best left alone", {"avoid_gpu_nodes": None}),
    ("GPU nodes would be best left out of it.", {"avoid_gpu_nodes": None}),
    ("gpu nodes are better left alone, its a cpu job", {"avoid_gpu_nodes": None}),
    ("rack r40 is best skipped", {"avoid_racks": ["r40"]}),
    ("rack r40 would be better skipped", {"avoid_racks": ["r40"]}),
    ("the gpu nodes are best skipped", {"avoid_gpu_nodes": None}),
    ("rack r40 is best steered clear of", {"avoid_racks": ["r40"]}),
    ("leaving rack r40 out would be best", {"avoid_racks": ["r40"]}),
    ("zone eu-south-1a is best skipped, use eu-south-1b", {"avoid_zones": ["eu-south-1a"],
                                                           "prefer_zones": ["eu-south-1b"]}),
    ("le mieux serait d'oublier le rack r40", {"avoid_racks": ["r40"]}),
    ("le rack r40 est mieux évité", {"avoid_racks": ["r40"]}),
    ("la zone eu-south-1a serait plutôt évitée, plutôt eu-south-1b", {"avoid_zones": ["eu-south-1a"],
                                                                       "prefer_zones": ["eu-south-1b"]}),
    ("el rack r40 mejor dejarlo estar", {"avoid_racks": ["r40"]}),
    ("rack r40 am besten meiden, rack r41 wäre am besten", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    # "best" alone still wishes
    ("rack r40 would be best", {"prefer_racks": ["r40"]}),
    ("rack r40 is best left to the db team, use rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("rack r40 besser den anderen lassen", {"avoid_racks": ["r40"]}),
    # "ideal" inside "less than ideal" is no wish for the place
    ("rack r40 is less than ideal", {"avoid_racks": ["r40"]}),
    ("el rack r40 dista de ser ideal", {"avoid_racks": ["r40"]}),
    ("rack r40 ist alles andere als ideal, rack r41 wäre ideal", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("le rack r40 est loin d etre ideal, le rack r41 serait idéal", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
]


@pytest.mark.parametrize(("hint", "labels"), BEST_LEFT_OUT)
def test_best_left_out_is_a_refusal(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


def test_best_left_out_is_weak_and_the_wish_after_it_plain() -> None:
    assert strengths("rack-3 would be best left out, run it in rack-5") == {"avoid_racks": 0.5,
                                                                             "prefer_racks": 1.0}


IDIOMS_EN = [
    ("rack b7 should be left out", {"avoid_racks": ["b7"]}),
    ("leave zone eu-north-1c out of it and go with eu-north-1a", {"avoid_zones": ["eu-north-1c"],
                                                                   "prefer_zones": ["eu-north-1a"]}),
    ("leave out rack r40, use rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("ap-east-1 is off limits prefer ap-southeast-2", {"avoid_regions": ["ap-east-1"],
                                                       "prefer_regions": ["ap-southeast-2"]}),
    ("node ws-12 is off limits put it on node ws-14", {"avoid_nodes": ["ws-12"], "prefer_nodes": ["ws-14"]}),
    ("rack r40 is a no go use rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("rack r31 is out of bounds", {"avoid_racks": ["r31"]}),
    ("give rack r8 a miss", {"avoid_racks": ["r8"]}),
    ("give the gpu nodes a miss", {"avoid_gpu_nodes": None}),
    ("give zone us-east-2c a wide berth", {"avoid_zones": ["us-east-2c"]}),
    ("count us-west-1 out", {"avoid_regions": ["us-west-1"]}),
    ("count out rack r40", {"avoid_racks": ["r40"]}),
    ("rack r40 stays out of this", {"avoid_racks": ["r40"]}),
    ("zone us-west-1b is excluded", {"avoid_zones": ["us-west-1b"]}),
    ("region eu-south-1 is excluded, deploy in eu-west-3", {"avoid_regions": ["eu-south-1"],
                                                            "prefer_regions": ["eu-west-3"]}),
    ("not rack r5 thanks", {"avoid_racks": ["r5"]}),
    ("rack r5? nah", {"avoid_racks": ["r5"]}),
    ("the gpu nodes can sit this one out", {"avoid_gpu_nodes": None}),
    ("gpu boxes can sit this one out, plain cpu nodes are fine", {"avoid_gpu_nodes": None}),
    ("rack r22 can sit this one out", {"avoid_racks": ["r22"]}),
    ("pass on rack r40", {"avoid_racks": ["r40"]}),
    ("hard pass on gpu nodes", {"avoid_gpu_nodes": None}),
    ("rack r40 is a non-starter", {"avoid_racks": ["r40"]}),
    ("gpu nodes are not an option", {"avoid_gpu_nodes": None}),
    ("rack r40 is not on the table", {"avoid_racks": ["r40"]}),
    ("keep rack r40 out of the picture", {"avoid_racks": ["r40"]}),
    ("rack r40 should be skipped", {"avoid_racks": ["r40"]}),
    ("rack r40 is not to be used", {"avoid_racks": ["r40"]}),
    ("rack r40 shouldn't be touched", {"avoid_racks": ["r40"]}),
]


@pytest.mark.parametrize(("hint", "labels"), IDIOMS_EN)
def test_english_idiomatic_refusals(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


IDIOMS_ES = [
    ("la zona eu-north-1b queda descartada", {"avoid_zones": ["eu-north-1b"]}),
    ("la zona eu-south-1a queda descartada usa eu-south-1b", {"avoid_zones": ["eu-south-1a"],
                                                              "prefer_zones": ["eu-south-1b"]}),
    ("mejor dejar el rack r12 fuera", {"avoid_racks": ["r12"]}),
    ("mejor dejar fuera la region eu-south-1", {"avoid_regions": ["eu-south-1"]}),
    ("deja fuera el rack r40 y usa el rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("deja el nodo ws-31 en paz", {"avoid_nodes": ["ws-31"]}),
    ("los nodos gpu mejor dejarlos en paz", {"avoid_gpu_nodes": None}),
    ("el nodo ws-12 ni tocarlo, ponlo en el ws-14", {"avoid_nodes": ["ws-12"], "prefer_nodes": ["ws-14"]}),
    ("la region ap-east-1 esta vetada", {"avoid_regions": ["ap-east-1"]}),
    ("La región ap-east-1 está vetada, mejor ap-southeast-2.", {"avoid_regions": ["ap-east-1"],
                                                                "prefer_regions": ["ap-southeast-2"]}),
    ("los nodos con gpu estan vetados", {"avoid_gpu_nodes": None}),
    ("pasa del rack r40", {"avoid_racks": ["r40"]}),
    ("el nodo ws-12 no se toca", {"avoid_nodes": ["ws-12"]}),
]


@pytest.mark.parametrize(("hint", "labels"), IDIOMS_ES)
def test_spanish_idiomatic_refusals(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


IDIOMS_DE = [
    ("rack r12 bleibt außen vor", {"avoid_racks": ["r12"]}),
    ("rack r12 bleibt aussen vor, nimm rack r14", {"avoid_racks": ["r12"], "prefer_racks": ["r14"]}),
    ("die gpu-knoten bleiben außen vor", {"avoid_gpu_nodes": None}),
    ("lass die zone eu-south-1a in ruhe, nimm eu-south-1b", {"avoid_zones": ["eu-south-1a"],
                                                             "prefer_zones": ["eu-south-1b"]}),
    ("Die GPU-Knoten sind tabu.", {"avoid_gpu_nodes": None}),
    ("region ap-east-1 kommt nicht in frage", {"avoid_regions": ["ap-east-1"]}),
    ("region ap-east-1 kommt nicht in frage lieber ap-southeast-2", {"avoid_regions": ["ap-east-1"],
                                                                     "prefer_regions": ["ap-southeast-2"]}),
    ("region ap-east-1 ist tabu lieber ap-southeast-2", {"avoid_regions": ["ap-east-1"],
                                                         "prefer_regions": ["ap-southeast-2"]}),
    ("rack r8 lieber auslassen", {"avoid_racks": ["r8"]}),
    ("knoten ws-40 ist ausgeschlossen", {"avoid_nodes": ["ws-40"]}),
    ("rack r8 lassen wir besser außen vor", {"avoid_racks": ["r8"]}),
]


@pytest.mark.parametrize(("hint", "labels"), IDIOMS_DE)
def test_german_idiomatic_refusals(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


def test_a_strength_word_after_a_refusal_said_whole_grades_the_next_wish() -> None:
    assert strengths("region ap-east-1 kommt nicht in frage lieber ap-southeast-2") == {"avoid_regions": 1.0,
                                                                                        "prefer_regions": 0.5}


IDIOMS_FR = [
    ("laisse le rack r12 tranquille", {"avoid_racks": ["r12"]}),
    ("laissez les noeuds gpu tranquilles", {"avoid_gpu_nodes": None}),
    ("laisse tranquille le noeud ws-31 et mets-le sur ws-32", {"avoid_nodes": ["ws-31"], "prefer_nodes": ["ws-32"]}),
    ("la zone eu-north-1b est à proscrire", {"avoid_zones": ["eu-north-1b"]}),
    ("la zone eu-north-1b est a proscrire, plutot eu-north-1a", {"avoid_zones": ["eu-north-1b"],
                                                                  "prefer_zones": ["eu-north-1a"]}),
    ("on oublie la region ap-east-1", {"avoid_regions": ["ap-east-1"]}),
    ("le rack r40 est exclu, plutôt le rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("pas question du noeud ws-12", {"avoid_nodes": ["ws-12"]}),
    ("le rack r8, on n'y touche pas", {"avoid_racks": ["r8"]}),
    ("le rack r8 on ny touche pas", {"avoid_racks": ["r8"]}),
    ("le noeud n-4 est en panne, on n'y touche pas", {"avoid_nodes": ["n-4"]}),
    ("le noeud ws-12, on ny touche pas, mets le sur ws-14", {"avoid_nodes": ["ws-12"], "prefer_nodes": ["ws-14"]}),
    ("le rack r40 est hors jeu", {"avoid_racks": ["r40"]}),
    ("le rack r40, très peu pour moi", {"avoid_racks": ["r40"]}),
    ("le rack r40, on s'en passe", {"avoid_racks": ["r40"]}),
    ("le rack r40 n'entre pas en ligne de compte", {"avoid_racks": ["r40"]}),
    ("le rack r40 est mieux laisse de cote", {"avoid_racks": ["r40"]}),
]


@pytest.mark.parametrize(("hint", "labels"), IDIOMS_FR)
def test_french_idiomatic_refusals(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# after a refusal said whole, a bare place is no sure item of it nor surely wished; "too" says the refusal again,
# an approval wishes nothing sure either
AFTER_A_WHOLE_REFUSAL = [
    ("rack r8 is off limits, rack r9", {"avoid_racks": ["r8"]}),
    ("give rack r8 a miss, rack r9 please", {"avoid_racks": ["r8"]}),
    ("Region eu-south-1 ist tabu, bitte eu-west-3.", {"avoid_regions": ["eu-south-1"]}),
    ("rack-1 is off limits, rack-2 too", {"avoid_racks": ["rack-1", "rack-2"]}),
    ("rack-1 is off limits, rack-2 as well", {"avoid_racks": ["rack-1", "rack-2"]}),
    ("rack-1 and rack-2 are off limits", {"avoid_racks": ["rack-1", "rack-2"]}),
    # ... approved after it, the place is wished ("would be best", "geht", "va bien")
    ("knoten ws-12 lieber auslassen, ws-14 geht", {"avoid_nodes": ["ws-12"], "prefer_nodes": ["ws-14"]}),
    ("rack r40 would be best avoided, rack r41 would be best", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("rack r40 should be left out, rack r41 is fine", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("la zona eu-south-1a queda descartada, eu-south-1b va bien", {"avoid_zones": ["eu-south-1a"],
                                                                   "prefer_zones": ["eu-south-1b"]}),
    # a refusal said before its place may list the approved one: not certain, not read
    ("avoid rack r40, rack r41 is fine", {"avoid_racks": ["r40"]}),
    ("rack r40 is far from ideal, rack r41 would be ideal", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("rack r40 isn't an option, rack r41 is", {"avoid_racks": ["r40"]}),
    # a refusal said before its places still lists them
    ("avoid rack r8, rack r9", {"avoid_racks": ["r8", "r9"]}),
    # a "not" closing its clause refuses the place before it, never the one after
    ("rack r40 ideally not, rack r41 ideally", {"avoid_racks": ["r40"]}),
    ("rack r40 not, rack r41", {"avoid_racks": ["r40"]}),
    ("rack r40 preferably not", {"avoid_racks": ["r40"]}),
    ("rack r8 is off limits, rack r9 it keeps crashing", {"avoid_racks": ["r8"]}),
    ("rack r40 besser nicht, rack r41 passt", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    ("von rack r40 lieber die finger lassen", {"avoid_racks": ["r40"]}),
]


@pytest.mark.parametrize(("hint", "labels"), AFTER_A_WHOLE_REFUSAL)
def test_a_place_after_a_refusal_said_whole(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# a refusal word inside a refusal said after its place refuses that place only, never the place after it
REFUSED_AFTER_ONLY = [
    # "on prend" (taking a place) is a wish of its own since nopunct3: the place after it is wished, never refused
    ("la zone eu-south-1a est a proscrire on prend eu-south-1b",
     {"avoid_zones": ["eu-south-1a"], "prefer_zones": ["eu-south-1b"]}),
    ("region ap-east-1 kommt nicht in frage eu-west-3 schon", {"avoid_regions": ["ap-east-1"]}),
    ("rack r40 is excluded rack r41", {"avoid_racks": ["r40"]}),
    ("pas question du rack r40, plutot le rack r41", {"avoid_racks": ["r40"], "prefer_racks": ["r41"]}),
    # ... unless a likewise says it again
    ("les noeuds n-08 et n-03 sont à proscrire de même que la baie baie-07",
     {"avoid_nodes": ["n-08", "n-03"], "avoid_racks": ["baie-07"]}),
]


# a last resort is avoided where it can be (0.5), never wished
def test_a_last_resort_is_avoided_if_possible() -> None:
    assert strengths("use rack r41, rack r40 only as a last resort") == {"prefer_racks": 1.0, "avoid_racks": 0.5}
    assert strengths("rack r40 would be my last choice") == {"avoid_racks": 0.5}
    assert strengths("rack r40 nur als letzte option") == {"avoid_racks": 0.5}


@pytest.mark.parametrize(("hint", "labels"), REFUSED_AFTER_ONLY)
def test_a_refusal_said_after_its_place_refuses_nothing_after_it(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


SPARE = [
    ("spare the gpu nodes", {"avoid_gpu_nodes": None}),
    ("spare rack r40 this time", {"avoid_racks": ["r40"]}),
    ("use spare capacity in zone eu-south-1a", {"prefer_zones": ["eu-south-1a"]}),
]


@pytest.mark.parametrize(("hint", "labels"), SPARE)
def test_spare_as_a_verb_refuses(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# idioms whose polarity the analyser does not know stay unread rather than guessed; what is no refusal stays so
UNSURE = [
    ("count me in for rack r41", {}),
    # no refusal by "not" at the end: a hedge, an alternative
    ("rack r40 if possible, rack r41 if not", {"prefer_racks": ["r40", "r41"]}),
    ("sans oublier le ssd", {}),
    # a typo near the new words still reads its own word ("etado" is "estado", no "vetado")
    ("Que el nodo tenga discos de etado sólido.", {"prefer_ssd_storage": None}),
]


@pytest.mark.parametrize(("hint", "labels"), UNSURE)
def test_unknown_idioms_read_nothing(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
