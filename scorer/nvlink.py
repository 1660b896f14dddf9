"""NVLink from what GPU clusters already publish, each source reduced to one verdict per node.

Every source gives, for some GPUs of a node, whether that GPU has an NVLink peer;
``shared.nvlink.verdict`` turns that into the node's fact (yes / no / unknown).

- DCGM exporter ``DCGM_EXP_P2P_STATUS``: one series per GPU pair (labels ``gpu``, ``peer_gpu``,
  ``link_status``), value 0 = NVLink P2P OK (dcgm-exporter internal/pkg/collector/p2p_status_collector.go).
- HAMi ``hami.io/node-nvidia-score`` node annotation: ``[{"uuid": "GPU-a", "score": {"GPU-b": N}}]``,
  N = 100 × NVLink count for NVLink pairs, at most 60 for PCIe paths (HAMi topology-aware policy).
- ``nvidia-smi topo -m`` (the node agent, ``nodeagent.topo``): ``NV#`` cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import orjson

from shared.nvlink import verdict

HAMI_NVLINK_SCORE = 100  # one NVLink: 100; the best PCIe path (same board): 60


def hami_nvlink(annotation: str | None) -> bool | None:
    """NVLink from HAMi's pair scores; None when absent or unreadable."""
    if not annotation:
        return None
    try:
        entries = orjson.loads(annotation)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(entries, list):
        return None
    linked: dict[str, bool] = {}
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("uuid"), str):
            continue
        scores = entry.get("score") if isinstance(entry.get("score"), Mapping) else {}
        linked[entry["uuid"]] = any(isinstance(v, int | float) and v >= HAMI_NVLINK_SCORE
                                    for peer, v in scores.items() if peer != entry["uuid"])
    return verdict(linked)


def p2p_nvlink(pairs: Iterable[tuple[str, str, float]]) -> bool | None:
    """NVLink from DCGM P2P status series of one node: (gpu, peer_gpu, value), value 0 = OK."""
    linked: dict[str, bool] = {}
    for gpu, peer, value in pairs:
        if gpu == peer:
            continue
        linked[gpu] = linked.get(gpu, False) or value == 0
    return verdict(linked)
