"""A table whose journal was restored with a loss a person accepted (`journal restore --accept-loss`), seen from the floor.

Found by a regulator's auditor re-deriving the floor's figures from each table's journal: after an honest restore
with an accepted loss, every record the table wrote from then on was kept aside as "two journals publish as this
table" (its chain goes on from the last record the backup held, not from the records the floor holds after it),
never counted; and where the floor had never received the lost records, the table's gap stayed open for good and
nothing after it was ever counted. The floor now learns of the declared loss with the first record after it.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import psycopg
import pytest

from controller import events as ev
from controller.commands.cli import main
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox
from controller.floor.reconcile import check_table
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

TABLE = "TC-01"


def _publish(journal: Path, cluster: NatsCluster, database: str) -> None:
    """The table's outbox publishes its whole journal and the floor stores every record of it."""
    outbox = Outbox(journal, table_id=TABLE, site="audit", servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="audit")
    with Journal(journal, table_id=TABLE, readonly=True) as own:
        head = own.last_seq

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().acked_seq >= head)
        await until(lambda: _contiguous(database) >= head or _aside(database) > 0)
        await asyncio.sleep(0.5)  # anything kept aside arrives with the records it came with

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        outbox.stop()


def _contiguous(database: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT contiguous_seq FROM floor_tables WHERE table_id = %s", (TABLE,)).fetchone()
    return int(row[0]) if row else 0


def _aside(database: str) -> int:
    with psycopg.connect(database) as conn:
        if not conn.execute("SELECT to_regclass('event_conflicts') IS NOT NULL").fetchone()[0]:  # type: ignore[index]
            return 0
        return int(conn.execute("SELECT COUNT(*) FROM event_conflicts").fetchone()[0])  # type: ignore[index]


def _restore_with_loss(journal: Path, backup: Path, log_then: bytes) -> tuple[int, int]:
    """The table's disk loses the journal and the end of its log; a person restores the backup accepting the loss."""
    log = journal.with_suffix(".jsonl")
    for path in journal.parent.glob(journal.name + "*"):
        if not path.name.endswith(".outbox.sqlite"):
            path.unlink()
    log.write_bytes(log_then)
    with Journal(backup, table_id=TABLE, readonly=True, anchored=False) as kept:
        first = kept.last_seq + 1
    assert main(["journal", "restore", str(backup), "--journal", str(journal), "--log", str(log), "--accept-loss"]) == 0
    with Journal(journal, table_id=TABLE, readonly=True) as restored:
        last = restored.last_seq
    return first, last


def _backup(journal: Path, folder: Path) -> tuple[Path, bytes]:
    folder.mkdir(exist_ok=True)
    assert main(["journal", "backup", "--journal", str(journal), "--log", str(journal.with_suffix(".jsonl")),
                 "--to", str(folder)]) == 0
    [backup] = folder.glob("*.sqlite")
    return backup, journal.with_suffix(".jsonl").read_bytes()


def _floor_rounds(database: str) -> tuple[int, int]:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT COALESCE(SUM(value), 0) FROM counters WHERE table_id = %s AND name = 'rounds'",
                           (TABLE,)).fetchone()
        wagered = conn.execute("SELECT COALESCE(SUM(wagered), 0) FROM meters WHERE table_id = %s AND wager = ''",
                               (TABLE,)).fetchone()
    return int(row[0]), int(wagered[0])  # type: ignore[index]


def _alerts(database: str) -> dict[str, str]:
    with psycopg.connect(database) as conn:
        return {str(kind): str(text) for kind, text in conn.execute(
            "SELECT kind, message FROM alerts WHERE table_id = %s AND seq < 0", (TABLE,)).fetchall()}


@pytest.mark.parametrize("floor_saw_the_lost_records", [True, False], ids=["floor-holds-them", "floor-never-saw-them"])
def test_a_journal_restored_with_an_accepted_loss_goes_on_being_counted_by_the_floor(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str], floor_saw_the_lost_records: bool
) -> None:
    journal = tmp_path / f"{TABLE}.sqlite"
    play(journal, rounds=3, seed=1)
    _publish(journal, cluster, database)
    backup, log_then = _backup(journal, tmp_path / "backups")
    play(journal, rounds=2, seed=2)
    with Journal(journal, table_id=TABLE, readonly=True) as before:
        lost_meters = before.meters()
    if floor_saw_the_lost_records:
        _publish(journal, cluster, database)
    first, last = _restore_with_loss(journal, backup, log_then)
    play(journal, rounds=2, seed=3)
    _publish(journal, cluster, database)

    with Journal(journal, table_id=TABLE, readonly=True) as after:
        head, own = after.last_seq, after.meters()
    assert _aside(database) == 0, "the restored table's records were kept aside as another journal's"
    assert _contiguous(database) == head, "the floor still waits for the records the table declared lost"
    alerts = _alerts(database)
    assert "journal_conflict" not in alerts, alerts
    said = alerts["records_declared_lost"]
    assert f"table {TABLE}: records {first} to {last} were declared lost on the table" in said, said
    rounds, wagered = _floor_rounds(database)
    if floor_saw_the_lost_records:
        # the floor's copy of the lost rounds is the one to keep: counted once, beside the rounds played since
        assert "the floor holds them" in said, said
        assert (rounds, wagered) == (own.rounds + (lost_meters.rounds - 3), own.total.wagered + (lost_meters.total.wagered
                                     - _backup_wagered(backup)))
    else:
        assert "the floor never received them" in said, said
        assert (rounds, wagered) == (own.rounds, own.total.wagered)

    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems
    assert any(f"seq {first}-{last}" in note and "declared lost" in note for note in check.notes), check.notes
    capsys.readouterr()
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "audit"\n[database]\ndsn = "{database}"\n')
    assert main(["floor", "check", "--config", str(config), str(journal)]) == 0
    out = capsys.readouterr().out
    assert "the floor equals the journal" in out and "declared lost" in out, out


