"""The scorer's aiohttp application: routes, and the background tasks as cleanup contexts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from observability.routes import add_probe_routes
from scorer.dra import DraIndex
from scorer.explain import ExplainStore
from scorer.handler import Extender
from scorer.intents import IntentReader
from scorer.metrics import ScorerMetrics
from scorer.settings import Settings
from scorer.state import ClusterState
from shared.signing import Verifier

log = logging.getLogger("scorer")

EXTENDER = web.AppKey("extender", Extender)
STATE = web.AppKey("state", ClusterState)


def load_verifier(settings: Settings) -> Verifier | None:
    """The public keys intents must be signed with; None (every pod neutral) when none are configured."""
    if not settings.verify_key_files:
        log.warning("SEMAFF_VERIFY_KEY_FILES is empty: no intent can be verified, every pod scores neutrally")
        return None
    return Verifier.from_files(settings.verify_key_files)



@contextlib.asynccontextmanager
async def _background(*coroutines: object) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(c) for c in coroutines]  # type: ignore[arg-type]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def make_app(settings: Settings, *, state: ClusterState | None = None, verifier: Verifier | None = None,
             metrics: ScorerMetrics | None = None, kube: bool = True) -> web.Application:
    """The extender app. ``kube=False`` skips the informers (tests, files): the given state is then ready as is.

    Background tasks (cleanup contexts): the informers, the Prometheus poller (when
    ``SEMAFF_PROMETHEUS_URL`` is set) and the ledger expiry.
    """
    state = state or ClusterState(settings.topology, settings.ledger_ttl_s,
                                  dra=DraIndex(settings.dra_driver, settings.dra_gpu_classes),
                                  staleness_s=settings.metrics_staleness_s)
    metrics = metrics or ScorerMetrics()
    metrics.bind_state(state)
    if verifier is None:
        verifier = load_verifier(settings)
    reader = IntentReader(verifier, max_hint_chars=settings.hint_max_chars)
    extender = Extender(settings, state, reader, metrics, ExplainStore(settings.explain_capacity))
    app = web.Application(client_max_size=64 * 1024 * 1024)  # 5,000 full Node objects are tens of MB
    app[EXTENDER] = extender
    app[STATE] = state
    app.router.add_post("/prioritize", extender.prioritize)
    if settings.filter_enabled:
        app.router.add_post("/filter", extender.filter)
    app.router.add_get("/explain", extender.explain)
    if not kube:
        for resource in ("nodes", "pods"):
            state.synced_at.setdefault(resource, 0.0)
    add_probe_routes(app, metrics.registry, state.not_ready)

    async def ledger_expiry(_: web.Application) -> AsyncIterator[None]:
        async def loop() -> None:
            while True:
                await asyncio.sleep(1.0)
                state.pods.expire()

        async with _background(loop()):
            yield

    app.cleanup_ctx.append(ledger_expiry)

    if kube:
        async def informers(_: web.Application) -> AsyncIterator[None]:
            from scorer.sources.kube import api_client
            from scorer.sources.kube import informers as build

            client = await api_client(settings.kubeconfig, settings.in_cluster)
            running = build(client, state, settings.relist_s, lambda r: metrics.watch_errors.labels(r).inc(),
                            dra_driver=settings.dra_driver)
            try:
                async with _background(*(i.run() for i in running)):
                    yield
            finally:
                await client.close()

        app.cleanup_ctx.append(informers)

    if settings.prometheus_url:
        async def poller(_: web.Application) -> AsyncIterator[None]:
            from scorer.sources.prometheus import PrometheusPoller

            polling = PrometheusPoller(settings.prometheus_url, settings.queries, settings.metrics_node_labels,
                                       settings.metrics_poll_s, state.set_live,
                                       lambda outcome: metrics.metrics_polls.labels(outcome).inc())
            async with _background(polling.run()):
                yield

        app.cleanup_ctx.append(poller)
    return app
