"""Scheduler throughput with and without our extender: the real kube-scheduler, 1,000 nodes, 2,000 pods.

One control plane, one run, two phases that differ only in the scheduler's ``extenders`` entry:
1. ``without``: kube-scheduler with the ``semantic-scheduler`` profile and no extender;
2. ``with``: the same profile with our scorer as extender (weight 100, nodeCacheCapable).

Each phase creates the same 2,000 pre-analysed pods (valid signed intent annotations, no
scheduling gate, four kinds of hint) in bursts of 250 while the scheduler is stopped, then starts
the scheduler and times bindings from the first to the last, as seen on a watch. Creating first
keeps the Python client's create rate out of the figure; the scheduler drains a 2,000-pod backlog.
The scorer runs in both phases (watching the same pods), so only the prioritize calls differ.

Prints a table and returns ``scheduler_pods_per_s_with``, ``scheduler_pods_per_s_without`` and
``scheduler_throughput_ratio`` (with / without). Measures only: nothing here asserts on speed.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from pathlib import Path
from typing import Any

from certs import tool as certs
from localcluster import SEMANTIC_SCHEDULER, ControlPlane, NodeSpec
from localcluster.metrics import scrape, total
from localcluster.nodes import NETWORK, RACK, REGION, ZONE
from shared.codec import Analysis, build_annotations
from shared.normalise import normalise
from shared.sanitise import hint_sha256, sanitise
from shared.signing import Signer

NODES = 1000
PODS = 2000
BURST = 250
WORKERS = 4
PHASE_TIMEOUT_S = 300.0

HINTS: tuple[tuple[str, list[dict[str, Any]]], ...] = (
    ("spread these pods evenly across all available zones", [{"intent": "spread_zones", "confidence": 0.9}]),
    ("needs a GPU", [{"intent": "prefer_gpu", "confidence": 0.9, "metadata": {"prefer_gpu_cores": 1}}]),
    (
        "at least 25 Gbps network",
        [{"intent": "prefer_network_speed", "confidence": 0.9, "metadata": {"prefer_network_speed_gbps": 25}}],
    ),
    (
        "ideally in us-east-1b, not on rack-7",
        [
            {
                "intent": "prefer_zones",
                "confidence": 0.9,
                "strength": 0.5,
                "metadata": {"prefer_zones": ["us-east-1b"]},
            },
            {"intent": "avoid_racks", "confidence": 0.9, "metadata": {"avoid_racks": ["rack-7"]}},
        ],
    ),
)


def node_specs(count: int = NODES) -> list[NodeSpec]:
    """Four zones, 50 racks, a GPU on every tenth node, 10/25/100 Gbps networks."""
    specs = []
    for i in range(count):
        labels = {
            REGION: "us-east-1",
            ZONE: f"us-east-1{'abcd'[i % 4]}",
            RACK: f"rack-{i % 50}",
            NETWORK: ("10", "25", "100")[i % 3],
        }
        specs.append(NodeSpec(f"bench-{i:04d}", labels=labels, gpus=1 if i % 10 == 0 else 0))
    return specs


def annotation_sets(signer: Signer) -> list[dict[str, str]]:
    """What the webhook would have written for each hint: intents, signature, status, analysis, summary."""
    sets = []
    for hint, raw in HINTS:
        document = normalise(raw).document
        analysis = Analysis("embedded", "bench", "bench", hint_sha256(sanitise(hint).text))
        sets.append({"semantic-affinity.io/hint": hint, **build_annotations(document, analysis, signer)})
    return sets


def pod_manifest(index: int, annotations: dict[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": f"bench-{index:05d}",
            "labels": {"app": f"bench-{index % 20}"},
            "annotations": annotations,
        },
        "spec": {
            "schedulerName": SEMANTIC_SCHEDULER,
            "terminationGracePeriodSeconds": 0,
            "containers": [
                {
                    "name": "app",
                    "image": "registry.k8s.io/pause:3.10",
                    "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
                }
            ],
        },
    }


def _parallel(plane: ControlPlane, items: list[Any], call: Any) -> None:
    """Run ``call(kube, item)`` over items with one client per worker thread."""
    local = threading.local()

    def work(item: Any) -> None:
        if not hasattr(local, "kube"):
            local.kube = plane.client()
        call(local.kube, item)

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(work, items))


def _scheduled(plane: ControlPlane) -> float:
    return plane.scheduler_metric("scheduler_schedule_attempts_total", result="scheduled", profile=SEMANTIC_SCHEDULER)


def phase(plane: ControlPlane, label: str, extender: bool, pods: list[dict[str, Any]]) -> dict[str, float]:
    """Create the backlog with the scheduler stopped, start it, and time its bindings."""
    namespace = f"bench-{label}"
    plane.create_namespace(namespace)
    plane.stop_service("kube-scheduler")
    created = time.monotonic()
    for start in range(0, len(pods), BURST):
        _parallel(
            plane,
            pods[start : start + BURST],
            lambda kube, pod: kube.create(f"/api/v1/namespaces/{namespace}/pods", pod),
        )
    create_s = time.monotonic() - created
    started = time.monotonic()
    plane.restart_scheduler(extender)
    # The scheduler's own counter (incremented after a successful bind): a watch from Python can
    # fall behind a 2,000-pod burst on 2 busy cores, and the apiserver then drops it.
    samples: list[tuple[float, float]] = []
    deadline = started + PHASE_TIMEOUT_S
    while time.monotonic() < deadline:
        count = _scheduled(plane)
        samples.append((time.monotonic(), count))
        if count >= len(pods):
            break
        time.sleep(0.2)
    moving = [(t, c) for t, c in samples if c > 0]
    first, last = (moving[0], moving[-1]) if moving else ((started, 0.0), (started, 0.0))
    span = last[0] - first[0]
    rate = (last[1] - first[1]) / span if span > 0 else 0.0
    bound = sum(1 for p in plane.kube.items(f"/api/v1/namespaces/{namespace}/pods") if p["spec"].get("nodeName"))
    # Force-delete in one call: bound pods never finish a graceful delete without a kubelet.
    plane.kube.delete(f"/api/v1/namespaces/{namespace}/pods", gracePeriodSeconds=0)
    return {"bound": bound, "rate": rate, "span_s": span, "first_s": first[0] - started, "create_s": create_s}


def scorer_totals(plane: ControlPlane) -> tuple[float, float]:
    """(prioritize calls answered, seconds spent answering them) from the scorer's /metrics."""
    samples = scrape(f"{plane.scorer_url}/metrics")
    return (total(samples, "semaff_scorer_requests_total", verb="prioritize", outcome="ok"),
            total(samples, "semaff_scorer_prioritize_seconds_sum"))


