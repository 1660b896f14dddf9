"""Explanations: why each node got its score.

- ``ExplainStore`` keeps the last ranking per pod for ``GET /explain?pod=NS/NAME`` (bounded LRU).
- ``explanation()`` is the one JSON shape both the endpoint and ``semaff explain --json`` print:
  ``{"intents": <document>, "ranking": [{"node", "score", "raw", "contributions": {intent: μ}}]}``.
- ``cli_main(argv)`` is ``semaff explain`` (ARCHITECTURE.md 2.7): the scorer's own scoring code on
  YAML/JSON files of nodes and pods, offline.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import yaml

from scorer.evaluators import Context
from scorer.facts import NodeFacts, PodRecord
from scorer.scoring import Mode, Ranking, score_nodes
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


# --- semaff explain -------------------------------------------------------------------------------


def load_objects(path: str | Path) -> list[dict[str, Any]]:
    """Kubernetes objects from a YAML or JSON file: a List/NodeList/PodList, a plain list, one object, or a
    multi-document YAML stream."""
    text = Path(path).read_text()
    try:
        documents: list[Any] = [orjson.loads(text)]
    except orjson.JSONDecodeError:
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    objects: list[dict[str, Any]] = []
    for document in documents:
        if isinstance(document, list):
            items: Iterable[Any] = document
        elif isinstance(document, Mapping) and isinstance(document.get("items"), list):
            items = document["items"]
        else:
            items = [document]
        objects.extend(item for item in items if isinstance(item, dict))
    return objects


def build_state(nodes: Sequence[Mapping[str, Any]], pods: Sequence[Mapping[str, Any]],
                state: ClusterState | None = None) -> ClusterState:
    """A cluster state from files: the nodes file may be a ``List`` mixing Node, Pod, NodeResourceTopology,
    ResourceSlice and ResourceClaim objects (``kubectl get nodes,pods,resourceslices,resourceclaims -A -o yaml``)."""
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
    """Score every node in the files for a pod carrying ``document``; the explain JSON, with each GPU node's
    GPU facts under ``gpus``. ``pod`` may be a raw Pod: its ResourceClaims in the files then count."""
    state = build_state(nodes, pods)
    if isinstance(pod, Mapping):
        pod = state.pod_to_place(pod)
    pod = pod or PodRecord(namespace="default", name="explain", uid="", node=None, workload_kind="", workload="")
    names = sorted(state.nodes)
    ranking = score_nodes(document.intents, [state.nodes[n] for n in names], Context(pod, state.pods), mode)
    result = explanation(document, ranking)
    result["gpus"] = {n: gpu_facts(state.nodes[n]) for n in names if state.nodes[n].has_gpus}
    return result


def _analyse(hint: str) -> IntentDocument:
    """The embedded analyser on one hint (the same path the webhook takes)."""
    from shared.sanitise import sanitise
    from webhook.analysers import create
    from webhook.analysers.base import analyse

    async def run() -> IntentDocument:
        analyser = create("embedded", None)
        try:
            outcome = await analyse(analyser, sanitise(hint).text)
        finally:
            await analyser.close()
        if outcome.document is None:
            raise SystemExit(f"semaff explain: analysis failed: {outcome.error}")
        return outcome.document

    return asyncio.run(run())


def _document_from_file(path: str) -> IntentDocument:
    from shared.codec import decode_document

    return decode_document(IntentDocument.from_dict(orjson.loads(Path(path).read_bytes())).canonical_bytes().decode())


def _pod_for(args: argparse.Namespace) -> PodRecord | Mapping[str, Any] | None:
    if args.pod:
        objects = load_objects(args.pod)
        if not objects:
            raise SystemExit(f"semaff explain: no pod in {args.pod}")
        return objects[0]
    if args.workload:
        kind, _, name = args.workload.rpartition("/")
        return PodRecord(namespace=args.namespace, name="explain", uid="", node=None,
                         workload_kind=kind or "Deployment", workload=name)
    return None


def _table(result: Mapping[str, Any]) -> str:
    rows = result["ranking"]
    names = [i["intent"] for i in result["intents"]["intents"]]
    header = ["node", "score", "raw", *names]
    body = [[r["node"], str(r["score"]), f"{r['raw']:.2f}", *(f"{r['contributions'][n]:.2f}" for n in names)]
            for r in rows]
    widths = [max(len(c) for c in column) for column in zip(header, *body, strict=True)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in [header, *body]]
    intro = [f"intents ({result['mode']}): " + (", ".join(
        f"{i['intent']} C={i['confidence']:.2f} W={i['strength']:g}" for i in result["intents"]["intents"]) or "none")]
    if result["neutral"]:
        intro.append(f"neutral: {result['neutral']} (every node scores 0)")
    gpus = [f"  {node}: {g['count']:g} GPU(s) from {g['source'] or 'nowhere'}, {g['claimed']:g} held by claims"
            + (f", {g['mig_devices']:g} MIG" if g["mig_devices"] else "")
            + f", {g['product'] or 'model unknown'}"
            + (f", {g['memory_gb']:.1f} GB each" if g["memory_gb"] is not None else "")
            + f", NVLink {'unknown' if g['nvlink'] is None else 'yes' if g['nvlink'] else 'no'}"
            + (f" ({g['nvlink_source']})" if g["nvlink_source"] else "")
            for node, g in result.get("gpus", {}).items()]
    return "\n".join(intro + lines + (["GPU facts:", *gpus] if gpus else []))


def cli_main(argv: list[str]) -> int:
    """``semaff explain --hint TEXT --nodes FILE [--pods FILE] [--mode additive|tiered] [--json]``."""
    parser = argparse.ArgumentParser(prog="semaff explain", description="Per-node score breakdown for a hint.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--hint", help="the placement hint (analysed with the embedded analyser)")
    source.add_argument("--intents", help="an intent document (JSON) instead of a hint")
    parser.add_argument("--nodes", required=True, help="YAML/JSON: NodeList, or a List mixing Node, Pod, "
                        "NodeResourceTopology, ResourceSlice and ResourceClaim objects")
    parser.add_argument("--pods", help="YAML/JSON: pods already placed (they must carry spec.nodeName)")
    parser.add_argument("--pod", help="YAML/JSON: the pod being placed (its workload and requests)")
    parser.add_argument("--workload", help="KIND/NAME of the pod being placed, e.g. Deployment/web")
    parser.add_argument("--namespace", default="default", help="namespace for --workload (default: default)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.TIERED.value)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    try:
        document = _analyse(args.hint) if args.hint is not None else _document_from_file(args.intents)
        nodes = load_objects(args.nodes)
        pods = load_objects(args.pods) if args.pods else []
        result = explain_offline(document, nodes, pods, _pod_for(args), Mode(args.mode))
    except (OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as exc:
        print(f"semaff explain: {exc}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
    else:
        print(_table(result))
    return 0
