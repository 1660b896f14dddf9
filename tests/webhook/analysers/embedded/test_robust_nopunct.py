"""Hints typed without punctuation read as with it (session 9, helper "nopunct2"), in en, es and de.

The probes are our own wording (no evaluation row). The rules they pin down:

* a refusal said after its object, with a wish before it, refuses only that object and keeps its own strength
  ("prefer quiet nodes rack-14 must be avoided");
* a strength word after a refused first place grades a second place said after it ("keinesfalls in
  us-west-2a eu-central-1 wenn möglich": the first refused, the second wished at 0.5), never refuses it.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import strengths

PROBES = [  # intent@strength
    ("least busy nodes preferred rack-14 must be avoided", {"prefer_least_loaded_nodes@0.5", "avoid_racks@1.5"}),
    ("en ningun caso en us-west-2a eu-central-1 si es posible", {"avoid_zones@1.5", "prefer_regions@0.5"}),
    ("keinesfalls in us-west-2a eu-central-1 wenn moeglich", {"avoid_zones@1.5", "prefer_regions@0.5"}),
    ("vorzugsweise in der region westus die zone westus-3 ist unbedingt zu meiden",
     {"prefer_regions@0.5", "avoid_zones@1.5"}),
]


@pytest.mark.parametrize(("hint", "expected"), PROBES)
def test_typed_without_punctuation(hint: str, expected: set[str]) -> None:
    read = {f"{name}@{strength:g}" for name, strength in strengths(hint).items()}
    assert read == expected, hint
