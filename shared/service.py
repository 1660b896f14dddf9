"""What both services share at their edges: structured logs, health/readiness, Prometheus metrics.

Kept apart from the domain modules: nothing in ``shared`` but this file knows about aiohttp.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

import orjson
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg and any ``extra={...}`` fields."""

    _SKIP = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in self._SKIP})
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


def configure_logging(level: str = "INFO") -> None:
    """Structured logs on stderr for both services (``SEMAFF_LOG_LEVEL``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


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
