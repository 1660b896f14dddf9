"""How a long loop shares the event loop: one policy for the webhook and the scorer.

A loop over thousands of items (a burst of watch events in one chunk, a new leader's whole pod list) hands the
event loop back every ``ITEMS_PER_YIELD`` items, so admission calls, ``/prioritize``, probes and the other watches
are answered while it runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from typing import TypeVar

ITEMS_PER_YIELD = 100

T = TypeVar("T")


async def paced(items: Iterable[T]) -> AsyncIterator[T]:
    """Each item of ``items`` in order; after every ``ITEMS_PER_YIELD`` of them, other tasks get to run."""
    for index, item in enumerate(items, 1):
        yield item
        if index % ITEMS_PER_YIELD == 0:
            await asyncio.sleep(0)
