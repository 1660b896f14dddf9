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
from scorer.facts import PodRecord
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
    """A cluster state from Kubernetes objects: NodeResourceTopology objects may be mixed into the nodes file."""
    state = state or ClusterState()
    state.replace_nrts([o for o in nodes if o.get("kind") == "NodeResourceTopology"])
    state.replace_nodes([o for o in nodes if o.get("kind", "Node") == "Node"])
    state.replace_pods([p for p in pods if (p.get("spec") or {}).get("nodeName")])
    return state


def explain_offline(document: IntentDocument, nodes: Sequence[Mapping[str, Any]],
                    pods: Sequence[Mapping[str, Any]] = (), pod: PodRecord | None = None,
                    mode: Mode = Mode.TIERED) -> dict[str, Any]:
    """Score every node of ``nodes`` for a pod carrying ``document`` (placed ``pods`` count); the explain JSON."""
    state = build_state(nodes, pods)
    pod = pod or PodRecord(namespace="default", name="explain", uid="", node=None, workload_kind="", workload="")
    names = sorted(state.nodes)
    ranking = score_nodes(document.intents, [state.nodes[n] for n in names], Context(pod, state.pods), mode)
    return explanation(document, ranking)
