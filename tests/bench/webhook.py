"""Admission latency over real HTTPS on loopback: cache hit, cache miss, and the floor.

The floor is an aiohttp handler in the same style (read the body, decode it, answer a fixed allow
response echoing the uid): what any Python webhook pays for HTTPS, HTTP and JSON. Each server runs
in its own process (``spawn``); the client sends the real AdmissionReview fixture with 50 requests
in flight over keep-alive connections and records every request's latency. Measures, never asserts.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import ssl
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

CONCURRENCY = 50
REQUESTS = int(os.environ.get("SEMAFF_BENCH_WEBHOOK_REQUESTS", "3000"))
WARMUP = 300
ROUNDS = 5
SERIAL_REQUESTS = 500
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "admission" / "create-generatename.json"
HIT_HINT = "critical ML training job, it must run on nodes with GPUs"
MISS_HINT = "spread these pods evenly across all available zones for high availability"


def _write_certificate(directory: Path) -> tuple[str, str]:
    import datetime as dt

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=1))
            .not_valid_after(now + dt.timedelta(days=1)).sign(key, hashes.SHA256()))
    cert_file, key_file = directory / "tls.crt", directory / "tls.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_file), str(key_file)


class _StubAnalyser:
    name, model, prompt_version = "bench", "stub", "b1"

    async def analyse_raw(self, hint: str) -> Any:
        raise AssertionError("the benchmark never analyses")

    async def close(self) -> None:
        return None


def _webhook_app() -> Any:
    from shared.normalise import normalise
    from shared.sanitise import sanitise
    from shared.signing import Signer, generate_private_key_pem
    from webhook.analysers.base import Outcome
    from webhook.app import STATE, make_app
    from webhook.results import AnalyserId, from_outcome
    from webhook.settings import Settings

    analyser = _StubAnalyser()
    signer = Signer(generate_private_key_pem())
    app = make_app(Settings(controller_enabled=False), analyser=analyser, signer=signer)
    raw = {"intents": [{"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5,
                        "metadata": {"prefer_gpu_cores": 1}}]}
    hint = sanitise(HIT_HINT)
    outcome = Outcome(normalise(raw).document, analyser.name, analyser.model, analyser.prompt_version, 800.0)
    app[STATE].cache.put(AnalyserId.of(analyser).key(hint.sha256), from_outcome(outcome, hint, signer))
    return app


def _floor_app() -> Any:
    from aiohttp import web

    async def mutate(request: web.Request) -> web.Response:
        review = orjson.loads(await request.read())
        reply = {"apiVersion": review["apiVersion"], "kind": "AdmissionReview",
                 "response": {"uid": review["request"]["uid"], "allowed": True}}
        return web.Response(body=orjson.dumps(reply), content_type="application/json")

    app = web.Application()
    app.router.add_post("/mutate", mutate)
    return app


def _serve(kind: str, cert_file: str, key_file: str, ports: Any) -> None:
    """Child process: one server on an ephemeral port, reported back through ``ports``."""
    from aiohttp import web

    from observability.logs import configure_logging

    # production logging (one JSON line per admission), written to /dev/null instead of the bench's terminal
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    configure_logging("info")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)

    async def main() -> None:
        runner = web.AppRunner(_webhook_app() if kind == "webhook" else _floor_app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
        await site.start()
        ports.put(runner.addresses[0][1])
        await asyncio.Event().wait()

    asyncio.run(main())


def _review(hint: str) -> bytes:
    review = orjson.loads(FIXTURE.read_bytes())
    review["request"]["object"]["metadata"]["annotations"] = {"semantic-affinity.io/hint": hint}
    return orjson.dumps(review)


async def _load(port: int, body: bytes, count: int, concurrency: int = CONCURRENCY) -> list[float]:
    import aiohttp

    client_context = ssl.create_default_context()
    client_context.check_hostname = False
    client_context.verify_mode = ssl.CERT_NONE
    url = f"https://127.0.0.1:{port}/mutate"
    latencies: list[float] = []
    remaining = [count]
    connector = aiohttp.TCPConnector(limit=concurrency, ssl=client_context)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            while remaining[0] > 0:
                remaining[0] -= 1
                started = time.perf_counter()
                async with session.post(url, data=body, headers={"Content-Type": "application/json"}) as r:
                    await r.read()
                    if r.status != 200:
                        raise RuntimeError(f"HTTP {r.status}")
                latencies.append((time.perf_counter() - started) * 1000.0)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def run() -> dict[str, float]:
    spawn = multiprocessing.get_context("spawn")
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="semaff-bench-") as tmp:
        cert_file, key_file = _write_certificate(Path(tmp))
        servers = {}
        try:
            for kind in ("webhook", "floor"):
                ports = spawn.Queue()
                proc = spawn.Process(target=_serve, args=(kind, cert_file, key_file, ports), daemon=True)
                proc.start()
                servers[kind] = (proc, ports.get(timeout=60))
            cases = [("floor", "floor", _review(HIT_HINT)), ("hit", "webhook", _review(HIT_HINT)),
                     ("miss", "webhook", _review(MISS_HINT))]
            for _, kind, body in cases:
                asyncio.run(_load(servers[kind][1], body, WARMUP))
            # Interleaved rounds: the machine is shared, so load from elsewhere falls on every case alike.
            latencies: dict[str, list[float]] = {label: [] for label, _, _ in cases}
            elapsed = dict.fromkeys(latencies, 0.0)
            for _ in range(ROUNDS):
                for label, kind, body in cases:
                    started = time.perf_counter()
                    latencies[label] += asyncio.run(_load(servers[kind][1], body, REQUESTS // ROUNDS))
                    elapsed[label] += time.perf_counter() - started
            rows = []
            for label, values in latencies.items():
                p50, p99 = _percentile(values, 50), _percentile(values, 99)
                rps = len(values) / elapsed[label]
                rows.append((label, p50, p99, statistics.fmean(values), rps))
                figures[f"webhook_{label}_p50_ms"] = round(p50, 3)
                figures[f"webhook_{label}_p99_ms"] = round(p99, 3)
                figures[f"webhook_{label}_rps"] = round(rps, 1)
            # One request at a time: the per-request cost without queueing behind 49 others.
            serial = {}
            for label, kind, body in cases:
                values = asyncio.run(_load(servers[kind][1], body, SERIAL_REQUESTS, concurrency=1))
                serial[label] = _percentile(values, 50)
                figures[f"webhook_{label}_serial_p50_ms"] = round(serial[label], 3)
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                proc.join(10)
    floor = figures["webhook_floor_p99_ms"]
    figures["webhook_hit_p99_floor_ratio"] = round(figures["webhook_hit_p99_ms"] / floor, 3)
    figures["webhook_miss_p99_floor_ratio"] = round(figures["webhook_miss_p99_ms"] / floor, 3)
    figures["webhook_hit_p50_floor_ratio"] = round(figures["webhook_hit_p50_ms"] / figures["webhook_floor_p50_ms"], 3)
    figures["webhook_miss_p50_floor_ratio"] = round(figures["webhook_miss_p50_ms"] / figures["webhook_floor_p50_ms"], 3)
    figures["webhook_p99_floor_ratio"] = max(figures["webhook_hit_p99_floor_ratio"],
                                             figures["webhook_miss_p99_floor_ratio"])
    print(f"admission over HTTPS on loopback, {CONCURRENCY} in flight, {REQUESTS} requests per case")
    print(f"{'case':<8}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}{'req/s':>10}{'p99/floor':>11}")
    for label, p50, p99, mean, rps in rows:
        print(f"{label:<8}{p50:>10.2f}{p99:>10.2f}{mean:>10.2f}{rps:>10.0f}{p99 / floor:>11.2f}")
    print("one request at a time, p50 ms: " + ", ".join(f"{label} {value:.2f}" for label, value in serial.items()))
    print("goal: p99 within 3x the floor (measured, not asserted)")
    return figures


if __name__ == "__main__":
    print(orjson.dumps(run()).decode())
