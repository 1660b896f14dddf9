"""Hints that ask for nothing give no intent (session 7, noise): facts with numbers, the past, habits, questions
with and without their "?", TODO and notes, "currently runs on X", inventory and ownership lines, in every
supported language, typed formally and sloppily. Control probes are wishes that keep their reading, a wish after
a reason told in the past among them ("it crashed last week so avoid rack r-3").

The probes are our own wording (no evaluation row). One assertion per probe: the set of intent names read.
``NO_FLIP`` probes may be read or not, but never as the opposite of their wish.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import names

NOISE = [
    # en: the past, habits, state
    "the old cluster had 64 GB per node",
    "Node n-12 had 32 GB of RAM until the upgrade.",
    "our previous setup had 4 GPUs per box",
    "this job used to run in us-west-2b",
    "Last week the service ran on rack k-9.",
    "the workers ran with 8 cores each back then",
    "in 2023 it lived in region eu-west-1",
    "we had 3 replicas in zone b until friday",
    "we use 16 cores in prod normally",
    "we usually run 16 cores in staging",
    "It currently runs in eu-central-1b with 12 cores.",
    "currently runs on node n-8",
    # en: questions
    "does rack r-3 have ssds?",
    "does rack r-3 have ssds",
    "Is node n-5 in zone us-east-1a?",
    "is node n-5 in zone us-east-1a",
    "do we have 10gbit networking on rack r-4",
    "Which zone is the database in?",
    "is there a node with 256 GB free",
    "Are the A100 nodes in rack r-6?",
    # en: notes, inventory, ownership
    "TODO: figure out the memory limit, 48 GB maybe",
    "FIXME rack r-2 numbers look off",
    "note: node w-3 runs kafka",
    "cluster: 8 nodes, 64 GB each",
    "inventory - rack r-1: 20 nodes, 2 GPUs each",
    "oncall for zone us-east-1b is bob this week",
    # es
    "el servicio antes estaba en la zona us-east-1b",
    "El clúster viejo tenía 64 GB por nodo.",
    "el cluster viejo tenia 64 gb por nodo",
    "¿El rack r-3 tiene discos SSD?",
    "el rack r-3 tiene ssd?",
    "hay gpus en el rack r-5?",
    "Usamos 16 núcleos en producción normalmente.",
    "normalmente usamos 16 nucleos en prod",
    "la semana pasada corría en el nodo n-9",
    "el job corria en la zona eu-west-1a hasta el lunes",
    "Actualmente corre en el nodo n-8.",
    "TODO: revisar la memoria, 32 GB quizá",
    "nota: el nodo w-3 ejecuta kafka",
    "clúster: 8 nodos, 64 GB cada uno",
    "antes teníamos 4 gpus por máquina",
    "hemos usado la región eu-west-1 hasta ahora",
    "¿En qué zona está la base de datos?",
    "en que zona esta la base de datos",
    "estuvo en el rack r-2 el año pasado",
    "el nodo n-6 tenia 128 gb de ram",
    # de
    "Der alte Cluster hatte 64 GB pro Knoten.",
    "der alte cluster hatte 64 gb pro knoten",
    "Hat Rack r-3 SSDs?",
    "hat rack r-3 ssds",
    "Wir nutzen in Prod normalerweise 16 Kerne.",
    "wir nutzen normalerweise 16 kerne",
    "der Dienst lief früher in Zone us-east-1b",
    "letzte woche lief er auf knoten n-9",
    "Läuft der Job auf Knoten n-4?",
    "laeuft der job auf node n-4",
    "Aktuell läuft es in eu-central-1b.",
    "TODO: Speicher prüfen, vielleicht 48 GB",
    "Notiz: Knoten w-3 betreibt Kafka",
    "Cluster: 8 Knoten, je 64 GB",
    "bisher hatten wir 4 GPUs pro Maschine",
    "wir haben bis jetzt die Region eu-west-1 genutzt",
    "in welcher zone läuft die datenbank",
    "Gibt es auf Rack r-5 GPUs?",
    "haben die knoten in zone b nvme",
    # fr
    "ce service tournait avant sur le noeud n-7",
    "L'ancien cluster avait 64 Go par nœud.",
    "lancien cluster avait 64 go par noeud",
    "Le rack r-3 a-t-il des SSD ?",
    "est-ce que le rack r-3 a des ssd",
    "On utilise 16 cœurs en prod normalement.",
    "on utilise 16 coeurs en prod normalement",
    "d'habitude on tourne avec 16 cœurs",
    "la semaine derniere il tournait sur le noeud n-9",
    "le job a tourné dans la zone eu-west-3a jusqu'à lundi",
    "Actuellement il tourne sur le nœud n-8.",
    "TODO : vérifier la mémoire, peut-être 32 Go",
    "note : le nœud w-3 héberge kafka",
    "cluster : 8 nœuds, 64 Go chacun",
    "avant on avait 4 gpu par machine",
    "il y a des gpu sur le rack r-5 ?",
    "dans quelle zone tourne la base",
    "le noeud n-3 a des gpu ?",
    # a second round, typed every way
    "rack r-3 had ssds before the refresh",
    "we ran 12 cores on it last quarter",
    "rack r-4 has 10gbit?",
    "is there nvlink on node n-2?",
    "do the nodes in zone c have a100s?",
    "our db usually sits on ssd nodes",
    "todo check whether zone b has capacity",
    "FIXME: node n-9 memory 256gb?",
    "la base de datos vivia en eu-west-1 hasta marzo",
    "antes usabamos la region us-east-1",
    "tiene ssd el nodo n-3?",
    "el nodo n-3 tiene gpu",
    "frueher hatten wir 8 kerne pro pod",
    "das lag frueher auf rack r-2",
    "sind in zone b noch knoten frei?",
    "on utilisait la region eu-west-3 avant",
    "le pod tournait sur des ssd",
    "y a-t-il des gpu dans le rack r-5",
    "d'habitude le job prend 8 coeurs",
]

CONTROLS = [
    # en
    ("it crashed last week so avoid rack r-3", {"avoid_racks"}),
    ("We need 16 cores.", {"prefer_cpu_cores"}),
    ("should run in us-east-1b", {"prefer_zones"}),
    ("put it on node n-7", {"prefer_nodes"}),
    ("Give it 64 GB of memory.", {"prefer_memory_gb"}),
    ("use ssds please", {"prefer_ssd_storage"}),
    ("keep it off rack r-3, it overheated yesterday", {"avoid_racks"}),
    ("it ran out of memory last week, give it 64 gb", {"prefer_memory_gb"}),
    ("Can you put it in us-east-1a?", {"prefer_zones"}),
    ("could you run it on rack r-2", {"prefer_racks"}),
    ("it must have 4 gpus", {"prefer_gpu"}),
    # es
    ("Necesitamos 16 núcleos.", {"prefer_cpu_cores"}),
    ("debe ir en la zona us-east-1b", {"prefer_zones"}),
    ("se cayó la semana pasada, evita el rack r-3", {"avoid_racks"}),
    ("ponlo en el nodo n-7", {"prefer_nodes"}),
    ("dale 64 gb de memoria", {"prefer_memory_gb"}),
    ("¿Puedes ponerlo en la zona eu-west-1a?", {"prefer_zones"}),
    ("usa discos ssd", {"prefer_ssd_storage"}),
    ("antes fallaba mucho, no lo pongas en el rack r-2", {"avoid_racks"}),
    ("necesitamos 16 nucleos", {"prefer_cpu_cores"}),
    # de
    ("Wir brauchen 16 Kerne.", {"prefer_cpu_cores"}),
    ("muss in zone us-east-1b laufen", {"prefer_zones"}),
    ("ist letzte woche abgestürzt, also rack r-3 meiden", {"avoid_racks"}),
    ("Bitte auf Knoten n-7 legen.", {"prefer_nodes"}),
    ("gib ihm 64 gb ram", {"prefer_memory_gb"}),
    ("Kannst du es in Zone eu-west-1a unterbringen?", {"prefer_zones"}),
    ("bitte ssds verwenden", {"prefer_ssd_storage"}),
    ("wir brauchen 16 kerne", {"prefer_cpu_cores"}),
    # fr
    ("Il nous faut 16 cœurs.", {"prefer_cpu_cores"}),
    ("doit tourner dans la zone us-east-1b", {"prefer_zones"}),
    ("il a planté la semaine dernière, évitez le rack r-3", {"avoid_racks"}),
    ("mettez-le sur le nœud n-7", {"prefer_nodes"}),
    ("donnez-lui 64 Go de mémoire", {"prefer_memory_gb"}),
    ("Pouvez-vous le mettre en zone eu-west-3a ?", {"prefer_zones"}),
    ("utilisez des disques ssd", {"prefer_ssd_storage"}),
    ("il nous faut 16 coeurs", {"prefer_cpu_cores"}),
    # a second round: a description or a habit beside a wish
    ("usually we need 32 GB, give it 32 GB", {"prefer_memory_gb"}),
    ("ran out of memory, give it 64gb", {"prefer_memory_gb"}),
    ("rack r-3 had issues so keep it off r-3", {"avoid_racks"}),
    ("use rack r-3, does it have ssds?", {"prefer_racks"}),
    ("el nodo n-4 estaba saturado, ponlo en n-5", {"prefer_nodes"}),
    ("había cortes así que evita la zona us-east-1b", {"avoid_zones"}),
    ("antes estaba en n-4; ahora ponlo en n-5", {"prefer_nodes"}),
    ("der Job lief auf n-4 schlecht, bitte auf n-5 legen", {"prefer_nodes"}),
    ("hatte ausfälle, also zone us-east-1b meiden", {"avoid_zones"}),
    ("le service tournait mal sur n-4, mettez-le sur n-5", {"prefer_nodes"}),
    ("il y avait des pannes donc évitez la zone eu-west-3b", {"avoid_zones"}),
]

# A wish after a past-tense reason whose place is the one it was on: read or not, never the opposite.
NO_FLIP = [
    ("was on n-4 before, keep it there", "avoid_nodes"),
    ("estaba en n-4 antes, déjalo ahí", "avoid_nodes"),
    ("lief früher auf n-4, bitte dort lassen", "avoid_nodes"),
    ("il était sur n-4 avant, laissez-le là", "avoid_nodes"),
]


@pytest.mark.parametrize("hint", NOISE)
def test_noise_gives_no_intent(hint: str) -> None:
    assert names(hint) == set(), hint


@pytest.mark.parametrize(("hint", "expected"), CONTROLS)
def test_wish_keeps_its_reading(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize(("hint", "opposite"), NO_FLIP)
def test_past_reason_never_flips(hint: str, opposite: str) -> None:
    assert opposite not in names(hint), hint
