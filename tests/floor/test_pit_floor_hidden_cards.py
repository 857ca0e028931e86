"""The floor's pit page shows of a table's last rounds only the cards the game turned face up at the table.

Found by surveillance recalling a High Card Flush table's last rounds on the floor's pit page: every card the table
dealt was listed, a folded spot's seven cards among them, which no screen at the table ever shows (docs/console.md,
"What the screens may show": folds, Top 5's discard, piles given to empty seats, a card-room hand never shown down stay
face down for good). The floor now deals each ended round again by the game's rules from its records and lists only
the cards face up, with how many never were. The oracle is the table's own engine: the round rebuilt from the
table's journal and asked what the pit screen may see (``controller.engine.visibility``).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller.engine.recovery import rebuild
from controller.engine.visibility import Audience, sight
from controller.events import from_record
from controller.floor import views
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.floor.proof import SITE, FloorProcess, floor_config
from controller.records.journal import Journal
from tests.floor.pit_browser import pit_page
from tests.floor.tables import play

GAMES = {"HCF-01": ("high-card-flush", 5), "TCP-01": ("three-card-poker", 5), "HOLDEM-01": ("holdem", 6),
         "T5P-01": ("top-5-poker", 7)}
"""Each table's game and the seed its simulated players play (HCF-01's fold in its four rounds)."""


def _table(tmp_path: Path, table: str, game: str, seed: int) -> Path:
    config = tmp_path / f"{table}.toml"
    config.write_text("\n".join(f'id = "{table}"' if line.startswith("id = ") else line
                                for line in Path(f"config/{game}.toml").read_text().splitlines()) + "\n")
    return play(tmp_path / f"{table}.sqlite", rounds=4, seed=seed, config=str(config))


def _as_the_table_shows(journal: Path) -> dict[str, tuple[list[tuple[str, str]], list[str]]]:
    """Each ended round's cards the table's own pit screen may show ((card, target) in dealing order), and the codes
    of those it may not, from the table's engine re-enacting the journal."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        rounds = [r for (r,) in db.execute("SELECT DISTINCT json_extract(record, '$.round') FROM events WHERE event IN "
                                           "('round_complete', 'round_voided')")]
        out = {}
        for round_id in rounds:
            records = [json.loads(text) for (text,) in db.execute(
                "SELECT record FROM events WHERE json_extract(record, '$.round') = ? ORDER BY seq", (round_id,))]
            round = rebuild([from_record(r) for r in records], None)
            seen = sight(round, Audience.PIT).shown
            cards = [(t, c.code, ok) for (t, c, _), ok in zip(round.cards, seen, strict=True) if t != "burn"]
            out[round_id] = ([(code, t) for t, code, ok in cards if ok], [code for _, code, ok in cards if not ok])
        return out
    finally:
        db.close()


@pytest.fixture
def floor(tmp_path: Path, cluster: NatsCluster, database: str) -> Iterator[dict[str, Any]]:
    journals = {table: _table(tmp_path, table, game, seed) for table, (game, seed) in GAMES.items()}
    process = FloorProcess(floor_config(tmp_path, cluster.urls, database, []), tmp_path / "floor.log")
    process.start()
    outboxes = [Outbox(journal, table_id=table, site=SITE, servers=cluster.urls) for table, journal in journals.items()]
    try:
        heads = {}
        for table, journal in journals.items():
            with Journal(journal, table_id=table, readonly=True) as own:
                heads[table] = own.last_seq
        for outbox in outboxes:
            outbox.start()
        for outbox in outboxes:
            assert outbox.wait_caught_up(120)
        with psycopg.connect(database, autocommit=True) as conn:
            for _ in range(1200):  # the floor service stores what the broker acknowledged: a minute at most
                stored = dict(conn.execute("SELECT table_id, contiguous_seq FROM floor_tables").fetchall())
                if all(stored.get(table, 0) >= head for table, head in heads.items()):
                    break
                conn.execute("SELECT pg_sleep(0.05)")
            assert all(stored.get(table, 0) >= head for table, head in heads.items()), (stored, heads)
        yield {"url": process.url, "dsn": database, "journals": journals}
    finally:
        for outbox in outboxes:
            outbox.stop()
        process.stop()


def test_a_tables_last_rounds_on_the_floor_show_the_cards_its_own_screens_may_show_and_no_other(floor: dict[str, Any]) -> None:
    hidden_somewhere = set()
    with psycopg.connect(floor["dsn"]) as conn:
        for table, journal in floor["journals"].items():
            table_shows = _as_the_table_shows(journal)
            rounds = views.last_rounds(conn, table, 10)
            assert {r["round"] for r in rounds} == set(table_shows), table
            for r in rounds:
                shown, hidden = table_shows[r["round"]]
                assert [(c["card"], c["to"]) for c in r["cards"]] == shown, (table, r["round"])
                assert r["cards_not_shown"] == len(hidden), (table, r["round"])
                if hidden:
                    hidden_somewhere.add(table)
    assert hidden_somewhere >= {"HCF-01", "TCP-01"}, hidden_somewhere  # folds there: the floor had listed their cards


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_surveillance_recalling_a_tables_rounds_in_chromium_sees_no_folded_hands_cards(floor: dict[str, Any]) -> None:
    table = "HCF-01"
    table_shows = _as_the_table_shows(floor["journals"][table])
    with pit_page(floor["url"]) as page:
        page.locator(f".tile[data-table='{table}']").click()
        page.locator("#detail-rounds table").nth(len(table_shows) - 1).wait_for(timeout=30_000)
        shown_on_page = {}
        for element in page.locator("#detail-rounds table").all():
            text = element.inner_text()
            round_id = text.split()[0]
            shown_on_page[round_id] = text
    assert set(shown_on_page) == set(table_shows)
    for round_id, text in shown_on_page.items():
        shown, hidden = table_shows[round_id]
        for code in hidden:
            assert f"{code}→" not in text, (round_id, code, text)
        for code, target in shown:
            assert f"{code}→{target}" in text, (round_id, code, text)
        if hidden:
            assert f"({len(hidden)} never turned up at the table)" in text, text
