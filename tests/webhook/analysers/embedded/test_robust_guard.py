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
