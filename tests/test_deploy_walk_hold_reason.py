"""A served table stopped (SIGTERM, as systemd stops it) while a round holds for a jammed shoe, and started again with
the shoe still jammed: the shoe reports the same jam on reconnecting. The dealer's hold screen and `tablectl hold list`
read 'shoe: shoe fault (jam): ... · then: shoe: shoe fault (jam): ...', the same fault twice, as if it had happened
again; seen on a deployment walk. The reference shoe simulator over a real pty; the loop as `tablectl serve` runs it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from controller.engine.commands import OpenRound, PlaceWager
from controller.engine.config import TableConfig, load_config
from controller.engine.holds import held_rounds
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess
from tests.console.tables import do, wait_until
from tests.console.test_held_after_restart import served
from tests.helpers import init_table

ROOT = Path(__file__).resolve().parents[1]
JAM = "shoe: shoe fault (jam): a card is jammed: open the lid, clear the card path, close the lid"


def top_card(tmp_path: Path, port: str) -> tuple[TableConfig, dict[str, Path]]:
    config = load_config(ROOT / "config" / "top-card.toml")
    config = dataclasses.replace(config, shoe={**config.shoe, "driver": "reference", "port": port})
    files = {"journal": tmp_path / "j.sqlite", "events": tmp_path / "ev.jsonl"}
    init_table(files["journal"], files["events"], ROOT / "config" / "top-card.toml")
    return config, files


def test_a_jam_reported_again_after_a_restart_is_not_a_second_reason_to_hold(tmp_path: Path) -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        config, files = top_card(tmp_path, sim.port)
        with served(config, files, 1) as (_, loop):
            do(loop, OpenRound())
            do(loop, PlaceWager(1, "home", 2500))
            sim.command("fault jam")
            wait_until(lambda: loop.snapshot()["round"]["state"] == "hold", timeout=15)
            assert loop.snapshot()["round"]["hold_reason"] == JAM
            round_id = loop.snapshot()["round"]["id"]

        with served(config, files, 2) as (session, loop):  # the shoe is still jammed
            assert [(r.round_id, r.action) for r in session.recovered] == [(round_id, "held")]
            wait_until(lambda: loop.snapshot()["round"] is not None
                       and loop.snapshot()["devices"]["shoe"].startswith("fault"), timeout=15)
            view = loop.snapshot()
            assert view["round"]["state"] == "hold"
            assert view["round"]["hold_reason"] == JAM
            assert view["screens"]["hold"] == JAM
    with Journal(files["journal"], table_id=config.table_id, readonly=True) as journal:
        assert [(h.round_id, h.reason) for h in held_rounds(journal)] == [(round_id, JAM)]
