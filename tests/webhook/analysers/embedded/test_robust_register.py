"""Wishes said in a formal register or in an operator's shorthand (issue 12): separable German refusal
verbs said last ("ist auszuklammern", "halten Sie ihn ... heraus"), cloud names the analyser must know (every
public Azure region and its numbered zones), machine shapes ("8c/32g"), the placement itself named as a noun,
"its own node" and the quietest node.

The probe hints are our own wording (no evaluation row). Each refusal is checked for its polarity: these were
read as preferences before (a flip), the worst answer the analyser can give.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named


@pytest.mark.parametrize(("hint", "expected"), [
    # a zu-infinitive, a participle with its passive, the particle of a split verb last
    ("Das Rack r-31 ist bei der Einplanung auszuklammern.", {"avoid_racks": ["r-31"]}),
    ("Der Dienst ist aus der Zone eu-west-3b herauszuhalten.", {"avoid_zones": ["eu-west-3b"]}),
    ("Er soll vom Knoten bx-node-7 ferngehalten werden.", {"avoid_nodes": ["bx-node-7"]}),
    ("Der Batchjob ist vom Knoten bx-node-7 fernzuhalten.", {"avoid_nodes": ["bx-node-7"]}),
    ("Halten Sie den Exporter bitte aus Rack r-31 heraus.", {"avoid_racks": ["r-31"]}),
    ("Halten Sie ihn aus Rack r-31 heraus, geben Sie ihm 12 Kerne.",
     {"avoid_racks": ["r-31"], "prefer_cpu_cores": []}),
    ("Rack r-31 bleibt außen vor.", {"avoid_racks": ["r-31"]}),
    ("rack r-31 bitte raushalten", {"avoid_racks": ["r-31"]}),
    ("Das Rack r-31 ist wegzulassen.", {"avoid_racks": ["r-31"]}),
    # ... while a verb that asks for the place stays a wish for it
    ("Der Dienst ist in der Zone eu-west-3b zu betreiben.", {"prefer_zones": ["eu-west-3b"]}),
])
def test_a_formal_german_refusal_said_last_refuses(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # every public Azure region, also where no list of the past held it
    ("Kritisch: nicht in der Region swedencentral.", {"avoid_regions": ["swedencentral"]}),
    ("Ce service doit tourner dans la région koreacentral", {"prefer_regions": ["koreacentral"]}),
    # a numbered zone of an Azure region, bare or after its level word
    ("avoid norwayeast-2 please", {"avoid_zones": ["norwayeast-2"]}),
    ("todo en japaneast-1 o japaneast-3", {"prefer_zones": ["japaneast-1", "japaneast-3"]}),
    ("in der Zone brazilsouth-1 bitte", {"prefer_zones": ["brazilsouth-1"]}),
])
def test_azure_regions_and_their_zones(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # a machine shape's size is its RAM when the disk after it is an item of its own
    ("6c/24g and a local nvme", {"prefer_cpu_cores", "prefer_memory_gb", "prefer_ssd_storage"}),
    ("6c/24g und lokale nvme", {"prefer_cpu_cores", "prefer_memory_gb", "prefer_ssd_storage"}),
    ("6c/24g et un nvme local", {"prefer_cpu_cores", "prefer_memory_gb", "prefer_ssd_storage"}),
    ("6c/24g y nvme local", {"prefer_cpu_cores", "prefer_memory_gb", "prefer_ssd_storage"}),
    # ... and disk space when a disk word names it
    ("6c 700gb scratch", {"prefer_cpu_cores", "prefer_ephemeral_storage"}),
    ("700g nvme scratch", {"prefer_ephemeral_storage", "prefer_ssd_storage"}),
])
def test_a_machine_shape_names_its_ram(hint: str, expected: set[str]) -> None:
    assert set(named(hint)) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # the placement itself, and determiners after "mit" / "von", are no workloads
    ("Die Zone eu-west-3b ist bei der Platzierung zu meiden.", {"avoid_zones": ["eu-west-3b"]}),
    ("fern von jedem Knoten mit ledger-sync", {"avoid_same_node_as_deployments": ["ledger-sync"]}),
    # "no replica shares its node with another": replicas apart, "another" is no workload
    ("no replica shares its node with another", {"spread_nodes": []}),
    ("que ninguna réplica comparta su nodo con otra", {"spread_nodes": []}),
    ("kein Replikat teilt seinen Knoten mit einem anderen", {"spread_nodes": []}),
    ("qu'aucune réplique ne partage son nœud avec une autre", {"spread_nodes": []}),
    # the quietest node, in every language
    ("the quietest node pls", {"prefer_least_loaded_nodes": []}),
    ("el nodo más tranquilo", {"prefer_least_loaded_nodes": []}),
    ("auf den ruhigsten Knoten", {"prefer_least_loaded_nodes": []}),
    ("sur le nœud le plus calme", {"prefer_least_loaded_nodes": []}),
])
def test_words_around_a_wish_name_nothing_of_their_own(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize(("hint", "expected"), [
    # typed without punctuation, a refusal said after its object refuses that object only: a level word after
    # a name with nothing joining them begins a new object, and "is" / "est" / "ist" stands before the refusal
    ("ideally region eu-south-2 zone eu-south-2b is a no-go",
     {"prefer_regions": ["eu-south-2"], "avoid_zones": ["eu-south-2b"]}),
    ("de préférence dans la région eu-south-2 la zone eu-south-2b est à proscrire",
     {"prefer_regions": ["eu-south-2"], "avoid_zones": ["eu-south-2b"]}),
    ("lieber Region eu-south-2 die Zone eu-south-2b meiden",
     {"prefer_regions": ["eu-south-2"], "avoid_zones": ["eu-south-2b"]}),
    # ... while names joined by "and" / "et" / "und" stay one refused list
    ("la zone eu-south-2a et la zone eu-south-2b sont à éviter", {"avoid_zones": ["eu-south-2a", "eu-south-2b"]}),
    ("Rack r-31 und Rack r-32 meiden", {"avoid_racks": ["r-31", "r-32"]}),
])
def test_a_refusal_said_after_its_object_refuses_that_object_only(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # a refusal verb the analyser does not know, its place after a preposition of separation: never a wish
    "yeet it out of rack-44",
    "evacuate from zone eu-south-2b",
    "bugsiert ihn aus Rack r-44 heraus",
    "vom Knoten bx-node-7 wegbekommen",
    "sácalo de una vez fuera del rack-44",
    "tenez ce pod à distance de la baie r-44",
])
def test_a_place_after_a_preposition_of_separation_is_never_wished(hint: str) -> None:
    assert not [name for name in named(hint) if name.startswith("prefer_")], named(hint)


@pytest.mark.parametrize(("hint", "expected"), [
    # a place as the subject of "to be" with a predicate the analyser does not know: a statement, no wish
    ("Rack r-44 ist verflucht.", {}),
    ("el rack-44 está maldito.", {}),
    ("la baie r-44 est maudite.", {}),
    # ... and so is a list of places ("those racks ... are bad" had preferred the first of them)
    ("those racks r4-41 and r4-42 are bad", {}),
    ("los racks r4-41 y r4-42 son malos", {}),
    ("die Racks r4-41 und r4-42 sind schlecht", {}),
    ("les baies r4-41 et r4-42 sont mauvaises", {}),
    ("racks r4-41 and r4-42 are fine", {"prefer_racks": ["r4-41", "r4-42"]}),
    # ... while a predicate that approves, wishes or weighs keeps the wish, and so does "stay in X"
    ("la baie r-44 est parfaite", {"prefer_racks": ["r-44"]}),
    ("rack-44 would be nice", {"prefer_racks": ["rack-44"]}),
    ("rack-44 is a must", {"prefer_racks": ["rack-44"]}),
    ("muss in eu-south-2 bleiben", {"prefer_regions": ["eu-south-2"]}),
])
def test_a_place_said_to_be_something_is_wished_only_when_the_words_wish(hint: str,
                                                                          expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # "they don't have to share a node" beside a wish for closeness: not required is no refusal, so no spread
    "las réplicas bien cerquita, sin que tengan q compartir nodo",
    "Replikate dicht beieinander, sie müssen sich keinen Knoten teilen",
    "répliques proches, pas obligé de partager un nœud",
    "réplicas cerca, no hace falta que compartan nodo",
])
def test_not_having_to_share_a_node_is_no_spread(hint: str) -> None:
    assert named(hint) == {"prefer_nearby_nodes_same_deployment": []}


@pytest.mark.parametrize(("hint", "expected"), [
    # two places and a refusal after them, typed without punctuation and nothing wished before: never a wish
    ("region eu-south-2 zone eu-south-2b is a no-go", "prefer_regions"),
    ("Region eu-south-2 Zone eu-south-2b meiden", "prefer_regions"),
    ("la région eu-south-2 la zone eu-south-2b est à éviter", "prefer_regions"),
    ("rack-44 zone eu-south-2b are off limits", "prefer_racks"),
])
def test_places_before_a_refusal_are_never_wished_without_a_wish_word(hint: str, expected: str) -> None:
    assert expected not in named(hint), named(hint)
