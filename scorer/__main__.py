"""``python -m scorer``: the kube-scheduler extender, configured by SEMAFF_* variables (scorer/README.md)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator

import uvloop
from aiohttp import web

from observability.logs import configure_logging
from scorer.app import STATE, make_app
from scorer.settings import Settings, SettingsError


def tune_gc() -> None:
    """Keep the cache out of the cyclic GC: after a full sync the cache is hundreds of thousands of long-lived
    records, and a full collection walking them would stall a /prioritize call for tens of milliseconds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 50)


def event_loop() -> asyncio.AbstractEventLoop:
    """The scorer's loop: uvloop's (libuv), whose socket and timer handling cost less per request than asyncio's."""
    return uvloop.new_event_loop()


async def _freeze_after_sync(app: web.Application) -> AsyncIterator[None]:
    async def wait() -> None:
        while app[STATE].not_ready() is not None:
            await asyncio.sleep(0.5)
        tune_gc()

    task = asyncio.create_task(wait())
    yield
    task.cancel()


def main() -> int:
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as exc:
        print(f"scorer: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    logging.getLogger("scorer").info("starting", extra={
        "port": settings.port, "mode": settings.scoring_mode.value, "prometheus": bool(settings.prometheus_url),
        "filter": settings.filter_enabled})
    app = make_app(settings)
    app.cleanup_ctx.append(_freeze_after_sync)
    web.run_app(app, host=settings.listen_address, port=settings.port, print=None, access_log=None,
                loop=event_loop())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
