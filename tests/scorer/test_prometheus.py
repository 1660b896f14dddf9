"""Live metrics through a REAL Prometheus server scraping a DCGM-format exporter of simulated GPUs.

The exporter (aiohttp, in this test) serves what dcgm-exporter and node-exporter serve: per-GPU
``DCGM_FI_DEV_GPU_UTIL`` / ``DCGM_FI_DEV_FB_FREE`` with the exporter's label set (``Hostname`` on
released exporters, ``hostname`` on newer ones), and node CPU/memory series. Prometheus (the Debian
package ``prometheus``) scrapes it every second; the poller runs the scorer's default queries
against Prometheus' real HTTP API.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from scorer.evaluators import evaluate
from scorer.facts import LiveMetrics, NodeFacts
from scorer.settings import Queries
from scorer.sources.prometheus import PrometheusPoller, parse_vector
from tests.scorer.builders import context, intent, pod, podset

PROMETHEUS = shutil.which("prometheus")
# Only the tests that start the server may skip; the pure parsing tests run everywhere.
needs_prometheus = pytest.mark.skipif(PROMETHEUS is None, reason="the prometheus binary is not installed "
                                "(apt-get install -y --no-install-recommends prometheus; CI installs it)")

DCGM_LABELS = ('pci_bus_id="00000000:{bus:02X}:00.0",device="nvidia{gpu}",modelName="NVIDIA H100 80GB HBM3",'
               '{host_label}="{host}",DCGM_FI_DRIVER_VERSION="550.54.15"')
# node -> (hostname label name, [(util %, free MiB) per GPU])
GPUS = {"gpu-a": ("Hostname", [(20, 30000), (40, 70000)]), "gpu-b": ("hostname", [(90, 1000)])}
FB_USED = {"gpu-a": [51000, 11000], "gpu-b": [80000]}  # MiB used per GPU
# DCGM_EXP_P2P_STATUS per GPU pair (dcgm-exporter p2p_status_collector.go): 0 OK = NVLink, 4 NotSupported (PCIe)
P2P = {"gpu-a": 0, "pcie-e": 4}
NODES = {"gpu-a": (0.25, 0.5), "gpu-b": (0.75, 0.9), "cpu-c": (0.5, 0.1)}  # node -> (busy fraction, memory used)


def exposition(started: float) -> str:
    """The exporters' text format at this moment (CPU seconds grow with wall time, like a real counter)."""
    lines = ["# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).", "# TYPE DCGM_FI_DEV_GPU_UTIL gauge"]
    for host, (label, gpus) in GPUS.items():
        for i, (util, _) in enumerate(gpus):
            extra = DCGM_LABELS.format(bus=7 + i, gpu=i, host_label=label, host=host)
            lines.append(f'DCGM_FI_DEV_GPU_UTIL{{gpu="{i}",UUID="GPU-{host}-{i}",{extra}}} {util}')
    lines += ["# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).", "# TYPE DCGM_FI_DEV_FB_FREE gauge"]
    for host, (label, gpus) in GPUS.items():
        for i, (_, free) in enumerate(gpus):
            extra = DCGM_LABELS.format(bus=7 + i, gpu=i, host_label=label, host=host)
            lines.append(f'DCGM_FI_DEV_FB_FREE{{gpu="{i}",UUID="GPU-{host}-{i}",{extra}}} {free}')
    lines += ["# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).", "# TYPE DCGM_FI_DEV_FB_USED gauge"]
    for host, used in FB_USED.items():
        label = GPUS[host][0]
        for i, mib in enumerate(used):
            extra = DCGM_LABELS.format(bus=7 + i, gpu=i, host_label=label, host=host)
            lines.append(f'DCGM_FI_DEV_FB_USED{{gpu="{i}",UUID="GPU-{host}-{i}",{extra}}} {mib}')
    lines += ["# HELP DCGM_EXP_P2P_STATUS P2P status.", "# TYPE DCGM_EXP_P2P_STATUS gauge"]
    status = {0: "OK", 4: "NotSupported"}
    for host, value in P2P.items():
        for i, j in ((0, 1), (1, 0)):
            extra = DCGM_LABELS.format(bus=7 + i, gpu=i, host_label="Hostname", host=host)
            lines.append(f'DCGM_EXP_P2P_STATUS{{gpu="{i}",UUID="GPU-{host}-{i}",{extra},peer_gpu="{j}",'
                         f'link_status="{status[value]}"}} {value}')
    elapsed = time.time() - started + 1000.0
    lines += ["# TYPE node_cpu_seconds_total counter"]
    for host, (busy, _) in NODES.items():
        for cpu in range(2):
            lines.append(f'node_cpu_seconds_total{{cpu="{cpu}",mode="idle",node="{host}"}} {elapsed * (1 - busy):.3f}')
            lines.append(f'node_cpu_seconds_total{{cpu="{cpu}",mode="user",node="{host}"}} {elapsed * busy:.3f}')
    lines += ["# TYPE node_memory_MemTotal_bytes gauge", "# TYPE node_memory_MemAvailable_bytes gauge"]
    for host, (_, used) in NODES.items():
        lines.append(f'node_memory_MemTotal_bytes{{node="{host}"}} {64 * 2**30}')
        lines.append(f'node_memory_MemAvailable_bytes{{node="{host}"}} {int(64 * 2**30 * (1 - used))}')
    return "\n".join(lines) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def exporter() -> AsyncIterator[int]:
    started = time.time()

    async def metrics(_: web.Request) -> web.Response:
        return web.Response(text=exposition(started), content_type="text/plain", charset="utf-8")

    app = web.Application()
    app.router.add_get("/metrics", metrics)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    yield port
    await runner.cleanup()


