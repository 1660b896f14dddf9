"""Idioms of one wish said indirectly (session 8, helper ``idiom``): "all eggs in one basket" about a level, an
outage as wide as a level, "minimise the distance between them", "the node doing the least", "as calm as
possible", in every supported language; and the same words used for something else, which read nothing.

The probes are our own wording (no evaluation row); each asserts the exact set of intents read.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents

SPREAD_ZONES = {"spread_zones"}
SPREAD_REGIONS = {"spread_regions"}
NEAR = {"prefer_nearby_nodes_same_deployment"}
LEAST = {"prefer_least_loaded_nodes"}

PROBES = [
    # all eggs in one basket, about a level: a spread of that level (the idiom is negated; the spread is not)
    ("never all our eggs in one basket, region-wise", SPREAD_REGIONS),
    ("zone-wise we shouldn't have all the eggs in one basket", SPREAD_ZONES),
    ("don't put all of our eggs in a single basket across zones", SPREAD_ZONES),
    ("no pongas todos los huevos en la misma canasta, en cuanto a zonas", SPREAD_ZONES),
    ("no metamos todos los huevos en una sola cesta con las regiones", SPREAD_REGIONS),
    ("nicht alle Eier in einen Korb, zonenmäßig", SPREAD_ZONES),
    ("wir wollen nicht alles auf eine Karte setzen bei den Regionen", SPREAD_REGIONS),
    ("ne mettez pas tous vos œufs dans le même panier, côté régions", SPREAD_REGIONS),
    ("pas tous nos oeufs dans le même panier au niveau des zones", SPREAD_ZONES),
    # an outage as wide as a level
    ("has to survive a region-wide outage", SPREAD_REGIONS),
    ("hay que aguantar una caída a nivel de región", SPREAD_REGIONS),
    ("que sobreviva a la caída de todo un continente", SPREAD_REGIONS),
    ("soll den Ausfall einer ganzen Region verkraften", SPREAD_REGIONS),
    ("il faut résister à la perte de tout un continent", SPREAD_REGIONS),
    # the distance between the replicas made small: near one another
    ("they talk a lot, keep the distance between the replicas short", NEAR),
    ("las réplicas hablan mucho, minimiza la distancia entre ellas", NEAR),
    ("que la distancia entre las réplicas sea mínima", NEAR),
    ("die Replikas quatschen viel, Abstand zwischen ihnen minimieren", NEAR),
    ("bitte kurze Wege zwischen den Pods", NEAR),
    ("les répliques bavardent beaucoup, réduisez la distance entre elles", NEAR),
    # ... and kept, not made small: apart
    ("que guarden distancia entre ellas", {"spread_nodes"}),
    ("gardez vos distances entre elles", {"spread_nodes"}),
    # the node doing the least, as calm as possible
    ("put it on whichever box is doing the least", LEAST),
    ("schedule onto the node with the least going on", LEAST),
    ("keep it on nodes as quiet as possible", LEAST),
    ("ponlo en el nodo que menos trabaje", LEAST),
    ("mándalo al nodo lo más tranquilo posible", LEAST),
    ("ponlo donde haya menos jaleo", LEAST),
    ("den Knoten nehmen, der am wenigsten zu tun hat", LEAST),
    ("bitte so wenig Last wie möglich auf dem Knoten", LEAST),
    ("mets-le sur le nœud qui bosse le moins", LEAST),
    ("là où il y a le moins de boulot stp", LEAST),
    ("un nœud aussi calme que possible", LEAST),
    ("case le là où c'est le plus tranquille en ce moment", LEAST),
]

NEGATIVES = [
    "the eggs in one basket service runs in zone a",
    "don't put all your eggs in one basket",
    "the cluster is calm today",
    "le cluster est calme en ce moment",
    "le nœud n-4 est très chargé en ce moment",
    "a pair of replicas",
]


@pytest.mark.parametrize(("hint", "expected"), PROBES)
def test_idiom_reads_its_wish(hint: str, expected: set[str]) -> None:
    assert set(intents(hint)) == expected, hint


@pytest.mark.parametrize("hint", NEGATIVES)
def test_idiom_words_used_otherwise_read_nothing(hint: str) -> None:
    assert intents(hint) == {}, hint
