"""How a hint is typed never changes what it asks (issue 12, ``semaff robust``): typographic quotes,
apostrophes or accents left out, lower case, a greeting and thanks around the wish, an emoji or an
emoticon after it.

The first test runs these perturbations (``webhook.perturbations``) over every development row through
the webhook's path (sanitiser, embedded analyser, normaliser) and holds the figures reached: no polarity
flip the original row does not have, and at most ``CHANGED`` variants read differently from their
original. The probes are our own wording (no evaluation row), in every language the data touches.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents


@pytest.mark.parametrize(("typed", "plain"), [
    ("Don\u2019t share a node with the \u2018metrics-db\u2019 pods.", "Don't share a node with the 'metrics-db' pods."),
    ("No compartas nodo con \u2019colas-rabbit\u2019.", "No compartas nodo con 'colas-rabbit'."),
    ("Nicht auf demselben Knoten wie \u201esuche-api\u201c.", "Nicht auf demselben Knoten wie \"suche-api\"."),
    ("Pas sur le m\u00eame n\u0153ud que \u00ab indexeur \u00bb.", "Pas sur le m\u00eame n\u0153ud que \"indexeur\"."),
])
def test_typographic_quotes_read_as_plain_ones(typed: str, plain: str) -> None:
    assert intents(typed) == intents(plain)
    assert "avoid_same_node_as_deployments" in intents(typed)


@pytest.mark.parametrize(("hint", "expected"), [
    ("Shouldnt land on rack-7", {"avoid_racks": {"avoid_racks": ["rack-7"]}}),
    ("dont use node-44, its flaky", {"avoid_nodes": {"avoid_nodes": ["node-44"]}}),
    ("doesnt have to be in eu-west-1", {}),  # a hedge without its apostrophe asks for no avoidance
    ("le mod\u00e8le a besoin dun GPU pour linf\u00e9rence", {"prefer_gpu": {"prefer_gpu_cores": 1.0}}),
])
def test_apostrophes_left_out(hint: str, expected: dict) -> None:
    assert intents(hint) == expected


def test_an_elision_without_its_apostrophe_still_refuses() -> None:
    found = intents("le n\u0153ud k-3 rame, ne lutilisez pas")
    assert not any(name.startswith(("prefer_", "spread_")) for name in found), found


@pytest.mark.parametrize(("hint", "expected"), [
    ("hey folks, our nodes run 32 cores each. cheers", {}),  # a statement stays one after a greeting
    ("good morning, why is rack-4 always busy? thank you", {}),  # so does a question
    ("hola equipo, el nodo n-5 ni lo toques gracias", {"avoid_nodes": {"avoid_nodes": ["n-5"]}}),
    ("hallo zusammen, rack-12: nein. vielen dank!", {"avoid_racks": {"avoid_racks": ["rack-12"]}}),
    ("bonjour \u00e0 tous, la zone eu-west-3b : non. merci d'avance", {"avoid_zones": {"avoid_zones": ["eu-west-3b"]}}),
])
def test_greetings_and_thanks_are_chatter(hint: str, expected: dict) -> None:
    assert intents(hint) == expected


@pytest.mark.parametrize(("hint", "node"), [
    ("Knoten m-17 ist instabil, lass ihn weg \U0001f62c", "m-17"),
    ("db-node-2 macht \u00c4rger, lass den weg *", "db-node-2"),
    ("db-node-2 macht \u00c4rger, lass den weg :)", "db-node-2"),
    ("ip-10-1-1-1 \u2014 no way \U0001f44e", "ip-10-1-1-1"),
    ("el nodo gpu-x2 ni lo toques \U0001f605", "gpu-x2"),
])
def test_a_refusal_after_its_name_survives_what_follows_it(hint: str, node: str) -> None:
    assert intents(hint) == {"avoid_nodes": {"avoid_nodes": [node]}}


@pytest.mark.parametrize(("hint", "expected"), [
    ("mets-le a cote de kafka-broker", {"prefer_same_node_as_deployments": {"deployments": ["kafka-broker"]}}),
    ("evitez la zone eu-west-3c", {"avoid_zones": {"avoid_zones": ["eu-west-3c"]}}),
    ("evita la region eu-west-1, por favor", {"avoid_regions": {"avoid_regions": ["eu-west-1"]}}),
])
def test_accents_left_out(hint: str, expected: dict) -> None:
    assert intents(hint) == expected
