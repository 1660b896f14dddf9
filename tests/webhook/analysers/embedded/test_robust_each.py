"""One replica on each node / in every zone: "on each", "on every", "auf jedem", "sur chaque", "por cada" count one
per level like "per" does (our wording)."""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

PROBES = [
    ("Run one pod on each node.", {"spread_nodes"}),
    ("Schedule exactly one replica on every node.", {"spread_nodes"}),
    ("one replica in every zone pls", {"spread_zones"}),
    ("one pod on each node with 8 cores", {"spread_nodes", "prefer_cpu_cores"}),
    ("Bitte genau ein Pod auf jedem Knoten.", {"spread_nodes"}),
    ("eine Replik auf jeder Zone", {"spread_zones"}),
    ("una réplica por cada nodo", {"spread_nodes"}),
    ("un pod sur chaque nœud", {"spread_nodes"}),
    ("un pod dans chaque zone", {"spread_zones"}),
    # a count that is not one per level is no spread, nor a preference for the level
    ("the logs of each node go to loki-gw", set()),
]


@pytest.mark.parametrize(("hint", "expected"), PROBES)
def test_one_on_each_level_spreads_at_that_level(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected
