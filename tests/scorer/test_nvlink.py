"""NVLink verdicts from HAMi's pair scores and DCGM's P2P status, and their order of trust on a node."""

from __future__ import annotations

import orjson

from scorer.facts import LiveMetrics, node_facts, with_gpu_sources
from scorer.nvlink import hami_nvlink, p2p_nvlink
from scorer.state import ClusterState


def hami(scores: dict[str, dict[str, int]]) -> str:
    """hami.io/node-nvidia-score as HAMi's device plugin writes it (ENABLE_TOPOLOGY_SCORE=true)."""
    return orjson.dumps([{"uuid": uuid, "score": peers} for uuid, peers in scores.items()]).decode()


def test_hami_scores() -> None:
    nvlinked = hami({"GPU-a": {"GPU-b": 1200}, "GPU-b": {"GPU-a": 1200}})  # 12 NVLinks: 100 each
    pcie = hami({"GPU-a": {"GPU-b": 50}, "GPU-b": {"GPU-a": 50}})  # a single PCIe switch
    assert (hami_nvlink(nvlinked), hami_nvlink(pcie)) == (True, False)
    assert hami_nvlink(None) is None and hami_nvlink("not json") is None and hami_nvlink('{"a": 1}') is None


def test_p2p_pairs() -> None:
    assert p2p_nvlink([("0", "1", 0.0), ("1", "0", 0.0)]) is True
    assert p2p_nvlink([("0", "1", 4.0), ("1", "0", 4.0)]) is False
    assert p2p_nvlink([]) is None


def test_order_of_trust_on_a_node() -> None:
    labels = {"nvidia.com/gpu.count": "2", "nvidia.com/gpu.clique": "7b968a6d-c8aa-45e1-9e07-e1e51be99c31.1",
              "semantic-affinity.io/nvlink": "false"}
    raw = {"metadata": {"name": "n", "labels": labels,
                        "annotations": {"hami.io/node-nvidia-score": hami({"GPU-a": {"GPU-b": 40},
                                                                           "GPU-b": {"GPU-a": 40}})}}}
    facts = node_facts(raw)
    assert (facts.nvlink, facts.nvlink_source) == (False, "hami")  # HAMi over GFD's clique and the label
    measured = with_gpu_sources(facts, None, True)
    assert (measured.nvlink, measured.nvlink_source) == (True, "dcgm-p2p")  # DCGM over everything on the Node

    state = ClusterState(staleness_s=60.0)
    state.upsert_node(raw)
    state.set_live({"n": LiveMetrics(nvlink_p2p=True, nvlink_p2p_at=1000.0)}, 1000.0)
    assert state.nodes["n"].nvlink is True
    state.set_live({"n": LiveMetrics(nvlink_p2p=True, nvlink_p2p_at=1000.0)}, 2000.0)  # stale: back to HAMi
    assert (state.nodes["n"].nvlink, state.nodes["n"].nvlink_source) == (False, "hami")
