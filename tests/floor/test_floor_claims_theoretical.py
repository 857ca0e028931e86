"""The floor's theoretical win takes each wager's edge per unit of its initial stake, as `tablectl edge` states it.

Found checking High Card Flush's theoretical hold against `tablectl edge`: the Ante's edge is "Ante and Raise
together, per unit of Ante" (Top 5's Ante likewise holds its Bet, Three Card Poker's its Play), so the Raise's
expectation is already in the Ante's figure; the floor multiplied every settled stake by the edge loaded for its
wager's name, so an edges source that gives the Raise a figure of its own (the floor's own theoretical test gave it
one) counted the Raise's play twice. A stake a decision added (``wager_placed`` by ``decision``) now meets no edge;
the drop keeps it, as the hold % does, so hold % and theoretical hold keep one base. And a voided round, whose
wagers were returned unplayed, adds no theoretical win (it added stake times edge, an expectation of a game never
played).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from controller import events as ev
from controller.commands.cli import main
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.floor.shifts import Shifts
from controller.floor.store import FloorStore, create_schema, set_edges
from controller.floor.wire import TableRecord
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

SITE = "theo"
TABLE = "HCF-01"
EDGES = {"ante": "0.0266", "raise": "0.01", "flush_bonus": "0.078", "straight_flush_bonus": "0.0635", "progressive": "0.19"}
"""Round figures for table-1; the Raise given one of its own, as an edges file may, though `tablectl edge` has none."""


def _initial_theoretical(journal: Path) -> tuple[Decimal, Decimal, int]:
    """From the table's own journal: the theoretical win with each house-banked stake less what decisions added to it
    (a Raise is all decision) times its wager's edge; the same with the settled stakes (the old reading); the drop."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        records = [json.loads(text) for (text,) in db.execute("SELECT record FROM events ORDER BY seq")]
    finally:
        db.close()
    added: dict[tuple[str, int, str], int] = defaultdict(int)
    initial = settled = Decimal(0)
    drop = 0
    for record in records:
        key = (str(record.get("round")), int(record.get("spot") or 0), str(record.get("wager")))
        if record["event"] == ev.WagerPlaced.EVENT and record.get("by") == "decision":
            added[key] += int(record["amount"])
        elif record["event"] == ev.WagerSettled.EVENT and record.get("banker", "house") == "house":
            taken = min(int(record["stake"]), added[key])
            added[key] -= taken
            edge = Decimal(EDGES.get(str(record["wager"]), "0"))
            initial += (int(record["stake"]) - taken) * edge
            settled += int(record["stake"]) * edge
            drop += int(record["stake"])
    return initial, settled, drop


def test_the_raise_meets_no_edge_of_its_own_the_ante_s_holds_its_play(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = play(tmp_path / f"{TABLE}.sqlite", rounds=4, seed=5, config="config/high-card-flush.toml")
    outbox = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().lag == 0 and outbox.status().acked_seq > 0)
        await until(lambda: consumer.stats.stored >= outbox.status().acked_seq)

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        outbox.stop()
    edges = tmp_path / "edges.json"
    edges.write_text(json.dumps([{"game": "high-card-flush", "paytable": "table-1",
                                  "wagers": {w: {"house_edge": float(e)} for w, e in EDGES.items()}}]))
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "{SITE}"\n[database]\ndsn = "{database}"\n')
    assert main(["floor", "edges", "--config", str(config), "--from", str(edges)]) == 0
    expected, old_reading, drop = _initial_theoretical(journal)
    assert expected != old_reading, "no Raise was made in these rounds: pick another seed"
    with psycopg.connect(database) as conn:
        theo, wagered = conn.execute("SELECT SUM(theoretical), SUM(wagered) FROM meters WHERE table_id = %s AND wager = ''",
                                     (TABLE,)).fetchone() or (None, None)
        raise_theo = conn.execute("SELECT COALESCE(SUM(theoretical), 0) FROM meters WHERE table_id = %s AND wager = 'raise'",
                                  (TABLE,)).fetchone()
    assert (theo, wagered) == (expected, drop)  # the drop keeps the Raise; the theoretical win does not count it again
    assert raise_theo == (0,)
    capsys.readouterr()
    assert main(["floor", "shifts", "--config", str(config), "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["theoretical_hold_pct"] == f"{expected * 100 / Decimal(drop):.2f}%"


def _record(seq: int, event: str, **fields: object) -> tuple[TableRecord, int | None]:
    record = {"event": event, "table": TABLE, "round": "HCF-01-R1", "seq": seq, "game": "high-card-flush",
              "timestamp": f"2026-11-29T20:00:{seq:02d}Z", **fields}
    return TableRecord(TABLE, seq, event, "HCF-01-R1", record), seq


def test_a_voided_round_adds_no_theoretical_win(database: str) -> None:
    """A misdeal voids the round: the Ante and the Flush Bonus go back to the player, unplayed."""
    options = {"flush_bonus": "300-100-10-1", "straight_flush_bonus": "500-200-100-50-9", "progressive": "standard"}
    returned = {"outcome": "push", "payout": "push", "house_win": 0, "reason": "void: misdeal", "banker": "house"}
    with psycopg.connect(database) as conn:
        create_schema(conn)
        set_edges(conn, [("high-card-flush", "table-1", w, Decimal(e)) for w, e in EDGES.items()])
        FloorStore(conn, site=SITE, shifts=Shifts.default()).apply([
            _record(1, ev.RoundStarted.EVENT, spots=6, rounding="player", options=options, roles={}),
            _record(2, ev.WagerPlaced.EVENT, spot=1, wager="ante", amount=1000, previous=0),
            _record(3, ev.WagerPlaced.EVENT, spot=1, wager="flush_bonus", amount=500, previous=0),
            _record(4, ev.WagerSettled.EVENT, spot=1, wager="flush_bonus", stake=500, returned=500, exact_returned="500",
                    **returned),
            _record(5, ev.WagerSettled.EVENT, spot=1, wager="ante", stake=1000, returned=1000, exact_returned="1000",
                    **returned),
            _record(6, ev.StateChanged.EVENT, state="void"),
            _record(7, ev.RoundVoided.EVENT, reason="misdeal", wagered=1500, paid=1500, fees=0, house_win=0,
                    between_players=0),
        ])
        paytable = conn.execute("SELECT paytable FROM rounds WHERE table_id = %s", (TABLE,)).fetchone()
        meters = conn.execute("SELECT wagered, paid, theoretical FROM meters WHERE table_id = %s AND wager = ''",
                              (TABLE,)).fetchone()
    assert paytable == ("table-1",)  # the round meets table-1's edges: a theoretical win, were it played
    assert meters == (1500, 1500, 0)
