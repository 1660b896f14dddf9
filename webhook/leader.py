"""Leader election on a coordination.k8s.io/v1 Lease: one replica runs the intent controller.

Every replica serves admission; only the holder of the Lease analyses and patches pods, so a hint is
analysed once and two replicas never race on a pod. The algorithm is client-go's: take the Lease
when it is free or its holder has not renewed within ``leaseDurationSeconds``; renew every
``retry`` period; a replica that cannot renew within the renew deadline stops its work before the
Lease can expire for the others. Writes use the Lease's resourceVersion, so two candidates cannot
both win (the loser gets 409 Conflict).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from webhook.events import micro_time, read_time
from webhook.kube import KubeError

log = logging.getLogger(__name__)


def decide(lease: dict[str, Any] | None, identity: str, now: datetime) -> str:
    """``create`` (no Lease), ``renew`` (ours), ``takeover`` (free or expired) or ``wait`` (held by another)."""
    if lease is None:
        return "create"
    spec = lease.get("spec") or {}
    holder = spec.get("holderIdentity") or ""
    if holder == identity:
        return "renew"
    renewed = read_time(spec.get("renewTime")) or read_time(spec.get("acquireTime"))
    duration = spec.get("leaseDurationSeconds") or 15
    if not holder or renewed is None or now >= renewed + timedelta(seconds=float(duration)):
        return "takeover"
    return "wait"


def lease_body(lease: dict[str, Any] | None, *, name: str, namespace: str, identity: str, now: datetime,
               duration_s: float, action: str) -> dict[str, Any]:
    """The Lease to write for ``action`` (create / renew / takeover / release)."""
    base = dict(lease or {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                          "metadata": {"name": name, "namespace": namespace}, "spec": {}})
    spec = dict(base.get("spec") or {})
    stamp = micro_time(now)
    if action in ("create", "takeover"):
        spec["acquireTime"] = stamp
        spec["leaseTransitions"] = int(spec.get("leaseTransitions") or 0) + (1 if action == "takeover" else 0)
    if action == "release":
        spec["holderIdentity"] = ""
        spec["leaseDurationSeconds"] = 1
    else:
        spec["holderIdentity"] = identity
        spec["leaseDurationSeconds"] = max(1, int(duration_s))
    spec["renewTime"] = stamp
    base["spec"] = spec
    return base


class LeaderElector:
    """``run(work, standby)``: ``work()`` while holding the Lease, ``standby()`` while not; until cancelled."""

    def __init__(self, kube: Any, namespace: str, name: str, identity: str, duration_s: float = 15.0,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 on_change: Callable[[bool], None] = lambda _: None) -> None:
        self._kube = kube
        self._namespace = namespace
        self._name = name
        self.identity = identity
        self._duration = duration_s
        self._renew_deadline = duration_s * 2 / 3
        self._retry = max(0.2, duration_s / 7.5)  # 2 s for the usual 15 s lease
        self._clock = clock
        self._on_change = on_change
        self.is_leader = False

    async def try_acquire(self) -> bool:
        """One attempt to take or renew the Lease; True while we hold it."""
        try:
            lease = await self._kube.get_lease(self._namespace, self._name)
            now = self._clock()
            action = decide(lease, self.identity, now)
            if action == "wait":
                return False
            body = lease_body(lease, name=self._name, namespace=self._namespace, identity=self.identity, now=now,
                              duration_s=self._duration, action=action)
            if action == "create":
                await self._kube.create_lease(self._namespace, body)
            else:
                await self._kube.replace_lease(self._namespace, self._name, body)
            return True
        except KubeError as exc:
            if exc.status not in (409, 404):
                log.warning("lease update failed", extra={"error": str(exc)})
            return False
        except Exception as exc:  # an unexpected answer must not end the election loop
            log.exception("lease update failed", extra={"error": str(exc)})
            return False

    async def release(self) -> None:
        """Give the Lease up at once (clean shutdown), so a standby need not wait for it to expire."""
        try:
            lease = await self._kube.get_lease(self._namespace, self._name)
            if lease is None or decide(lease, self.identity, self._clock()) != "renew":
                return
            body = lease_body(lease, name=self._name, namespace=self._namespace, identity=self.identity,
                              now=self._clock(), duration_s=self._duration, action="release")
            await self._kube.replace_lease(self._namespace, self._name, body)
        except Exception as exc:
            log.info("lease not released", extra={"error": str(exc)})

    def _set(self, leader: bool) -> None:
        if leader != self.is_leader:
            self.is_leader = leader
            log.info("leadership changed", extra={"leader": leader, "identity": self.identity})
            self._on_change(leader)

    async def run(self, work: Callable[[], Awaitable[None]],
                  standby: Callable[[], Awaitable[None]] | None = None) -> None:
        waiting: asyncio.Future[None] | None = None
        try:
            while True:
                if not await self.try_acquire():
                    if standby is not None and (waiting is None or waiting.done()):
                        waiting = asyncio.ensure_future(standby())
                    await asyncio.sleep(self._retry)
                    continue
                if waiting is not None:
                    waiting.cancel()
                    await asyncio.gather(waiting, return_exceptions=True)
                    waiting = None
                self._set(True)
                task = asyncio.ensure_future(work())
                try:
                    last_renewal = asyncio.get_running_loop().time()
                    while not task.done():
                        await asyncio.wait({task}, timeout=self._retry)
                        if task.done():
                            break
                        loop_time = asyncio.get_running_loop().time()
                        if await self.try_acquire():
                            last_renewal = loop_time
                        elif loop_time - last_renewal > self._renew_deadline:
                            log.warning("lost the lease; stopping the controller")
                            break
                    if task.done() and not task.cancelled() and task.exception() is not None:
                        log.error("controller stopped", exc_info=task.exception())
                finally:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
                    self._set(False)
                await asyncio.sleep(self._retry)  # never spin if the work keeps ending by itself
        finally:
            if waiting is not None:
                waiting.cancel()
                await asyncio.gather(waiting, return_exceptions=True)
            if self.is_leader:
                self._set(False)
            await asyncio.shield(self.release())
