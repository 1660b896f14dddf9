"""Scheduler throughput: the real kube-scheduler without an extender, with the floor extender, with ours.

One control plane, 1,000 nodes (then 5,000), 2,000 pods per phase. Three kinds of phase differ
only in the scheduler's ``extenders`` entry, written as the chart writes it (weight, ignorable,
nodeCacheCapable, its ``httpTimeout``); everything else is the harness's scheduler configuration,
whose ``percentageOfNodesToScore`` is the default (adaptive sampling, as the chart ships it):
1. ``without``: no extender;
2. ``floor``: the cheapest correct extender (floor_extender/main.go: Go net/http, fixed scores);
3. ``ours``: our scorer (``python -m scorer``, informers and all).

Each phase creates 2,000 pre-analysed pods (valid signed intents, four kinds of hint, 20 workloads)
while the scheduler is stopped, starts it, and times its bindings from the first to the last (its
own counter). The scorer runs in every phase, watching the same pods, so only the prioritize
calls differ. A round runs the three phases; the order alternates between rounds (W F O, O F W,
...), and each ratio is reported as the median over rounds with its spread (max − min).

Where the time goes, per scheduled pod: the scorer's and the floor's CPU time (/proc/PID/stat,
every thread: the watches are included) and the extender round trip as kube-scheduler sees it:
``scheduling_algorithm_duration_seconds`` less the framework's PreFilter, Filter, PreScore and
Score extension points (kube-scheduler has no extender histogram; what is left is the extender
call, with its encoding and decoding, and the small rest of the algorithm, shown by ``without``).

A phase counts only if the extender scored every pod: every pod bound, ``/prioritize`` answers
(the extender's own /metrics) ≥ pods, no internal-error or bad-request answer, and no failed or
timed-out extender call in kube-scheduler's own log (it logs them at V(5) in schedule_one.go,
which alone runs at that level). Otherwise it prints "not measured" and why, and its figures are
left out. Measures only: nothing here asserts on speed.

Sizes for development: SEMAFF_BENCH_NODES, SEMAFF_BENCH_PODS, SEMAFF_BENCH_ROUNDS,
SEMAFF_BENCH_SCALE_NODES (0 skips the scale run), SEMAFF_BENCH_SCALE_ROUNDS.
"""

from __future__ import annotations

import concurrent.futures
import os
import ssl
import statistics
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from prometheus_client.samples import Sample

from certs import tool as certs
from localcluster import SEMANTIC_SCHEDULER, ControlPlane, NodeSpec
from localcluster.metrics import scrape, total
from localcluster.nodes import node_manifest
from localcluster.processes import Process
from shared.codec import Analysis, build_annotations
from shared.labels import NETWORK_GBPS, RACK, REGION, ZONE
from shared.normalise import normalise
from shared.sanitise import hint_sha256, sanitise
from shared.signing import Signer
from tests.bench.extenders import cpu_seconds, cpu_times, start_floor


