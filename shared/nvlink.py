"""The NVLink fact of a node, from "has this GPU an NVLink peer?" per GPU: one rule for every source.

Used by the scorer (DCGM's P2P status, HAMi's pair scores) and by the node agent (``nvidia-smi topo -m``):
``True`` when every GPU (at least two) has an NVLink peer, ``False`` when none has or there is a single
GPU, ``None`` (unknown, neutral) when only some have, since a multi-GPU pod may or may not get a linked
pair there.
"""

from __future__ import annotations

from collections.abc import Mapping


def verdict(linked: Mapping[str, bool]) -> bool | None:
    """The node's NVLink fact from "has this GPU an NVLink peer" per GPU (no GPUs known: None)."""
    if len(linked) < 2:
        return False if linked else None
    values = set(linked.values())
    return True if values == {True} else False if values == {False} else None
