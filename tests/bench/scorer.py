"""Benchmark: /prioritize over loopback HTTP at 500, 1,000 and 5,000 nodes (``make bench``).

The scorer runs in its own process pinned to one core (when the machine lets us pin), with a cache
of N nodes carrying realistic labels (region/zone/rack, GFD GPU labels on a tenth of them, network
speed, NFD SSD label, NRT zones) and 30 bound pods per node. The client, in this process, sends
what kube-scheduler sends with ``nodeCacheCapable: true``: the real fixture pod with signed
annotations for a 5-intent hint and ``NodeNames`` for all N nodes.

Floor = what any Python extender must do for the same exchange: decode that request and encode
that response with orjson, in this process. Reported: p50/p99 latency and p99 / floor (median).
Measures only; never asserts on speed.

Two request streams per size: ``same`` repeats one request (kube-scheduler resends one feasible list
when it scores every node), ``rotating`` sends the same nodes starting at a different one each time
(kube-scheduler's rotating start when it scores a sample), so no per-list cache applies.
"""

from __future__ import annotations

import copy
import http.client
import multiprocessing as mp
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import orjson

SIZES = (500, 1000, 5000)
PODS_PER_NODE = 30
REQUESTS = 200
WARMUP = 20
FIXTURE = Path(__file__).parents[1] / "fixtures" / "extender" / "pod.json"
HINT = ("spread across zones, ideally nodes with 64GB RAM and SSDs, not next to the logging agent, "
        "on the least loaded nodes")


def _document() -> Any:
    from shared.intents import Intent, IntentDocument

    return IntentDocument(intents=(
        Intent("avoid_same_node_as_deployments", 0.9, 1.0, metadata={"deployments": ("logging-agent",)}),
        Intent("prefer_least_loaded_nodes", 0.8, 1.0),
        Intent("prefer_memory_gb", 0.85, 0.5, metadata={"prefer_memory_gb": 64.0}),
        Intent("prefer_ssd_storage", 0.85, 0.5),
        Intent("spread_zones", 0.95, 1.5),
    ))


