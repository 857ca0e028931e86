"""Small builders shared by the tests: a round on an in-memory event log."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

from controller.config import DEFAULT_CONFIG, TableConfig, load_config
from controller.events import EventLog
from controller.games import make_game
from controller.money import Rounding
from controller.round import Limits, Round

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
