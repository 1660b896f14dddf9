"""DRA bookkeeping at scale: ResourceSlices and ResourceClaims as the NVIDIA driver and kube-scheduler write them.

5,000 nodes with one slice of 8 H100s each (tests/fixtures/dra shapes) and one allocated claim per node:
the informers' first list, an unchanged periodic re-list (every ``SEMAFF_RELIST_S``, on the event loop, so it
must stay small next to a /prioritize call), and single claim updates as the scheduler allocates.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any

import orjson

from scorer.state import ClusterState

NODES = 5000
FIXTURES = Path(__file__).parents[1] / "fixtures" / "dra"


def _objects() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    slice_ = orjson.loads((FIXTURES / "slice-h100x8-v25.12.json").read_bytes())
    claim = orjson.loads((FIXTURES / "claim-allocated.json").read_bytes())
    nodes, slices, claims = [], [], []
    for i in range(NODES):
        name = f"gpu-{i:05d}"
        nodes.append({"metadata": {"name": name, "resourceVersion": "1"},
                      "status": {"allocatable": {"cpu": "224", "memory": "2Ti", "pods": "110"}}})
        body = copy.deepcopy(slice_)
        body["metadata"] = {"name": f"{name}-gpu.nvidia.com-x7k2p", "resourceVersion": str(10 + i)}
        body["spec"]["nodeName"] = name
        body["spec"]["pool"]["name"] = name
        slices.append(body)
        held = copy.deepcopy(claim)
        held["metadata"] = {"name": f"job-{i}-gpu", "namespace": "ml", "resourceVersion": str(90000 + i)}
        held["status"]["allocation"]["devices"]["results"] = [
            {"request": "gpu", "driver": "gpu.nvidia.com", "pool": name, "device": f"gpu-{d}"} for d in range(4)]
        claims.append(held)
    return nodes, slices, claims


def run() -> dict[str, float]:
    nodes, slices, claims = _objects()
    state = ClusterState()
    state.replace_nodes(nodes)
    started = time.perf_counter()
    state.replace_slices(slices)
    first_slices = time.perf_counter() - started
    started = time.perf_counter()
    state.replace_claims(claims)
    first_claims = time.perf_counter() - started
    started = time.perf_counter()
    state.replace_slices(slices)
    state.replace_claims(claims)
    relist = time.perf_counter() - started
    updates = 2000
    started = time.perf_counter()
    for i in range(updates):  # the scheduler releases and re-allocates claims one by one
        body = claims[i % NODES]
        body["metadata"]["resourceVersion"] = str(200000 + i)
        if i % 2:
            body["status"]["allocation"]["devices"]["results"] = body["status"]["allocation"]["devices"]["results"][:2]
        state.upsert_claim(body)
    per_update = (time.perf_counter() - started) / updates
    assert state.nodes["gpu-00000"].gpu_count == 8
    figures = {"dra_first_list_slices_s": first_slices, "dra_first_list_claims_s": first_claims,
               "dra_relist_unchanged_ms": relist * 1000, "dra_claim_update_us": per_update * 1e6}
    print(f"{NODES} nodes x 8 GPUs: first list of slices {first_slices:.2f} s, of claims {first_claims:.2f} s; "
          f"unchanged re-list (slices + claims) {relist * 1000:.1f} ms; one claim update {per_update * 1e6:.0f} µs")
    return figures


if __name__ == "__main__":
    print(orjson.dumps(run()).decode())
