"""Small builders shared by the tests: a round on an in-memory event log."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import weakref
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from controller.engine.config import DEFAULT_CONFIG, TableConfig, load_config
from controller.engine.log import EventLog
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Limits, Round
from controller.engine.table import Table
from controller.events import RoundCompleted, WagerChanged, WagerPlaced, WagerSettled
from controller.money import Rounding
from controller.rules.registry import make_game


def session_lengths(default: int, longer: int) -> list[Any]:
    """Parameters of a session test's round count: ``default`` in the default run, ``longer`` (which reaches the
    rarer paths more often) only with ``-m exhaustive``."""
    return [pytest.param(default, id=f"{default}-rounds"),
            pytest.param(longer, id=f"{longer}-rounds", marks=pytest.mark.exhaustive)]


TOP_CARD_LIMITS = {"home": (500, 100000), "away": (500, 100000), "tie": (100, 10000)}


class MemoryLog(EventLog):
    """An event log whose JSON lines can be read back as dicts."""

    def __init__(self, table_id: str = "T1") -> None:
        self.stream = io.StringIO()
        super().__init__(table_id, json_stream=self.stream)

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]

    def named(self, event: str) -> list[dict[str, Any]]:
        return [r for r in self.records() if r["event"] == event]


_LOOPS: weakref.WeakKeyDictionary[Table, TableLoop] = weakref.WeakKeyDictionary()


def play_round(table: Table, players: SimulatedPlayers, round: Round | None = None) -> Round:
    """The next round (or ``round``, recovered) played through on the table's loop, as ``tablectl run`` plays it."""
    loop = _LOOPS.get(table)
    if loop is None:
        loop = _LOOPS[table] = TableLoop(table, players=players, views=False, recovery_wait=table.recovery_timeout)
    loop.players, loop.accepts_position = players, players.accepts_position  # a test may bring new players each round
    return loop.play_round(round)


def top_card_round(
    log: MemoryLog | None = None, *, burns: int = 0, rounding: Rounding = Rounding.PLAYER, round_id: str = "T1-R1"
) -> Round:
    return Round(
        round_id,
        make_game("top-card"),
        log or MemoryLog(),
        spots=7,
        limits=Limits(TOP_CARD_LIMITS),
        rounding=rounding,
        burns=burns,
    )


def in_process_config(path: str | None = None) -> TableConfig:
    """A table config with its shoe simulated in this process (no pseudo-terminal), for engine-level tests."""
    config = load_config(path or DEFAULT_CONFIG)
    return dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated"})


def cents(text: str) -> int:
    """Cents from an amount as the summary prints it (``-$1,234.56``)."""
    sign = -1 if text.startswith("-") else 1
    return sign * int("".join(ch for ch in text if ch.isdigit()))


def check_session_balances(out: str, log_file: Path, rounds: int) -> list[dict[str, Any]]:
    """A ``tablectl run`` session balances to the cent: per round from its events, and in the printed summary."""
    summary = dict(re.findall(r"^(rounds|wagered|paid|house win)\s+(\S+)", out, re.MULTILINE))
    assert summary["rounds"] == str(rounds)
    records = [json.loads(line) for line in log_file.read_text().splitlines()]
    stakes: dict[str, int] = defaultdict(int)
    returns: dict[str, int] = defaultdict(int)
    placed: dict[str, int] = defaultdict(int)
    for r in records:
        if r["event"] == WagerSettled.EVENT:
            stakes[r["round"]] += r["stake"]
            returns[r["round"]] += r["returned"]
            assert r["stake"] - r["returned"] == r["house_win"]
        elif r["event"] in (WagerPlaced.EVENT, WagerChanged.EVENT):
            placed[r["round"]] += r["amount"] - r["previous"]
    completes = {r["round"]: r for r in records if r["event"] == RoundCompleted.EVENT}
    assert len(completes) == rounds
    for round_id, done in completes.items():
        assert done["wagered"] == stakes[round_id] == placed[round_id]
        assert done["paid"] == returns[round_id]
        assert done["wagered"] - done["paid"] == done["house_win"]
    wagered, paid = sum(stakes.values()), sum(returns.values())
    assert cents(summary["wagered"]) == wagered
    assert cents(summary["paid"]) == paid
    assert cents(summary["house win"]) == wagered - paid
    assert sum(d["house_win"] for d in completes.values()) == wagered - paid
    return records


def new_journal(path: Path, table_id: str = "T1", **kwargs: Any) -> Any:
    """A new journal at ``path``, as ``tablectl journal init`` makes one (without a key: the storage layer alone)."""
    from controller.records.journal import Journal

    return Journal.create(path, table_id=table_id, **kwargs)


def init_table(journal: Path, log: Path | None = None, config: Path | str | None = None) -> None:
    """``tablectl journal init`` for a test's table: its journal, anchor and signing key beside the journal
    (what it prints is kept out of the test's captured output)."""
    import contextlib

    from controller.commands.cli import main

    args = ["journal", "init", "--journal", str(journal), *(["--log", str(log)] if log else []),
            *(["--config", str(config)] if config else [])]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(args) == 0, printed.getvalue()
