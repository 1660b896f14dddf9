"""Breadth of the embedded analyser's mechanisms (session 7): each mechanism that reads one wish among several
(a list's later items, a machine shape's RAM, number words, compound spread words, ...) is probed in every
supported language, typed formally and typed sloppily (lower case, no accents, no punctuation).

The probes are our own wording (no evaluation row). A probe's labels map each intent name to its metadata's
one value (a number, the sorted names) or None; the whole reading must be exactly that.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import intents


def reading(hint: str) -> dict[str, Any]:
    """Intent name -> the one value of its metadata (names sorted), or None."""
    out: dict[str, Any] = {}
    for name, metadata in intents(hint).items():
        value = next(iter(metadata.values()), None)
        out[name] = sorted(value) if isinstance(value, list) else value
    return out


def check(hint: str, labels: dict[str, Any]) -> None:
    expected = {name: sorted(v) if isinstance(v, list) else (None if v is None else float(v))
                for name, v in labels.items()}
    assert reading(hint) == expected, hint


# A list of places after a level word: its last item, of another shape than the first, is of that level too
# ("racks b7 or kx-12"), unless it is shaped like another level's name or followed by another level word.
LIST_ITEMS = [
    ("Please use racks q4 or blu-11.", {"prefer_racks": ["blu-11", "q4"]}),
    ("racks q4 or blu-11 pls", {"prefer_racks": ["blu-11", "q4"]}),
    ("Bitte in Rack fra-a3 oder kz-40 unterbringen.", {"prefer_racks": ["fra-a3", "kz-40"]}),
    ("rack fra-a3 oder kz-40 bitte", {"prefer_racks": ["fra-a3", "kz-40"]}),
    ("Colóquelo en el rack mx-b5 o en el sv-31.", {"prefer_racks": ["mx-b5", "sv-31"]}),
    ("en el rack mx-b5 o en el sv-31 porfa", {"prefer_racks": ["mx-b5", "sv-31"]}),
    ("Placez-le dans la baie lyo-c2 ou bx-18.", {"prefer_racks": ["bx-18", "lyo-c2"]}),
    ("dans la baie lyo-c2 ou bx-18 stp", {"prefer_racks": ["bx-18", "lyo-c2"]}),
    ("rack q4 or node-12", {"prefer_racks": ["q4"], "prefer_nodes": ["node-12"]}),
    ("rack q4 or us-west-2", {"prefer_racks": ["q4"], "prefer_regions": ["us-west-2"]}),
]


@pytest.mark.parametrize(("hint", "labels"), LIST_ITEMS)
def test_list_items_keep_their_level(hint: str, labels: dict[str, Any]) -> None:
    check(hint, labels)


# "multi region", "multi zone" written with a space, and the German plural compound, ask for a spread
SPREAD_COMPOUNDS = [
    ("Go multi region: us-west-2 and eu-central-1.", {"spread_regions": None,
                                                      "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region us-west-2 and eu-central-1 thx", {"spread_regions": None,
                                                     "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Despliegue multi región en us-west-2 y eu-central-1.", {"spread_regions": None,
                                                              "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region en us-west-2 y eu-central-1", {"spread_regions": None,
                                                  "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Regionenübergreifend in us-west-2 und eu-central-1.", {"spread_regions": None,
                                                            "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("regionenubergreifend us-west-2 und eu-central-1", {"spread_regions": None,
                                                         "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("Déploiement multi région sur us-west-2 et eu-central-1.", {"spread_regions": None,
                                                                "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("multi region us-west-2 et eu-central-1 stp", {"spread_regions": None,
                                                    "prefer_regions": ["eu-central-1", "us-west-2"]}),
    ("we want it multi zone", {"spread_zones": None}),
    ("lo queremos multi zona", {"spread_zones": None}),
    ("on le veut multi zone", {"spread_zones": None}),
]


@pytest.mark.parametrize(("hint", "labels"), SPREAD_COMPOUNDS)
def test_spread_compounds(hint: str, labels: dict[str, Any]) -> None:
    check(hint, labels)


# A machine shape: a small size right after a core count is its RAM, also before a kind of disk ("16 cores
# 64g ssd") or "with ssd"; a large one there is the disk's, and so is a size before a scratch word.
SHAPES = [
    ("Give it 12 cores 48g NVMe.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores 48g nvme", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores and 48 gb with ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Dale 12 núcleos y 48 GB con SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("dale 12 nucleos 48g ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Gib ihm 12 Kerne und 48 GB mit SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48,
                                             "prefer_ssd_storage": None}),
    ("12 kerne 48g nvme", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("Donnez-lui 12 cœurs et 48 Go avec du SSD.", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48,
                                                   "prefer_ssd_storage": None}),
    ("12 coeurs et 48 go avec du ssd", {"prefer_cpu_cores": 12, "prefer_memory_gb": 48, "prefer_ssd_storage": None}),
    ("12 cores 800gb nvme", {"prefer_cpu_cores": 12, "prefer_ephemeral_storage": 800, "prefer_ssd_storage": None}),
    ("12 cores 48g scratch", {"prefer_cpu_cores": 12, "prefer_ephemeral_storage": 48}),
    ("dix coeurs et 40 go mais pas de gpu", {"prefer_cpu_cores": 10, "prefer_memory_gb": 40, "avoid_gpu_nodes": None}),
]


@pytest.mark.parametrize(("hint", "labels"), SHAPES)
def test_machine_shape_ram(hint: str, labels: dict[str, Any]) -> None:
    check(hint, labels)


# Number words of two parts
NUMBER_WORDS = [
    ("It also needs forty-eight cores.", {"prefer_cpu_cores": 48}),
    ("plus forty eight cores", {"prefer_cpu_cores": 48}),
    ("Necesita cuarenta y ocho núcleos.", {"prefer_cpu_cores": 48}),
    ("cuarenta y ocho nucleos", {"prefer_cpu_cores": 48}),
    ("Er braucht achtundvierzig Kerne.", {"prefer_cpu_cores": 48}),
    ("achtundvierzig kerne", {"prefer_cpu_cores": 48}),
    ("Il lui faut quarante-huit cœurs.", {"prefer_cpu_cores": 48}),
    ("quarante huit coeurs", {"prefer_cpu_cores": 48}),
]


@pytest.mark.parametrize(("hint", "labels"), NUMBER_WORDS)
def test_number_words(hint: str, labels: dict[str, Any]) -> None:
    check(hint, labels)
