"""What describes the cluster or asks after it is no wish; a description typed between two wishes skips only itself.

Probes of our own wording (never rows of an evaluation file), in every supported language.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named as read


@pytest.mark.parametrize("hint", [
    # a state that has lasted ("since March") or context given "for info"
    "this api has run on 6 nodes across 2 zones since march",
    "wir laufen aktuell auf 12 knoten in 3 zonen, nur zur info",
    "der dienst läuft seit märz über 3 zonen verteilt",
    "el servicio corre en 3 zonas desde enero, solo para info",
    "le service tourne sur 4 zones depuis janvier",
    # asking after a named node, rack or zone
    "is worker-9 still down?",
    "is worker-9 still down",  # typed without its "?", it ends the hint: still a question
    "are r-4 and r-5 back up?",
    "ist w-12 noch in wartung?",
    "¿sigue w-12 en mantenimiento?",
    "w-12 est toujours en panne ?",
    # indifference, then "nor is spreading needed"
    "me da igual el rack y tampoco hace falta repartir",
])
def test_no_wish_is_read(hint: str) -> None:
    assert read(hint) == {}


@pytest.mark.parametrize(("hint", "expected"), [
    ("we moved off us-east-1 last month keep it in us-west-2", {"prefer_regions": ["us-west-2"]}),
    ("rack-3 was flaky last week so put it on rack-4", {"prefer_racks": ["rack-4"]}),
    ("der knoten k-2 war gestern kaputt, also bitte auf knoten k-5", {"prefer_nodes": ["k-5"]}),
    ("la zona b tuvo cortes ayer, ponlo en eu-west-1a", {"prefer_zones": ["eu-west-1a"]}),
    ("le rack r-2 a planté hier mettez-le sur le rack r-6", {"prefer_racks": ["r-6"]}),
])
def test_a_description_between_wishes_skips_only_itself(hint: str, expected: dict[str, list[str]]) -> None:
    assert read(hint) == expected


@pytest.mark.parametrize("hint", [
    "m04 crashed yesterday so avoid it",  # "it" is m04, in the skipped description: nothing, never prefer m04
    "m04 crashed yesterday so put it there",
    "rack-3 has been great since monday keep using it",
])
def test_a_wish_pointing_into_a_description_reads_nothing(hint: str) -> None:
    assert not any(name.startswith("prefer_") for name in read(hint)), read(hint)
