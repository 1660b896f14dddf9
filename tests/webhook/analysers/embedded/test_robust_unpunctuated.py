"""Refusals typed without the punctuation that bounds them (session 9), in en, es, de and fr.

The probes are our own wording (no evaluation row). The rules they pin down:

* a refusal said after a wish with another wish between them ("all replicas on one node gpu nodes are to be
  avoided", typed without its full stop) refuses the nearer wish; whether it reaches back to the farther one is not
  certain, so that one is dropped: one node never becomes one per node;
* "halte ihn von Knoten fern auf denen X läuft": the German away-verb before the relative clause that says which
  nodes (typed without its comma) refuses the relation, it never turns it into a wish to share;
* "nich" (typed for "nicht") before "zwangsläufig / unbedingt" only lifts a requirement, like "nicht"; so does "not
  necessarily on a node" said with the article ("nicht unbedingt auf einem Knoten", "pas forcément sur un nœud",
  "no necesariamente en un nodo"): after "together" the replicas are close, never one node;
* French "à l'écart" typed without its apostrophe ("a lecart") still keeps the place aside;
* a size is read whole: its unit is no word of a clause ("96 GiB of RAM": "gib" is no German "give"), and a size
  right after a core count is the machine's RAM though GPUs were named before it ("1 gpu 8 kerne 32gb"), and
  a size no GPU holds ("1 TB of memory" beside eight GPUs) is the machine's RAM; labels said before their amounts
  ("ram 48gi scratch 100gi", "ram: 64g, scratch: 200g") are each their own amount's, labels after them ("16gb ram
  100gb scratch") too, and a core count's shape ("1 core 2g") holds though a word about something else ("log
  shipper") stands far before it;
* a refusal said after its object is whole: an amount after it ("gpu boxes are off limits 6 vcpu", "no gpu
  nodes ten cores", number words too) or a wish with the workload as its subject ("... it needs 16 cores") is a
  wish of its own.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import intents, names

AWAY_FROM_REDIS = {"avoid_same_node_as_deployments"}

PROBES = [
    # the farther wish is dropped, the nearer refused: never spread_nodes
    ("every replica on one single node gpu nodes are to be avoided", {"avoid_gpu_nodes"}),
    ("all the pods on a single host gpu nodes must be avoided", {"avoid_gpu_nodes"}),
    ("todas las instancias en una sola máquina hay que evitar los nodos con gpu", {"avoid_gpu_nodes"}),
    ("alle pods auf einem einzigen server gpu-knoten sind zu vermeiden", {"avoid_gpu_nodes"}),
    ("tous nos pods sur un unique serveur les noeuds gpu c est a eviter", {"avoid_gpu_nodes"}),
    # listed, the refusal reaches both; punctuated, the wish stays a wish
    ("rack-3 and the gpu nodes are to be avoided", {"avoid_gpu_nodes", "avoid_racks"}),
    ("keep all replicas on one node and stay off gpu nodes", {"avoid_gpu_nodes", "prefer_colocate_same_deployment"}),
    ("alle pods auf einem einzigen server. gpu-knoten sind zu vermeiden", {"avoid_gpu_nodes",
                                                                        "prefer_colocate_same_deployment"}),
    # the away-verb before its relative clause
    ("halte dich von knoten fern wo memcached-a läuft", AWAY_FROM_REDIS),
    ("halt den job von den rechnern fern auf denen memcached-a laeuft", AWAY_FROM_REDIS),
    ("halte ihn von knoten fern, auf denen memcached-a läuft", AWAY_FROM_REDIS),
    ("halte ihn von den knoten fern auf denen memcached-a laeuft und nimm 8 kerne",
     AWAY_FROM_REDIS | {"prefer_cpu_cores"}),
    # one node hedged with the article
    ("die instanzen zusammen aber nicht unbedingt auf einem server", {"prefer_nearby_nodes_same_deployment"}),
    ("les instances ensemble mais pas forcement sur une machine", {"prefer_nearby_nodes_same_deployment"}),
    ("las instancias juntas pero no necesariamente en una maquina", {"prefer_nearby_nodes_same_deployment"}),
    ("nicht zwingend auf einem server", set()),
    # no apostrophe
    ("le rack b-77 est a tenir a lecart", {"avoid_racks"}),
    ("mettez-le dans la zone eu-west-3b mais gardez la zone eu-west-3a a lecart", {"avoid_zones", "prefer_zones"}),
    # "nich" hedges like "nicht": close, and the region after it is no refusal
    ("pods nah beieinander aber nich unbedingt auf einem server", {"prefer_nearby_nodes_same_deployment"}),
]


@pytest.mark.parametrize(("hint", "expected"), PROBES)
def test_unpunctuated_refusals(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize("hint", [
    "pods nah beieinander aber nich zwangslaeufig auf einem server zone eu-west-1b bitte",
    "pods nah beieinander aber nicht unbedingt auf einem server region westeurope",
])
def test_hedge_never_refuses_the_place_after_it(hint: str) -> None:
    assert not {n for n in names(hint) if n.startswith("avoid_")}, hint


SIZES = [
    ("8 GPUs with NVLink 96 GiB of RAM", {"prefer_memory_gb": 96.0}),
    ("two gpus nvlinked 512 gib ram and stay off rack-4", {"prefer_memory_gb": 512.0}),
    ("inferencia 1 gpu 4 nucleos 24gb", {"prefer_memory_gb": 24.0}),
    ("1 gpu 6 kerne 20gb bitte", {"prefer_memory_gb": 20.0}),
    ("training 2 gpus 12 coeurs 48go", {"prefer_memory_gb": 48.0}),
    ("vier h100 mit nvlink 1 tb speicher", {"prefer_memory_gb": 1024.0}),
    ("six gpus a100 2tb of memory", {"prefer_memory_gb": 2048.0}),
    ("ram 24gi scratch 300gi", {"prefer_memory_gb": 24.0, "prefer_ephemeral_storage": 300.0}),
    ("ram: 96g, scratch: 750g", {"prefer_memory_gb": 96.0, "prefer_ephemeral_storage": 750.0}),
    ("arbeitsspeicher 48gb scratch 2tb", {"prefer_memory_gb": 48.0, "prefer_ephemeral_storage": 2048.0}),
    ("12gb ram 80gb scratch", {"prefer_memory_gb": 12.0, "prefer_ephemeral_storage": 80.0}),
    ("metrics log forwarder next to the api pods 2 cores 6g", {"prefer_memory_gb": 6.0}),
    # a size on its GPU stays GPU memory
    ("2 h100 80gb", {"prefer_gpu_memory_gb": 80.0}),
]


@pytest.mark.parametrize(("hint", "expected"), SIZES)
def test_sizes_are_read_whole(hint: str, expected: dict[str, float]) -> None:
    read = intents(hint)
    for name, value in expected.items():
        assert name in read and value in read[name].values(), (hint, read)  # the metadata's one number
    other = {"prefer_memory_gb", "prefer_gpu_memory_gb", "prefer_ephemeral_storage"} - set(expected)
    assert not other & set(read), (hint, read)


AFTER_A_REFUSAL = [
    ("gpu boxes are off limits 6 vcpu", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("rack-19 is a no-go 10 cores 40gb", {"avoid_racks", "prefer_cpu_cores", "prefer_memory_gb"}),
    ("no gpu nodes ten cores", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("nada de nodos gpu doce nucleos", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("keine gpu-knoten zehn kerne", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("pas de noeud gpu douze coeurs", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("keep it out of zone us-west-2b it needs 12 cores", {"avoid_zones", "prefer_cpu_cores"}),
    ("skip node-77 the job requires an nvme disk", {"avoid_nodes", "prefer_ssd_storage"}),
    # "one"/"a" stays an article: no clause is cut before it
    ("no gpu with a fan", {"avoid_gpu_nodes"}),
]


@pytest.mark.parametrize(("hint", "expected"), AFTER_A_REFUSAL)
def test_a_wish_after_a_whole_refusal(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize(("hint", "expected"), [
    ("keep off ip-10-9-8-7 pls that box has been flaky", {"avoid_nodes"}),
    ("not on wrk-301 it keeps rebooting", {"avoid_nodes"}),
    ("pas sur srv-lyon-9 svp il plante tout le temps", {"avoid_nodes"}),
    ("nada en el nodo nd-44 ese nodo se cuelga", {"avoid_nodes"}),
    ("nicht auf knoten kx-5 der knoten spinnt dauernd", {"avoid_nodes"}),
    ("spread over zones pls last month a zone went dark", {"spread_zones"}),
    ("repartir por zonas obligatorio la semana pasada se cayo una", {"spread_zones"}),
    ("use rack-31 that rack has been flaky", set()),
    ("it was on rack-31 last week", set()),
])
def test_a_description_after_a_wish_only_explains_it(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected, hint


@pytest.mark.parametrize("hint", [
    "whats the difference between an az and a region",
    "which rack is node-77 in",
    "cual es la diferencia entre zona y region",
    "en que rack esta el nodo w-77",
    "was ist der unterschied zwischen rack und zone",
    "in welcher zone ist knoten k-77",
    "quelle est la difference entre une baie et une zone",
    "dans quelle zone est le noeud n-77",
])
def test_a_question_typed_without_its_mark_asks_nothing(hint: str) -> None:
    assert names(hint) == set(), hint
