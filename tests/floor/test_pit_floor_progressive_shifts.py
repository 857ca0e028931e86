"""The shift report names each linked table's part in the progressive: what its wagers fed the meter, what its hits took.

Found by the pit manager closing a shift across two High Card Flush tables linked to one progressive: `tablectl floor
shifts` gave each table's drop, paid and win, and the pit page the meter, but nothing said which table fed the meter how
much, nor which table's hit emptied it; accounting could not split the contributions by table and shift. Each linked
table's row now gives what its Progressive wagers added to the meter (exactly: a fraction of a cent is kept in
``--json``) and its hits with what the meter paid them; summed over the tables they are the meter's own figures.
"""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller import events as ev
from controller.commands.cli import main
from controller.floor.config import parse_floor_config
from controller.floor.consumer import FloorConsumer
from controller.floor.jackpot import JackpotController
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play
from tests.floor.test_jackpot import ROYAL, Table, _publish

SITE = "pitfloor"
RATE = Fraction(15, 100)


def _floor(tmp_path: Path, cluster: NatsCluster, database: str, site: str, tables: list[str]) -> tuple[Any, Path]:
    settings = {"floor": {"site": site}, "broker": {"servers": cluster.urls}, "database": {"dsn": database},
                "jackpots": {"hcf": {"tables": tables, "reset": 1_000_000, "rate": "0.15"}}}
    path = tmp_path / "floor.toml"
    path.write_text(f'[floor]\nsite = "{site}"\n[database]\ndsn = "{database}"\n')
    return parse_floor_config(settings, "floor.toml"), path


def _hcf_table(tmp_path: Path, table: str, seed: int) -> Path:
    config = tmp_path / f"{table}.toml"
    config.write_text("\n".join(f'id = "{table}"' if line.startswith("id = ") else line
                                for line in Path("config/high-card-flush.toml").read_text().splitlines()) + "\n")
    return play(tmp_path / f"{table}.sqlite", rounds=4, seed=seed, config=str(config))


def _fed(journal: Path, table: str) -> Fraction:
    """What the table's own journal says its Progressive wagers fed a linked meter: rate times each settled stake."""
    with Journal(journal, table_id=table, readonly=True) as own:
        return sum((RATE * int(r["stake"]) for r in own.stored()
                    if r["event"] == ev.WagerSettled.EVENT and r.get("wager") == "progressive"
                    and not str(r.get("reason", "")).startswith("void")), Fraction(0))


def _shifts(config: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main(["floor", "shifts", "--config", str(config), *extra]) == 0
    return capsys.readouterr().out


def test_the_shift_report_gives_each_linked_tables_contribution_to_the_progressive_as_its_journal_does(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journals = {"HCF-01": _hcf_table(tmp_path, "HCF-01", 2), "HCF-02": _hcf_table(tmp_path, "HCF-02", 9)}
    floor, config = _floor(tmp_path, cluster, database, SITE, list(journals))
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    controller = JackpotController(floor, "hcf")
    outboxes = [Outbox(journal, table_id=table, site=SITE, servers=cluster.urls) for table, journal in journals.items()]
    heads = {}
    for table, journal in journals.items():
        with Journal(journal, table_id=table, readonly=True) as own:
            heads[table] = own.last_seq
    fed = {table: _fed(journal, table) for table, journal in journals.items()}
    assert all(fed.values())

    def contributed() -> Fraction:
        with psycopg.connect(database) as conn:
            row = conn.execute("SELECT contributed FROM jackpots WHERE name = 'hcf'").fetchone()
        return Fraction(row[0]) if row else Fraction(-1)

    async def body() -> None:
        for outbox in outboxes:
            outbox.start()
        await until(lambda: all(o.status().acked_seq >= heads[o.table_id] for o in outboxes))
        await until(lambda: consumer.stats.stored >= sum(heads.values()))
        await until(lambda: contributed() == sum(fed.values()))

    async def both() -> None:
        await consume_while(controller, body)

    try:
        asyncio.run(consume_while(consumer, both))
    finally:
        for outbox in outboxes:
            outbox.stop()

    rows: list[dict[str, Any]] = json.loads(_shifts(config, capsys, "--json"))
    for table in journals:
        mine = [r for r in rows if r["table"] == table]
        assert sum((Fraction(r["progressive_contributed_exact"]) for r in mine), Fraction(0)) == fed[table], (table, mine)
        assert all(r["progressive_contributed_text"].startswith("$") and r["progressive_hits"] == 0 for r in mine)
    text = _shifts(config, capsys)
    assert "progressive fed" in text
    for table in journals:
        [line] = [line for line in text.splitlines() if f" {table} " in line]
        assert f"${int(fed[table]) // 100}.{int(fed[table]) % 100:02d}" in line, line


def test_a_tables_hit_is_in_its_shift_row_with_what_the_meter_paid_it(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    floor, config = _floor(tmp_path, cluster, database, "test", ["HCF-1", "HCF-2"])  # test_jackpot's site and tables
    one, two = Table("HCF-1"), Table("HCF-2")

    def round_of(table: Table, round_id: str, *middle: dict[str, Any], paid: int) -> list[dict[str, Any]]:
        start = table.record(ev.RoundStarted.EVENT, round_id, game="high-card-flush", options={"paytable": "standard"})
        records = [start, *middle]
        end = table.record(ev.RoundCompleted.EVENT, round_id, wagered=100, paid=paid, fees=0, house_win=100 - paid,
                           between_players=0)
        return [*records, end]

    records = round_of(two, "s1", two.progressive("s1", 2), paid=0)  # 15 cents into the meter from HCF-2
    dealt = one.deal("r1", 4, ROYAL)
    claim = one.claim("r1", 4, ROYAL)
    records += round_of(one, "r1", *dealt, claim, one.progressive("r1", 4, returned=1_000_115, reason="win"), paid=1_000_115)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="test")
    controller = JackpotController(floor, "hcf")

    def settled() -> bool:
        with psycopg.connect(database) as conn:
            row = conn.execute("SELECT COUNT(*) FROM jackpot_awards WHERE settled_seq IS NOT NULL").fetchone()
            ended = conn.execute("SELECT COUNT(*) FROM rounds WHERE ended_seq IS NOT NULL").fetchone()
        return bool(row and row[0] == 1 and ended and ended[0] == 2)

    async def body() -> None:
        await _publish(cluster, records)
        await until(settled)

    async def both() -> None:
        await consume_while(controller, body)

    asyncio.run(consume_while(consumer, both))
    rows = {r["table"]: r for r in json.loads(_shifts(config, capsys, "--json"))}
    assert (rows["HCF-1"]["progressive_hits"], rows["HCF-1"]["progressive_awarded_exact"]) == (1, "1000015")
    assert rows["HCF-1"]["progressive_awarded_text"] == "$10,000.15"
    assert rows["HCF-1"]["progressive_contributed_exact"] == "15"  # the hit's own wager fed the meter too, after it
    assert (rows["HCF-2"]["progressive_hits"], rows["HCF-2"]["progressive_contributed_exact"]) == (0, "15")
    text = _shifts(config, capsys)
    [line] = [line for line in text.splitlines() if " HCF-1 " in line]
    assert line.split()[-3:] == ["$0.15", "1", "$10,000.15"], line
