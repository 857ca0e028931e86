"""Helpers the floor's tests share for driving a real consumer against real NATS and PostgreSQL."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Protocol


class Service(Protocol):
    """A floor service that runs until ``stop`` is set and sets ``ready`` once it is serving (the journal
    consumer, the jackpot controller)."""

    stop: asyncio.Event
    ready: asyncio.Event

    async def run(self) -> None: ...


async def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait until ``condition()`` holds; fail the test after ``timeout`` seconds, naming the condition."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out after {timeout:g} s waiting for {_named(condition)}"
        await asyncio.sleep(0.05)


def _named(condition: Callable[[], bool]) -> str:
    """The condition's source line (a lambda's is the call that waits on it), else its name."""
    try:
        return " ".join(inspect.getsource(condition).split())
    except (OSError, TypeError):
        return getattr(condition, "__qualname__", repr(condition))


async def consume_while(consumer: Service, body: Callable[[], Awaitable[None]]) -> None:
    """Run ``consumer`` while ``body`` runs (from when it is ready), then stop it and wait for it to end."""
    task = asyncio.create_task(consumer.run())
    try:
        await asyncio.wait_for(consumer.ready.wait(), 30)
        await body()
    finally:
        consumer.stop.set()
        await asyncio.wait_for(task, 30)
