"""``semaff explain`` (ARCHITECTURE.md 2.7): the scorer's own scoring code on YAML/JSON files, offline.

The command line turns its input into an intent document (a ``--hint`` through the embedded analyser,
the way ``semaff analyze`` sends it; or an ``--intents`` file) and reads the node and pod files;
``scorer.explain.explain_offline`` takes the document and the objects and does the scoring.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson
import yaml

from scorer.explain import explain_offline
from scorer.facts import PodRecord
from scorer.scoring import Mode
from semaff.analyze import analyse_hint, open_backend, read_settings
from shared.codec import decode_document
from shared.intents import IntentDocument


class _Failed(Exception):
    """The hint could not be turned into an intent document (the reason is already on stderr)."""


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


def _analyse(hint: str) -> IntentDocument:
    """The embedded analyser on one hint, on the path ``semaff analyze`` takes (the webhook's)."""
    settings = read_settings(os.environ, sys.stderr)
    analyser = open_backend("embedded", settings, sys.stderr) if settings is not None else None
    if settings is None or analyser is None:
        raise _Failed

    async def run() -> IntentDocument | None:
        try:
            outcome = await analyse_hint(analyser, hint, settings)
        finally:
            await analyser.close()
        if outcome.document is None:
            print(f"semaff explain: analysis failed: {outcome.error}", file=sys.stderr)
        return outcome.document

    document = asyncio.run(run())
    if document is None:
        raise _Failed
    return document


def _document_from_file(path: str) -> IntentDocument:
    """An intent document file, held to the canonical form the scorer reads from annotations."""
    return decode_document(IntentDocument.from_dict(orjson.loads(Path(path).read_bytes())).canonical_bytes().decode())


def _pod_for(args: argparse.Namespace) -> PodRecord | Mapping[str, Any] | None:
    if args.pod:
        objects = load_objects(args.pod)
        if not objects:
            raise ValueError(f"no pod in {args.pod}")
        return objects[0]  # raw: its ResourceClaims in the files count
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


def explain_main(argv: list[str]) -> int:
    """``semaff explain (--hint TEXT | --intents FILE) --nodes FILE [--pods FILE] [--mode additive|tiered] [--json]``.

    Exit status: 0 printed, 2 unreadable input or a hint that could not be analysed.
    """
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
    except _Failed:
        return 2
    except (OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as exc:
        print(f"semaff explain: {exc}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
    else:
        print(_table(result))
    return 0
