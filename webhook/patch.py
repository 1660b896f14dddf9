"""RFC 6902 JSON-Patch operations for pods, with RFC 6901 pointer escaping.

Annotation and label keys contain ``/`` (``semantic-affinity.io/status``), which a JSON Pointer
must spell ``~1`` (and ``~`` as ``~0``, escaped first). Adding a child of a map or list that does
not exist fails, so the builders here add the whole parent when it is absent.

Never ``test`` a user's string. kube-apiserver's JSON-Patch library compares a ``test`` value with
the stored one as raw JSON bytes, without decoding escapes: the stored pod is Go-encoded (``ü`` as
raw UTF-8, ``<`` as ``\u003c``) while a Python client sends ``\u00fc`` and ``<``, so the same text
"differs" and the patch fails with 422 for any non-ASCII hint or one with ``<``, ``>`` or ``&``.
Preconditions therefore use the resourceVersion (digits) and our own ASCII gate name only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Op = dict[str, Any]


def escape(token: str) -> str:
    """One reference token of a JSON Pointer (RFC 6901 section 3): ``~`` -> ``~0``, ``/`` -> ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str | int) -> str:
    return "".join("/" + escape(str(token)) for token in tokens)


def set_map_entries(
    existing: Mapping[str, Any] | None, parent: tuple[str, ...], entries: Mapping[str, str]
) -> list[Op]:
    """Ops that set ``entries`` in the map at ``parent`` (e.g. ``("metadata", "annotations")``).

    ``add`` on an object member replaces an existing value (RFC 6902 4.1), so it serves both cases.
    """
    if not entries:
        return []
    if existing is None:
        return [{"op": "add", "path": pointer(*parent), "value": dict(entries)}]
    return [{"op": "add", "path": pointer(*parent, key), "value": value} for key, value in entries.items()]


def remove_map_entries(existing: Mapping[str, Any] | None, parent: tuple[str, ...], keys: Iterable[str]) -> list[Op]:
    """Ops that remove those of ``keys`` present in the map at ``parent`` (absent keys: no op)."""
    if not existing:
        return []
    return [{"op": "remove", "path": pointer(*parent, key)} for key in keys if key in existing]


def add_scheduling_gate(spec: Mapping[str, Any], gate: str) -> list[Op]:
    """Add ``gate`` to ``spec.schedulingGates``: create the list if absent, append otherwise, no-op if present."""
    gates = spec.get("schedulingGates")
    if not gates:
        # absent, null or [] : set the whole list (an `add` to `/-` of a missing list fails)
        return [{"op": "add", "path": "/spec/schedulingGates", "value": [{"name": gate}]}]
    if any(isinstance(g, Mapping) and g.get("name") == gate for g in gates):
        return []
    return [{"op": "add", "path": "/spec/schedulingGates/-", "value": {"name": gate}}]


def gate_index(spec: Mapping[str, Any] | None, gate: str) -> int | None:
    """Position of ``gate`` in ``spec.schedulingGates``, or None."""
    for index, item in enumerate((spec or {}).get("schedulingGates") or ()):
        if isinstance(item, Mapping) and item.get("name") == gate:
            return index
    return None


def remove_scheduling_gate(index: int, gate: str) -> list[Op]:
    """Remove the gate at ``index``, guarded by a ``test`` so a concurrent change makes the patch fail (422).

    Other gates are left untouched; an empty list afterwards means the pod is schedulable.
    """
    path = pointer("spec", "schedulingGates", index)
    return [{"op": "test", "path": path + "/name", "value": gate}, {"op": "remove", "path": path}]


def expect_version(resource_version: str) -> Op:
    """Optimistic concurrency: the patch applies only to the object at ``resource_version``.

    kube-apiserver treats a resourceVersion in the patched object as a precondition and answers 409
    Conflict when the object changed meanwhile (a user edited the hint, another writer finished it),
    so 409 means "re-read and retry" and 422 keeps meaning "the apiserver refuses what we write".
    """
    return {"op": "replace", "path": "/metadata/resourceVersion", "value": resource_version}
