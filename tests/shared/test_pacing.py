"""shared.pacing: a long loop delivers every item in order and lets other tasks run between batches."""

from __future__ import annotations

import asyncio

from shared.pacing import ITEMS_PER_YIELD, paced


async def test_every_item_in_order_and_a_waiting_task_runs_within_one_batch() -> None:
    ran_at: list[int] = []
    seen: list[int] = []

    async def waiting() -> None:
        ran_at.append(len(seen))

    async def consume() -> None:
        task = asyncio.get_running_loop().create_task(waiting())
        async for item in paced(range(3 * ITEMS_PER_YIELD)):
            seen.append(item)  # no await here: only paced() can let the waiting task in
        await task

    await consume()
    assert seen == list(range(3 * ITEMS_PER_YIELD))
    assert ran_at == [ITEMS_PER_YIELD]  # it ran right after the first batch, not after the whole loop


async def test_a_short_loop_never_yields() -> None:
    ran: list[bool] = []

    async def waiting() -> None:
        ran.append(True)

    task = asyncio.get_running_loop().create_task(waiting())
    items = [item async for item in paced(range(ITEMS_PER_YIELD - 1))]
    assert items == list(range(ITEMS_PER_YIELD - 1))
    assert ran == []  # no event-loop round trip for a loop shorter than one batch
    await task
