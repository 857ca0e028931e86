"""The floor's theoretical hold meets each game's edges under the pay table the table plays, not only Top Card's.

Found closing a shift as the pit manager: after `tablectl floor edges` the pit page and `floor shifts` gave a
theoretical hold for the Top Card table only; the High Card Flush, Top 5 Poker and Three Card Poker tables read "—"
for good. The floor filed every round under its ``paytable`` option or "standard", while `tablectl edge` names these
games' pay tables otherwise (High Card Flush's ``table-1`` by its two bonus tables, Top 5's ``column-1``, Three Card
Poker's ``seed``), so no wager met its edge. The floor now names a round's pay table as `tablectl edge` does
(``controller.rules.edges.paytable_for``), and `floor edges` names again the rounds it stored before.
"""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from controller import events as ev
from controller.commands.cli import main
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

SITE = "theo"
EDGES = {  # what `tablectl edge --json` prints, with round figures: each pay table's own, to tell which one was met (and
    # a figure for the Raise and the Bet, which `tablectl edge` has none of: a decision's stake meets no edge of its own)
    ("high-card-flush", "table-1"): {"ante": "0.03", "raise": "0.01", "flush_bonus": "0.07", "straight_flush_bonus": "0.06",
                                     "progressive": "0.19"},
    ("high-card-flush", "table-2"): {"ante": "0.5", "raise": "0.5", "flush_bonus": "0.5", "straight_flush_bonus": "0.5",
                                     "progressive": "0.5"},
    ("top-5-poker", "column-1"): {"ante": "0.04", "bet": "0.02", "ace_or_face": "0.0154", "tens_or_better": "0.0217"},
    ("top-5-poker", "column-2"): {"ante": "0.9", "bet": "0.9", "ace_or_face": "0.9", "tens_or_better": "0.9"},
}
TABLES = {"HCF-01": ("high-card-flush", 5), "T5P-01": ("top-5-poker", 7)}


def _table(tmp_path: Path, table: str, game: str, seed: int) -> Path:
    config = tmp_path / f"{table}.toml"
    config.write_text("\n".join(f'id = "{table}"' if line.startswith("id = ") else line
                                for line in Path(f"config/{game}.toml").read_text().splitlines()) + "\n")
    return play(tmp_path / f"{table}.sqlite", rounds=3, seed=seed, config=str(config))


def _theoretical(journal: Path, table: str, game: str, paytable: str) -> str:
    """The table's theoretical hold from its own journal: each house-banked initial stake (less what a decision added:
    a Raise, a Bet, whose play the Ante's edge per Ante already holds) times its wager's edge, over the drop."""
    with Journal(journal, table_id=table, readonly=True) as own:
        stored = own.stored()
    decided = {(r["round"], r["spot"], r["wager"]) for r in stored
               if r["event"] == ev.WagerPlaced.EVENT and r.get("by") == "decision" and r["previous"] == 0}
    settled = [r for r in stored if r["event"] == ev.WagerSettled.EVENT and r.get("banker", "house") == "house"]
    edges = EDGES[(game, paytable)]
    theo = sum((Decimal(r["stake"]) * Decimal(edges.get(r["wager"], "0")) for r in settled
                if (r["round"], r["spot"], r["wager"]) not in decided), Decimal(0))
    drop = sum(int(r["stake"]) for r in settled)
    return f"{theo * 100 / Decimal(drop):.2f}%"


def test_after_floor_edges_every_tables_theoretical_hold_is_its_games_pay_table_s(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journals = {table: _table(tmp_path, table, game, seed) for table, (game, seed) in TABLES.items()}
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outboxes = [Outbox(journal, table_id=table, site=SITE, servers=cluster.urls) for table, journal in journals.items()]

    async def body() -> None:
        for outbox in outboxes:
            outbox.start()
        await until(lambda: all(o.status().lag == 0 and o.status().acked_seq > 0 for o in outboxes))
        await until(lambda: consumer.stats.stored >= sum(o.status().acked_seq for o in outboxes))

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        for outbox in outboxes:
            outbox.stop()
    edges = tmp_path / "edges.json"
    edges.write_text(json.dumps([{"game": game, "paytable": paytable,
                                  "wagers": {w: {"house_edge": float(e)} for w, e in wagers.items()}}
                                 for (game, paytable), wagers in EDGES.items()]))
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "{SITE}"\n[database]\ndsn = "{database}"\n')
    assert main(["floor", "edges", "--config", str(config), "--from", str(edges)]) == 0
    capsys.readouterr()
    assert main(["floor", "shifts", "--config", str(config), "--json"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    expected = {"HCF-01": ("high-card-flush", "table-1"), "T5P-01": ("top-5-poker", "column-1")}
    for table, (game, paytable) in expected.items():
        [row] = [r for r in rows if r["table"] == table]
        assert row["theoretical_hold_pct"] == _theoretical(journals[table], table, game, paytable), row
    assert main(["floor", "shifts", "--config", str(config)]) == 0
    text = capsys.readouterr().out
    for table, (game, paytable) in expected.items():
        [line] = [line for line in text.splitlines() if f" {table} " in line]
        assert f" {_theoretical(journals[table], table, game, paytable)} " in line, line