@pytest.fixture
def prometheus(tmp_path: Path, exporter: int) -> Iterator[str]:
    port = free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dcgm
    static_configs:
      - targets: ["127.0.0.1:{exporter}"]
""")
    log = (tmp_path / "prometheus.log").open("wb")
    process = subprocess.Popen(
        [str(PROMETHEUS), f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
         f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


async def wait_for_series(session: aiohttp.ClientSession, url: str, query: str, count: int) -> None:
    """Until Prometheus answers ``query`` with ``count`` series (it needs a scrape, two for rate())."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            async with session.get(f"{url}/api/v1/query", params={"query": query}) as response:
                if response.status == 200:
                    body = await response.json()
                    if len(body["data"]["result"]) >= count:
                        return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.5)
    raise AssertionError(f"prometheus never returned {count} series for {query}")


@needs_prometheus
async def test_default_queries_against_real_prometheus(prometheus: str) -> None:
    published: list[tuple[dict[str, LiveMetrics], float]] = []
    outcomes: list[str] = []
    queries = Queries()
    poller = PrometheusPoller(prometheus, queries, ("Hostname", "hostname", "node"), 1.0,
                              lambda m, t: published.append((m, t)), outcomes.append)
    async with aiohttp.ClientSession() as session:
        await wait_for_series(session, prometheus, queries.gpu_util, 3)
        await wait_for_series(session, prometheus, queries.cpu_load, 3)
        metrics = await poller.poll_once(session)
    assert outcomes == ["ok"] and published and published[-1][0] == metrics
    a, b, c = metrics["gpu-a"], metrics["gpu-b"], metrics["cpu-c"]
    assert a.gpu_util == pytest.approx(0.30) and b.gpu_util == pytest.approx(0.90)  # mean of 20 % and 40 %
    assert a.gpu_fb_free_gb == pytest.approx(70000 * 1.048576 / 1000)  # the GPU with most free memory
    assert b.gpu_fb_free_gb == pytest.approx(1000 * 1.048576 / 1000)
    assert c.gpu_util is None
    assert a.gpu_fb_used_gb == pytest.approx(11000 * 1.048576 / 1000)  # the least used GPU
    assert (a.nvlink_p2p, metrics["pcie-e"].nvlink_p2p, b.nvlink_p2p) == (True, False, None)
    assert a.cpu_load == pytest.approx(0.25, abs=0.05) and b.cpu_load == pytest.approx(0.75, abs=0.05)
    assert a.memory_load == pytest.approx(0.5, abs=1e-6) and c.memory_load == pytest.approx(0.1, abs=1e-6)
    now = time.time()
    assert now - 30 < a.gpu_util_at <= now + 1 and now - 30 < c.cpu_load_at <= now + 1

    # the numbers reach the evaluators: least loaded and free framebuffer
    nodes = [NodeFacts("gpu-a", cpu_cores=8.0, memory_gb=64.0, gpu_count=2.0),
             NodeFacts("gpu-b", cpu_cores=8.0, memory_gb=64.0, gpu_count=1.0),
             NodeFacts("cpu-c", cpu_cores=8.0, memory_gb=64.0)]
    pods, _ = podset(nodes)
    fresh = context(pod("me"), pods, metrics, fresh_after=now - 60)
    loaded = evaluate(intent("prefer_least_loaded_nodes"), nodes, fresh)
    assert loaded == pytest.approx([1 - (0.25 + 0.5 + 0.3) / 3, 1 - (0.75 + 0.9 + 0.9) / 3, 1 - (0.5 + 0.1) / 2],
                                   abs=0.03)
    assert evaluate(intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=40), nodes, fresh) == [1.0, 0.0, 0.0]
    # samples older than the staleness bound are unknown: back to requested/allocatable (empty nodes: φ = 1)
    stale = context(pod("me"), pods, metrics, fresh_after=now + 3600)
    assert evaluate(intent("prefer_least_loaded_nodes"), nodes, stale) == [1.0, 1.0, 1.0]
    assert evaluate(intent("prefer_gpu_memory_gb", prefer_gpu_memory_gb=40), nodes, stale) == [None, None, 0.0]


