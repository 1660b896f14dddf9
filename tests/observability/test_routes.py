"""``observability.routes``: /healthz, /readyz with its reason, and /metrics from the given registry."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client import CollectorRegistry, Counter

from observability.routes import add_probe_routes


async def test_probes_and_metrics() -> None:
    registry = CollectorRegistry()
    Counter("semaff_test_requests", "requests", registry=registry).inc(3)
    reason: list[str | None] = ["informers not synced"]
    app = web.Application()
    add_probe_routes(app, registry, lambda: reason[0])
    async with TestClient(TestServer(app)) as client:
        assert (await client.get("/healthz")).status == 200
        response = await client.get("/readyz")
        assert response.status == 503
        assert await response.json() == {"status": "not-ready", "reason": "informers not synced"}
        reason[0] = None
        assert (await client.get("/readyz")).status == 200
        metrics = await client.get("/metrics")
        assert metrics.headers["Content-Type"].startswith("text/plain")
        assert "semaff_test_requests_total 3.0" in await metrics.text()
