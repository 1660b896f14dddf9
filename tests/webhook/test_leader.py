"""Lease leader election: the decision rule, and two electors sharing one Lease (in-memory substitute)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from webhook.leader import LeaderElector, decide, lease_body

from .fakes import FakeKube
from .test_controller import eventually

NOW = datetime(2026, 11, 30, 10, 0, 0, tzinfo=UTC)


def lease(holder: str, renewed: datetime, duration: int = 15) -> dict:
    return lease_body(None, name="l", namespace="ns", identity=holder, now=renewed, duration_s=duration,
                      action="create")


def test_decide() -> None:
    assert decide(None, "a", NOW) == "create"
    assert decide(lease("a", NOW), "a", NOW) == "renew"
    assert decide(lease("b", NOW - timedelta(seconds=5)), "a", NOW) == "wait"
    assert decide(lease("b", NOW - timedelta(seconds=16)), "a", NOW) == "takeover"
    released = lease_body(lease("b", NOW), name="l", namespace="ns", identity="b", now=NOW, duration_s=15,
                          action="release")
    assert decide(released, "a", NOW) == "takeover"


def test_lease_body_shape() -> None:
    body = lease("a", NOW)
    assert body["apiVersion"] == "coordination.k8s.io/v1" and body["kind"] == "Lease"
    spec = body["spec"]
    assert spec["holderIdentity"] == "a" and spec["leaseDurationSeconds"] == 15
    assert spec["renewTime"] == "2026-11-30T10:00:00.000000Z" == spec["acquireTime"]
    taken = lease_body(body, name="l", namespace="ns", identity="b", now=NOW, duration_s=15, action="takeover")
    assert taken["spec"]["leaseTransitions"] == 1 and taken["spec"]["holderIdentity"] == "b"


async def test_one_leader_at_a_time_and_handover_on_release() -> None:
    kube = FakeKube()
    running: list[str] = []

    def work(name: str):
        async def run() -> None:
            running.append(name)
            try:
                await asyncio.Event().wait()
            finally:
                running.remove(name)
        return run

    a = LeaderElector(kube, "ns", "l", "a", duration_s=1.5)
    b = LeaderElector(kube, "ns", "l", "b", duration_s=1.5)
    task_a = asyncio.create_task(a.run(work("a")))
    await eventually(lambda: running == ["a"], "a leads")
    task_b = asyncio.create_task(b.run(work("b")))
    await asyncio.sleep(0.5)
    assert running == ["a"] and a.is_leader and not b.is_leader
    task_a.cancel()  # clean shutdown releases the Lease
    await asyncio.gather(task_a, return_exceptions=True)
    await eventually(lambda: running == ["b"], "b takes over")
    assert kube.leases[("ns", "l")]["spec"]["holderIdentity"] == "b"
    task_b.cancel()
    await asyncio.gather(task_b, return_exceptions=True)
    assert running == []


async def test_standby_work_runs_only_while_not_leading() -> None:
    kube = FakeKube()
    kube.leases[("ns", "l")] = lease("someone-else", datetime.now(UTC), duration=2)
    kube.leases[("ns", "l")]["metadata"]["resourceVersion"] = "1"
    state: list[str] = []

    async def mark(name: str) -> None:
        state.append(f"{name}+")
        try:
            await asyncio.Event().wait()
        finally:
            state.append(f"{name}-")

    elector = LeaderElector(kube, "ns", "l", "me", duration_s=1.5)
    task = asyncio.create_task(elector.run(lambda: mark("work"), standby=lambda: mark("standby")))
    await eventually(lambda: "standby+" in state, "standby work started")
    assert not elector.is_leader
    await eventually(lambda: "work+" in state, "took over the expired lease", timeout=30)
    assert state[:3] == ["standby+", "standby-", "work+"]
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert state[-1] == "work-"
