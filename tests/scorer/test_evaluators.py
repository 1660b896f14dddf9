"""Every evaluator, table-tested against the φ column of ARCHITECTURE.md 2.3."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from scorer.evaluators import REGISTRY, evaluate
from scorer.facts import LiveMetrics, NodeFacts, NumaZone, PodRecord
from shared.catalogue import BY_NAME, CATALOGUE, Kind
from shared.intents import Intent
from tests.scorer.builders import context, intent, node, pod, podset

ME = pod("me", "web")  # the pod being placed: workload default/Deployment/web
NOW = 10_000.0


@dataclass
class Case:
    id: str
    intent: Intent
    nodes: list[NodeFacts]
    expected: list[float | None]
    placed: list[PodRecord] = field(default_factory=list)
    me: PodRecord = ME
    live: dict[str, LiveMetrics] = field(default_factory=dict)


def web(name: str, on: str, workload: str = "web", **kw: float) -> PodRecord:
    return pod(name, workload, on, **kw)


A1, A2, B1 = node("a1", "zone-a", "rack-1"), node("a2", "zone-a", "rack-2"), node("b1", "zone-b", "rack-3")
C1 = node("c1", "zone-c", "rack-4", region="region-2")
BARE = node("bare", None, None, region=None)  # no topology labels at all
UNKNOWN = NodeFacts.unknown("ghost")
GPU = dict(gpu_count=4.0, gpu_product="NVIDIA-H100-80GB-HBM3", gpu_tokens=("nvidia", "h100", "80gb", "hbm3"),
           gpu_memory_gb=85.5)

CASES: dict[Kind, list[Case]] = {
    Kind.COLOCATE: [
        Case("k/max", intent("prefer_colocate_same_deployment"), [A1, A2, B1], [1.0, 0.5, 0.0],
             [web("p1", "a1"), web("p2", "a1"), web("p3", "a2"), web("x", "b1", "other")]),
        Case("first pod: any node (vacuous)", intent("prefer_colocate_same_deployment"), [A1, B1], [1.0, 1.0]),
        Case("pods only off the candidates", intent("prefer_colocate_same_deployment"), [A1, A2], [0.0, 0.0],
             [web("p1", "b1")]),
        Case("no workload: neutral", intent("prefer_colocate_same_deployment"), [A1], [None], me=pod("solo", "")),
        Case("same name other namespace does not count", intent("prefer_colocate_same_deployment"), [A1, B1],
             [0.0, 1.0], [web("p1", "b1"), pod("p2", "web", "a1", namespace="other")]),
    ],
    Kind.NEARBY: [
        # rack-1: 2 pods, zone-a: 3, zone-b: 1, region-1: 4 (Eq. 9): a1 = 4+1.5+0.8, a2 = 0+1.5+0.8, b1 = 2+0.5+0.8
        Case("Eq.9 / max", intent("prefer_nearby_nodes_same_deployment"), [A1, A2, B1, C1],
             [1.0, 2.3 / 6.3, 3.3 / 6.3, 0.0],
             [web("p1", "a1"), web("p2", "a1"), web("p3", "a2x"), web("p4", "b1")]),
        Case("first pod", intent("prefer_nearby_nodes_same_deployment"), [A1, B1], [1.0, 1.0]),
    ],
    Kind.SPREAD: [
        Case("zones Eq.5", intent("spread_zones"), [A1, B1, C1, BARE], [1 / 6, 4 / 6, 1.0, None],
             [web(f"a{i}", "a1") for i in range(5)] + [web(f"b{i}", "b1") for i in range(2)]),
        Case("nodes", intent("spread_nodes"), [A1, A2, B1], [0.5, 1.0, 1.0], [web("p1", "a1")]),
        Case("racks", intent("spread_racks"), [A1, A2, BARE], [1 / 3, 1.0, None], [web("p1", "a1"), web("p2", "a1")]),
        Case("regions", intent("spread_regions"), [A1, C1], [0.5, 1.0], [web("p1", "b1")]),
        Case("nothing placed", intent("spread_zones"), [A1, B1], [1.0, 1.0]),
        Case("no workload", intent("spread_zones"), [A1], [None], me=pod("solo", "")),
    ],
    Kind.PREFER_DOMAIN: [
        Case("zones", intent("prefer_zones", prefer_zones=["zone-b", "ZONE-C"]), [A1, B1, C1, BARE],
             [0.0, 1.0, 1.0, None]),
        Case("racks", intent("prefer_racks", prefer_racks=["rack-1"]), [A1, A2], [1.0, 0.0]),
        Case("regions by geography", intent("prefer_regions", prefer_regions=["europe"]),
             [node("e", region="eu-west-1"), node("u", region="us-east-1")], [1.0, 0.0]),
        Case("regions by prefix", intent("prefer_regions", prefer_regions=["us-east"]),
             [node("u", region="us-east-1"), node("w", region="us-west-2")], [1.0, 0.0]),
        Case("nodes (an unknown node is neutral)", intent("prefer_nodes", prefer_nodes=["b1"]), [A1, B1, UNKNOWN],
             [0.0, 1.0, None]),
    ],
    Kind.AVOID_DOMAIN: [
        Case("zones", intent("avoid_zones", avoid_zones=["zone-a"]), [A1, B1, BARE], [-2.0, 0.0, None]),
        Case("racks", intent("avoid_racks", avoid_racks=["rack-3"]), [A1, B1], [0.0, -2.0]),
        Case("regions", intent("avoid_regions", avoid_regions=["region-2"]), [A1, C1], [0.0, -2.0]),
        Case("nodes", intent("avoid_nodes", avoid_nodes=["a2"]), [A1, A2], [0.0, -2.0]),
    ],
    Kind.PREFER_NEAR_WORKLOADS: [
        Case("same node", intent("prefer_same_node_as_deployments", deployments=["database"]), [A1, A2, B1],
             [0.0, 1.0, 0.0], [web("db-0", "a2", "database", )]),
        Case("same zone, any namespace, any case", intent("prefer_same_zone_as_deployments",
                                                          deployments=["Cache", "database"]),
             [A1, B1, C1, BARE], [1.0, 1.0, 0.0, None],
             [pod("c-0", "cache", "a2", namespace="infra"), web("db-0", "b1", "database")]),
        Case("same region", intent("prefer_same_region_as_deployments", deployments=["database"]), [A1, C1],
             [1.0, 0.0], [web("db-0", "b1", "database")]),
        Case("workload absent", intent("prefer_same_zone_as_deployments", deployments=["nothing"]), [A1],
             [0.0]),
    ],
    Kind.AVOID_NEAR_WORKLOADS: [
        Case("same node", intent("avoid_same_node_as_deployments", deployments=["logging-agent"]), [A1, A2],
             [-2.0, 0.0], [pod("log-x", "logging-agent", "a1", kind="DaemonSet", namespace="kube-system")]),
        Case("same zone", intent("avoid_same_zone_as_deployments", deployments=["batch"]), [A1, B1],
             [0.0, -2.0], [web("b-0", "b1", "batch")]),
    ],
    Kind.GPU_COUNT: [
        Case("free ≥ wanted", intent("prefer_gpu", prefer_gpu_cores=2), [node("g", **GPU), A1, UNKNOWN],
             [1.0, 0.0, None]),
        Case("requested GPUs are not free", intent("prefer_gpu", prefer_gpu_cores=2), [node("g", **GPU)],
             [0.0], [web("train-0", "g", "train", gpus=3.0)]),
        Case("default 1 GPU", intent("prefer_gpu"), [node("g", gpu_count=1.0), A1], [1.0, 0.0]),
        Case("GPUs held by ResourceClaims are not free", intent("prefer_gpu", prefer_gpu_cores=2),
             [node("dra-full", gpu_count=4.0, gpu_claimed=4.0), node("dra-half", gpu_count=4.0, gpu_claimed=2.0),
              node("dra-3", gpu_count=4.0, gpu_claimed=2.0)], [0.0, 1.0, 0.0],
             [web("t-0", "dra-3", "train", claimed_gpus=1.0)]),  # a prediction's unallocated claim counts too
    ],
    Kind.GPU_MEMORY: [
        Case("GFD label", intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=80),
             [node("h", **GPU), node("t", gpu_count=1.0, gpu_memory_gb=16.1), A1], [1.0, 0.0, 0.0]),
        Case("GPUs of unknown memory", intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=8),
             [node("g", gpu_count=2.0)], [None]),
        Case("fresh free framebuffer wins over the label", intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=40),
             [node("h", **GPU), node("h2", **GPU)], [0.0, 1.0],
             live={"h": LiveMetrics(gpu_fb_free_gb=10.0, gpu_fb_free_at=NOW),
                   "h2": LiveMetrics(gpu_fb_free_gb=10.0, gpu_fb_free_at=NOW - 3600)}),  # stale: label counts
        Case("FB_USED alone: memory − least used", intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=40),
             [node("h", **GPU), node("h2", **GPU), node("h3", **GPU)], [1.0, 0.0, 1.0],
             live={"h": LiveMetrics(gpu_fb_used_gb=30.0, gpu_fb_used_at=NOW),
                   "h2": LiveMetrics(gpu_fb_used_gb=60.0, gpu_fb_used_at=NOW),
                   "h3": LiveMetrics(gpu_fb_used_gb=60.0, gpu_fb_used_at=NOW - 3600)}),
    ],
    Kind.GPU_MODEL: [
        Case("token match", intent("prefer_gpu_models", prefer_gpu_models=["H100", "a10"]),
             [node("h", **GPU), node("a", gpu_count=1.0, gpu_product="NVIDIA-A100-SXM4-80GB",
                                     gpu_tokens=("nvidia", "a100", "sxm4", "80gb")), A1,
              node("anon", gpu_count=1.0)],
             [1.0, 0.0, 0.0, None]),
        Case("multi-token model", intent("prefer_gpu_models", prefer_gpu_models=["Tesla T4"]),
             [node("t", gpu_count=1.0, gpu_product="Tesla-T4", gpu_tokens=("tesla", "t4"))], [1.0]),
    ],
    Kind.NVLINK: [
        Case("flags", intent("prefer_nvlink"),
             [node("y", nvlink=True), node("n", nvlink=False), node("u", gpu_count=2.0)], [1.0, 0.0, None]),
    ],
    Kind.NUMA_ALIGNED: [
        Case("one zone must hold it all", intent("prefer_numa_aligned"),
             [node("fits", numa_zones=(NumaZone("node-0", 4, 8, 0), NumaZone("node-1", 16, 64, 1))),
              node("split", numa_zones=(NumaZone("node-0", 16, 8, 1), NumaZone("node-1", 4, 64, 1))),
              node("nrt-less")],
             [1.0, 0.0, None], me=pod("me", "web", cpu_cores=8.0, memory_gb=32.0, gpus=1.0)),
    ],
    Kind.AVOID_GPU: [
        Case("gpu nodes", intent("avoid_gpu_nodes"), [node("g", **GPU), A1, UNKNOWN], [-2.0, 0.0, None]),
    ],
    Kind.CPU: [
        Case("allocatable ≥", intent("prefer_cpu_cores", prefer_cpu_cores=16),
             [node("big", cpu_cores=32.0), node("edge", cpu_cores=16.0), node("small", cpu_cores=8.0), UNKNOWN],
             [1.0, 1.0, 0.0, None]),
    ],
    Kind.MEMORY: [
        Case("allocatable ≥", intent("prefer_memory_gb", prefer_memory_gb=64),
             [node("big", memory_gb=128.0), node("small", memory_gb=62.5)], [1.0, 0.0]),
    ],
    Kind.SSD: [
        Case("flags", intent("prefer_ssd_storage"), [node("s", ssd=True), node("h", ssd=False), node("u")],
             [1.0, 0.0, None]),
    ],
    Kind.EPHEMERAL_STORAGE: [
        Case("allocatable ≥", intent("prefer_ephemeral_storage", prefer_ephemeral_storage_gb=100),
             [node("big", ephemeral_storage_gb=200.0), node("small", ephemeral_storage_gb=50.0), node("u")],
             [1.0, 0.0, None]),
    ],
    Kind.NETWORK_SPEED: [
        Case("label ≥", intent("prefer_network_speed", prefer_network_speed_gbps=100),
             [node("m07", network_gbps=100.0), node("m06", network_gbps=10.0), node("u")], [1.0, 0.0, None]),
    ],
    Kind.LEAST_LOADED: [
        Case("live metrics (fresh only; GPU only on GPU nodes)", intent("prefer_least_loaded_nodes"),
             [node("busy", cpu_cores=8.0, memory_gb=32.0), node("idle", cpu_cores=8.0, memory_gb=32.0, **GPU),
              node("stale", cpu_cores=8.0, memory_gb=32.0)],
             [1 - 0.7, 1 - (0.1 + 0.3 + 0.2) / 3, 1.0],
             live={"busy": LiveMetrics(cpu_load=0.8, cpu_load_at=NOW, memory_load=0.6, memory_load_at=NOW,
                                       gpu_util=0.9, gpu_util_at=NOW),
                   "idle": LiveMetrics(cpu_load=0.1, cpu_load_at=NOW, memory_load=0.3, memory_load_at=NOW,
                                       gpu_util=0.2, gpu_util_at=NOW),
                   "stale": LiveMetrics(cpu_load=0.9, cpu_load_at=NOW - 3600)}),
        Case("fallback: requested / allocatable from P_eff", intent("prefer_least_loaded_nodes"),
             [node("half", cpu_cores=8.0, memory_gb=32.0), node("empty", cpu_cores=8.0, memory_gb=32.0),
              node("over", cpu_cores=1.0, memory_gb=1.0), node("noalloc")],
             [1 - (0.5 + 0.25) / 2, 1.0, 0.0, None],
             [web("p1", "half", "db", cpu_cores=4.0, memory_gb=8.0), web("p2", "over", "db", cpu_cores=4.0,
                                                                          memory_gb=8.0)]),
    ],
}


def test_every_kind_and_intent_has_a_table() -> None:
    assert set(CASES) == set(Kind) == set(REGISTRY)
    covered = {case.intent.name for cases in CASES.values() for case in cases}
    assert covered == {spec.name for spec in CATALOGUE}


@pytest.mark.parametrize("case", [c for cases in CASES.values() for c in cases],
                         ids=lambda c: f"{BY_NAME[c.intent.name].kind.value}:{c.id}")
def test_evaluator(case: Case) -> None:
    pods, _ = podset([n for n in case.nodes if n.known] + [A1, A2, B1, C1, node("a2x", "zone-a", "rack-9")],
                     case.placed)
    ctx = context(case.me, pods, case.live, fresh_after=NOW - 60)
    phi = evaluate(case.intent, case.nodes, ctx)
    assert phi == pytest.approx(case.expected), case.id


def test_unknown_intent_name_is_neutral() -> None:
    pods, _ = podset([A1])
    assert evaluate(Intent("no_such_intent"), [A1], context(ME, pods)) == [None]
