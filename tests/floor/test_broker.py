"""A connect to the broker that does not finish leaves no connection open behind it.

CI failed once on ``ResourceWarning: unclosed <StreamWriter>`` raised in a later test: nats-py's
connect, cancelled after its TCP connection opened and before the server's first word, dropped a
client whose socket nobody closed. A server that accepts and never speaks holds a connect there.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import warnings
from collections.abc import Iterator

import pytest

from controller.floor import broker
from controller.floor.jackpot_client import JackpotClient


@pytest.fixture
def silent_server() -> Iterator[str]:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        yield f"nats://127.0.0.1:{listener.getsockname()[1]}"


def _left_open(action: object) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert callable(action)
        action()
        gc.collect()
    return [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]


def test_a_connect_cancelled_before_the_server_speaks_closes_its_connection(silent_server: str) -> None:
    async def cancelled() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(broker.connect(servers=[silent_server], connect_timeout=5, allow_reconnect=False), 0.3)

    assert _left_open(lambda: asyncio.run(cancelled())) == []


def test_a_jackpot_award_asked_of_a_broker_that_never_answers_leaves_nothing_open(silent_server: str) -> None:
    client = JackpotClient([silent_server], "CASINO", "MEGA")
    seen: list[object] = []
    assert _left_open(lambda: seen.append(client.award("TC-01.R1.1", timeout=0.2))) == []
    assert seen == [None]