def run() -> dict[str, float]:
    began = time.monotonic()
    with ControlPlane() as plane:
        print(f"creating {NODES} nodes ...", flush=True)
        _parallel(plane, node_specs(), lambda kube, spec: plane_create_node(kube, spec))
        plane.start_scorer()
        signer = Signer.from_file(Path(plane.service_certs()) / certs.SIGNING_KEY)
        sets = annotation_sets(signer)
        pods = [pod_manifest(i, sets[i % len(sets)]) for i in range(PODS)]
        results = {}
        for label, extender in (("without", False), ("with", True)):
            calls_before, seconds_before = scorer_totals(plane)
            print(f"phase {label} extender: {PODS} pods ...", flush=True)
            results[label] = phase(plane, label, extender, pods)
            calls_after, seconds_after = scorer_totals(plane)
            calls = calls_after - calls_before
            results[label]["prioritize_calls"] = calls
            results[label]["scorer_ms"] = 1000 * (seconds_after - seconds_before) / calls if calls else 0.0
    print(
        f"\nkube-scheduler throughput, {NODES} nodes, {PODS} pre-analysed pods per phase "
        f"(total run {time.monotonic() - began:.0f}s)"
    )
    print(
        f"{'extender':<10} {'bound':>6} {'pods/s':>8} {'span s':>8} {'1st bind s':>10} "
        f"{'create s':>9} {'prioritize':>10} {'scorer ms':>9}"
    )
    for label, r in results.items():
        print(
            f"{label:<10} {r['bound']:>6.0f} {r['rate']:>8.1f} {r['span_s']:>8.1f} {r['first_s']:>10.1f} "
            f"{r['create_s']:>9.1f} {r['prioritize_calls']:>10.0f} {r['scorer_ms']:>9.1f}"
        )
    with_rate, without_rate = results["with"]["rate"], results["without"]["rate"]
    ratio = with_rate / without_rate if without_rate else 0.0
    print(f"ratio with/without: {ratio:.2f}  (goal >= 0.7)")
    return {
        "scheduler_pods_per_s_with": round(with_rate, 1),
        "scheduler_pods_per_s_without": round(without_rate, 1),
        "scheduler_throughput_ratio": round(ratio, 3),
    }


def plane_create_node(kube: Any, spec: NodeSpec) -> None:
    from localcluster.nodes import node_manifest

    kube.create("/api/v1/nodes", node_manifest(spec))


if __name__ == "__main__":
    print(run())
