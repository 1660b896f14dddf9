"""Hints typed without punctuation (issue 12, ``semaff robust`` perturbations ``nopunct`` and ``chat``):
a clause ends where the next wish begins, not only at a comma or a full stop, so a negation never
reaches the wish after it; where its reach cannot be settled, the intent is dropped.

The probe hints are our own wording (no evaluation row); the figures run the development files
through ``webhook.perturbations`` and the embedded analyser (``semaff robust`` reports the same).
"""

from __future__ import annotations

from collections import Counter

import pytest

from shared.catalogue import opposites
from tests.webhook.analysers.embedded.probes import names
from webhook.evaluation import EvalRow
from webhook.perturbations import chat, no_punctuation


@pytest.mark.parametrize(("hint", "expected"), [
    # a wish verb opens a new wish: the negation before it stops there
    ("not in zone eu-west-3b wants 2 GPUs needs 2 GPUs", {"avoid_zones", "prefer_gpu"}),
    ("stay off rack-4 spread over zones", {"avoid_racks", "spread_zones"}),
    ("don't spread the replicas keep them on one node", {"prefer_colocate_same_deployment"}),
    ("evita el nodo n-7 usa nodos con ssd", {"avoid_nodes", "prefer_ssd_storage"}),
    ("vermeide Rack r-9 verteile über Zonen", {"avoid_racks", "spread_zones"}),
    ("évitez le nœud k-3 gardez-les sur un seul nœud", {"avoid_nodes", "prefer_colocate_same_deployment"}),
    # a German wish verb said last closes its clause
    ("über Racks verteilen in eu-west-2 bleiben Knoten k-5 meiden", {"avoid_nodes", "prefer_regions", "spread_racks"}),
    ("nicht verteilen alles auf einen Knoten", {"prefer_colocate_same_deployment"}),
    # an amount after a negated thing is a wish of its own
    ("no gpu 12 cores", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("sin gpu 12 núcleos", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("keine gpu 12 kerne", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    ("pas de gpu 12 cœurs", {"avoid_gpu_nodes", "prefer_cpu_cores"}),
    # so is a strength word after a negated place, and a place phrase after a negated thing
    ("anything but us-west-2 ideally eu-north-1", {"avoid_regions", "prefer_regions"}),
    ("pas de gpu en région eu-west-2", {"avoid_gpu_nodes", "prefer_regions"}),
    # ... and a new wish after a whole one, even when it refuses or opens with a strength word
    ("use rack-5 do not use rack-6", {"avoid_racks", "prefer_racks"}),
    # after a comma, a place of its own level is a new item, not the refused list going on
    ("nicht in rack r5, region westeurope", {"avoid_racks", "prefer_regions"}),
    ("prefer rack-3 must avoid rack-3", {"avoid_racks", "prefer_racks"}),
    ("pas le nœud k-2 mettez-le sur le nœud k-3", {"avoid_nodes", "prefer_nodes"}),
    ("4 A100s nothing older", {"prefer_gpu", "prefer_gpu_models"}),
    # a spread's level is the one it names first
    ("spread across racks busiest nodes last", {"spread_racks"}),
    ("spread across racks and nodes", {"spread_racks", "spread_nodes"}),
    # a label and its number typed without the colon
    ("ticket 4410 needs 12 cores", {"prefer_cpu_cores"}),
    ("ticket 88 il faut 12 cœurs", {"prefer_cpu_cores"}),
    # a question typed without its "?" asks for nothing
    ("why does the scheduler avoid rack-9", set()),
    ("por qué evita el nodo n-2", set()),
    ("warum meidet er den Knoten k-4", set()),
    ("pourquoi évite-t-il le nœud k-1", set()),
    # ... but a strength word or a plain wish that opens like one is no question
    ("where possible use rack-3", {"prefer_racks"}),
    ("que no caiga en el nodo n-4", {"avoid_nodes"}),
])
def test_a_new_wish_ends_the_clause_before_it(hint: str, expected: set[str]) -> None:
    assert names(hint) == expected


@pytest.mark.parametrize(("hint", "kept", "never"), [
    # the negation stays with what it governs
    ("the pods must not be spread out", set(), {"spread_nodes"}),
    ("no hace falta repartir entre zonas", set(), {"spread_zones"}),
    ("stay away from node-8 pls they keep crashing", {"avoid_nodes"}, {"prefer_nodes"}),
    ("rack-6 and rack-7 are off limits", {"avoid_racks"}, {"prefer_racks"}),
    ("Knoten k-9 auf keinen Fall benutzen", {"avoid_nodes"}, {"prefer_nodes"}),
    ("Knoten k-2 meiden", {"avoid_nodes"}, {"prefer_nodes"}),
    # a place said right after a refused place of another level may say where it is: neither reading
    ("never on node-4 in eu-central-1", {"avoid_nodes"}, {"prefer_regions", "avoid_regions"}),
    ("bajo ningún concepto en us-west-2a eu-west-2 si se puede", {"avoid_zones"},
     {"prefer_regions", "avoid_regions"}),
    ("pas à côté de redis-main sur n-1 ou n-2", set(), {"prefer_nodes", "avoid_nodes"}),
    ("nicht in rack r5 region westeurope", {"avoid_racks"}, {"prefer_regions", "avoid_regions"}),
    # a limit is no refusal
    ("peut-être 3 GPU pas plus", {"prefer_gpu"}, {"avoid_gpu_nodes"}),
    ("3 GPUs no more", {"prefer_gpu"}, {"avoid_gpu_nodes"}),
    # German "nah" is near
    ("Replikas nah beieinander Zone eu-west-1b", {"prefer_zones"}, {"avoid_zones"}),
    # a GPU said in a relative clause after a refused place may describe that place: neither reading
    ("stay off rack-4 that has gpus it is critical", {"avoid_racks"}, {"avoid_gpu_nodes", "prefer_gpu"}),
    ("no uses el nodo n-8 que tiene gpu", {"avoid_nodes"}, {"avoid_gpu_nodes", "prefer_gpu"}),
    ("meide Knoten k-8 die eine GPU hat", {"avoid_nodes"}, {"avoid_gpu_nodes", "prefer_gpu"}),
    ("évite le nœud n-8 qui a un gpu", {"avoid_nodes"}, {"avoid_gpu_nodes", "prefer_gpu"}),
    # "don't spread them all on one node": the negation may be the spread verb's
    ("no los repartas todos en un solo nodo", set(), {"spread_nodes"}),
])
def test_an_unsettled_negation_drops_rather_than_guesses(hint: str, kept: set[str], never: set[str]) -> None:
    found = names(hint)
    assert kept <= found and not found & never, found


# --- probes: hints of our own wording, typed with punctuation and without -------------------------------
# Each hint is written with its punctuation (the reference) and labelled by tests/data/eval/README.md; the
# variants drop the sentence punctuation the way webhook.perturbations does (nopunct, chat). A variant must
# read as its punctuated hint and never hold the opposite of a labelled intent (a flip is the worst).
PROBES: list[tuple[str, str, list[str]]] = [  # (language, hint, labelled intents)
    ('en', 'Not on node-14, and we need 8 cores.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('en', "Don't use rack-3, put it on rack-5.", ['avoid_racks', 'prefer_racks']),
    ('en', 'Never schedule on worker-22, it keeps crashing.', ['avoid_nodes']),
    ('en', 'Avoid us-west-1, prefer eu-central-1.', ['avoid_regions', 'prefer_regions']),
    ('en', 'No GPU nodes, but 64 GB of RAM.', ['avoid_gpu_nodes', 'prefer_memory_gb']),
    ('en', 'Keep off node-3 bc it keeps crashing.', ['avoid_nodes']),
    ('en', 'Spread across zones, not on rack-8.', ['avoid_racks', 'spread_zones']),
    ('en', 'Needs 2 GPUs, not in zone us-east-1c.', ['avoid_zones', 'prefer_gpu']),
    ('en', 'Without GPU nodes, ideally on SSD.', ['avoid_gpu_nodes', 'prefer_ssd_storage']),
    ('en', 'Nope to rack-9, use rack-2 instead.', ['avoid_racks', 'prefer_racks']),
    ('en', 'Not rack-4 or rack-6, spread over nodes.', ['avoid_racks', 'spread_nodes']),
    ('en', 'Must have 16 cores, never on node-5.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('en', 'Keep the replicas apart, and not in eu-west-2.', ['avoid_regions', 'spread_nodes']),
    ('en', "Don't put the replicas on one node, also 32 GB memory.", ['prefer_memory_gb', 'spread_nodes']),
    ('en', 'Stay away from node-11, node-12 and node-13, they are flaky.', ['avoid_nodes']),
    ('en', 'Not next to redis-cache, prefer SSD.', ['avoid_same_node_as_deployments', 'prefer_ssd_storage']),
    ('en', 'Avoid zone eu-west-1b, plus 100 Gbps networking.', ['avoid_zones', 'prefer_network_speed']),
    ('en', 'Critical: 4 GPUs, no node-8.', ['avoid_nodes', 'prefer_gpu']),
    ('en', "Don't spread them, keep all replicas on one node.", ['prefer_colocate_same_deployment']),
    ('en', 'Not in us-east-1, ideally in us-east-2.', ['avoid_regions', 'prefer_regions']),
    ('en', 'Prefer the least loaded nodes, but not node-2.', ['avoid_nodes', 'prefer_least_loaded_nodes']),
    ('en', 'No need for an SSD, but 8 cores please.', ['prefer_cpu_cores']),
    ('en', 'Avoid node-6 because it was flaky, and spread over racks.', ['avoid_nodes', 'spread_racks']),
    ('en', 'Never rack-1, never rack-2.', ['avoid_racks']),
    ('en', 'Use node-30, not node-31.', ['avoid_nodes', 'prefer_nodes']),
    ('en', 'Skip worker-4, it is overloaded, run it on worker-5.', ['avoid_nodes', 'prefer_nodes']),
    ('en', 'Not on GPU nodes, 12 cores, 48 GB RAM.', ['avoid_gpu_nodes', 'prefer_cpu_cores', 'prefer_memory_gb']),
    ('en', 'Nothing in eu-north-1, spread across zones.', ['avoid_regions', 'spread_zones']),
    ('en', 'Two A100s, not in zone us-west-2a.', ['avoid_zones', 'prefer_gpu', 'prefer_gpu_models']),
    ('en', 'Not on the same node as kafka-broker, but in the same zone as postgres-main.',
     ['avoid_same_node_as_deployments', 'prefer_same_zone_as_deployments']),
    ('en', "Don't use node-9, nodes with NVLink please.", ['avoid_nodes', 'prefer_nvlink']),
    ('en', 'Avoid rack-7, also keep replicas on separate nodes.', ['avoid_racks', 'spread_nodes']),
    ('en', 'If possible not on node-19, must have 200 GB scratch.', ['avoid_nodes', 'prefer_ephemeral_storage']),
    ('en', 'Not in us-east-1a or us-east-1b, preferably us-east-1c.', ['avoid_zones', 'prefer_zones']),
    ('en', 'No need for NUMA, give it 4 cores.', ['prefer_cpu_cores']),
    ('en', 'Avoid GPU nodes, put it on the least loaded node.', ['avoid_gpu_nodes', 'prefer_least_loaded_nodes']),
    ('en', 'Stay off rack-10, nodes with 25 Gbps.', ['avoid_racks', 'prefer_network_speed']),
    ('en', 'Never together on one node, spread across racks too.', ['spread_nodes', 'spread_racks']),
    ('en', 'Not node-40, the one with the bad disk, use SSD storage.', ['avoid_nodes', 'prefer_ssd_storage']),
    ('en', "Don't go to eu-west-3, and no GPU.", ['avoid_gpu_nodes', 'avoid_regions']),
    ('es', 'No en el nodo nodo-7, y necesita 8 núcleos.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('es', 'Nunca en rack-3, mejor en rack-5.', ['avoid_racks', 'prefer_racks']),
    ('es', 'Sin GPU, pero con 64 GB de RAM.', ['avoid_gpu_nodes', 'prefer_memory_gb']),
    ('es', 'Evita la zona eu-west-1a, porque falla mucho.', ['avoid_zones']),
    ('es', 'No uses el nodo w-12, usa el nodo w-14.', ['avoid_nodes', 'prefer_nodes']),
    ('es', 'Ni rack-2 ni rack-4, reparte entre zonas.', ['avoid_racks', 'spread_zones']),
    ('es', 'Repartir entre nodos, y nada en us-east-1.', ['avoid_regions', 'spread_nodes']),
    ('es', 'Necesita 2 GPUs, pero no en la zona us-west-2b.', ['avoid_zones', 'prefer_gpu']),
    ('es', 'No en eu-central-1, preferiblemente en eu-west-1.', ['avoid_regions', 'prefer_regions']),
    ('es', 'Fuera del nodo n-33, también SSD.', ['avoid_nodes', 'prefer_ssd_storage']),
    ('es', 'Nunca junto a redis-main, y en la misma zona que api-gw.',
     ['avoid_same_node_as_deployments', 'prefer_same_zone_as_deployments']),  # punctuated reading misses an intent
    ('es', 'No las juntes en un nodo, sepáralas.', ['spread_nodes']),  # punctuated reading misses an intent
    ('es', 'No repartas las réplicas, todas en el mismo nodo.', ['prefer_colocate_same_deployment']),
    ('es', 'Sin nodos GPU, 16 núcleos, 32 GB de memoria.', ['avoid_gpu_nodes', 'prefer_cpu_cores', 'prefer_memory_gb']),
    ('es', 'Evita el rack-9 porque se cae, y red de 25 Gbps.', ['avoid_racks', 'prefer_network_speed']),
    ('es', 'Es imprescindible tener 4 GPUs, no en el nodo g-1.', ['avoid_nodes', 'prefer_gpu']),
    ('es', 'No en el nodo n-5 ni en el nodo n-6, usa el rack-1.', ['avoid_nodes', 'prefer_racks']),
    ('es', 'Con NVLink, pero no en la región us-west-1.', ['avoid_regions', 'prefer_nvlink']),
    ('es', 'Nada de GPU, y los nodos menos cargados.', ['avoid_gpu_nodes', 'prefer_least_loaded_nodes']),
    ('es', 'A ser posible no en el nodo k-3, debe tener SSD.', ['avoid_nodes', 'prefer_ssd_storage']),
    ('es', 'No la pongas en el rack-8, ponla en el rack-2.', ['avoid_racks', 'prefer_racks']),
    ('es', 'Evita us-east-2, y reparte entre racks.', ['avoid_regions', 'spread_racks']),
    ('es', 'Nunca en el nodo x-1, porque tiene el disco mal, y 12 núcleos.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('es', 'Sin GPU, en la zona eu-west-3c.', ['avoid_gpu_nodes', 'prefer_zones']),
    ('es', 'No en el mismo nodo que kafka-0, pero con 128 GB de RAM.',
     ['avoid_same_node_as_deployments', 'prefer_memory_gb']),
    ('de', 'Nicht auf Knoten k-7, und 8 Kerne.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('de', 'Kein GPU-Knoten, aber 64 GB RAM.', ['avoid_gpu_nodes', 'prefer_memory_gb']),
    ('de', 'Nie auf rack-3, am liebsten auf rack-5.', ['avoid_racks', 'prefer_racks']),
    ('de', 'Ohne GPU, mit SSD.', ['avoid_gpu_nodes', 'prefer_ssd_storage']),
    ('de', 'Nicht in eu-west-1, sondern in eu-central-1.', ['avoid_regions', 'prefer_regions']),
    ('de', 'Meide Knoten w-9, weil er ständig abstürzt.', ['avoid_nodes']),
    ('de', 'Nicht alle auf einen Knoten packen, über Zonen verteilen.', ['spread_nodes', 'spread_zones']),
    ('de', 'Über Racks verteilen, aber nicht in Zone us-east-1b.', ['avoid_zones', 'spread_racks']),
    ('de', 'Braucht 2 GPUs, nicht auf Knoten g-4.', ['avoid_nodes', 'prefer_gpu']),
    ('de', 'Keine Replikas auf demselben Knoten, außerdem 32 GB Arbeitsspeicher.',
     ['prefer_memory_gb', 'spread_nodes']),
    ('de', 'Nicht verteilen, alle auf einem Knoten.', ['prefer_colocate_same_deployment']),
    ('de', 'Nicht neben redis-main, aber in derselben Zone wie api-gw.',
     ['avoid_same_node_as_deployments', 'prefer_same_zone_as_deployments']),
    ('de', 'Knoten k-2 nicht benutzen, Knoten k-3 benutzen.',
     ['avoid_nodes', 'prefer_nodes']),  # punctuated reading misses an intent
    ('de', 'Wenn möglich nicht auf Knoten k-11, unbedingt NVMe-SSD.', ['avoid_nodes', 'prefer_ssd_storage']),
    ('de', 'Kein rack-6 und kein rack-7, 16 Kerne.', ['avoid_racks', 'prefer_cpu_cores']),
    ('de', 'Bitte nicht us-west-2, NVLink wäre schön.', ['avoid_regions', 'prefer_nvlink']),
    ('de', 'Zwingend 4 GPUs, aber nicht auf Knoten g-9.', ['avoid_nodes', 'prefer_gpu']),
    ('de', 'Auf keinen Fall rack-2, auch nicht rack-3.', ['avoid_racks']),
    ('de', 'Ohne GPU-Knoten, am besten die am wenigsten ausgelasteten Knoten.',
     ['avoid_gpu_nodes', 'prefer_least_loaded_nodes']),
    ('de', 'Nicht in Zone eu-west-1c, dafür 25 Gbit/s Netzwerk.', ['avoid_zones', 'prefer_network_speed']),
    ('de', 'Nie auf Knoten x-5, weil die Platte kaputt ist, und 12 Kerne.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('de', 'Meide us-east-1, verteile über Knoten.', ['avoid_regions', 'spread_nodes']),
    ('de', 'Keine GPU, Zone eu-central-1c bitte.', ['avoid_gpu_nodes', 'prefer_zones']),
    ('de', 'Nicht auf rack-4, Knoten mit NVLink.', ['avoid_racks', 'prefer_nvlink']),
    ('de', 'Nicht auf demselben Knoten wie kafka-0, aber 128 GB RAM.',
     ['avoid_same_node_as_deployments', 'prefer_memory_gb']),
    ('fr', 'Pas sur le nœud n-7, et il faut 8 cœurs.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('fr', 'Jamais sur rack-3, de préférence rack-5.', ['avoid_racks', 'prefer_racks']),
    ('fr', 'Sans GPU, mais avec 64 Go de RAM.', ['avoid_gpu_nodes', 'prefer_memory_gb']),
    ('fr', 'Évitez la zone eu-west-1a, elle tombe souvent.', ['avoid_zones']),
    ('fr', "N'utilisez pas le nœud w-12, utilisez le nœud w-14.", ['avoid_nodes', 'prefer_nodes']),
    ('fr', 'Ni rack-2 ni rack-4, répartir sur les zones.', ['avoid_racks', 'spread_zones']),
    ('fr', 'Répartir sur les nœuds, et rien dans us-east-1.', ['avoid_regions', 'spread_nodes']),
    ('fr', 'Besoin de 2 GPU, mais pas dans la zone us-west-2b.', ['avoid_zones', 'prefer_gpu']),
    ('fr', 'Pas dans eu-central-1, idéalement dans eu-west-1.', ['avoid_regions', 'prefer_regions']),
    ('fr', 'Aucun nœud GPU, 16 cœurs, 32 Go de mémoire.', ['avoid_gpu_nodes', 'prefer_cpu_cores', 'prefer_memory_gb']),
    ('fr', 'Évitez le rack-9 car il plante, et du réseau 25 Gb/s.', ['avoid_racks', 'prefer_network_speed']),
    ('fr', 'Il faut absolument 4 GPU, pas sur le nœud g-1.', ['avoid_nodes', 'prefer_gpu']),
    ('fr', 'Ne les regroupez pas, un pod par nœud.', ['spread_nodes']),
    ('fr', 'Ne les répartissez pas, gardez-les sur un seul nœud.', ['prefer_colocate_same_deployment']),
    ('fr', 'Pas à côté de redis-main, mais dans la même zone que api-gw.',
     ['avoid_same_node_as_deployments', 'prefer_same_zone_as_deployments']),
    ('fr', 'Jamais sur le nœud x-1, il a un disque défaillant, et 12 cœurs.', ['avoid_nodes', 'prefer_cpu_cores']),
    ('fr', 'Pas de GPU, dans la zone eu-west-3c.', ['avoid_gpu_nodes', 'prefer_zones']),
    ('fr', 'Surtout pas le rack-8, mettez-le sur le rack-2.', ['avoid_racks', 'prefer_racks']),
    ('fr', 'Évitez us-east-2, aussi répartir sur les racks.', ['avoid_regions', 'spread_racks']),
    ('fr', 'Pas de nœud GPU, les nœuds les moins chargés.', ['avoid_gpu_nodes', 'prefer_least_loaded_nodes']),
    ('fr', 'Si possible pas sur le nœud k-3, SSD obligatoire.', ['avoid_nodes', 'prefer_ssd_storage']),
    ('fr', 'Pas sur le nœud n-5 ni sur le nœud n-6, utilisez le rack-1.', ['avoid_nodes', 'prefer_racks']),
    ('fr', 'Avec NVLink, mais pas dans la région us-west-1.', ['avoid_regions', 'prefer_nvlink']),
    ('fr', 'Pas sur le même nœud que kafka-0, mais 128 Go de RAM.',
     ['avoid_same_node_as_deployments', 'prefer_memory_gb']),
    ('fr', 'Sans nœud GPU, aussi 100 Gb/s.', ['avoid_gpu_nodes', 'prefer_network_speed']),
    ('fr', 'Pas besoin de GPU, mais 8 cœurs stp.', ['prefer_cpu_cores']),
    ('fr', 'Évitez les nœuds m-4 et m-5, ils sont instables.', ['avoid_nodes']),
    ('fr', 'En aucun cas dans la zone us-east-1c, répartir sur les nœuds.',
     ['avoid_zones', 'spread_nodes']),  # punctuated reading misses an intent
    ('fr', 'Pas le nœud k-20, mettez-le sur le nœud k-21 svp.', ['avoid_nodes', 'prefer_nodes']),
    ('fr', 'Pas dans le rack-5, et aussi pas de GPU.', ['avoid_gpu_nodes', 'avoid_racks']),
    # a refusal said after a list whose first item closes a longer clause
    ('en', 'Batch job with 48 GB RAM, the nodes w-5 and w-6 are excluded.', ['avoid_nodes', 'prefer_memory_gb']),
    ('es', 'Necesita 48 GB de RAM, los nodos w-5 y w-6 quedan excluidos.', ['avoid_nodes', 'prefer_memory_gb']),
    ('de', 'Braucht 48 GB RAM, die Knoten w-5 und w-6 sind ausgeschlossen.', ['avoid_nodes', 'prefer_memory_gb']),
    ('fr', 'Job batch avec 48 Go de RAM, les nœuds w-5 et w-6 sont exclus.', ['avoid_nodes', 'prefer_memory_gb']),
    # a place named after a refused wish (no place) is a wish of its own
    ('en', 'Replicas must not share a rack. Zone us-east-1b please.', ['prefer_zones', 'spread_racks']),
    ('es', 'Las réplicas no deben compartir rack. Zona eu-west-1c.', ['prefer_zones', 'spread_racks']),
    ('de', 'Die Replikas dürfen sich kein Rack teilen. Zone eu-west-1c bitte.', ['prefer_zones', 'spread_racks']),
    ('fr', 'Les réplicas ne doivent pas partager de baie. Zone eu-west-1c svp.', ['prefer_zones', 'spread_racks']),
    # an imperative with its object pronoun attached opens a clause after a refusal
    ('fr', 'Pas besoin de NVLink ni de spread, mettez-le sur le nœud w-3.', ['prefer_nodes']),
    ('fr', 'Sans SSD ni NVMe, gardez-les sur un seul nœud.', ['prefer_colocate_same_deployment']),
]
# punctuated readings that miss a labelled intent (the variants must still add no flip)
_REFERENCE_MISSES = {
    'En aucun cas dans la zone us-east-1c, répartir sur les nœuds.',
    'Knoten k-2 nicht benutzen, Knoten k-3 benutzen.',
    'No las juntes en un nodo, sepáralas.',
    'Nunca junto a redis-main, y en la misma zona que api-gw.',
}
# variants that still read differently from their punctuated hint: unsure scope, dropped or kept apart
# ("No repartas las réplicas todas en el mismo nodo" may be "don't spread them all on one node")
_STILL_DIFFER = {
    'No repartas las réplicas, todas en el mismo nodo.',
    'Ohne GPU, mit SSD.',
    'Skip worker-4, it is overloaded, run it on worker-5.',
}


def _variants(hint: str) -> list[str]:
    row = EvalRow("probe", hint, "en", "single", ())
    return [variant.hint for change in (no_punctuation, chat) if (variant := change(row)) is not None]


@pytest.mark.parametrize(("hint", "expected"), [(h, e) for _, h, e in PROBES if h not in _REFERENCE_MISSES])
def test_a_punctuated_probe_reads_as_labelled(hint: str, expected: list[str]) -> None:
    assert names(hint) == set(expected)


@pytest.mark.parametrize(("hint", "expected"), [(h, e) for _, h, e in PROBES])
def test_a_probe_typed_without_punctuation_reads_as_punctuated_and_never_flips(hint: str, expected: list[str]) -> None:
    reference = names(hint)
    variants = _variants(hint)
    assert variants, "the probe has no punctuation to drop"
    for variant in variants:
        found = names(variant)
        flipped = {name for name in found - set(expected) - reference if opposites(name) & (set(expected) | reference)}
        assert not flipped, (variant, found)
        if hint not in _STILL_DIFFER:
            assert found == reference, (variant, found, reference)


def test_the_probes_cover_every_language() -> None:
    counts = Counter(language for language, _, _ in PROBES)
    assert len(PROBES) >= 120 and counts["en"] >= 40 and counts["es"] >= 25 and counts["de"] >= 25 \
        and counts["fr"] >= 30, counts
