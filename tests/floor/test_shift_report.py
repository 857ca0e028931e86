"""`tablectl floor shifts`: each table's figures per gaming day and shift, as accounting closes a shift.

Found by a regulator's auditor re-deriving each table's drop, win and hold per shift from its journal: the floor kept
them (`meters`, `counters`) but no command printed them, and its one view of them (`shift_meters`, the pit page's
`/api/meters`) left out the rounds voided, the fees and what was paid. The report's figures must equal, to the cent,
what an auditor sums from the journal's own records (docs/events.md), shift by shift.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from controller import events as ev
from controller.commands.cli import main
from controller.engine.log import EventLog
from controller.engine.round import Limits, Round
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.floor.shifts import Shifts
from controller.money import format_cents
from controller.records.journal import Journal
from controller.rules.registry import make_game
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play


def _void_a_round(journal: Path, table: str) -> None:
    """A misdeal: the supervisor voids a round with its wagers on the layout."""
    with Journal(journal, table_id=table) as own:
        log = EventLog(table, journal=own)
        round = Round(f"{table}-R-VOID", make_game("top-card", {}), log, spots=7,
                      limits=Limits({"home": (100, 100_000), "away": (100, 100_000), "tie": (100, 10_000)}))
        round.start()
        round.place_wager(1, "home", 2500)
        round.place_wager(2, "tie", 500)
        round.close_betting()
        round.void_round("misdeal: two cards out together")


def _publish(journal: Path, table: str, cluster: NatsCluster, database: str) -> None:
    outbox = Outbox(journal, table_id=table, site="audit", servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="audit")
    with Journal(journal, table_id=table, readonly=True) as own:
        head = own.last_seq

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().acked_seq >= head)
        await until(lambda: consumer.stats.stored >= head)

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        outbox.stop()


def _by_shift(journal: Path, table: str) -> dict[tuple[str, str], dict[str, int]]:
    """The auditor's own sums from the journal's records, per (gaming day, shift) of each round's end."""
    shifts = Shifts.default()
    sums: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    with Journal(journal, table_id=table, readonly=True) as own:
        records = own.stored()
    for record in records:
        if record["event"] not in (ev.RoundCompleted.EVENT, ev.RoundVoided.EVENT):
            continue
        day, shift = shifts.of(dt.datetime.fromisoformat(record["timestamp"]))
        figures = sums[(day.isoformat(), shift)]
        figures["rounds"] += 1
        figures["voided"] += record["event"] == ev.RoundVoided.EVENT
        for name in ("wagered", "paid", "fees", "house_win"):
            figures[name] += record[name]
    return sums


def test_the_shift_report_gives_each_tables_drop_win_voided_rounds_and_fees_as_its_journal_does(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = {"TC-01": play(tmp_path / "TC-01.sqlite", rounds=4, seed=3),
              "TCP-01": play(tmp_path / "TCP-01.sqlite", rounds=4, seed=5, config="config/three-card-poker.toml")}
    _void_a_round(tables["TC-01"], "TC-01")
    for table, journal in tables.items():
        _publish(journal, table, cluster, database)
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "audit"\n[database]\ndsn = "{database}"\n')

    capsys.readouterr()
    assert main(["floor", "shifts", "--config", str(config), "--json"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    for table, journal in tables.items():
        for (day, shift), mine in _by_shift(journal, table).items():
            [row] = [r for r in rows if (r["table"], r["gaming_day"], r["shift"]) == (table, day, shift)]
            assert (row["rounds"], row["voided"], row["drop"], row["paid"], row["fees"], row["win"]) == (
                mine["rounds"], mine["voided"], mine["wagered"], mine["paid"], mine["fees"], mine["house_win"]), (table, row)
            assert (row["drop_text"], row["win_text"], row["fees_text"]) == (
                format_cents(mine["wagered"]), format_cents(mine["house_win"]), format_cents(mine["fees"]))
    assert any(r["voided"] == 1 for r in rows if r["table"] == "TC-01")
    assert any(r["fees"] > 0 for r in rows if r["table"] == "TCP-01")

    assert main(["floor", "shifts", "--config", str(config), "--table", "TC-01"]) == 0
    out = capsys.readouterr().out
    assert "TC-01" in out and "TCP-01" not in out and "voided" in out, out
    day = rows[0]["gaming_day"]
    assert main(["floor", "shifts", "--config", str(config), "--day", day]) == 0
    assert "TCP-01" in capsys.readouterr().out
    assert main(["floor", "shifts", "--config", str(config), "--day", "2026-13-01"]) == 2
    assert "--day" in capsys.readouterr().err


def test_the_shift_report_runs_through_each_gaming_day_as_its_shifts_do_not_by_their_names() -> None:
    # The auditor's report listed a day's shifts as day, grave, swing: grave (22:00) before swing (14:00).
    from controller.floor.views import in_shift_order

    rows = [{"gaming_day": day, "shift": shift, "table": table}
            for day in ("2026-11-30", "2026-11-29") for shift in ("grave", "swing", "day") for table in ("TC-02", "TC-01")]
    ordered = [(r["gaming_day"], r["shift"], r["table"]) for r in in_shift_order(rows, Shifts.default())]
    assert ordered[:6] == [("2026-11-29", "day", "TC-01"), ("2026-11-29", "day", "TC-02"), ("2026-11-29", "swing", "TC-01"),
                           ("2026-11-29", "swing", "TC-02"), ("2026-11-29", "grave", "TC-01"), ("2026-11-29", "grave", "TC-02")]
    assert ordered[6][0] == "2026-11-30"
