"""The webhook's aiohttp application: ``POST /mutate``, probes, metrics and the background tasks.

Every replica serves admission. The intent controller runs in the same process, on the replica
that holds the Lease (or on every replica when leader election is off). Background tasks start
and stop with the app (``cleanup_ctx``), so tests and ``python -m webhook`` run the same code.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from observability.routes import add_probe_routes
from shared.sanitise import SanitisedHint
from shared.signing import Signer
from webhook.admission import MAX_BODY_BYTES, AdmissionConfig, make_handler
from webhook.analysers.base import Analyser
from webhook.analysers.cache import IntentCache
from webhook.controller import IntentController
from webhook.events import EventRecorder
from webhook.leader import LeaderElector
from webhook.metrics import Metrics
from webhook.results import AnalyserId, Result
from webhook.settings import Settings
from webhook.tls import ReloadingTLS

log = logging.getLogger(__name__)

STATE: web.AppKey[WebhookState] = web.AppKey("state", object)  # type: ignore[arg-type]


@dataclass
class WebhookState:
    """What the running app holds; exposed for tests and the benchmark."""

    settings: Settings
    analyser: Analyser
    signer: Signer | None
    metrics: Metrics
    cache: IntentCache[Result]
    identity: str
    controller: IntentController | None = None
    elector: LeaderElector | None = None
    kube: Any = None
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    def ready(self) -> str | None:
        """None when ready: key loaded and (controller synced, or this replica only serves admission)."""
        if self.signer is None:
            return "signing key not loaded"
        if not self.settings.controller_enabled:
            return None
        if self.controller is None:
            return "controller not started"
        if self.elector is not None and not self.elector.is_leader:
            return None  # a standby: serves admission, the leader runs the controller
        if not self.controller.synced:
            return "controller watch not synced"
        return None


def default_identity(settings: Settings) -> str:
    """The Lease holder and Events' reportingInstance: the pod name, else host name plus a random suffix."""
    return settings.pod_name or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


async def _warm(name: str, warm_up: Callable[[], Awaitable[None]]) -> None:
    """Run an analyser's warm-up; a failure is logged (the analyser then loads on its first hint), never raised."""
    started = time.perf_counter()
    try:
        await warm_up()
    except Exception:
        log.exception("analyser warm-up failed", extra={"analyser": name})
        return
    log.info("analyser warm", extra={"analyser": name, "seconds": round(time.perf_counter() - started, 2)})


async def _connect(settings: Settings) -> Any:
    from webhook.kube import Kube

    return await Kube.connect(settings.kubeconfig)


def make_app(
    settings: Settings,
    *,
    analyser: Analyser,
    signer: Signer | None,
    tls: ReloadingTLS | None = None,
    metrics: Metrics | None = None,
    kube_factory: Callable[[Settings], Awaitable[Any]] = _connect,
    identity: str | None = None,
) -> web.Application:
    """The application. With ``settings.controller_enabled`` the controller needs a Kubernetes API
    (``kube_factory`` is awaited inside the running loop) and a signing key.
    """
    metrics = metrics or Metrics()
    cache: IntentCache[Result] = IntentCache(settings.cache_max_entries, settings.cache_ttl_s,
                                             should_store=lambda result: not result.failed)
    state = WebhookState(settings, analyser, signer, metrics, cache, identity or default_identity(settings))
    analyser_id = AnalyserId.of(analyser)

    def lookup(hint: SanitisedHint) -> Result | None:
        return cache.get(analyser_id.key(hint.sha256))

    def on_miss(hint: SanitisedHint) -> None:
        if state.controller is not None:
            state.controller.prefetch(hint)  # no-op unless this replica runs the controller

    config = AdmissionConfig(lookup=lookup, hint_max_chars=settings.hint_max_chars,
                             scheduler_name=settings.scheduler_name)
    app = web.Application(client_max_size=MAX_BODY_BYTES)
    app[STATE] = state
    app.router.add_post("/mutate", make_handler(config, metrics, on_miss))
    add_probe_routes(app, metrics.registry, state.ready)

    async def background(_: web.Application) -> AsyncIterator[None]:
        if tls is not None:
            state.tasks.append(asyncio.create_task(tls.watch()))
        warm_up = getattr(analyser, "warm_up", None)
        warming = None
        if warm_up is not None:  # a local model loads now, in the background, not on the first gated pod
            warming = asyncio.create_task(_warm(analyser.name, warm_up))
            state.tasks.append(warming)
        if settings.controller_enabled and signer is not None:
            state.kube = await kube_factory(settings)
            recorder = EventRecorder(state.kube, state.identity, metrics)
            state.controller = IntentController(state.kube, analyser, signer, cache, settings, metrics, recorder,
                                              warming=warming)
            if settings.leader_election:
                state.elector = LeaderElector(
                    state.kube, settings.namespace, settings.lease_name, state.identity, settings.lease_duration_s,
                    on_change=lambda leader: metrics.leader.set(1 if leader else 0))
                state.tasks.append(asyncio.create_task(
                    state.elector.run(state.controller.run, standby=state.controller.warm)))
            else:
                metrics.leader.set(1)
                state.tasks.append(asyncio.create_task(state.controller.run()))
        elif settings.controller_enabled:
            log.error("no signing key: the intent controller is not started and the replica is not ready")
        yield
        for task in state.tasks:
            task.cancel()
        await asyncio.gather(*state.tasks, return_exceptions=True)
        if state.kube is not None:
            await state.kube.close()
        await analyser.close()

    app.cleanup_ctx.append(background)
    return app
