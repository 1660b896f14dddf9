"""A refusal of the opposite is the wish (session 9), in en, es, de and fr; and an indifference about a level.

The probes are our own wording (no evaluation row). The rules they pin down:

* spinning disks refused ("no HDDs", "nothing spinning", "sin discos mecánicos", "keine drehenden Platten", "pas de
  disque mécanique") ask for solid state; named without a refusal they ask for nothing;
* doubling up or stacking the replicas refused ("no doubling up", "nicht stapeln", "ne les empilez pas") is one per
  node; stacking in another level is that level's spread, and "the search stack" is a name;
* an indifference about a level of its own ("dont care abt the zone", "peu importe la zone", "zone ist egal") leaves
  the wish before it standing; said of nothing but the wish's own place ("rack-4 doesn't matter") it is no wish;
* "as far as possible from X" (the superlative of "away from", in every language) refuses X, never wishes it;
* a correction after a refusal ("don't use rack-3... i mean rack-8", "o sea", "ich meine", "je veux dire") may keep
  the refusal or correct it: the place it names is never preferred.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

SSD = {"prefer_ssd_storage"}
SPREAD = {"spread_nodes"}
SAME_REGION = {"prefer_same_region_as_deployments"}

PROBES = [
    ("nvme please nothing spinning", SSD),
    ("no hdds on this one", SSD),
    ("keep it off nodes with spinning disks", SSD),
    ("ssd bitte keine hdd", SSD),
    ("keine drehenden platten bitte", SSD),
    ("sin discos mecanicos por favor", SSD),
    ("nada de hdd", SSD),
    ("pas de disques mecaniques svp", SSD),
    ("aucun hdd", SSD),
    ("an hdd is fine", set()),
    ("one replica per host no doubling up", SPREAD),
    ("please don't stack them", SPREAD),
    ("pro server eine instanz nicht stapeln", SPREAD),
    ("ne les empilez pas", SPREAD),
    ("don't stack them in one rack", {"spread_racks"}),
    ("stack them all on one machine", {"prefer_colocate_same_deployment"}),
    ("same zone as the billing stack", {"prefer_same_zone_as_deployments"}),
    ("same region as ledger-api dont care abt the zone", SAME_REGION),
    ("misma region que cobros-api no importa la zona", SAME_REGION),
    ("gleiche region wie buchung-api zone ist egal", SAME_REGION),
    ("meme region que factures-api peu importe la zone", SAME_REGION),
    ("rack-4 doesn't matter", set()),
    ("rack-4 peu importe", set()),
]


@pytest.mark.parametrize(("hint", "expected"), PROBES)
def test_refused_opposites_and_indifference(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


AWAY = {"avoid_same_node_as_deployments"}


@pytest.mark.parametrize(("hint", "expected"), [
    ("as far as possible from search-indexer", AWAY),
    ("keep it as far away as you can from search-indexer", AWAY),
    ("lo mas lejos posible de search-indexer", AWAY),
    ("tan lejos como se pueda de search-indexer", AWAY),
    ("so weit wie moeglich weg von search-indexer", AWAY),
    ("aussi loin que possible de search-indexer", AWAY),
    ("le plus loin possible du search-indexer", AWAY),
    ("as far as possible from rack-13", {"avoid_racks"}),
    ("not far from search-indexer", set()),
])
def test_as_far_as_possible_refuses(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize("hint", [
    "please not on node-31... i mean node-38",
    "dont use rack-3 i mean rack-8",
    "no en el nodo w-31, o sea el w-38",
    "nicht auf knoten k-31, ich meine k-38",
    "pas sur le noeud n-31, je veux dire n-38",
])
def test_a_correction_after_a_refusal_is_never_preferred(hint: str) -> None:
    assert not {n for n in names(hint) if n.startswith("prefer_")}, hint


@pytest.mark.parametrize("hint", ["alle pods nicht auf einen knoten", "alle instanzen bitte nie auf einem server"])
def test_all_on_one_node_refused_is_never_co_location(hint: str) -> None:
    assert "prefer_colocate_same_deployment" not in names(hint), hint
