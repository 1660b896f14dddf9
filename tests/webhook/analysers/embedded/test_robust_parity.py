"""Language parity (issue 12: "a user's hint in any supported language must read the same"): constructions
first written for English only, now read in Spanish, German and French from their data files alone.

Each concept here had been listed in ``language_parity_exceptions.txt`` as English only. The probe hints are
our own wording (no evaluation row); each table holds every language, and the polarity of each reading is
checked, not only that something was read.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import named, strengths


@pytest.mark.parametrize(("hint", "expected"), [
    # "instead" after the second place of an unpunctuated refusal: the alternative chosen (lang/*/instead.txt)
    ("not rack-12 rack-15 instead", {"avoid_racks": ["rack-12"], "prefer_racks": ["rack-15"]}),
    ("no en rack-12 rack-15 en su lugar", {"avoid_racks": ["rack-12"], "prefer_racks": ["rack-15"]}),
    ("nicht rack-12 rack-15 stattdessen", {"avoid_racks": ["rack-12"], "prefer_racks": ["rack-15"]}),
    ("pas rack-12 rack-15 à la place", {"avoid_racks": ["rack-12"], "prefer_racks": ["rack-15"]}),
    ("pas sur rack-12, rack-15 plutôt", {"avoid_racks": ["rack-12"], "prefer_racks": ["rack-15"]}),
    # ... and never after the refusal's own verb: that place stays refused
    ("avoid rack-12 instead", {"avoid_racks": ["rack-12"]}),
    ("évite rack-12 plutôt", {"avoid_racks": ["rack-12"]}),
    # "so" between a complaint and the refusal pointing back at it (lang/*/consequence.txt)
    ("w-41 and w-42 keep timing out so avoid those", {"avoid_nodes": ["w-41", "w-42"]}),
    ("w-41 y w-42 se cuelgan así que evítalos", {"avoid_nodes": ["w-41", "w-42"]}),
    ("w-41 und w-42 hängen ständig deshalb meide sie", {"avoid_nodes": ["w-41", "w-42"]}),
    ("w-41 et w-42 plantent tout le temps du coup évite-les", {"avoid_nodes": ["w-41", "w-42"]}),
    # a short dashed name after the node's preposition is a node (lang/*/node_preposition.txt)
    ("land it on qx-07", {"prefer_nodes": ["qx-07"]}),
    ("lieber auf qx-07 oder qx-08", {"prefer_nodes": ["qx-07", "qx-08"]}),
    ("pas sur qx-07 stp", {"avoid_nodes": ["qx-07"]}),
    # a workload's pods refused on the pod's own node or zone, the pods named before or after the workload
    ("no memcached pods on my node", {"avoid_same_node_as_deployments": ["memcached"]}),
    ("ningún pod de memcached en mi nodo", {"avoid_same_node_as_deployments": ["memcached"]}),
    ("keine pods von memcached auf meinem knoten", {"avoid_same_node_as_deployments": ["memcached"]}),
    ("keine memcached pods in meiner zone", {"avoid_same_zone_as_deployments": ["memcached"]}),
    ("aucun pod de memcached sur mon nœud", {"avoid_same_node_as_deployments": ["memcached"]}),
    # the level a workload is not on: "a zone where X does not run" refuses X's zone
    ("any zone ledger-api isn't running in", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("cualquier zona donde no corra ledger-api", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("una zona donde ledger-api no está", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("irgendeine zone, in der ledger-api nicht läuft", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    ("einen knoten, auf dem ledger-api nicht läuft", {"avoid_same_node_as_deployments": ["ledger-api"]}),
    ("n'importe quelle zone où ledger-api ne tourne pas", {"avoid_same_zone_as_deployments": ["ledger-api"]}),
    # ... while "where X runs" still asks for X's zone, and "n'importe quelle zone" alone asks for nothing
    ("la zona donde corre ledger-api", {"prefer_same_zone_as_deployments": ["ledger-api"]}),
    ("n'importe quelle zone fera l'affaire", {}),
])
def test_a_construction_reads_alike_in_every_language(hint: str, expected: dict[str, list[str]]) -> None:
    assert named(hint) == expected


@pytest.mark.parametrize("hint", [
    # a refusal of a place where a workload does not run is a double negation: which zone is meant is unsure
    "evita la zona donde no corre ledger-api",
])
def test_a_refusal_of_where_a_workload_is_not_gives_nothing(hint: str) -> None:
    assert strengths(hint) == {}
