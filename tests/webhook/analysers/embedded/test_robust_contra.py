"""Double negations and refusals that name their place (session 9, contra): "don't avoid X" refuses nothing and asks
for nothing by itself; a refusal that opens a clause and names its place in the next one is no lone refusal pointing
back at the wishes before it, so a wish and a refusal of the same place in different clauses are both read.

The probes are our own wording (no evaluation row); the whole reading must be exactly the labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values, strengths

# a refusal verb under its own negation cancels: no avoidance is left, and it is no preference by itself
DOUBLE_NEGATION = [
    ("Please don't avoid the GPU machines, the model trains on a GPU.", {"prefer_gpu": 1.0}),
    ("dont avoid gpu nodes here it needs a gpu", {"prefer_gpu": 1.0}),
    ("do not exclude the gpu nodes, this job requires a gpu", {"prefer_gpu": 1.0}),
    ("No evites los nodos con GPU, el modelo necesita una GPU.", {"prefer_gpu": 1.0}),
    ("no evites nodos gpu, necesita una gpu", {"prefer_gpu": 1.0}),
    ("Meide die GPU-Knoten nicht, der Job braucht eine GPU.", {"prefer_gpu": 1.0}),
    ("nicht die gpu knoten meiden, er braucht eine gpu", {"prefer_gpu": 1.0}),
    ("Ne pas éviter les nœuds GPU, le modèle a besoin d'un GPU.", {"prefer_gpu": 1.0}),
    ("ne pas eviter les noeuds gpu, il lui faut un gpu", {"prefer_gpu": 1.0}),
    # alone: nothing (neither refused nor asked for)
    ("don't avoid the gpu nodes", {}),
    ("dont skip rack r3", {}),
    ("bitte nicht rack r3 meiden", {}),
    ("meide rack r3 nicht", {}),
    ("ne pas écarter le rack r3", {}),
    ("no evites el rack r3", {}),
    # a plain refusal is still one
    ("avoid the gpu nodes", {"avoid_gpu_nodes": None}),
    ("don't exclude rack r3, avoid rack r4", {"avoid_racks": ["r4"]}),
]


@pytest.mark.parametrize(("hint", "labels"), DOUBLE_NEGATION)
def test_a_refusal_under_its_own_negation_refuses_nothing(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# the wish in one clause, the refusal of the same place in another, which names it: both are read
WISH_AND_REFUSAL = [
    ("Run it in ap-south-1 and at the same time keep it out of ap-south-1.",
     {"prefer_regions": ["ap-south-1"], "avoid_regions": ["ap-south-1"]}),
    ("Lass es in ap-south-1 laufen und halte es zugleich aus ap-south-1 heraus.",
     {"prefer_regions": ["ap-south-1"], "avoid_regions": ["ap-south-1"]}),
    ("lass es in ap-south-1 laufen und halte es zugleich aus ap-south-1 heraus",
     {"prefer_regions": ["ap-south-1"], "avoid_regions": ["ap-south-1"]}),
    ("rack k12 si possible, sauf que k12 nous est interdit",
     {"prefer_racks": ["k12"], "avoid_racks": ["k12"]}),
    # a lone refusal that names nothing still makes the wish before it unsure
    ("rack k12 please, no wait, skip it", {}),
]


@pytest.mark.parametrize(("hint", "labels"), WISH_AND_REFUSAL)
def test_a_wish_and_a_named_refusal_in_other_clauses_are_both_read(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# "..., not critical" said after a wish: only nice to have (0.5), and its negation refuses nothing
NOT_CRITICAL = [
    ("Zone eu-west-3b would be good, it's not critical though.", {"prefer_zones": 0.5}),
    ("rack k7 pls, not critical", {"prefer_racks": 0.5}),
    ("Je préfère la région europe-west4, mais ce n'est pas critique.", {"prefer_regions": 0.5}),
    ("je prefere europe-west4 mais cest pas critique", {"prefer_regions": 0.5}),
    ("Prefiero el rack k7, pero no es crítico.", {"prefer_racks": 0.5}),
    ("rack k7 porfa, no es critico", {"prefer_racks": 0.5}),
    ("Am liebsten Rack k7, ist aber nicht kritisch.", {"prefer_racks": 0.5}),
    ("rack k7 bitte, nicht kritisch", {"prefer_racks": 0.5}),
    # a refusal stays a refusal, only weaker
    ("avoid rack k7, not critical", {"avoid_racks": 0.5}),
]


@pytest.mark.parametrize(("hint", "labels"), NOT_CRITICAL)
def test_not_critical_weakens_the_wish_before_it(hint: str, labels: dict[str, Any]) -> None:
    got = strengths(hint)
    assert got == labels, hint


# a co-location verb said with a named other workload is the relation to it, not the own replicas together
COLOCATE_WITH = [
    ("Co-locate it in the same region as billing-db.", {"prefer_same_region_as_deployments": ["billing-db"]}),
    ("colocate in the same zone as ledger-svc pls", {"prefer_same_zone_as_deployments": ["ledger-svc"]}),
    ("Colocalizar en la misma zona que ledger-svc.", {"prefer_same_zone_as_deployments": ["ledger-svc"]}),
    ("zusammen in derselben zone wie ledger-svc", {"prefer_same_zone_as_deployments": ["ledger-svc"]}),
    ("à colocaliser dans la même zone que ledger-svc", {"prefer_same_zone_as_deployments": ["ledger-svc"]}),
    ("a colocaliser dans la meme zone que ledger-svc", {"prefer_same_zone_as_deployments": ["ledger-svc"]}),
    ("keep replicas together on one node", {"prefer_colocate_same_deployment": None}),
]


@pytest.mark.parametrize(("hint", "labels"), COLOCATE_WITH)
def test_colocate_with_a_named_workload_is_the_relation(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
