"""A strength word said after its wish, with another wish in another clause carrying another strength (session 9,
strength2): each strength governs its own clause or label only. Labels before a colon ("Out:", "Fuera:", "Raus:",
"Dehors :", "Preferred:") govern their own list until the next label or full stop; a refusal label refuses it, and
is never read as a preference. A strength after a dash grades the sentence before it; a shrug ("meh", "naja",
"bof") lets a strength word reach back over it; a level said alone with a strength of its own after a spread at
another level ("zones are a must") is that spread again.

The probes are our own wording (no evaluation row); the whole reading must be exactly the labels: intent name ->
(strength, the names of its metadata or None).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import readings

EU = ["eu-west-1", "eu-west-3"]

# a label before a colon governs its own list: a refusal label refuses it, a preference label prefers it
LABELS = [
    ("Out: eu-west-1, eu-west-3. Preferred: eu-central-1, pods spread across its zones.",
     {"avoid_regions": (1.0, EU), "prefer_regions": (0.5, ["eu-central-1"]), "spread_zones": (1.0, None)}),
    ("out: eu-west-1, eu-west-3. preferred: eu-central-1, pods spread across its zones",
     {"avoid_regions": (1.0, EU), "prefer_regions": (0.5, ["eu-central-1"]), "spread_zones": (1.0, None)}),
    ("Out : rack-3, rack-4. Nice to have: rack-7.",
     {"avoid_racks": (1.0, ["rack-3", "rack-4"]), "prefer_racks": (0.5, ["rack-7"])}),
    ("No-go: rack-2. Must: spread over zones.", {"avoid_racks": (1.0, ["rack-2"]), "spread_zones": (1.5, None)}),
    ("Preferred: eu-central-1. Out: eu-west-1.",
     {"prefer_regions": (0.5, ["eu-central-1"]), "avoid_regions": (1.0, ["eu-west-1"])}),
    ("Fuera: eu-west-1, eu-west-3. Preferido: eu-central-1.",
     {"avoid_regions": (1.0, EU), "prefer_regions": (0.5, ["eu-central-1"])}),
    ("fuera: eu-west-1. preferido: eu-central-1",
     {"avoid_regions": (1.0, ["eu-west-1"]), "prefer_regions": (0.5, ["eu-central-1"])}),
    ("Raus: eu-west-1, eu-west-3. Bevorzugt: eu-central-1.",
     {"avoid_regions": (1.0, EU), "prefer_regions": (0.5, ["eu-central-1"])}),
    ("raus: eu-west-1. bevorzugt: eu-central-1",
     {"avoid_regions": (1.0, ["eu-west-1"]), "prefer_regions": (0.5, ["eu-central-1"])}),
    ("Dehors : eu-west-1, eu-west-3. Préféré : eu-central-1.",
     {"avoid_regions": (1.0, EU), "prefer_regions": (0.5, ["eu-central-1"])}),
    ("dehors: eu-west-1. prefere: eu-central-1",
     {"avoid_regions": (1.0, ["eu-west-1"]), "prefer_regions": (0.5, ["eu-central-1"])}),
    # no refusal label: "in:" is none, nor is "out" inside a longer label
    ("out: rack-3 and rack-4. in: rack-5",
     {"avoid_racks": (1.0, ["rack-3", "rack-4"]), "prefer_racks": (1.0, ["rack-5"])}),
    ("scale out: three replicas across zones", {"spread_zones": (1.0, None)}),
]

# a strength said after its wish grades that wish only; the other clause keeps its own
AFTER_ITS_WISH = [
    ("Spread over racks is a hard requirement, whereas light host usage would only be a bonus.",
     {"spread_racks": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("spread over racks is a must whereas low host usage is optional",
     {"spread_racks": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("Repartir en zonas es obligatorio, mientras que una baja carga de nodo sería opcional.",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("repartir en zonas es obligatorio mientras que una baja carga de nodo seria opcional",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("Über Zonen verteilen ist Pflicht, niedrige Knotenlast wäre nur nett.",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("ueber zonen verteilen ist pflicht, niedrige knotenlast waere nur nett",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("Répartir sur les zones est obligatoire, alors qu'une faible charge des nœuds serait juste un bonus.",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    ("repartir sur les zones est obligatoire, alors qu'une faible charge des noeuds serait juste un bonus",
     {"spread_zones": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
    # after a dash, and reaching back over a shrug; apart at a level said after it is no one-per-node spread
    ("pods apart over zones - not negotiable. numa: meh, nice if free",
     {"spread_zones": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("keep the replicas apart across regions — not negotiable", {"spread_regions": (1.5, None)}),
    ("Réplicas separadas por racks, no negociable. NUMA: bah, estaría bien si sale gratis",
     {"spread_racks": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("replicas separadas por racks, no negociable. numa: bah, estaria bien si sale gratis",
     {"spread_racks": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("Replikas getrennt über Racks halten – nicht verhandelbar. NUMA: naja, wäre nur nett",
     {"spread_racks": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("Répliques séparées entre racks — pas négociable. NUMA : bof, sympa si c'est gratuit",
     {"spread_racks": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("repliques separees entre racks - pas negociable. numa: bof, sympa si c'est gratuit",
     {"spread_racks": (1.5, None), "prefer_numa_aligned": (0.5, None)}),
    ("keep away from rack-3 — mandatory", {"avoid_racks": (1.5, ["rack-3"])}),
]

# a level said alone with a strength of its own, after a spread at another level, is that spread again
LEVEL_ALONE = [
    ("Perhaps spread over zones; regions are a must.", {"spread_zones": (0.5, None), "spread_regions": (1.5, None)}),
    ("perhaps spred over zones; regions are a must", {"spread_zones": (0.5, None), "spread_regions": (1.5, None)}),
    ("spread across racks is required, zones ideally", {"spread_racks": (1.5, None), "spread_zones": (0.5, None)}),
    ("Vielleicht über Racks verteilen; Zonen sind Pflicht.",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
    ("vielleicht ueber racks verteilen; zonen sind pflicht",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
    ("Quizás repartir por racks; las zonas son obligatorias.",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
    ("quizas repartir por racks; las zonas son obligatorias",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
    ("Peut-être répartir sur les racks ; les zones, c'est impératif.",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
    ("peut-etre repartir sur les racks; les zones, c'est imperatif",
     {"spread_racks": (0.5, None), "spread_zones": (1.5, None)}),
]

# what must not be read: no spread from a level alone, a negation or a named place; "not negotiable" refuses nothing
NOT_READ = [
    ("keep replicas apart", {"spread_nodes": (1.0, None)}),
    ("spread over zones, not negotiable", {"spread_zones": (1.5, None)}),
    ("zones are a must", {}),
    ("maybe spread over racks; zones are a must to avoid", {"spread_racks": (0.5, None)}),
    ("spread over racks; no zones, must", {"spread_racks": (1.0, None)}),
]


def _read(hint: str) -> dict[str, tuple[float, Any]]:
    return {name: (strength, sorted(v for values in metadata.values() if isinstance(values, list) for v in values)
                   or None) for name, (strength, metadata) in readings(hint).items()}


@pytest.mark.parametrize(("hint", "labels"), LABELS)
def test_a_label_before_a_colon_governs_its_own_list(hint: str, labels: dict[str, Any]) -> None:
    assert _read(hint) == labels, hint


@pytest.mark.parametrize(("hint", "labels"), AFTER_ITS_WISH)
def test_a_strength_said_after_its_wish_grades_that_wish_only(hint: str, labels: dict[str, Any]) -> None:
    assert _read(hint) == labels, hint


@pytest.mark.parametrize(("hint", "labels"), LEVEL_ALONE)
def test_a_level_said_alone_with_its_strength_spreads_again(hint: str, labels: dict[str, Any]) -> None:
    assert _read(hint) == labels, hint


@pytest.mark.parametrize(("hint", "labels"), NOT_READ)
def test_what_must_not_be_read(hint: str, labels: dict[str, Any]) -> None:
    assert _read(hint) == labels, hint


@pytest.mark.parametrize("hint", [
    "Out: eu-west-1. Preferred: eu-central-1.", "Fuera: eu-west-1.", "Raus: eu-west-1.", "Dehors : eu-west-1.",
    "out: rack-3, rack-4", "maybe spread over racks; zone b is a must",
])
def test_a_refusal_label_is_never_a_preference(hint: str) -> None:
    read = readings(hint)
    refused = {"eu-west-1", "rack-3", "rack-4"}
    for name, (_, metadata) in read.items():
        if name.startswith("prefer_"):
            assert not refused.intersection(v for values in metadata.values() if isinstance(values, list)
                                            for v in values), hint
    assert "spread_zones" not in read or "zone b" not in hint, hint
