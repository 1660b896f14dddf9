"""Language parity of the embedded analyser's data (issue 12): every supported language has the same
concept files, and every intent can be asked for in every language in the words a native speaker uses.

1. A concept file (``lang/<code>/<concept>.txt``) that one supported language has, every supported
   language has, or the gap is listed with its reason in ``language_parity_exceptions.txt`` (a concept
   only one grammar needs, jargon that lives with the English files). A listed gap that is no longer
   one fails too, so the list stays true.
2. Probe hints of our own wording (no evaluation row): each of the 31 intents in German, Spanish and
   French, plainly and as typed (no accents, lower case, shorthand), read to exactly the expected set.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from shared.catalogue import CATALOGUE
from shared.normalise import normalise
from webhook.analysers.embedded import EmbeddedAnalyser
from webhook.analysers.embedded.langdata import ROOT
from webhook.analysers.embedded.language import supported

EXCEPTIONS = Path(__file__).with_name("language_parity_exceptions.txt")
_ANALYSER = EmbeddedAnalyser()


def _exceptions() -> dict[str, tuple[frozenset[str], str]]:
    """concept -> (languages allowed to lack it, reason), from the exceptions file."""
    found: dict[str, tuple[frozenset[str], str]] = {}
    for line in EXCEPTIONS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, _, reason = line.partition(" -- ")
        concept, _, codes = head.partition(":")
        assert concept.strip() not in found, f"{concept} listed twice"
        found[concept.strip()] = (frozenset(codes.split()), reason.strip())
    return found


def _gaps() -> dict[str, frozenset[str]]:
    """concept -> the supported languages without its file (only concepts some language lacks)."""
    files = {code: {p.stem for p in (ROOT / code).glob("*.txt")} for code in supported()}
    concepts = set().union(*files.values())
    return {c: frozenset(code for code in files if c not in files[code])
            for c in sorted(concepts) if any(c not in names for names in files.values())}


def test_every_supported_language_has_every_concept_file_or_a_listed_reason() -> None:
    listed = _exceptions()
    unexplained = {c: sorted(codes - listed.get(c, (frozenset(), ""))[0]) for c, codes in _gaps().items()}
    unexplained = {c: codes for c, codes in unexplained.items() if codes}
    assert not unexplained, (f"concept files missing without a reason (add the file, or a line to {EXCEPTIONS.name}): "
                             f"{unexplained}")


def test_every_listed_exception_is_a_real_gap_with_a_reason() -> None:
    gaps = _gaps()
    for concept, (codes, reason) in _exceptions().items():
        assert reason, f"{concept}: no reason given"
        assert codes <= set(supported()), f"{concept}: {sorted(codes - set(supported()))} is no supported language"
        stale = sorted(codes - gaps.get(concept, frozenset()))
        assert not stale, f"{concept}: {stale} now has the file; remove it from {EXCEPTIONS.name}"


def test_the_four_languages_are_supported() -> None:
    assert {"en", "es", "de", "fr"} <= set(supported())


# (language, hint, expected intents comma-separated): our own wording, for these probes only.
PROBES = [
    # --- de
    ("de", "Bitte keinen Knoten mit GPU verwenden.", "avoid_gpu_nodes"),
    ("de", "Nur CPU, die Grafikkarten bleiben frei.", "avoid_gpu_nodes"),
    ("de", "Den Knoten worker-33 bitte meiden.", "avoid_nodes"),
    ("de", "Nicht auf Rack r-41 planen.", "avoid_racks"),
    ("de", "Nicht in Region ap-east-2 deployen.", "avoid_regions"),
    ("de", "Nicht auf demselben Knoten wie der Dienst billing-api.", "avoid_same_node_as_deployments"),
    ("de", "Nicht in derselben Zone wie search-index.", "avoid_same_zone_as_deployments"),
    ("de", "Eine andere Zone als die von search-index, bitte.", "avoid_same_zone_as_deployments"),
    ("de", "Zone eu-central-1c bitte vermeiden.", "avoid_zones"),
    ("de", "Alle Replikate zusammen auf einem Knoten.", "prefer_colocate_same_deployment"),
    ("de", "Braucht 24 Kerne.", "prefer_cpu_cores"),
    ("de", "Viele CPU-Kerne, es ist rechenintensiv.", "prefer_cpu_cores"),
    ("de", "300 GB lokaler Scratch-Speicher nötig.", "prefer_ephemeral_storage"),
    ("de", "Viel lokaler Speicherplatz für temporäre Dateien.", "prefer_ephemeral_storage"),
    ("de", "Braucht eine GPU.", "prefer_gpu"),
    ("de", "Die GPU sollte 40 GB Speicher haben.", "prefer_gpu_memory_gb"),
    ("de", "Am liebsten auf A100-Karten.", "prefer_gpu_models"),
    ("de", "Bitte den am wenigsten ausgelasteten Knoten nehmen.", "prefer_least_loaded_nodes"),
    ("de", "Lieber einen Knoten, der wenig Last hat.", "prefer_least_loaded_nodes"),
    ("de", "Braucht 128 GB RAM.", "prefer_memory_gb"),
    ("de", "Viel Arbeitsspeicher, der Job ist speicherhungrig.", "prefer_memory_gb"),
    ("de", "Die Replikas in der Nähe voneinander halten, aber nicht zwingend auf einem Knoten.",
     "prefer_nearby_nodes_same_deployment"),
    ("de", "Braucht 25 Gbit/s Netzwerk.", "prefer_network_speed"),
    ("de", "Eine schnelle Netzwerkanbindung wäre schön.", "prefer_network_speed"),
    ("de", "Am besten auf dem Knoten node-a7.", "prefer_nodes"),
    ("de", "NUMA-Ausrichtung, bitte.", "prefer_numa_aligned"),
    ("de", "CPU und Speicher auf demselben NUMA-Knoten.", "prefer_numa_aligned"),
    ("de", "GPUs mit NVLink verbunden, bitte.", "prefer_nvlink"),
    ("de", "Schnelle Verbindung zwischen den GPUs nötig.", "prefer_nvlink"),
    ("de", "Auf Rack r-12 platzieren.", "prefer_racks"),
    ("de", "In der Region eu-central-1, bitte.", "prefer_regions"),
    ("de", "Auf demselben Knoten wie redis-cache laufen.", "prefer_same_node_as_deployments"),
    ("de", "Zusammen mit redis-cache auf einem Knoten.", "prefer_same_node_as_deployments"),
    ("de", "In derselben Region wie das Backend orders-db.", "prefer_same_region_as_deployments"),
    ("de", "In derselben Zone wie orders-db, bitte.", "prefer_same_zone_as_deployments"),
    ("de", "Braucht SSD-Speicher.", "prefer_ssd_storage"),
    ("de", "Zone eu-central-1a bevorzugt.", "prefer_zones"),
    ("de", "Replikate auf verschiedene Knoten verteilen.", "spread_nodes"),
    ("de", "Höchstens ein Pod pro Knoten.", "spread_nodes"),
    ("de", "Über mehrere Racks verteilen.", "spread_racks"),
    ("de", "Auf mindestens zwei Regionen verteilen.", "spread_regions"),
    ("de", "Auf mindestens drei Zonen verteilen.", "spread_zones"),
    ("de", "Jede Replik in einer anderen Verfügbarkeitszone.", "spread_zones"),
    ("de", "keine gpu knoten bitte", "avoid_gpu_nodes"),
    ("de", "bitte nicht auf worker-33", "avoid_nodes"),
    ("de", "rack r-41 ist tabu", "avoid_racks"),
    ("de", "nicht neben den pods von billing-api", "avoid_same_node_as_deployments"),
    ("de", "bloss nicht in gleicher zone wie search-index", "avoid_same_zone_as_deployments"),
    ("de", "bloss nicht in zone eu-central-1c", "avoid_zones"),
    ("de", "sämtliche replikas gemeinsam auf einen knoten", "prefer_colocate_same_deployment"),
    ("de", "mind. 16 kerne", "prefer_cpu_cores"),
    ("de", "200 gb scratch platz auf der lokalen platte", "prefer_ephemeral_storage"),
    ("de", "2 gpus bitte", "prefer_gpu"),
    ("de", "gpu mit mind. 48 gb vram", "prefer_gpu_memory_gb"),
    ("de", "laeuft am besten auf h100", "prefer_gpu_models"),
    ("de", "auf den knoten mit der geringsten last", "prefer_least_loaded_nodes"),
    ("de", "64 gb arbeitsspeicher", "prefer_memory_gb"),
    ("de", "pods nah beieinander halten, es muss nicht derselbe knoten sein", "prefer_nearby_nodes_same_deployment"),
    ("de", "netzwerk mit mindestens 10 gbit/s", "prefer_network_speed"),
    ("de", "am liebsten auf node-a7", "prefer_nodes"),
    ("de", "numa ausrichtung waere gut", "prefer_numa_aligned"),
    ("de", "nvlink zwischen den gpus", "prefer_nvlink"),
    ("de", "gerne auf rack r-12", "prefer_racks"),
    ("de", "region eu-central-1 bitte", "prefer_regions"),
    ("de", "auf dem gleichen knoten wie redis-cache", "prefer_same_node_as_deployments"),
    ("de", "gleiche region wie orders-db", "prefer_same_region_as_deployments"),
    ("de", "gleiche zone wie orders-db", "prefer_same_zone_as_deployments"),
    ("de", "auf nvme ssds", "prefer_ssd_storage"),
    ("de", "zone eu-central-1a waere ideal", "prefer_zones"),
    ("de", "nicht alle replikas auf einen knoten", "spread_nodes"),
    ("de", "verteilt ueber racks", "spread_racks"),
    ("de", "ueber mehrere regionen verteilen", "spread_regions"),
    ("de", "auf verschiedene zonen verteilen", "spread_zones"),
    ("de", "Der Job soll einen Zonenausfall überstehen.", "spread_zones"),
    ("de", "Mindestens zwei Racks, bitte.", "spread_racks"),
    ("de", "Weg von den Pods von billing-api, bitte.", "avoid_same_node_as_deployments"),
    # --- es
    ("es", "Nada de nodos con GPU, por favor.", "avoid_gpu_nodes"),
    ("es", "Solo CPU, deja las GPU libres.", "avoid_gpu_nodes"),
    ("es", "Evita el nodo worker-33.", "avoid_nodes"),
    ("es", "No lo pongas en el rack r-41.", "avoid_racks"),
    ("es", "Fuera de la región ap-east-2.", "avoid_regions"),
    ("es", "No en el mismo nodo que billing-api.", "avoid_same_node_as_deployments"),
    ("es", "No en la misma zona que search-index.", "avoid_same_zone_as_deployments"),
    ("es", "En una zona distinta a la de search-index.", "avoid_same_zone_as_deployments"),
    ("es", "Evita la zona eu-west-1c.", "avoid_zones"),
    ("es", "Quiero las réplicas juntas, las tres en un único nodo.", "prefer_colocate_same_deployment"),
    ("es", "Necesita 24 núcleos.", "prefer_cpu_cores"),
    ("es", "Muchos núcleos, es un trabajo de cálculo intensivo.", "prefer_cpu_cores"),
    ("es", "Necesita 300 GB de almacenamiento efímero.", "prefer_ephemeral_storage"),
    ("es", "Mucho espacio en disco local para archivos temporales.", "prefer_ephemeral_storage"),
    ("es", "Necesita una GPU.", "prefer_gpu"),
    ("es", "La GPU debería tener 40 GB de memoria.", "prefer_gpu_memory_gb"),
    ("es", "Preferiblemente en tarjetas A100.", "prefer_gpu_models"),
    ("es", "Ponlo en el nodo menos cargado.", "prefer_least_loaded_nodes"),
    ("es", "Mejor un nodo con poca carga.", "prefer_least_loaded_nodes"),
    ("es", "Necesita 128 GB de RAM.", "prefer_memory_gb"),
    ("es", "Mucha memoria, el proceso consume bastante RAM.", "prefer_memory_gb"),
    ("es", "Réplicas próximas entre sí, no hace falta el mismo nodo.", "prefer_nearby_nodes_same_deployment"),
    ("es", "Necesita una red de 25 Gbps.", "prefer_network_speed"),
    ("es", "Una red rápida estaría bien.", "prefer_network_speed"),
    ("es", "Mejor en el nodo node-a7.", "prefer_nodes"),
    ("es", "Con alineación NUMA, por favor.", "prefer_numa_aligned"),
    ("es", "Memoria y CPU en el mismo nodo NUMA.", "prefer_numa_aligned"),
    ("es", "GPUs conectadas con NVLink, por favor.", "prefer_nvlink"),
    ("es", "Necesita interconexión rápida entre las GPUs.", "prefer_nvlink"),
    ("es", "Colócalo en el rack r-12.", "prefer_racks"),
    ("es", "En la región eu-west-1, por favor.", "prefer_regions"),
    ("es", "En el mismo nodo que redis-cache.", "prefer_same_node_as_deployments"),
    ("es", "Junto a redis-cache, en su nodo.", "prefer_same_node_as_deployments"),
    ("es", "En la misma región que orders-db.", "prefer_same_region_as_deployments"),
    ("es", "En la misma zona que orders-db, por favor.", "prefer_same_zone_as_deployments"),
    ("es", "Necesita almacenamiento SSD.", "prefer_ssd_storage"),
    ("es", "Prefiero la zona eu-west-1a.", "prefer_zones"),
    ("es", "Reparte las réplicas entre nodos distintos.", "spread_nodes"),
    ("es", "Como mucho un pod por nodo.", "spread_nodes"),
    ("es", "Distribuir entre varios racks.", "spread_racks"),
    ("es", "Repartir en al menos dos regiones.", "spread_regions"),
    ("es", "Repartir en al menos tres zonas.", "spread_zones"),
    ("es", "Cada réplica en una zona de disponibilidad diferente.", "spread_zones"),
    ("es", "sin gpu por favor", "avoid_gpu_nodes"),
    ("es", "nada en worker-33", "avoid_nodes"),
    ("es", "el rack r-41 ni tocarlo", "avoid_racks"),
    ("es", "que no comparta nodo con billing-api", "avoid_same_node_as_deployments"),
    ("es", "no en la misma zona que search-index", "avoid_same_zone_as_deployments"),
    ("es", "nada en la zona eu-west-1c", "avoid_zones"),
    ("es", "todas las replicas en el mismo nodo", "prefer_colocate_same_deployment"),
    ("es", "minimo 16 nucleos", "prefer_cpu_cores"),
    ("es", "200 gb de espacio temporal en disco local", "prefer_ephemeral_storage"),
    ("es", "2 gpus porfa", "prefer_gpu"),
    ("es", "gpu con 48 gb de vram", "prefer_gpu_memory_gb"),
    ("es", "mejor en h100", "prefer_gpu_models"),
    ("es", "en el nodo con menos carga", "prefer_least_loaded_nodes"),
    ("es", "64 gb de ram", "prefer_memory_gb"),
    ("es", "replicas cerca unas de otras, no hace falta que sea el mismo nodo", "prefer_nearby_nodes_same_deployment"),
    ("es", "una red de 10 gbps como minimo", "prefer_network_speed"),
    ("es", "si se puede en node-a7", "prefer_nodes"),
    ("es", "alineacion numa", "prefer_numa_aligned"),
    ("es", "nvlink entre las gpus", "prefer_nvlink"),
    ("es", "en el rack r-12", "prefer_racks"),
    ("es", "region eu-west-1 porfa", "prefer_regions"),
    ("es", "mismo nodo que redis-cache", "prefer_same_node_as_deployments"),
    ("es", "misma region que orders-db", "prefer_same_region_as_deployments"),
    ("es", "misma zona que orders-db", "prefer_same_zone_as_deployments"),
    ("es", "discos ssd nvme", "prefer_ssd_storage"),
    ("es", "zona eu-west-1a si es posible", "prefer_zones"),
    ("es", "no todas las replicas en el mismo nodo", "spread_nodes"),
    ("es", "repartido entre racks", "spread_racks"),
    ("es", "en varias regiones", "spread_regions"),
    ("es", "en zonas distintas", "spread_zones"),
    ("es", "Tiene que aguantar la caída de una zona.", "spread_zones"),
    ("es", "Lejos de los pods de billing-api.", "avoid_same_node_as_deployments"),
    # --- fr
    ('fr', "Pas de nœud avec GPU, s'il vous plaît.", 'avoid_gpu_nodes'),
    ("fr", "Uniquement du CPU, laissez les GPU libres.", "avoid_gpu_nodes"),
    ("fr", "Évitez le nœud worker-33.", "avoid_nodes"),
    ("fr", "Pas sur le rack r-41.", "avoid_racks"),
    ("fr", "Surtout pas dans la région ap-east-2.", "avoid_regions"),
    ("fr", "Pas sur le même nœud que billing-api.", "avoid_same_node_as_deployments"),
    ("fr", "Pas dans la même zone que search-index.", "avoid_same_zone_as_deployments"),
    ("fr", "Dans une autre zone que celle de search-index.", "avoid_same_zone_as_deployments"),
    ("fr", "Évitez la zone eu-west-3c.", "avoid_zones"),
    ("fr", "Toutes les répliques ensemble sur un seul nœud.", "prefer_colocate_same_deployment"),
    ("fr", "Il faut 24 cœurs.", "prefer_cpu_cores"),
    ('fr', "Beaucoup de cœurs, c'est du calcul intensif.", 'prefer_cpu_cores'),
    ("fr", "Il faut 300 Go de stockage éphémère.", "prefer_ephemeral_storage"),
    ('fr', "Beaucoup d'espace disque local pour les fichiers temporaires.", 'prefer_ephemeral_storage'),
    ("fr", "Il faut un GPU.", "prefer_gpu"),
    ("fr", "Le GPU doit avoir 40 Go de mémoire.", "prefer_gpu_memory_gb"),
    ("fr", "De préférence sur des cartes A100.", "prefer_gpu_models"),
    ("fr", "Sur le nœud le moins chargé.", "prefer_least_loaded_nodes"),
    ("fr", "Plutôt un nœud peu chargé.", "prefer_least_loaded_nodes"),
    ("fr", "Il faut 128 Go de RAM.", "prefer_memory_gb"),
    ("fr", "Beaucoup de mémoire, le job est gourmand en RAM.", "prefer_memory_gb"),
    ("fr", "Les répliques proches les unes des autres, pas forcément sur le même nœud.",
     "prefer_nearby_nodes_same_deployment"),
    ("fr", "Il faut un réseau à 25 Gbit/s.", "prefer_network_speed"),
    ("fr", "Un réseau rapide serait bien.", "prefer_network_speed"),
    ("fr", "De préférence sur le nœud node-a7.", "prefer_nodes"),
    ('fr', "Avec alignement NUMA, s'il vous plaît.", 'prefer_numa_aligned'),
    ("fr", "CPU et mémoire sur le même nœud NUMA.", "prefer_numa_aligned"),
    ('fr', "GPU reliés par NVLink, s'il vous plaît.", 'prefer_nvlink'),
    ("fr", "Il faut une interconnexion rapide entre les GPU.", "prefer_nvlink"),
    ("fr", "Placez-le sur le rack r-12.", "prefer_racks"),
    ('fr', "Dans la région eu-west-3, s'il vous plaît.", 'prefer_regions'),
    ("fr", "Sur le même nœud que redis-cache.", "prefer_same_node_as_deployments"),
    ("fr", "À côté de redis-cache, sur son nœud.", "prefer_same_node_as_deployments"),
    ("fr", "Dans la même région que orders-db.", "prefer_same_region_as_deployments"),
    ('fr', "Dans la même zone que orders-db, s'il vous plaît.", 'prefer_same_zone_as_deployments'),
    ("fr", "Il faut du stockage SSD.", "prefer_ssd_storage"),
    ("fr", "Je préfère la zone eu-west-3a.", "prefer_zones"),
    ("fr", "Répartir les répliques sur des nœuds différents.", "spread_nodes"),
    ("fr", "Au plus un pod par nœud.", "spread_nodes"),
    ("fr", "Répartir sur plusieurs racks.", "spread_racks"),
    ("fr", "Répartir sur au moins deux régions.", "spread_regions"),
    ("fr", "Répartir sur au moins trois zones.", "spread_zones"),
    ("fr", "Chaque réplique dans une zone de disponibilité différente.", "spread_zones"),
    ("fr", "pas de gpu svp", "avoid_gpu_nodes"),
    ("fr", "rien sur worker-33", "avoid_nodes"),
    ("fr", "le rack r-41 on evite", "avoid_racks"),
    ("fr", "ne partage pas le noeud avec billing-api", "avoid_same_node_as_deployments"),
    ("fr", "pas dans la meme zone que search-index", "avoid_same_zone_as_deployments"),
    ("fr", "rien dans la zone eu-west-3c", "avoid_zones"),
    ("fr", "toutes les repliques sur le meme noeud", "prefer_colocate_same_deployment"),
    ("fr", "minimum 16 coeurs", "prefer_cpu_cores"),
    ('fr', "200 go d'espace temporaire sur disque local", 'prefer_ephemeral_storage'),
    ("fr", "2 gpu stp", "prefer_gpu"),
    ("fr", "gpu avec 48 go de vram", "prefer_gpu_memory_gb"),
    ("fr", "plutot sur h100", "prefer_gpu_models"),
    ("fr", "sur le noeud le moins charge", "prefer_least_loaded_nodes"),
    ("fr", "64 go de ram", "prefer_memory_gb"),
    ("fr", "repliques proches les unes des autres, pas forcement le meme noeud", "prefer_nearby_nodes_same_deployment"),
    ('fr', "reseau d'au moins 10 gbit/s", 'prefer_network_speed'),
    ("fr", "si possible sur node-a7", "prefer_nodes"),
    ("fr", "alignement numa", "prefer_numa_aligned"),
    ("fr", "nvlink entre les gpu", "prefer_nvlink"),
    ("fr", "sur le rack r-12", "prefer_racks"),
    ("fr", "region eu-west-3 stp", "prefer_regions"),
    ("fr", "meme noeud que redis-cache", "prefer_same_node_as_deployments"),
    ("fr", "meme region que orders-db", "prefer_same_region_as_deployments"),
    ("fr", "meme zone que orders-db", "prefer_same_zone_as_deployments"),
    ("fr", "disques ssd nvme", "prefer_ssd_storage"),
    ("fr", "zone eu-west-3a si possible", "prefer_zones"),
    ("fr", "pas toutes les repliques sur le meme noeud", "spread_nodes"),
    ("fr", "reparti sur plusieurs racks", "spread_racks"),
    ("fr", "sur plusieurs regions", "spread_regions"),
    ("fr", "dans des zones differentes", "spread_zones"),
    ('fr', "Il doit survivre à la panne d'une zone.", 'spread_zones'),
    ("fr", "Loin des pods de billing-api.", "avoid_same_node_as_deployments"),
    # --- formal, as documentation writes it
    ("de", "Der Pod darf nicht auf einem Knoten mit Grafikkarte laufen.", "avoid_gpu_nodes"),
    ("de", "Bitte ausschließlich Knoten ohne GPU verwenden.", "avoid_gpu_nodes"),
    ("de", "Der Knoten worker-33 ist auszuschließen.", "avoid_nodes"),
    ("de", "Rack r-41 soll nicht verwendet werden.", "avoid_racks"),
    ("de", "Die Region ap-east-2 ist zu vermeiden.", "avoid_regions"),
    ("de", "Der Dienst darf nicht auf demselben Knoten wie billing-api laufen.", "avoid_same_node_as_deployments"),
    ("de", "Nicht in derselben Verfügbarkeitszone wie search-index.", "avoid_same_zone_as_deployments"),
    ("de", "Die Zone eu-central-1c kommt nicht in Frage.", "avoid_zones"),
    ("de", "Alle Instanzen sollen gemeinsam auf einem einzigen Knoten laufen.", "prefer_colocate_same_deployment"),
    ("de", "Es werden mindestens 16 CPU-Kerne benötigt.", "prefer_cpu_cores"),
    ("de", "Der Job benötigt 500 GB temporären Speicherplatz.", "prefer_ephemeral_storage"),
    ("de", "Es wird eine Grafikkarte benötigt.", "prefer_gpu"),
    ("de", "Die GPUs müssen jeweils 80 GB Speicher haben.", "prefer_gpu_memory_gb"),
    ("de", "Bevorzugt werden Knoten mit H100-GPUs.", "prefer_gpu_models"),
    ("de", "Der Pod soll auf dem Knoten mit der geringsten Auslastung laufen.", "prefer_least_loaded_nodes"),
    ("de", "Bitte einen wenig ausgelasteten Knoten wählen.", "prefer_least_loaded_nodes"),
    ("de", "Es werden 256 GB Arbeitsspeicher benötigt.", "prefer_memory_gb"),
    ("de", "Die Replikate sollen nah beieinander liegen, nicht unbedingt auf demselben Knoten.",
     "prefer_nearby_nodes_same_deployment"),
    ("de", "Eine Netzwerkanbindung von mindestens 40 Gbit/s ist erforderlich.", "prefer_network_speed"),
    ("de", "Vorzugsweise auf dem Knoten node-a7.", "prefer_nodes"),
    ("de", "Eine NUMA-konforme Platzierung ist erforderlich.", "prefer_numa_aligned"),
    ("de", "Die GPUs müssen über NVLink verbunden sein.", "prefer_nvlink"),
    ("de", "Bitte im Rack r-12 platzieren.", "prefer_racks"),
    ("de", "Der Workload soll in der Region eu-central-1 laufen.", "prefer_regions"),
    ("de", "Der Pod soll auf demselben Knoten wie redis-cache laufen.", "prefer_same_node_as_deployments"),
    ("de", "Bitte in derselben Region wie orders-db betreiben.", "prefer_same_region_as_deployments"),
    ("de", "Bitte in derselben Verfügbarkeitszone wie orders-db.", "prefer_same_zone_as_deployments"),
    ("de", "Schneller SSD-Speicher ist erforderlich.", "prefer_ssd_storage"),
    ("de", "Die Zone eu-central-1a wird bevorzugt.", "prefer_zones"),
    ("de", "Die Replikate sind auf unterschiedliche Knoten zu verteilen.", "spread_nodes"),
    ("de", "Die Pods sollen auf mehrere Racks verteilt werden.", "spread_racks"),
    ("de", "Eine Verteilung über mehrere Regionen ist erforderlich.", "spread_regions"),
    ("de", "Die Replikate sollen über alle Verfügbarkeitszonen verteilt werden.", "spread_zones"),
    ("de", "Der Dienst muss den Ausfall einer Zone verkraften.", "spread_zones"),
    ("de", "Keine zwei Replikate auf demselben Knoten.", "spread_nodes"),
    ("de", "Die Last soll gleichmäßig auf die Zonen verteilt werden.", "spread_zones"),
    ("de", "Bitte nicht auf Knoten, auf denen billing-api läuft.", "avoid_same_node_as_deployments"),
    ("de", "Auf den Knoten, auf denen redis-cache läuft.", "prefer_same_node_as_deployments"),
    ("de", "In der Zone, in der orders-db läuft.", "prefer_same_zone_as_deployments"),
    ("de", "Ein Knoten mit wenig Last wäre ideal.", "prefer_least_loaded_nodes"),
    ("de", "Nur CPU-Knoten, keine GPUs.", "avoid_gpu_nodes"),
    ("de", "Benötigt viel Hauptspeicher.", "prefer_memory_gb"),
    ("de", "Bitte eine schnelle Netzwerkverbindung.", "prefer_network_speed"),
    ("de", "Mit NVMe-Festplatten, bitte.", "prefer_ssd_storage"),
    ("de", "Benötigt lokalen Scratch-Speicher.", "prefer_ephemeral_storage"),
    ("fr", "Le pod ne doit pas tourner sur un nœud équipé de GPU.", "avoid_gpu_nodes"),
    ("fr", "Uniquement des nœuds sans GPU.", "avoid_gpu_nodes"),
    ("fr", "Le nœud worker-33 est à exclure.", "avoid_nodes"),
    ("fr", "Le rack r-41 ne doit pas être utilisé.", "avoid_racks"),
    ("fr", "La région ap-east-2 est à éviter.", "avoid_regions"),
    ("fr", "Le service ne doit pas tourner sur le même nœud que billing-api.", "avoid_same_node_as_deployments"),
    ("fr", "Surtout pas la même AZ que search-index.", "avoid_same_zone_as_deployments"),
    ("fr", "La zone eu-west-3c est exclue.", "avoid_zones"),
    ("fr", "Toutes les instances doivent tourner ensemble sur un seul nœud.", "prefer_colocate_same_deployment"),
    ("fr", "Il faut au moins 16 cœurs CPU.", "prefer_cpu_cores"),
    ("fr", "Le job a besoin de 500 Go d'espace temporaire.", "prefer_ephemeral_storage"),
    ("fr", "Une carte graphique est nécessaire.", "prefer_gpu"),
    ("fr", "Chaque GPU doit disposer de 80 Go de mémoire.", "prefer_gpu_memory_gb"),
    ("fr", "Des nœuds avec GPU H100 sont préférés.", "prefer_gpu_models"),
    ("fr", "Le pod doit tourner sur le nœud le moins sollicité.", "prefer_least_loaded_nodes"),
    ("fr", "Choisissez un nœud peu utilisé.", "prefer_least_loaded_nodes"),
    ("fr", "Il faut 256 Go de mémoire vive.", "prefer_memory_gb"),
    ("fr", "Les répliques doivent rester proches, pas nécessairement sur le même nœud.",
     "prefer_nearby_nodes_same_deployment"),
    ("fr", "Une connexion réseau d'au moins 40 Gbit/s est requise.", "prefer_network_speed"),
    ("fr", "De préférence sur le nœud node-a7.", "prefer_nodes"),
    ("fr", "Un placement aligné NUMA est requis.", "prefer_numa_aligned"),
    ("fr", "Les GPU doivent être reliés par NVLink.", "prefer_nvlink"),
    ("fr", "Merci de placer le pod dans le rack r-12.", "prefer_racks"),
    ("fr", "La charge doit tourner dans la région eu-west-3.", "prefer_regions"),
    ("fr", "Le pod doit tourner sur le même nœud que redis-cache.", "prefer_same_node_as_deployments"),
    ("fr", "Merci de déployer dans la même région que orders-db.", "prefer_same_region_as_deployments"),
    ("fr", "Même AZ que orders-db, merci.", "prefer_same_zone_as_deployments"),
    ("fr", "Un stockage SSD rapide est requis.", "prefer_ssd_storage"),
    ("fr", "La zone eu-west-3a est à privilégier.", "prefer_zones"),
    ("fr", "Les répliques doivent être réparties sur des nœuds différents.", "spread_nodes"),
    ("fr", "Les pods doivent être répartis sur plusieurs racks.", "spread_racks"),
    ("fr", "Une répartition sur plusieurs régions est exigée.", "spread_regions"),
    ("fr", "Les répliques doivent être réparties sur toutes les zones de disponibilité.", "spread_zones"),
    ("fr", "Le service doit résister à la perte d'une zone.", "spread_zones"),
    ("fr", "Jamais deux répliques sur le même nœud.", "spread_nodes"),
    ("fr", "Pas sur les nœuds qui hébergent billing-api.", "avoid_same_node_as_deployments"),
    ("fr", "Sur les nœuds où tourne redis-cache.", "prefer_same_node_as_deployments"),
    ("fr", "Dans la zone où se trouve orders-db.", "prefer_same_zone_as_deployments"),
    ("fr", "Un nœud peu chargé serait idéal.", "prefer_least_loaded_nodes"),
    ("fr", "Seulement des nœuds CPU, pas de GPU.", "avoid_gpu_nodes"),
    ("fr", "Beaucoup de RAM nécessaire.", "prefer_memory_gb"),
    ("fr", "Un réseau à haut débit, svp.", "prefer_network_speed"),
    ("fr", "Avec des disques NVMe.", "prefer_ssd_storage"),
    ("fr", "Besoin de stockage scratch local.", "prefer_ephemeral_storage"),
    ("fr", "Il faut absolument éviter le nœud worker-33.", "avoid_nodes"),
    ("fr", "Ne surtout pas mettre sur rack r-41.", "avoid_racks"),
    ("fr", "Hors de la région ap-east-2.", "avoid_regions"),
    ("fr", "Évitez de placer deux répliques dans la même zone.", "spread_zones"),
    ("es", "Necesita espacio scratch local.", "prefer_ephemeral_storage"),
    ("de", "Braucht Scratch-Speicher.", "prefer_ephemeral_storage"),
    ("fr", "Besoin d'espace scratch.", "prefer_ephemeral_storage"),
    ("es", "Necesita almacenamiento efímero.", "prefer_ephemeral_storage"),
    ("de", "Braucht temporären Speicherplatz.", "prefer_ephemeral_storage"),
    ("fr", "Il faut du stockage éphémère.", "prefer_ephemeral_storage"),
]


def intent_names(hint: str) -> set[str]:
    """The intent names the embedded analyser gives for one hint, after the shared normaliser."""
    raw, _ = _ANALYSER.read(hint)
    return {intent.name for intent in normalise({"intents": raw}).document.intents}


@pytest.mark.parametrize(("language", "hint", "expected"), PROBES, ids=[f"{p[0]}:{p[1]}" for p in PROBES])
def test_each_intent_reads_the_same_in_every_language(language: str, hint: str, expected: str) -> None:
    assert intent_names(hint) == set(filter(None, expected.split(","))), (language, hint)


def test_the_probes_cover_every_intent_in_every_language() -> None:
    covered: dict[str, set[str]] = defaultdict(set)
    for language, _, expected in PROBES:
        covered[language].update(filter(None, expected.split(",")))
    for language in ("de", "es", "fr"):
        names = {spec.name for spec in CATALOGUE}
        assert covered[language] == names, (language, sorted(names - covered[language]))
