"""A resource said not to be needed is indifference, not a refusal (ARCHITECTURE 2.2: "no need to spread" gives
no intent; the eval README's GPU convention): "no GPUs needed" asks nothing, "no GPU nodes" avoids them. The same
in every supported language, and however the need is worded. Probe hints of our own wording."""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

NOT_NEEDED = [
    "this batch step needs no GPU at all",
    "no GPUs required for the nightly export",
    "gpu not necessary, it is a plain web app",
    "el exportador no necesita gpu",
    "no requiere gpu, es un cron pequeño",
    "der Exporter benötigt keine GPU",
    "braucht keine grafikkarte, ist nur ein cron",
    "aucun besoin de gpu pour ce cron",
]

REFUSED = [
    "no GPU nodes for this exporter please",
    "sin nodos con gpu, por favor",
    "bitte keine GPU-Knoten für den Exporter",
    "pas de nœud gpu pour ce cron",
]


@pytest.mark.parametrize("hint", NOT_NEEDED)
def test_a_resource_not_needed_asks_nothing(hint: str) -> None:
    assert names(hint) == set()


@pytest.mark.parametrize("hint", REFUSED)
def test_refused_gpu_nodes_are_avoided(hint: str) -> None:
    assert names(hint) == {"avoid_gpu_nodes"}


def test_not_needed_leaves_the_other_wishes() -> None:
    assert names("no GPUs needed, but 8 cores and an SSD") == {"prefer_cpu_cores", "prefer_ssd_storage"}
    assert names("braucht keine GPU, aber 8 Kerne") == {"prefer_cpu_cores"}
