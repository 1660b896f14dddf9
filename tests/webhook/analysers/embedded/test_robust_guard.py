"""Polarity safety against descriptions (issue 12): a clause that complains about or describes a place or a
workload never prefers or co-locates it; a clear wish about it (avoid, keep off) is read; the unsure is dropped.
And a negation without a named place never carries into the wish after it.

The probe hints are our own wording (no evaluation row), in en, es, de and fr, typed with and without
punctuation.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.test_polarity import intents


@pytest.mark.parametrize("hint", [
    "not in zone a needs 4 GPUs",
    "not in zone a needs 4 gpus pls",
    "never in zone c, needs 4 GPUs",
    "no en la zona a necesita 4 GPUs",
    "nada en la zona b necesita 4 gpus",
    "nicht in zone a braucht 4 GPUs",
    "nicht in der Zone b braucht 4 gpus",
    "pas dans la zone a il faut 4 GPU",
    "pas en zone b besoin de 4 gpu",
])
def test_an_unnamed_refused_place_leaves_the_wish_after_it_alone(hint: str) -> None:
    assert intents(hint) == {"prefer_gpu": {"prefer_gpu_cores": 4.0}}


def test_a_named_refused_place_is_avoided_and_the_wish_after_it_read() -> None:
    assert intents("not in zone us-east-1a needs 4 GPUs") == {
        "avoid_zones": {"avoid_zones": ["us-east-1a"]}, "prefer_gpu": {"prefer_gpu_cores": 4.0}}


@pytest.mark.parametrize(("hint", "expected"), [
    # a wish said with its subject after a refusal is a wish of its own, never refused with it
    ("keep off rack-3 we need 4 gpus", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                        "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("pas sur le rack-3 on a besoin de 4 gpu", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                                "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("no en el rack-3 necesitamos 4 gpus", {"avoid_racks": {"avoid_racks": ["rack-3"]},
                                            "prefer_gpu": {"prefer_gpu_cores": 4.0}}),
    ("lass die zone eu-central-1a weg wir brauchen 2 gpus", {"avoid_zones": {"avoid_zones": ["eu-central-1a"]},
                                                             "prefer_gpu": {"prefer_gpu_cores": 2.0}}),
])
def test_a_refusal_never_reaches_the_wish_said_with_its_subject(hint: str, expected: dict) -> None:
    assert intents(hint) == expected


@pytest.mark.parametrize(("hint", "avoided"), [
    # "lass X weg" (leave X out), with a plea of any language at the end or inside
    ("m04 lass den weg pls", "m04"),
    ("w-12 lass den weg plz", "w-12"),
    ("lass m04 weg pls", "m04"),
    ("lass den Knoten k-7 bitte weg", "k-7"),
    ("lass den m04 mal weg heute", "m04"),
    ("knoten k-9 lass mal weg", "k-9"),
    ("m04 lass weg der spinnt", "m04"),
    ("lass den Knoten k-3 aus dem Spiel", "k-3"),
    ("el nodo w-3 no porfa", "w-3"),
    ("pas le nœud n-4 svp", "n-4"),
])
def test_a_refusal_with_a_plea_avoids_and_never_prefers(hint: str, avoided: str) -> None:
    assert intents(hint) == {"avoid_nodes": {"avoid_nodes": [avoided]}}


def test_a_refusal_bracket_leaves_the_wish_after_it() -> None:
    assert intents("lass m04 weg pls nimm m05") == {"avoid_nodes": {"avoid_nodes": ["m04"]},
                                                    "prefer_nodes": {"prefer_nodes": ["m05"]}}
