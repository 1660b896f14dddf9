"""The polarity guard (``polarity_guard``, issue 12 point 3): where a clause holds a negation, refusal,
hedge or anti-affinity cue the passes did not use, its polarity is not certain and the wish is dropped;
what the passes did use keeps its reading.

The hints are our own wording, written for these rules (no evaluation row), in all four languages.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents
from webhook.analysers.embedded.clauses import segment
from webhook.analysers.embedded.polarity_guard import POSITIVE, consumed, cues_in, guard
from webhook.analysers.embedded.rules import Candidate


@pytest.mark.parametrize("hint", [
    "eu-north-1 is not an option",
    "rack-33 is the rack we cannot touch",
    "el rack-12 no nos sirve",
    "rack-19 kommt für uns nicht in Betracht",
    "le rack-r7 ne nous va pas du tout",
    # a refusal that names nothing points back at the name before it
    "rack-14, stay away",
])
def test_a_negation_nothing_used_drops_the_preference(hint: str) -> None:
    found = intents(hint)
    assert not set(found) & POSITIVE, found


@pytest.mark.parametrize("hint", [
    "not necessarily node-5",
    "no necesariamente en el rack-22",
    "nicht unbedingt in eu-central-1",
    "pas forcément dans la zone eu-west-3a",
    "ap-east-1 is not needed",
])
def test_a_hedge_or_not_needed_is_no_avoidance(hint: str) -> None:
    assert intents(hint) == {}


@pytest.mark.parametrize("hint", [
    "spreading across racks isn't necessary",
    "repartir entre zonas no es necesario",
])
def test_a_spread_beside_a_negation_nothing_used_is_dropped(hint: str) -> None:
    assert not any(name.startswith("spread_") for name in intents(hint)), intents(hint)


@pytest.mark.parametrize(("hint", "prefer", "avoid"), [
    ("prefer us-east-1a, not us-east-1b", "us-east-1a", "us-east-1b"),
    ("mejor la zona eu-west-1a, no la eu-west-1b", "eu-west-1a", "eu-west-1b"),
    ("lieber eu-central-1a, nicht eu-central-1b", "eu-central-1a", "eu-central-1b"),
    ("plutôt eu-west-3a, pas eu-west-3b", "eu-west-3a", "eu-west-3b"),
])
def test_a_negation_spent_on_one_name_leaves_the_other_preferred(hint: str, prefer: str, avoid: str) -> None:
    found = intents(hint)
    assert found.get("prefer_zones") == {"prefer_zones": [prefer]}, found
    assert found.get("avoid_zones") == {"avoid_zones": [avoid]}, found


@pytest.mark.parametrize(("hint", "other"), [
    ("needs not only GPUs but also a fast network", "prefer_network_speed"),
    ("no solo una GPU, también NVLink", "prefer_nvlink"),
    ("braucht nicht nur eine GPU, sondern auch NVLink", "prefer_nvlink"),
    ("non seulement un GPU mais aussi du NVLink", "prefer_nvlink"),
])
def test_not_only_keeps_both_wishes(hint: str, other: str) -> None:
    found = intents(hint)
    assert {"prefer_gpu", other} <= set(found) and "avoid_gpu_nodes" not in found, found


@pytest.mark.parametrize("hint", [
    "no regions other than eu-west-2",
    "ninguna región salvo eu-west-2",
    "keine andere Region als eu-west-2",
    "aucune région sauf eu-west-2",
])
def test_no_place_but_one_prefers_that_one(hint: str) -> None:
    assert intents(hint) == {"prefer_regions": {"prefer_regions": ["eu-west-2"]}}


@pytest.mark.parametrize(("hint", "intent"), [
    ("a zone outage must not take the service down", "spread_zones"),
    ("ein Zonenausfall darf den Dienst nicht stoppen", "spread_zones"),
    # a negation inside the words of a cue is that cue's
    ("far from the etl-loader pods", "avoid_same_node_as_deployments"),
    ("keep it on node-5, never on node-6", "prefer_nodes"),
    ("rack-7, non négociable", "prefer_racks"),
])
def test_what_the_passes_used_keeps_its_reading(hint: str, intent: str) -> None:
    assert intent in intents(hint), intents(hint)


def test_the_guard_drops_a_preference_only_while_its_negation_is_unspent() -> None:
    text = "rack-4 not rack-5"
    # one clause: without the names, nothing ends it before the "not" (clauses._unpunctuated)
    clauses = segment(text)
    assert len(clauses) == 1
    prefer = Candidate("prefer_racks", 0, items=("rack-4",), cue="rack-4")
    avoid = Candidate("avoid_racks", 11, items=("rack-5",), cue="rack-5", negated=True)
    (negation,) = cues_in(text, clauses[0])
    # the "not" reached rack-5, read as negated: spent, so rack-4 stays preferred
    assert consumed(text, negation, clauses[0], [prefer, avoid], negated=[11])
    assert guard(text, clauses, [prefer, avoid], read=[prefer, avoid], negated=[11]) == [prefer, avoid]
    # nothing read it: the preference of its clause is not certain
    assert not consumed(text, negation, clauses[0], [prefer], negated=[])
    assert guard(text, clauses, [prefer], read=[prefer], negated=[]) == []


@pytest.mark.parametrize(("hint", "intent", "names"), [
    ("rack-41: no", "avoid_racks", ["rack-41"]),
    ("ap-south-2 — nah", "avoid_regions", ["ap-south-2"]),
    ("node-c7 and node-c8 — neither, thanks", "avoid_nodes", ["node-c7", "node-c8"]),
    ("la zona us-west-2c? no, gracias", "avoid_zones", ["us-west-2c"]),
    ("Knoten k-71? Nein.", "avoid_nodes", ["k-71"]),
    ("le rack-b44 : en aucun cas", "avoid_racks", ["rack-b44"]),
])
def test_a_bare_refusal_after_nothing_but_names_avoids_them(hint: str, intent: str, names: list[str]) -> None:
    found = intents(hint)
    assert found == {intent: {intent: names}}, found


@pytest.mark.parametrize("hint", [
    # a wish word before the refusal: which reading was meant is not certain
    "run it on rack-41 please — nope",
    "ich will eu-central-2, nein",
    "quiero el nodo w-61 — no",
])
def test_a_bare_refusal_after_a_wish_refuses_nothing_for_certain(hint: str) -> None:
    found = intents(hint)
    assert not any(name.startswith(("prefer_", "avoid_")) for name in found), found


@pytest.mark.parametrize(("hint", "intent"), [
    # a refusal said after the name, in each language's words (lang/*/negation_after.txt)
    ("la región eu-west-1 queda fuera", "avoid_regions"),
    ("ap-east-2 is off the table", "avoid_regions"),
    ("node-31 looks sick, give it a miss", "avoid_nodes"),
])
def test_a_refusal_after_the_name_avoids_it(hint: str, intent: str) -> None:
    assert set(intents(hint)) == {intent}, intents(hint)