@needs_prometheus
async def test_a_failing_query_keeps_the_rest(prometheus: str) -> None:
    outcomes: list[str] = []
    queries = Queries(gpu_util="this is not promql(", cpu_load="")
    poller = PrometheusPoller(prometheus, queries, ("Hostname", "hostname", "node"), 1.0,
                              lambda m, t: None, outcomes.append)
    async with aiohttp.ClientSession() as session:
        await wait_for_series(session, prometheus, queries.gpu_fb_free, 3)
        metrics = await poller.poll_once(session)
    assert outcomes == ["error"]
    assert metrics["gpu-a"].gpu_util is None and metrics["gpu-a"].gpu_fb_free_gb is not None


def test_parse_vector_shapes() -> None:
    body = (b'{"status":"success","data":{"resultType":"vector","result":['
            b'{"metric":{"HOSTNAME":"n1"},"value":[100.5,"50"]},{"metric":{"node":"n1"},"value":[101,"NaN"]},'
            b'{"metric":{"instance":"x"},"value":[100,"1"]}]}}')
    assert parse_vector(body, ("hostname", "node"), "mean", 0.01) == {"n1": (0.5, 100.5)}


def test_parse_p2p_status() -> None:
    """One series per ordered GPU pair; a node is NVLinked when every GPU has an OK (0) peer."""
    def series(host: str, gpu: int, peer: int, value: int) -> str:
        return (f'{{"metric":{{"__name__":"DCGM_EXP_P2P_STATUS","Hostname":"{host}","gpu":"{gpu}",'
                f'"peer_gpu":"{peer}"}},"value":[100,"{value}"]}}')
    rows = [series("nv", 0, 1, 0), series("nv", 1, 0, 0), series("pcie", 0, 1, 4), series("pcie", 1, 0, 4),
            series("half", 0, 1, 0), series("half", 1, 0, 0), series("half", 2, 0, 2), series("half", 2, 1, 2)]
    body = ('{"status":"success","data":{"resultType":"vector","result":[' + ",".join(rows) + "]}}").encode()
    assert parse_vector(body, ("Hostname",), "p2p", 1.0) == {"nv": (True, 100.0), "pcie": (False, 100.0)}
