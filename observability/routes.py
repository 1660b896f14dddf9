"""The observability routes both services serve: ``/healthz``, ``/readyz`` and Prometheus ``/metrics``."""

from __future__ import annotations

import time
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest


def add_probe_routes(app: web.Application, registry: CollectorRegistry, ready: Callable[[], str | None]) -> None:
    """``/healthz`` (process alive), ``/readyz`` (``ready()`` returns None when ready, else why not), ``/metrics``."""
    started = time.monotonic()

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "uptime_s": round(time.monotonic() - started, 1)})

    async def readyz(_: web.Request) -> web.Response:
        reason = ready()
        if reason is None:
            return web.json_response({"status": "ready"})
        return web.json_response({"status": "not-ready", "reason": reason}, status=503)

    async def metrics(_: web.Request) -> web.Response:
        return web.Response(body=generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