def _backup_wagered(backup: Path) -> int:
    copy = backup.with_name("read.sqlite")
    shutil.copy(backup, copy)
    with Journal(copy, table_id=TABLE, readonly=True, anchored=False) as kept:
        return kept.meters().total.wagered


def _record(seq: int, event: str, **fields: object) -> dict[str, object]:
    return {"event": event, "table": TABLE, "round": "TC-01-R1", "seq": seq, "game": "top-card",
            "timestamp": f"2026-11-29T20:00:{seq:02d}Z", **fields}


def test_a_round_the_restored_table_ends_again_is_counted_once_as_the_floor_holds_it(database: str) -> None:
    """The backup ended in the middle of a round the floor then saw settle (records 3-4, declared lost on restoring);
    the restored table re-enacted the round and voided it: the floor counted the round twice, its settlements under
    both ends, and the drop with them. The floor's copy (the round as it was paid) is the one it counts."""
    from controller.floor.shifts import Shifts
    from controller.floor.store import FloorStore, create_schema
    from controller.floor.wire import TableRecord

    def item(record: dict[str, object], lost: tuple[int, int] | None = None) -> tuple[TableRecord, int | None]:
        seq = int(record["seq"])  # type: ignore[call-overload]
        return TableRecord(TABLE, seq, str(record["event"]), "TC-01-R1", record, lost=lost), seq

    settled = {"spot": 1, "wager": "home", "stake": 1000, "outcome": "win", "payout": "1 to 1", "banker": "house"}
    played = [
        _record(1, ev.RoundStarted.EVENT, spots=7, rounding="player", options={"paytable": "standard"}, roles={}),
        _record(2, ev.WagerPlaced.EVENT, spot=1, wager="home", amount=1000, previous=0),
        _record(3, ev.WagerSettled.EVENT, **settled, returned=2000, exact_returned="2000", house_win=-1000, reason="home wins"),
        _record(4, ev.RoundCompleted.EVENT, wagered=1000, paid=2000, fees=0, house_win=-1000, between_players=0),
    ]
    again = [
        _record(5, ev.WagerSettled.EVENT, **{**settled, "outcome": "push", "payout": "push"}, returned=1000, exact_returned="1000",
                house_win=0, reason="void: restart after cards were dealt"),
        _record(6, ev.StateChanged.EVENT, state="void"),
        _record(7, ev.RoundVoided.EVENT, reason="restart after cards were dealt", wagered=1000, paid=1000, fees=0, house_win=0,
                between_players=0),
    ]
    with psycopg.connect(database) as conn:
        create_schema(conn)
        store = FloorStore(conn, site="audit", shifts=Shifts.default())
        store.apply([item(r) for r in played])
        store.apply([item(again[0], lost=(3, 4)), *(item(r) for r in again[1:])])
        counters = dict(conn.execute("SELECT name, SUM(value) FROM counters WHERE table_id = %s GROUP BY name",
                                     (TABLE,)).fetchall())
        meters = conn.execute("SELECT count, wagered, paid FROM meters WHERE table_id = %s AND wager = ''", (TABLE,)).fetchone()
        settlements = [int(seq) for (seq,) in conn.execute("SELECT seq FROM settlements WHERE table_id = %s ORDER BY seq",
                                                           (TABLE,))]
        round_row = conn.execute("SELECT state, ended_seq, voided FROM rounds WHERE table_id = %s", (TABLE,)).fetchone()
        contiguous = _contiguous(database)
    assert (counters.get("rounds"), counters.get("voided", 0)) == (1, 0), counters
    assert meters == (1, 1000, 2000)
    assert settlements == [3]
    assert round_row == ("complete", 4, False)
    assert contiguous == 7
