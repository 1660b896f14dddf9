"""Explanations: why each node got its score.

- ``ExplainStore`` keeps the last ranking per pod for ``GET /explain?pod=NS/NAME`` (bounded LRU).
- ``explanation()`` is the one JSON shape both the endpoint and ``semaff explain --json`` print:
  ``{"intents": <document>, "ranking": [{"node", "score", "raw", "contributions": {intent: μ}}]}``.
- ``explain_offline()`` scores an intent document over Kubernetes objects (nodes, NRTs, placed pods)
  with the service's own scoring path: what ``semaff explain`` prints. Turning a hint into a
  document and reading files is the command line's job (``semaff.explain``); the scorer never
  analyses a hint.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.evaluators import Context
from scorer.facts import NodeFacts, PodRecord
from scorer.pipeline import score_nodes
from scorer.scoring import Mode, Ranking
from scorer.state import ClusterState
from shared.intents import IntentDocument


@dataclass(frozen=True, slots=True)
class Explained:
    """The last scoring of one pod, as remembered for /explain."""

    pod: str
    document: IntentDocument
    ranking: Ranking
    reason: str | None  # why it was neutral, if it was
    at: float  # wall time


def explanation(document: IntentDocument, ranking: Ranking, reason: str | None = None) -> dict[str, Any]:
    """The explain JSON: the document, the mode, why it was neutral (if so) and the ranking best first."""
    return {
        "intents": document.to_dict(),
        "mode": ranking.mode.value,
        "neutral": reason or ranking.neutral,
        "ranking": ranking.rows(),
    }


class ExplainStore:
    """The last ranking per pod (``ns/name``), least recently scored pods dropped first."""

    def __init__(self, capacity: int = 128) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, Explained] = OrderedDict()

    def put(self, entry: Explained) -> None:
        self._entries[entry.pod] = entry
        self._entries.move_to_end(entry.pod)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def get(self, pod: str) -> Explained | None:
        return self._entries.get(pod)


def build_state(nodes: Sequence[Mapping[str, Any]], pods: Sequence[Mapping[str, Any]],
                state: ClusterState | None = None) -> ClusterState:
    """A cluster state from Kubernetes objects: the nodes file may be a ``List`` mixing Node, Pod,
    NodeResourceTopology, ResourceSlice and ResourceClaim objects
    (``kubectl get nodes,pods,resourceslices,resourceclaims -A -o yaml``)."""
    state = state or ClusterState()
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for objects, default in ((nodes, "Node"), (pods, "Pod")):
        for o in objects:
            by_kind.setdefault(str(o.get("kind") or default), []).append(o)
    state.replace_nrts(by_kind.get("NodeResourceTopology", []))
    state.replace_slices(by_kind.get("ResourceSlice", []))
    state.replace_claims(by_kind.get("ResourceClaim", []))
    state.replace_nodes(by_kind.get("Node", []))
    state.replace_pods([p for p in by_kind.get("Pod", []) if (p.get("spec") or {}).get("nodeName")])
    return state


def gpu_facts(facts: NodeFacts) -> dict[str, Any]:
    """What the scorer knows about a node's GPUs and where it came from (explain's ``gpus`` per node)."""
    return {"count": facts.gpu_count, "source": facts.gpu_source or None, "claimed": facts.gpu_claimed,
            "mig_devices": facts.mig_devices, "product": facts.gpu_product, "memory_gb": facts.gpu_memory_gb,
            "pcie_roots": list(facts.gpu_pcie_roots), "nvlink": facts.nvlink,
            "nvlink_source": facts.nvlink_source or None}


def explain_offline(document: IntentDocument, nodes: Sequence[Mapping[str, Any]],
                    pods: Sequence[Mapping[str, Any]] = (), pod: PodRecord | Mapping[str, Any] | None = None,
                    mode: Mode = Mode.TIERED) -> dict[str, Any]:
    """Score every node of ``nodes`` for a pod carrying ``document`` (placed ``pods`` count); the explain JSON,
    with each GPU node's GPU facts under ``gpus``. ``pod`` may be a raw Pod: its ResourceClaims in the files
    then count."""
    state = build_state(nodes, pods)
    if isinstance(pod, Mapping):
        pod = state.pod_to_place(pod)
    pod = pod or PodRecord(namespace="default", name="explain", uid="", node=None, workload_kind="", workload="")
    names = sorted(state.nodes)
    ranking = score_nodes(document.intents, [state.nodes[n] for n in names], Context(pod, state.pods), mode)
    result = explanation(document, ranking)
    result["gpus"] = {n: gpu_facts(state.nodes[n]) for n in names if state.nodes[n].has_gpus}
    return result
