"""GPU counts and GPU memory as people type them: multiplied shorthand ("3x gpu", "6×L40S"), pairs of a model
("a pair of L40S", "ein Paar A10"), a count before a sized model ("3 40GB A100s"), "no less than" as "at least",
memory said per card, a size tied to its model ("H100 de 80 Go reliés ...") and GPU "horsepower" as a need.

The probe hints are our own wording (no evaluation row).
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import check_values, names, values


@pytest.mark.parametrize(("hint", "expected"), [
    # a multiplied count before GPU words
    ("3x gpu and local nvme please", {"prefer_gpu": 3, "prefer_ssd_storage": None}),
    ("inference box: 2x gpus", {"prefer_gpu": 2}),
    ("4x GPU mit NVLink bitte", {"prefer_gpu": 4, "prefer_nvlink": None}),
    ("entrenamiento con 2x gpu y nvme", {"prefer_gpu": 2, "prefer_ssd_storage": None}),
    ("rendu 3d : 2x gpu l40s", {"prefer_gpu": 2, "prefer_gpu_models": ["L40S"]}),
    # the multiplication sign, before or after the model
    ("6×L40S for the render queue", {"prefer_gpu": 6, "prefer_gpu_models": ["L40S"]}),
    ("needs 2 × a10 cards", {"prefer_gpu": 2, "prefer_gpu_models": ["A10"]}),
    ("l4 x6 pls", {"prefer_gpu": 6, "prefer_gpu_models": ["L4"]}),
    # a count before the size of each model
    ("wants 3 40GB A100s", {"prefer_gpu": 3, "prefer_gpu_memory_gb": 40, "prefer_gpu_models": ["A100"]}),
    ("zwei 80 GB H100 bitte", {"prefer_gpu": 2, "prefer_gpu_memory_gb": 80, "prefer_gpu_models": ["H100"]}),
])
def test_a_multiplied_count_of_gpus_is_read(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize(("hint", "expected"), [
    ("give it a pair of L40S", {"prefer_gpu": 2, "prefer_gpu_models": ["L40S"]}),
    ("inference on an nvlinked H100 pair", {"prefer_gpu": 2, "prefer_gpu_models": ["H100"], "prefer_nvlink": None}),
    ("a100 pair, fast network", {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_network_speed": 1}),
    ("Bitte ein Paar A10", {"prefer_gpu": 2, "prefer_gpu_models": ["A10"]}),
    ("braucht ein h100-paar", {"prefer_gpu": 2, "prefer_gpu_models": ["H100"]}),
    ("necesito un par de L4", {"prefer_gpu": 2, "prefer_gpu_models": ["L4"]}),
    ("il me faut une paire de A100", {"prefer_gpu": 2, "prefer_gpu_models": ["A100"]}),
    ("une paire de nvidia l40s svp", {"prefer_gpu": 2, "prefer_gpu_models": ["L40S"]}),
])
def test_a_pair_of_a_gpu_model_is_two_gpus(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    # "ein paar" is "a few" before sizes and cores: no count of two, no size of two
    "ein paar GB mehr RAM wären gut",
    # "paired with" names a workload, no GPU pair
    "an a100 paired with redis",
])
def test_a_pair_of_something_else_counts_no_gpus(hint: str) -> None:
    assert values(hint).get("prefer_gpu") is None, hint
    assert values(hint).get("prefer_memory_gb") != 2.0, hint


@pytest.mark.parametrize(("hint", "expected"), [
    ("the api needs no less than 48 GB of memory and 8 cores", {"prefer_memory_gb": 48, "prefer_cpu_cores": 8}),
    ("requires not less than 32gb ram", {"prefer_memory_gb": 32}),
    ("the box should have no fewer than 12 cpu cores", {"prefer_cpu_cores": 12}),
    ("braucht nicht weniger als 128 GB RAM", {"prefer_memory_gb": 128}),
    ("necesita no menos de 12 núcleos", {"prefer_cpu_cores": 12}),
    ("necesita no menos de 96 gb de ram", {"prefer_memory_gb": 96}),
    ("il faut pas moins de 48 Go de mémoire", {"prefer_memory_gb": 48}),
    ("pas moins de 24 coeurs svp", {"prefer_cpu_cores": 24}),
])
def test_no_less_than_is_at_least(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    # a need said negated stays no need
    "needs no gpu",
    "braucht keine GPU",
    "this service needs no GPU horsepower",
])
def test_a_need_refused_is_still_no_gpu_wish(hint: str) -> None:
    assert "prefer_gpu" not in names(hint), hint


@pytest.mark.parametrize(("hint", "expected"), [
    ("L40S or A10, at least 40 GB of memory per card", {"prefer_gpu_memory_gb": 40,
                                                        "prefer_gpu_models": ["A10", "L40S"]}),
    ("needs 2 gpus with 24gb ram per gpu", {"prefer_gpu": 2, "prefer_gpu_memory_gb": 24}),
    ("A10 oder L4, mindestens 24 GB Speicher pro Karte", {"prefer_gpu_memory_gb": 24,
                                                          "prefer_gpu_models": ["A10", "L4"]}),
    ("modelo L4, 24 GB de memoria por tarjeta", {"prefer_gpu_memory_gb": 24, "prefer_gpu_models": ["L4"]}),
    ("carte A10 ou L4 avec 24 Go de memoire par carte", {"prefer_gpu_memory_gb": 24,
                                                        "prefer_gpu_models": ["A10", "L4"]}),
])
def test_memory_per_card_is_gpu_memory(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize(("hint", "expected"), [
    ("Pour le fine-tuning : 2 GPU A100 de 40 Go reliés par NVLink",
     {"prefer_gpu": 2, "prefer_gpu_memory_gb": 40, "prefer_gpu_models": ["A100"], "prefer_nvlink": None}),
    ("8 gpu h200 de 141 go interconnectés en nvlink",
     {"prefer_gpu": 8, "prefer_gpu_memory_gb": 141, "prefer_gpu_models": ["H200"], "prefer_nvlink": None}),
])
def test_a_size_tied_to_a_model_is_gpu_memory(hint: str, expected: dict[str, object]) -> None:
    check_values(hint, expected)


@pytest.mark.parametrize("hint", [
    "the renderer needs real GPU horsepower",
    "wants lots of gpu muscle for this one",
    "braucht viel GPU-Leistung",
    "necesita mucha potencia de gpu",
    "il faut beaucoup de puissance GPU",
])
def test_gpu_horsepower_is_a_gpu_need(hint: str) -> None:
    check_values(hint, {"prefer_gpu": 1})


@pytest.mark.parametrize("hint", [
    # GPU power described, not needed: no GPU wish
    "the gpu horsepower of this node is weak",
    "our gpu muscle is limited",
    "die GPU-Leistung dieses Knotens ist schwach",
    "la puissance gpu de ce noeud est faible",
    "la potencia de la gpu es mala",
])
def test_gpu_horsepower_described_is_no_wish(hint: str) -> None:
    assert "prefer_gpu" not in names(hint), hint
