"""Self-corrections typed into a hint (session 10, corrections), in en, es, de and fr: the corrected value replaces
the retracted one (``corrections.py``).

* a value right after a correction ("no wait", "sorry, i meant", "er", "actually make that"; ``restatement``,
  ``retraction``, ``slip``) with nothing more said of it replaces the value of its kind said just before: it keeps that
  value's words, so its polarity and unit ("avoid rack k4, er, k5" avoids k5; "24 cores, actually 12" is 12 cores);
* a correction opening a clause that names a place or amount of the kind the segment before it names replaces that
  segment, polarity and all ("prefer us-east-1b, actually no, avoid us-east-1b" only avoids it);
* a retraction ("scratch that", "forget it", "olvídalo", "vergiss es", "laisse tomber") takes back its sentence;
* where the correction is not certain nothing is guessed, and a retracted refusal never becomes a preference.

The probes are our own wording (no evaluation row); the whole reading must be exactly the labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values, names, strengths

# the value after the correction replaces the one before it, with the words around that one
VALUE = [
    ("put it in zone il-central-1a, no wait, il-central-1b", {"prefer_zones": ["il-central-1b"]}),
    ("zone il-central-1a no wait il-central-1b", {"prefer_zones": ["il-central-1b"]}),
    ("zone me-south-1a no wait 1b", {"prefer_zones": ["me-south-1b"]}),
    ("region us-west-1 (sorry, I mean us-west-2)", {"prefer_regions": ["us-west-2"]}),
    ("put it in il-central-1 (my bad, eu-west-3)", {"prefer_regions": ["eu-west-3"]}),
    ("needs 100gbps? no, 25gbps", {"prefer_network_speed": 25}),
    ("give it 24 cores, actually make that 12", {"prefer_cpu_cores": 12}),
    ("32 cores actually make that 16", {"prefer_cpu_cores": 16}),
    ("16 cores no wait 32 cores", {"prefer_cpu_cores": 32}),
    ("avoid rack q4, er, q5", {"avoid_racks": ["q5"]}),
    ("keep it off node gpu-3, sorry, I meant gpu-4", {"avoid_nodes": ["gpu-4"]}),
    ("dont use node wrk-3 i mean wrk-5", {"avoid_nodes": ["wrk-5"]}),
    ("64gb ram, scratch that, 128gb", {"prefer_memory_gb": 128}),
    ("8 cores, 32gb ram, no wait, 64gb", {"prefer_cpu_cores": 8, "prefer_memory_gb": 64}),
    ("ssd and 200gb scratch, sorry, 300gb", {"prefer_ssd_storage": None, "prefer_ephemeral_storage": 300}),
    ("run on node wrk-7. strike that, wrk-9", {"prefer_nodes": ["wrk-9"]}),
    ("zone ap-south-1a. correction: ap-south-1b", {"prefer_zones": ["ap-south-1b"]}),
    ("region eu-south-2, typo: eu-central-2", {"prefer_regions": ["eu-central-2"]}),
    ("8 gpus my bad 4 gpus", {"prefer_gpu": 4}),
    ("needs 2 a100s er 2 h100s", {"prefer_gpu": 2, "prefer_gpu_models": ["H100"]}),
    ("region eu-north-1, i mean eu-south-1", {"prefer_regions": ["eu-south-1"]}),
    ("16 cores, sorry, i meant 8 cores, and an ssd", {"prefer_cpu_cores": 8, "prefer_ssd_storage": None}),
    ("zona il-central-1a, perdón, quise decir il-central-1b", {"prefer_zones": ["il-central-1b"]}),
    ("zona me-south-1a no espera 1c", {"prefer_zones": ["me-south-1c"]}),
    ("16 núcleos, mejor dicho 8", {"prefer_cpu_cores": 8}),
    ("evitar el rack q4, digo, q5", {"avoid_racks": ["q5"]}),
    ("region me-south-1, no, espera, us-east-2", {"prefer_regions": ["us-east-2"]}),
    ("nodo wrk-3 no espera wrk-5", {"prefer_nodes": ["wrk-5"]}),
    ("32gb de ram perdon quise decir 64gb", {"prefer_memory_gb": 64}),
    ("4 gpus, corrijo, 2 gpus", {"prefer_gpu": 2}),
    ("8 gpus uy 4 gpus", {"prefer_gpu": 4}),
    ("red de 100 gbps, perdon, 40 gbps", {"prefer_network_speed": 40}),
    ("en la region il-central-1, me equivoque, eu-west-3", {"prefer_regions": ["eu-west-3"]}),
    ("Zone eu-south-2a, äh, eu-south-2b", {"prefer_zones": ["eu-south-2b"]}),
    ("zone eu-south-2a aeh eu-south-2c", {"prefer_zones": ["eu-south-2c"]}),
    ("region il-central-1, ich meine eu-west-2", {"prefer_regions": ["eu-west-2"]}),
    ("32 kerne, korrigiere: 16 kerne", {"prefer_cpu_cores": 16}),
    ("48 kerne, tippfehler: 24 kerne", {"prefer_cpu_cores": 24}),
    ("rack q4 meiden, sorry, meinte q5", {"avoid_racks": ["q5"]}),
    ("nicht auf rack b7, sorry meinte b8", {"avoid_racks": ["b8"]}),
    ("knoten wrk-2, nein doch wrk-4", {"prefer_nodes": ["wrk-4"]}),
    ("knoten k-31 bitte nein warte k-33", {"prefer_nodes": ["k-33"]}),
    ("64 gb ram äh 128 gb", {"prefer_memory_gb": 128}),
    ("100 gbit netz, korrektur: 40 gbit", {"prefer_network_speed": 40}),
    ("zone eu-west-3a, pardon, je voulais dire eu-west-3b", {"prefer_zones": ["eu-west-3b"]}),
    ("24 cœurs, enfin 12", {"prefer_cpu_cores": 12}),
    ("16 coeurs, enfin 32", {"prefer_cpu_cores": 32}),
    ("éviter le rack q4, non attends, q5", {"avoid_racks": ["q5"]}),
    ("évite la zone eu-west-3a, euh, eu-west-3c", {"avoid_zones": ["eu-west-3c"]}),
    ("région europe-west1, ou plutôt europe-west4", {"prefer_regions": ["europe-west4"]}),
    ("région il-central-1, au temps pour moi, eu-west-3", {"prefer_regions": ["eu-west-3"]}),
    ("64 go de ram, je corrige, 96 go", {"prefer_memory_gb": 96}),
    ("noeud wrk-1 non attends wrk-6", {"prefer_nodes": ["wrk-6"]}),
    ("4 gpu pardon 2 gpu", {"prefer_gpu": 2}),
    # corrections said one after the other are one correction
    ("region il-central-1 sry i meant eu-west-2", {"prefer_regions": ["eu-west-2"]}),
    ("18 cores oh wait 10 cores", {"prefer_cpu_cores": 10}),
    ("zona il-central-1a o mas bien il-central-1b", {"prefer_zones": ["il-central-1b"]}),
    ("zone il-central-1a äh, ich meine il-central-1c", {"prefer_zones": ["il-central-1c"]}),
    ("zone eu-south-2a quatsch eu-south-2b", {"prefer_zones": ["eu-south-2b"]}),
    ("wants 3.2tbps? no, 800gbps", {"prefer_network_speed": 800}),
    # a courtesy or strength word after the value before is no other thing said
    ("zone me-south-1a pls. typo, me-south-1c", {"prefer_zones": ["me-south-1c"]}),
    ("rack b4 if possible. er, b5", {"prefer_racks": ["b5"]}),
    ("Le hacen falta 72 GB de RAM, perdón, 80 GB, y un SSD.", {"prefer_memory_gb": 80, "prefer_ssd_storage": None}),
    ("Bitte in Zone eu-south-2a, äh, eu-south-2b, mit SSD.",
     {"prefer_zones": ["eu-south-2b"], "prefer_ssd_storage": None}),
    ("Schedule it in il-central-1. Correction: schedule it in eu-west-2.", {"prefer_regions": ["eu-west-2"]}),
]


@pytest.mark.parametrize(("hint", "labels"), VALUE)
def test_a_corrected_value_replaces_the_one_before(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


def test_a_corrected_value_keeps_the_strength_of_its_clause() -> None:
    assert strengths("must have 1.5tb ram, sorry, 1tb") == {"prefer_memory_gb": 1.5}
    check_values("must have 1.5tb ram, sorry, 1tb", {"prefer_memory_gb": 1024})


# a correction opening a clause of its own replaces the segment before it, polarity and all
CLAUSE = [
    ("not in me-south-1, sorry, i mean not in us-east-2", {"avoid_regions": ["us-east-2"]}),
    ("prefer zone me-south-1b, actually no, avoid me-south-1b", {"avoid_zones": ["me-south-1b"]}),
    ("prefer rack b7 - no, avoid b7", {"avoid_racks": ["b7"]}),
    ("no en el nodo w-4, perdon, quise decir no en el nodo w-6", {"avoid_nodes": ["w-6"]}),
    ("prefiero el rack b2, no, mejor evita el b2", {"avoid_racks": ["b2"]}),
    ("rack b2 bevorzugen, nein, rack b2 meiden", {"avoid_racks": ["b2"]}),
    ("pas sur le rack b5, je corrige, pas sur le rack b6", {"avoid_racks": ["b6"]}),
    ("préfère le rack b2, non, évite b2", {"avoid_racks": ["b2"]}),
]


@pytest.mark.parametrize(("hint", "labels"), CLAUSE)
def test_a_corrected_clause_replaces_the_one_before(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# a retraction takes its sentence back; what follows it stays
RETRACTION = [
    ("spread them across zones... nah forget it, doesn't matter", {}),
    ("stay off rack q9 - scratch that", {}),
    ("keep it away from node n-12 - never mind", {}),
    ("rack b12 pls... nvm, any rack is fine", {}),
    ("spread across racks. scratch that, spread across zones", {"spread_zones": None}),
    ("repartir por zonas... bueno, olvídalo, da igual", {}),
    ("evita el rack q9, no, olvidalo", {}),
    ("über zonen verteilen... ach nee, vergiss es, egal", {}),
    ("rack q9 meiden, nein, vergiss es", {}),
    ("répartir sur les zones... bof, laisse tomber, peu importe", {}),
    ("évite le rack q9, non, laisse tomber", {}),
    # said under a negation, with an object or after a complaint it is a refusal, no retraction
    ("dont forget it wants nvme ssd storage", {"prefer_ssd_storage": None}),
    ("laisse tomber le nœud w-7", {"avoid_nodes": ["w-7"]}),
    ("n-6 est en panne, laisse tomber le noeud n-6", {"avoid_nodes": ["n-6"]}),
    ("n-6 ist kaputt, vergiss es", {"avoid_nodes": ["n-6"]}),
    ("rack b4 keeps dying, forget that rack b4", {"avoid_racks": ["b4"]}),
    ("olvídate de la zona il-central-1c", {"avoid_zones": ["il-central-1c"]}),
    ("rack b2 ist voll, vergiss es", {"avoid_racks": ["b2"]}),
    ("16 cores, ssd. rack b2 ist voll, vergiss es", {"prefer_cpu_cores": 16, "prefer_ssd_storage": None,
                                                     "avoid_racks": ["b2"]}),
    ("zone me-south-1a costs a fortune, forget it", {}),
    # inside a phrase, not after a stop or an interjection, it takes nothing back
    ("wants 240gb scratch that stays fast", {"prefer_ephemeral_storage": 240}),
]


@pytest.mark.parametrize(("hint", "labels"), RETRACTION)
def test_a_retraction_takes_its_sentence_back(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# not certain which value stands, or more is said of the new one: nothing is guessed, a refusal is never a preference
@pytest.mark.parametrize("hint", [
    "avoid rack q9, i mean q9 is ok",
    "evita la zona il-central-1a, digo, la zona il-central-1a no",
    "zone il-central-1a, sorry, il-central-1a is fine",
    "nicht auf rack b7, ich meine b7 ist ok",
    "évite le rack b7, enfin b7 ça va",
    "don't put it on spot nodes... i mean node spot-3",
    "avoid rack b7, actually no, prefer b7",
    "evita el rack b7, no espera, mejor el rack b7",
    "rack b7 meiden, nein warte, lieber rack b7",
    "évite le rack b7, non attends, plutôt le rack b7",
])
def test_a_retracted_refusal_is_never_a_preference(hint: str) -> None:
    assert not {n for n in names(hint) if n.startswith("prefer_")}, hint


def test_another_place_approved_after_a_refusal_is_no_correction_of_it() -> None:
    # "actually" opens no correction here: b3 is approved on its own (test_robust_passive: "..., rack r9 is fine"),
    # and the refused b2 stays refused
    check_values("avoid rack b2, actually b3 is fine", {"avoid_racks": ["b2"], "prefer_racks": ["b3"]})


# no correction: lists and plain wishes read as before
CONTROLS = [
    ("zone ca-central-1a or ca-central-1b pls", {"prefer_zones": ["ca-central-1a", "ca-central-1b"]}),
    ("steer clear of rack q4 and q5", {"avoid_racks": ["q4", "q5"]}),
    ("20 cores, er, with 80gb ram", {"prefer_cpu_cores": 20, "prefer_memory_gb": 80}),
    ("16 cores, actually 32gb of ram too", {"prefer_cpu_cores": 16, "prefer_memory_gb": 32}),
    pytest.param("rack b3 and b4, i mean also rack b5", {"prefer_racks": ["b3", "b4", "b5"]},
                 marks=pytest.mark.xfail(reason="b5 after 'i mean also' is not read (nor before corrections): "
                                                "b3 and b4 stay", strict=True)),
    ("prefer region us-west-2, or rather us-east-2", {"prefer_regions": ["us-east-2"]}),
]


# correction words in other uses take nothing back
CONTROLS += [
    ("sorry for the noise, 12 cores on rack b3 please", {"prefer_cpu_cores": 12, "prefer_racks": ["b3"]}),
    ("rack b3 er braucht 12 kerne", {"prefer_racks": ["b3"], "prefer_cpu_cores": 12}),
    ("avoid node n-3, wait for n-4 to be drained", {"avoid_nodes": ["n-3"]}),
    ("16 núcleos, como digo, en la zona me-south-1a", {"prefer_cpu_cores": 16, "prefer_zones": ["me-south-1a"]}),
    ("j'attends 12 cœurs sur le rack b3", {"prefer_cpu_cores": 12, "prefer_racks": ["b3"]}),
]


@pytest.mark.parametrize(("hint", "labels"), CONTROLS)
def test_without_a_correction_nothing_is_taken_back(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