def node_objects(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """N v1.Node dicts as kubelets, GFD and NFD label them."""
    rng = random.Random(seed)
    nodes = []
    for i in range(count):
        zone = f"us-east-1{'abc'[i % 3]}"
        labels = {
            "kubernetes.io/hostname": f"node-{i:05d}", "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
            "node.kubernetes.io/instance-type": rng.choice(["m6i.4xlarge", "r6i.8xlarge", "p4d.24xlarge"]),
            "topology.kubernetes.io/region": "us-east-1", "topology.kubernetes.io/zone": zone,
            "topology.kubernetes.io/rack": f"rack-{i // 20}",
            "semantic-affinity.io/network-gbps": rng.choice(["10", "25", "100"]),
            "feature.node.kubernetes.io/cpu-model.vendor_id": "Intel",
        }
        if rng.random() < 0.5:
            labels["feature.node.kubernetes.io/storage-nonrotationaldisk"] = "true"
        allocatable = {"cpu": rng.choice(["15890m", "31750m", "63"]), "memory": rng.choice(["60Gi", "124Gi", "250Gi"]),
                       "ephemeral-storage": "189Gi", "pods": "110"}
        if i % 10 == 0:
            labels.update({"nvidia.com/gpu.count": "8", "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
                           "nvidia.com/gpu.memory": "81920", "nvidia.com/gpu.family": "ampere"})
            allocatable["nvidia.com/gpu"] = "8"
        nodes.append({"metadata": {"name": f"node-{i:05d}", "labels": labels, "resourceVersion": str(1000 + i)},
                      "status": {"allocatable": allocatable, "capacity": allocatable}})
    return nodes


def _serve(count: int, public_pem: bytes, port_pipe: Any, stop: Any, core: int | None) -> None:
    """The scorer process: cache of ``count`` nodes and 30 pods per node, served on 127.0.0.1."""
    import asyncio

    from aiohttp import web

    from scorer.__main__ import tune_gc
    from scorer.app import make_app
    from scorer.facts import PodRecord
    from scorer.metrics import ScorerMetrics
    from scorer.settings import Settings
    from scorer.state import ClusterState
    from shared.signing import Verifier

    if core is not None:
        os.sched_setaffinity(0, {core})
    rng = random.Random(11)
    state = ClusterState()
    state.replace_nodes(node_objects(count))
    names = sorted(state.nodes)
    workloads = [f"svc-{w}" for w in range(max(50, count // 5))]
    records = []
    for n, name in enumerate(names):
        records.append(PodRecord("kube-system", f"logging-agent-{n}", f"log-{n}", name, "DaemonSet", "logging-agent",
                                 0.1, 0.2))
        for k in range(PODS_PER_NODE - 1):
            workload = rng.choice(workloads)
            records.append(PodRecord("apps", f"{workload}-{n}-{k}", f"u-{n}-{k}", name, "Deployment", workload,
                                     rng.choice([0.1, 0.25, 0.5, 1.0]), rng.choice([0.25, 0.5, 1.0, 2.0])))
    records += [PodRecord("capture", f"web-{i}", f"w-{i}", rng.choice(names), "Deployment", "web", 0.1, 0.1)
                for i in range(40)]
    state.pods.replace_all(records)
    state.mark_synced("nodes")
    state.mark_synced("pods")
    tune_gc()  # what python -m scorer does once the cache is synced

    async def main() -> None:
        app = make_app(Settings(), state=state, verifier=Verifier.from_pem([public_pem]), metrics=ScorerMetrics(),
                       kube=False)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port_pipe.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await runner.cleanup()

    asyncio.run(main())


def _mean_handler_ms(exposition: str) -> float:
    """Mean time inside the /prioritize handler, from the scorer's own histogram."""
    values = {}
    for line in exposition.splitlines():
        for name in ("semaff_scorer_prioritize_seconds_sum", "semaff_scorer_prioritize_seconds_count"):
            if line.startswith(name + " "):
                values[name] = float(line.split()[1])
    count = values.get("semaff_scorer_prioritize_seconds_count", 0.0)
    return 1000 * values.get("semaff_scorer_prioritize_seconds_sum", 0.0) / count if count else float("nan")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _request_body(count: int, signer: Any, start: int = 0) -> bytes:
    from shared.codec import HINT as HINT_KEY
    from shared.codec import Analysis, build_annotations
    from shared.sanitise import hint_sha256, sanitise

    pod = copy.deepcopy(orjson.loads(FIXTURE.read_bytes()))
    analysis = Analysis("embedded", "bench", "v1", hint_sha256(sanitise(HINT).text))
    pod["metadata"]["annotations"] = {HINT_KEY: HINT, **build_annotations(_document(), analysis, signer)}
    names = [f"node-{(start + i) % count:05d}" for i in range(count)]
    return orjson.dumps({"Pod": pod, "Nodes": None, "NodeNames": names})


def measure(count: int, signer: Any, public_pem: bytes, rotating: bool = False) -> dict[str, float]:
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    # Pinning the server to a core of its own only helps on an otherwise idle machine (SEMAFF_BENCH_PIN=1);
    # unpinned it is still one thread, so it never uses more than one core at a time.
    server_core = cores[-1] if len(cores) > 1 and os.environ.get("SEMAFF_BENCH_PIN") == "1" else None
    if server_core is not None:
        os.sched_setaffinity(0, set(cores[:-1]))  # the client keeps off the server's core
    context = mp.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    stop = context.Event()
    server = context.Process(target=_serve, args=(count, public_pem, send, stop, server_core), daemon=True)
    server.start()
    try:
        if not receive.poll(300):
            raise RuntimeError("the scorer process did not start")
        port = receive.recv()
        body = _request_body(count, signer)
        bodies = [_request_body(count, signer, 7 * i + 1) for i in range(WARMUP + REQUESTS)] if rotating else None
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Content-Type": "application/json"}
        latencies, reply = [], b""
        for i in range(WARMUP + REQUESTS):
            started = time.perf_counter()
            connection.request("POST", "/prioritize", body=bodies[i] if bodies else body, headers=headers)
            response = connection.getresponse()
            reply = response.read()
            elapsed = time.perf_counter() - started
            if response.status != 200:
                raise RuntimeError(f"HTTP {response.status}: {reply[:200]!r}")
            if i >= WARMUP:
                latencies.append(elapsed * 1000)
        connection.request("GET", "/metrics")
        exposition = connection.getresponse().read().decode()
        connection.close()
        handler_ms = _mean_handler_ms(exposition)
        scores = orjson.loads(reply)
        if len(scores) != count or not any(s["Score"] == 10 for s in scores):
            raise RuntimeError("unexpected prioritize reply")
        floors = []
        for _ in range(REQUESTS):
            started = time.perf_counter()
            orjson.loads(body)
            orjson.dumps(scores)
            floors.append((time.perf_counter() - started) * 1000)
    finally:
        stop.set()
        server.join(20)
        if server.is_alive():
            server.kill()
            server.join()
        if server_core is not None:
            os.sched_setaffinity(0, set(cores))
    p50, p99, floor = statistics.median(latencies), _percentile(latencies, 0.99), statistics.median(floors)
    suffix = f"rotating_{count}" if rotating else f"{count}"
    return {f"scorer_p50_ms_{suffix}": round(p50, 3), f"scorer_p99_ms_{suffix}": round(p99, 3),
            f"scorer_handler_mean_ms_{suffix}": round(handler_ms, 3),
            f"scorer_floor_ms_{suffix}": round(floor, 3), f"scorer_floor_ratio_{suffix}": round(p99 / floor, 2),
            f"scorer_p50_floor_ratio_{suffix}": round(p50 / floor, 2)}


def run() -> dict[str, float]:
    from shared.signing import Signer, generate_private_key_pem, public_key_pem

    private = generate_private_key_pem()
    signer, public = Signer(private), public_key_pem(private)
    figures: dict[str, float] = {}
    print(f"{'nodes':>6} {'list':>9} {'p50 ms':>8} {'p99 ms':>8} {'handler ms':>11} {'floor ms':>9} "
          f"{'p99/floor':>10} {'p50/floor':>10} {'p50 µs/node':>12}")
    for count in SIZES:
        for rotating in (False, True):
            result = measure(count, signer, public, rotating)
            figures.update(result)
            key = f"rotating_{count}" if rotating else f"{count}"
            p50, floor = result[f"scorer_p50_ms_{key}"], result[f"scorer_floor_ms_{key}"]
            stream = "rotating" if rotating else "same"
            print(f"{count:>6} {stream:>9} {p50:>8.2f} {result[f'scorer_p99_ms_{key}']:>8.2f} "
                  f"{result[f'scorer_handler_mean_ms_{key}']:>11.2f} {floor:>9.3f} "
                  f"{result[f'scorer_floor_ratio_{key}']:>10.1f} {p50 / floor:>10.1f} {1000 * p50 / count:>12.2f}",
                  flush=True)
    print(f"({REQUESTS} requests each, 5 intents, {PODS_PER_NODE} pods per node, nodeCacheCapable; handler = mean "
          "time inside /prioritize; floor = orjson decode of the request + encode of the reply; "
          "goal p99 at 5,000 nodes ≤ 15 ms and ≤ 5x floor)")
    return figures


if __name__ == "__main__":
    print(orjson.dumps(run()).decode())