def _env(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


NODES = _env("SEMAFF_BENCH_NODES", 1000)
PODS = _env("SEMAFF_BENCH_PODS", 2000)
ROUNDS = _env("SEMAFF_BENCH_ROUNDS", 3)
SCALE_NODES = _env("SEMAFF_BENCH_SCALE_NODES", 5000)
SCALE_ROUNDS = _env("SEMAFF_BENCH_SCALE_ROUNDS", 1)
BURST = 250
WORKERS = 8  # creating 2,000 pods per phase is a fifth of the run on 2 busy cores
WORKLOADS = 20
PHASE_TIMEOUT_S = 300.0
KINDS = ("without", "floor", "ours")
CHART_VALUES = Path(__file__).parents[2] / "charts" / "semantic-affinity" / "values.yaml"
FRAMEWORK_POINTS = ("PreFilter", "Filter", "PreScore", "Score")
# kube-scheduler logs a failed extender call (error, timeout) at V(5) in schedule_one.go and counts it nowhere:
# that file alone at 5 (a few lines per pod, in every phase alike) makes its log the witness of each failure.
SCHEDULER_FLAGS = ("--vmodule=schedule_one=5",)
EXTENDER_FAILED = "Failed to run extender's priority function"

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


def node_specs(count: int = NODES, start: int = 0) -> list[NodeSpec]:
    """Four zones, 50 racks, a GPU on every tenth node, 10/25/100 Gbps networks."""
    specs = []
    for i in range(start, count):
        labels = {
            REGION: "us-east-1",
            ZONE: f"us-east-1{'abcd'[i % 4]}",
            RACK: f"rack-{i % 50}",
            NETWORK_GBPS: ("10", "25", "100")[i % 3],
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
            "labels": {"app": f"bench-{index % WORKLOADS}"},
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


def _parallel(plane: ControlPlane, items: list[Any], call: Callable[[Any, Any], Any]) -> None:
    """Run ``call(kube, item)`` over items with one client per worker thread."""
    local = threading.local()

    def work(item: Any) -> None:
        if not hasattr(local, "kube"):
            local.kube = plane.client()
        call(local.kube, item)

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(work, items))


def shipped_extender(url: str) -> dict[str, Any]:
    """The extender entry as charts/semantic-affinity/templates/scheduler/config.yaml writes it, for ``url``."""
    values = yaml.safe_load(CHART_VALUES.read_text())["scheduler"]["extender"]
    return {"urlPrefix": url, "prioritizeVerb": "prioritize", "weight": values["weight"], "nodeCacheCapable": True,
            "ignorable": True, "enableHTTPS": False, "httpTimeout": values["httpTimeout"]}


def _failures(log: Path, offset: int) -> dict[str, int]:
    """Failed extender calls kube-scheduler logged after ``offset`` in its log, by kind of error."""
    with open(log, errors="replace") as f:
        f.seek(offset)
        lines = [line for line in f if EXTENDER_FAILED in line]
    kinds: dict[str, int] = {}
    for line in lines:
        kind = "timeout" if "Timeout" in line or "deadline exceeded" in line else "error"
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


@dataclass
class Phase:
    """One phase's figures; ``problems`` non-empty means it is not measured."""

    kind: str
    bound: int = 0
    rate: float = 0.0
    span_s: float = 0.0
    create_s: float = 0.0
    calls: float = 0.0
    scorer_cpu_ms: float = 0.0  # per bound pod
    scorer_sys_ms: float = 0.0  # the kernel's share of it (sockets)
    floor_cpu_ms: float = 0.0
    scheduler_cpu_ms: float = 0.0
    algorithm_ms: float = 0.0  # mean scheduling_algorithm_duration
    extender_ms: float = 0.0  # algorithm less the framework's extension points
    problems: list[str] = field(default_factory=list)

    @property
    def measured(self) -> bool:
        return not self.problems


class Bench:
    """One control plane, the scorer and the floor; runs phases and rounds over it."""

    def __init__(self, plane: ControlPlane, floor: Process, floor_url: str, pods: list[dict[str, Any]]) -> None:
        self.plane, self.floor, self.floor_url, self.pods = plane, floor, floor_url, pods
        self.runs = 0

    def config(self, kind: str) -> dict[str, Any] | None:
        if kind == "without":
            return None
        config = self.plane.scheduler_config(extender=False)
        url = self.plane.scorer_url if kind == "ours" else self.floor_url
        config["extenders"] = [shipped_extender(url + "/")]
        return config

    def _scheduled(self) -> float:
        return self.plane.scheduler_metric("scheduler_schedule_attempts_total", result="scheduled",
                                           profile=SEMANTIC_SCHEDULER)

    def _answers(self) -> dict[str, float]:
        """Prioritize answers by outcome: the scorer's and the floor's, from their /metrics."""
        scorer = scrape(f"{self.plane.scorer_url}/metrics")
        floor = scrape(f"{self.floor_url}/metrics")
        return {
            "ours": total(scorer, "semaff_scorer_requests_total", verb="prioritize", outcome="ok"),
            "ours-bad": total(scorer, "semaff_scorer_requests_total", verb="prioritize", outcome="bad-request"),
            "ours-internal": total(scorer, "semaff_scorer_neutral_fallbacks_total", reason="internal-error"),
            "floor": total(floor, "floor_requests_total", verb="prioritize", outcome="ok"),
            "floor-bad": total(floor, "floor_requests_total", verb="prioritize", outcome="bad-request"),
        }

    def _cpu(self) -> dict[str, float]:
        user, system = cpu_times(self.plane.procs["scorer"].pid)
        return {"scorer": user + system, "scorer-sys": system, "floor": cpu_seconds(self.floor.pid)}

    def phase(self, kind: str) -> Phase:
        """Create the backlog with the scheduler stopped, start it, and time its bindings."""
        plane, pods, result = self.plane, self.pods, Phase(kind)
        self.runs += 1
        namespace = f"bench-{self.runs}-{kind}"
        plane.create_namespace(namespace)
        plane.stop_service("kube-scheduler")
        created = time.monotonic()
        for start in range(0, len(pods), BURST):
            _parallel(plane, pods[start : start + BURST],
                      lambda kube, pod: kube.create(f"/api/v1/namespaces/{namespace}/pods", pod))
        result.create_s = time.monotonic() - created
        answers, cpu = self._answers(), self._cpu()
        log = plane.log_dir / "kube-scheduler.log"
        log_offset = log.stat().st_size if log.exists() else 0
        started = time.monotonic()
        plane.restart_scheduler(kind != "without", self.config(kind), SCHEDULER_FLAGS)
        scheduler_pid = plane.procs["kube-scheduler"].pid
        # The scheduler's own counter (incremented after a successful bind): a watch from Python can
        # fall behind a 2,000-pod burst on 2 busy cores, and the apiserver then drops it.
        samples: list[tuple[float, float]] = []
        scheduler_cpu = 0.0
        deadline = started + PHASE_TIMEOUT_S
        while time.monotonic() < deadline:
            count = self._scheduled()
            samples.append((time.monotonic(), count))
            if count > 0 and not scheduler_cpu:
                scheduler_cpu = cpu_seconds(scheduler_pid)  # its start-up (informer sync) is not the pods' cost
            if count >= len(pods):
                break
            time.sleep(0.2)
        cpu_after, answers_after = self._cpu(), self._answers()
        scheduler_cpu = cpu_seconds(scheduler_pid) - scheduler_cpu
        moving = [(t, c) for t, c in samples if c > 0]
        first, last = (moving[0], moving[-1]) if moving else ((started, 0.0), (started, 0.0))
        result.span_s = last[0] - first[0]
        result.rate = (last[1] - first[1]) / result.span_s if result.span_s > 0 else 0.0
        self._scheduler_figures(result)
        result.bound = sum(1 for p in plane.kube.items(f"/api/v1/namespaces/{namespace}/pods")
                           if p["spec"].get("nodeName"))
        per_pod = 1000 / max(1, result.bound)
        result.scorer_cpu_ms = (cpu_after["scorer"] - cpu["scorer"]) * per_pod
        result.scorer_sys_ms = (cpu_after["scorer-sys"] - cpu["scorer-sys"]) * per_pod
        result.floor_cpu_ms = (cpu_after["floor"] - cpu["floor"]) * per_pod
        result.scheduler_cpu_ms = scheduler_cpu * per_pod
        delta = {k: answers_after[k] - answers[k] for k in answers}
        self._check(result, delta, _failures(log, log_offset))
        # Force-delete in one call (bound pods never finish a graceful delete without a kubelet), then let
        # the scorer's watch drain the DELETED events so they do not land in the next phase.
        plane.kube.delete(f"/api/v1/namespaces/{namespace}/pods", gracePeriodSeconds=0)
        self._wait_scorer_pods(0)
        return result

    def _scheduler_figures(self, result: Phase) -> None:
        samples = self._scheduler_samples()
        algorithm = "scheduler_scheduling_algorithm_duration_seconds"
        algo_sum, algo_count = total(samples, f"{algorithm}_sum"), total(samples, f"{algorithm}_count")
        framework = sum(total(samples, "scheduler_framework_extension_point_duration_seconds_sum",
                              extension_point=point, profile=SEMANTIC_SCHEDULER) for point in FRAMEWORK_POINTS)
        if algo_count:
            result.algorithm_ms = 1000 * algo_sum / algo_count
            result.extender_ms = 1000 * (algo_sum - framework) / algo_count

    def _scheduler_samples(self) -> list[Sample]:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return scrape(f"https://127.0.0.1:{self.plane.ports.scheduler}/metrics", context)

    def _check(self, result: Phase, delta: Mapping[str, float], failures: Mapping[str, int]) -> None:
        pods = len(self.pods)
        if result.bound < pods:
            result.problems.append(f"only {result.bound} of {pods} pods bound within {PHASE_TIMEOUT_S:.0f} s")
        if result.kind == "without":
            return
        result.calls = delta[result.kind]
        if result.calls < pods:
            result.problems.append(f"{result.calls:.0f} /prioritize answers for {pods} pods")
        bad = delta[f"{result.kind}-bad"] + delta.get(f"{result.kind}-internal", 0.0)
        if bad:
            result.problems.append(f"{bad:.0f} bad-request or internal-error answers")
        for reason, count in failures.items():
            result.problems.append(f"kube-scheduler: {count} extender calls failed ({reason})")

    def _wait_scorer_pods(self, expected: int, timeout_s: float = 120.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            pods = total(scrape(f"{self.plane.scorer_url}/metrics"), "semaff_scorer_cache_objects", resource="pods")
            if pods <= expected:
                return
            time.sleep(0.5)

    def rounds(self, count: int) -> list[dict[str, Phase]]:
        """``count`` rounds of the three phases, the order reversed every other round."""
        results = []
        for r in range(count):
            order = KINDS if r % 2 == 0 else tuple(reversed(KINDS))
            results.append({})
            for kind in order:
                print(f"round {r + 1}/{count}, phase {kind}: {len(self.pods)} pods ...", flush=True)
                results[-1][kind] = self.phase(kind)
        return results


def _ratios(rounds: list[dict[str, Phase]], top: str, bottom: str) -> list[float]:
    return [r[top].rate / r[bottom].rate for r in rounds
            if r[top].measured and r[bottom].measured and r[bottom].rate > 0]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def report(nodes: int, rounds: list[dict[str, Phase]], suffix: str) -> dict[str, float]:
    """Print the phases and the ratios; the figures of the measured phases (keys end with ``suffix``)."""
    print(f"\nkube-scheduler throughput, {nodes} nodes, {PODS} pre-analysed pods per phase, {len(rounds)} rounds")
    print(f"{'round':>5} {'extender':<8} {'bound':>6} {'pods/s':>8} {'span s':>7} {'create s':>8} {'calls':>6} "
          f"{'algo ms':>8} {'ext ms':>7} {'sched cpu':>9} {'scorer cpu':>10} {'(sys)':>6} {'floor cpu':>9}")
    for i, phases in enumerate(rounds):
        for kind, p in phases.items():
            rate = f"{p.rate:8.1f}" if p.measured else f"{'—':>8}"
            print(f"{i + 1:>5} {kind:<8} {p.bound:>6} {rate} {p.span_s:>7.1f} {p.create_s:>8.1f} {p.calls:>6.0f} "
                  f"{p.algorithm_ms:>8.2f} {p.extender_ms:>7.2f} {p.scheduler_cpu_ms:>9.2f} "
                  f"{p.scorer_cpu_ms:>10.2f} {p.scorer_sys_ms:>6.2f} {p.floor_cpu_ms:>9.2f}")
            for problem in p.problems:
                print(f"      {kind}: not measured: {problem}")
    print("(cpu: ms per bound pod, all threads; ext ms: scheduling algorithm less PreFilter/Filter/PreScore/Score, "
          "i.e. the extender round trip plus the rest the 'without' line shows)")
    figures: dict[str, float] = {}
    for key, top, bottom in (("scheduler_throughput_ratio", "ours", "without"),
                             ("scheduler_floor_ratio", "floor", "without"), ("scheduler_vs_floor", "ours", "floor")):
        values = _ratios(rounds, top, bottom)
        median = _median(values)
        if median is None:
            print(f"{top}/{bottom}: not measured (no round where both phases were measured)")
            continue
        spread = max(values) - min(values)
        print(f"{top}/{bottom}: median {median:.3f}, spread {spread:.3f} over {len(values)} rounds "
              f"({', '.join(f'{v:.3f}' for v in values)})")
        figures[key + suffix] = round(median, 3)
        figures[key + suffix + "_spread"] = round(spread, 3)
    for kind, key in (("ours", "with"), ("floor", "floor"), ("without", "without")):
        measured = [r[kind] for r in rounds if r[kind].measured]
        if not measured:
            continue
        figures[f"scheduler_pods_per_s_{key}{suffix}"] = round(statistics.median(p.rate for p in measured), 1)
        if kind != "without":
            figures[f"extender_round_trip_ms_{key}{suffix}"] = round(
                statistics.median(p.extender_ms for p in measured), 3)
        cpu = {"ours": "scorer_cpu_ms_per_pod", "floor": "floor_cpu_ms_per_pod",
               "without": "scorer_cpu_ms_per_pod_without"}[kind]
        figures[cpu + suffix] = round(statistics.median(
            p.floor_cpu_ms if kind == "floor" else p.scorer_cpu_ms for p in measured), 3)
    without = [r["without"].extender_ms for r in rounds if r["without"].measured]
    if without:
        figures[f"scheduler_algorithm_rest_ms_without{suffix}"] = round(statistics.median(without), 3)
    return figures


def _wait_scorer_nodes(plane: ControlPlane, count: int, timeout_s: float = 180.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if total(scrape(f"{plane.scorer_url}/metrics"), "semaff_scorer_cache_objects", resource="nodes") >= count:
            return
        time.sleep(0.5)
    raise RuntimeError(f"the scorer did not see {count} nodes within {timeout_s:.0f} s")


def run() -> dict[str, float]:
    began = time.monotonic()
    figures: dict[str, float] = {}
    with ControlPlane() as plane:
        print(f"creating {NODES} nodes ...", flush=True)
        _parallel(plane, node_specs(NODES), lambda kube, spec: kube.create("/api/v1/nodes", node_manifest(spec)))
        plane.start_scorer()
        _wait_scorer_nodes(plane, NODES)
        floor, floor_url = start_floor(plane.log_dir)
        plane.procs["floor-extender"] = floor  # stopped with the plane
        signer = Signer.from_file(Path(plane.service_certs()) / certs.SIGNING_KEY)
        sets = annotation_sets(signer)
        pods = [pod_manifest(i, sets[i % len(sets)]) for i in range(PODS)]
        bench = Bench(plane, floor, floor_url, pods)
        figures.update(report(NODES, bench.rounds(ROUNDS), ""))
        if SCALE_NODES > NODES:
            print(f"\ncreating nodes up to {SCALE_NODES} ...", flush=True)
            _parallel(plane, node_specs(SCALE_NODES, NODES),
                      lambda kube, spec: kube.create("/api/v1/nodes", node_manifest(spec)))
            _wait_scorer_nodes(plane, SCALE_NODES)
            figures.update(report(SCALE_NODES, bench.rounds(SCALE_ROUNDS), f"_{SCALE_NODES}"))
    print(f"(total run {time.monotonic() - began:.0f} s; goals: ours/without ≥ 0.7 at 1,000 nodes and ≥ 0.6 at "
          "5,000, ours/floor ≥ 0.9)")
    return figures


if __name__ == "__main__":
    print(run())
