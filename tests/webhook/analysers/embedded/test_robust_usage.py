"""What a hint says about the workload's measured use or its history is no wish (session 8, helper "usage").

A present observation of what the workload consumes or handles, said with an approximation or as a throughput
("uses about 12 GB at peak", "atiende unas 900 peticiones por segundo") and with no wish, need or strength word in
its clause, describes (lang/*/measured_verb.txt, approximate.txt, unit_throughput.txt); a need ("braucht 9 GB"), a
figure said plainly, a bare profile, or a wish in the same breath still reads. A move told in the past reads nothing;
a move asked for, in the imperative or the passive with a modal, reads its place.

The probes are our own wording (no evaluation row). A probe's labels map each intent name to its metadata's one
value (a number, the sorted names) or None; the whole reading must be exactly that.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values, values

# Measured use, no wish word in the clause: a description of the workload, nothing to read.
DESCRIBED = [
    "Our ingest worker consumes approximately 20 GB of RAM during the nightly run.",
    "the cache is using around 30 gb right now",
    "Memory footprint is roughly 5 GB.",
    "It serves ~8k req/s from two replicas.",
    "This API sees about 400 qps on weekdays.",
    "Averages 3 cores, peaks at 6.",
    "Nuestro worker consume aproximadamente 20 GB de RAM.",
    "la cache esta usando unos 30 gb ahora mismo",
    "Este servicio procesa cerca de 5000 solicitudes por segundo.",
    "El consumo ronda los 4 GB.",
    "Der Cache verbraucht ungefähr 30 GB.",
    "im schnitt nutzt der worker 3 kerne",
    "Die API bedient ca. 800 Anfragen pro Sekunde.",
    "Le worker consomme environ 20 Go de RAM la nuit.",
    "l'api recoit pres de 800 requetes par seconde",
    "La consommation tourne autour de 4 Go.",
]


@pytest.mark.parametrize("hint", DESCRIBED)
def test_measured_use_describes(hint: str) -> None:
    check_values(hint, {})


# A need, a plain figure, a bare profile, or a wish beside the observation still reads.
ASKED = [
    ("Needs about 12 GB.", {"prefer_memory_gb": 12}),
    ("Give it about 12 GB of memory.", {"prefer_memory_gb": 12}),
    ("about 12 GB RAM and 4 cores", {"prefer_memory_gb": 12, "prefer_cpu_cores": 4}),
    ("It uses 12 GB of memory.", {"prefer_memory_gb": 12}),
    ("Uses roughly 10 GB, so give it a node with 16 GB.", {"prefer_memory_gb": 16}),
    ("It uses about 10 GB at peak and needs 16 GB to be safe.", {"prefer_memory_gb": 16}),
    ("The worker uses about 6 cores; keep it off rack-3.", {"avoid_racks": ["rack-3"]}),
    ("It handles 3000 requests per second, put it in zone eu-west-1a.", {"prefer_zones": ["eu-west-1a"]}),
    ("necesita unos 12 GB de memoria", {"prefer_memory_gb": 12}),
    ("Ocupa unos 10 GB, así que dale un nodo con 16 GB.", {"prefer_memory_gb": 16}),
    ("braucht etwa 12 GB RAM", {"prefer_memory_gb": 12}),
    ("Belegt rund 10 GB, gib ihm also 16 GB.", {"prefer_memory_gb": 16}),
    ("il lui faut environ 12 Go", {"prefer_memory_gb": 12}),
    ("Il consomme environ 10 Go, donnez-lui donc 16 Go.", {"prefer_memory_gb": 16}),
]


@pytest.mark.parametrize(("hint", "labels"), ASKED)
def test_a_need_beside_measured_use_still_reads(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# A move told in the past reads nothing; a move asked for reads its place.
MOVES = [
    ("We relocated the api to rack rk-7 last Monday.", {}),
    ("the api got relocated to rack rk-7 on monday after the outage", {}),
    ("Movimos el servicio al rack rk-7 el martes pasado.", {}),
    ("El servicio se trasladó al rack rk-7 tras la avería.", {}),
    ("Der Dienst ist letzten Dienstag auf Rack r-7 umgezogen.", {}),
    ("Wir haben den Dienst vergangenen Donnerstag auf Rack r-7 gelegt.", {}),
    ("On a déplacé le service sur le rack r-7 lundi dernier.", {}),
    ("le service est passe sur le rack r-7 la semaine passee", {}),
    ("Move it to rack rk-7.", {"prefer_racks": ["rk-7"]}),
    ("It should be moved to rack rk-7.", {"prefer_racks": ["rk-7"]}),
    ("Muévelo al rack rk-7.", {"prefer_racks": ["rk-7"]}),
    ("Verschieb ihn auf Rack r-7.", {"prefer_racks": ["r-7"]}),
    ("Der Dienst soll auf Rack r-7 verschoben werden.", {"prefer_racks": ["r-7"]}),
    ("Déplace le service sur le rack r-7.", {"prefer_racks": ["r-7"]}),
    ("Déplacez-le sur le rack r-7.", {"prefer_racks": ["r-7"]}),
]


@pytest.mark.parametrize(("hint", "labels"), MOVES)
def test_a_past_move_reads_nothing_and_an_asked_move_its_place(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# Moves asked in the passive with a modal keep their place but their strength word is the language's own;
# only the place is checked here.
PASSIVE_MOVES = [
    ("El servicio debe ser movido al rack rk-7.", ["rk-7"]),
    ("Le service doit être déplacé vers le rack r-7.", ["r-7"]),
]


@pytest.mark.parametrize(("hint", "racks"), PASSIVE_MOVES)
def test_a_move_asked_in_the_passive_reads_its_place(hint: str, racks: list[str]) -> None:
    assert values(hint) == {"prefer_racks": racks}, hint
