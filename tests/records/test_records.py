"""The journal that knows itself, one writer per table, backups and restores, migration, keys and checkpoints."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.events import ShoeShuffled, WagerSettled
from controller.records.anchor import SLOT, Anchor, read_anchor
from controller.records.checkpoints import Checkpoint, published_since
from controller.records.errors import JournalCorrupt, NoJournal, RecordsHeld
from controller.records.journal import Journal
from controller.records.keys import KeyProblem, PublicKey, SigningKey
from tests.records.suites import ROOT, cli, fingerprint, play, truth, write_config


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A table that played a few rounds: journal, anchor, key and log in ``tmp_path``."""
    write_config(tmp_path)
    assert cli(tmp_path, "journal", "init", "--config", "table.toml").rc == 0
    play(tmp_path, 3, 1)
    return tmp_path


def test_a_new_journal_is_made_only_by_journal_init(tmp_path: Path) -> None:
    write_config(tmp_path)
    started = cli(tmp_path, "run", "--config", "table.toml", "--rounds", "1")
    assert started.rc == 2 and "tablectl journal init" in started.err
    assert not (tmp_path / "journal.sqlite").exists()
    with pytest.raises(NoJournal):
        Journal(tmp_path / "journal.sqlite", table_id="TC-01")
    made = cli(tmp_path, "journal", "init", "--config", "table.toml")
    assert made.rc == 0 and "made for table TC-01" in made.out and "ed25519:" in made.out
    again = cli(tmp_path, "journal", "init", "--config", "table.toml")
    assert again.rc == 0 and "nothing changed" in again.out
    assert oct((tmp_path / "journal.key").stat().st_mode & 0o777) == "0o600"


def test_init_refuses_a_table_with_history_and_after_a_loss_numbers_on_without_reuse(table: Path) -> None:
    before = truth(table)
    (table / "journal.sqlite").unlink()
    refused = cli(table, "journal", "init", "--config", "table.toml")
    assert refused.rc == 4 and f"saw seq {before[-1][0]}" in refused.err
    after = cli(table, "journal", "init", "--config", "table.toml", "--after-loss")
    assert after.rc == 0, after.err
    play(table, 1, 2)
    seqs = [seq for seq, _ in truth(table)]
    assert seqs[0] == before[-1][0] + 1, "no sequence number is used twice"


def test_a_second_process_is_refused_at_once_naming_the_table_the_file_and_the_pid(table: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from controller.records.journal import Journal; "
         "j = Journal(sys.argv[1], table_id='TC-01'); print('open', flush=True); time.sleep(60)", str(table / "journal.sqlite")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        began = time.monotonic()
        second = cli(table, "run", "--config", "table.toml", "--rounds", "1")
        assert time.monotonic() - began < 10
        assert second.rc == 3
        assert "table TC-01's journal" in second.err and "journal.sqlite" in second.err and f"pid {holder.pid}" in second.err
        reading = cli(table, "meters", "--config", "table.toml")
        assert reading.rc == 0, "reading commands read alongside the table"
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_reading_commands_never_write_even_after_a_crash(table: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    crashed = tmp_path_factory.mktemp("crashed")
    play(table, 2, 3, snapshot=crashed)  # the files as a kill left them: committed records still in the WAL
    assert (crashed / "journal.sqlite-wal").stat().st_size > 0
    before = fingerprint(crashed)
    for args in (("meters",), ("rounds",), ("round", "nope"), ("replay", "nope"), ("audit", "verify"), ("journal", "verify")):
        result = cli(crashed, *args, "--config", "table.toml")
        assert result.traceback is None, result.traceback
    assert fingerprint(crashed) == before
    assert cli(crashed, "meters", "--config", "table.toml", "--json").rc == 0


def test_backup_and_restore_verified_by_the_anchor(table: Path) -> None:
    backup = cli(table, "journal", "backup", "--config", "table.toml", "--to", "b.sqlite")
    assert backup.rc == 0 and "chain verified" in backup.out
    play(table, 3, 4)
    committed = truth(table)
    for name in ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"):
        (table / name).unlink(missing_ok=True)
    stopped = cli(table, "run", "--config", "table.toml", "--rounds", "1")
    assert stopped.rc == 4 and "is missing" in stopped.err
    restored = cli(table, "journal", "restore", "b.sqlite", "--config", "table.toml")
    assert restored.rc == 0, restored.err
    assert "verified by the anchor" in restored.out and "put back from the event log" in restored.out
    assert truth(table) == committed
    assert cli(table, "run", "--config", "table.toml", "--rounds", "1").rc == 0


def test_records_neither_the_backup_nor_the_log_hold_are_named_and_only_a_person_accepts_their_loss(table: Path) -> None:
    assert cli(table, "journal", "backup", "--config", "table.toml", "--to", "b.sqlite").rc == 0
    play(table, 2, 5)
    last = truth(table)[-1][0]
    (table / "journal.sqlite").unlink()
    (table / "events.jsonl").write_bytes(b"")  # the log went too
    refused = cli(table, "journal", "restore", "b.sqlite", "--config", "table.toml")
    assert refused.rc == 4 and f"-{last} are in neither the backup nor the event log" in refused.err
    accepted = cli(table, "journal", "restore", "b.sqlite", "--config", "table.toml", "--accept-loss")
    assert accepted.rc == 0 and "LOST and recorded as such" in accepted.out
    assert cli(table, "audit", "new-log", "--config", "table.toml").rc == 0
    assert cli(table, "run", "--config", "table.toml", "--rounds", "1").rc == 0
    with Journal(table / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        assert journal.gaps()[0][1] == last
        assert [seq for seq, _ in journal.chain_hashes()][-1] > last, "numbering carries on after the loss"


def test_a_flipped_byte_anywhere_in_a_record_is_found_naming_its_seq_and_round(table: Path) -> None:
    with sqlite3.connect(table / "journal.sqlite") as db:
        seq, text = db.execute("SELECT seq, record FROM events WHERE event = ? LIMIT 1", (WagerSettled.EVENT,)).fetchone()
        db.execute("UPDATE events SET record = ? WHERE seq = ?", (text.replace('"returned":', '"returned":1'), seq))
    with pytest.raises(JournalCorrupt, match=f"seq {seq} no longer match their checksum .*rounds TC-01-"):
        Journal(table / "journal.sqlite", table_id="TC-01", readonly=True)


def test_a_meter_changed_in_the_file_is_found(table: Path) -> None:
    with sqlite3.connect(table / "journal.sqlite") as db:
        db.execute("UPDATE meters SET paid = paid + 1 WHERE wager = ''")
    with pytest.raises(JournalCorrupt, match="row.s. of meters"):
        Journal(table / "journal.sqlite", table_id="TC-01", readonly=True)


def test_a_meter_changed_and_resealed_is_found_against_the_records(table: Path) -> None:
    # a row's checksum is a plain hash anyone can compute: an insider who moves $1,000 of payouts off the meters and
    # writes the row's checksum again must still be found, by the settlements the chain holds
    from controller.records.chain import row_sum

    with sqlite3.connect(table / "journal.sqlite") as db:
        db.create_function("rowsum", -1, row_sum, deterministic=True)
        db.execute("UPDATE meters SET paid = paid - 100000 WHERE wager = ''")
        db.execute("UPDATE meters SET sum = rowsum(wager, count, wagered, paid)")
        db.execute("UPDATE counters SET value = value + 500 WHERE name = 'fees'")
        db.execute("UPDATE counters SET sum = rowsum(name, value)")
    with pytest.raises(JournalCorrupt, match="fees, meter 'total' no longer add up to the records"):
        Journal(table / "journal.sqlite", table_id="TC-01", readonly=True)
    verified = cli(table, "journal", "verify", "--config", "table.toml")
    assert verified.rc == 4 and "meter 'total'" in verified.err


def test_a_record_changed_and_rechained_with_the_anchor_written_to_match_is_found_by_the_anchors_signature(table: Path) -> None:
    # without the key: a losing wager made a win, the chain's hashes computed again to the end, the meters and the
    # anchor's hash (its slot checksum is a plain hash) written to match; the anchor's checkpoint signature cannot be
    from controller.records.anchor import _slot_sum
    from controller.records.chain import record_hash, row_sum

    with sqlite3.connect(table / "journal.sqlite") as db:
        db.create_function("rowsum", -1, row_sum, deterministic=True)
        rows = db.execute("SELECT seq, round, event, record, prev FROM events ORDER BY seq").fetchall()
        target = next(seq for seq, _, event, text, _ in rows if event == WagerSettled.EVENT and '"returned":0' in text)
        prev = None
        for seq, round_id, event, text, link in rows:
            if seq < target:
                continue
            prev = link if prev is None else prev
            if seq == target:
                record = json.loads(text)
                record.update(outcome="win", returned=2 * record["stake"], house_win=-record["stake"],
                              exact_returned=str(2 * record["stake"]), payout="1 to 1")
                text = json.dumps(record, separators=(",", ":"))
                won, wager = 2 * record["stake"], record["wager"]
            prev_hash = record_hash(seq, prev, round_id, event, text)
            db.execute("UPDATE events SET record = ?, prev = ?, hash = ? WHERE seq = ?", (text, prev, prev_hash, seq))
            prev = prev_hash
        db.execute("UPDATE meters SET paid = paid + ? WHERE wager IN ('', ?)", (won, wager))
        db.execute("UPDATE meters SET sum = rowsum(wager, count, wagered, paid)")
    anchor = table / "journal.anchor"
    data = bytearray(anchor.read_bytes())
    for at in (0, SLOT):
        slot = json.loads(data[at : at + SLOT])
        if slot["checkpoint"]["journal"]["seq"] == rows[-1][0]:
            slot["checkpoint"]["journal"]["hash"] = prev
            slot["sum"] = _slot_sum(slot["generation"], slot["checkpoint"])
            data[at : at + SLOT] = json.dumps(slot, sort_keys=True, separators=(",", ":")).encode().ljust(SLOT - 1) + b"\n"
    anchor.write_bytes(bytes(data))
    verified = cli(table, "journal", "verify", "--config", "table.toml")
    assert verified.rc == 4 and "is not signed by the table's key" in verified.err
    played = cli(table, "run", "--config", "table.toml", "--rounds", "1")
    assert played.rc == 4 and "is not signed by the table's key" in played.err


def test_a_torn_anchor_write_leaves_the_head_before_it(tmp_path: Path) -> None:
    anchor = Anchor(tmp_path / "j.anchor")
    anchor.open()
    for seq in (1, 2, 3):
        anchor.write({"journal": {"seq": seq, "hash": f"{seq:064d}"}, "at": "now"})
    anchor.close()
    data = bytearray((tmp_path / "j.anchor").read_bytes())
    data[SLOT + 10 : SLOT + 20] = b"x" * 10  # generation 3 sits in slot 1: torn by a power cut
    (tmp_path / "j.anchor").write_bytes(bytes(data))
    head = read_anchor(tmp_path / "j.anchor")
    assert head is not None and head.seq == 2


def test_a_journal_from_before_the_chain_is_sent_to_migrate_and_migrates_whole(tmp_path: Path) -> None:
    write_config(tmp_path)
    old = tmp_path / "journal.sqlite"
    with sqlite3.connect(old) as db:
        db.executescript("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE events (seq INTEGER PRIMARY KEY, round TEXT, event TEXT NOT NULL, record TEXT NOT NULL);
            CREATE INDEX events_by_round ON events (round, seq);
            CREATE TABLE rounds (id TEXT PRIMARY KEY, game TEXT NOT NULL, started_seq INTEGER NOT NULL, state TEXT NOT NULL, ended_seq INTEGER);
            CREATE INDEX rounds_open ON rounds (ended_seq);
            CREATE TABLE wagers (round TEXT NOT NULL, spot INTEGER NOT NULL, wager TEXT NOT NULL, staked INTEGER NOT NULL,
                                 settled INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (round, spot, wager));
            CREATE TABLE meters (wager TEXT PRIMARY KEY, count INTEGER NOT NULL, wagered INTEGER NOT NULL, paid INTEGER NOT NULL);
            CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT INTO meta VALUES ('table', 'TC-01'), ('schema', '1');
        """)
        for seq in (1, 2):
            db.execute("INSERT INTO events VALUES (?, NULL, ?, ?)",
                       (seq, ShoeShuffled.EVENT, json.dumps({"event": ShoeShuffled.EVENT, "table": "TC-01", "round": None,
                                                             "seq": seq, "shuffle": seq, "burn": 1})))
    refused = cli(tmp_path, "run", "--config", "table.toml", "--rounds", "1")
    assert refused.rc == 4 and "journal migrate" in refused.err
    migrated = cli(tmp_path, "journal", "migrate", "--config", "table.toml")
    assert migrated.rc == 0 and "2 records chained" in migrated.out, migrated.err
    assert list(tmp_path.glob("journal.sqlite.schema1-*"))
    assert cli(tmp_path, "run", "--config", "table.toml", "--rounds", "2").rc == 0
    assert cli(tmp_path, "journal", "verify", "--config", "table.toml").rc == 0
    assert cli(tmp_path, "audit", "verify", "--config", "table.toml").rc == 0


def test_a_key_others_may_read_is_refused(table: Path) -> None:
    (table / "journal.key").chmod(0o644)
    with pytest.raises(KeyProblem, match="chmod 600"):
        SigningKey.load(table / "journal.key")
    started = cli(table, "run", "--config", "table.toml", "--rounds", "1")
    assert started.rc == 4 and "may be read by others" in started.err


def test_checkpoints_for_the_floor_are_signed_and_verify_with_the_public_key(table: Path) -> None:
    public = PublicKey.load(table / "journal.pub")
    with Journal(table / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        sent = published_since(journal)
        assert sent and all(c.signed_by(public) for c in sent)
        newest = sent[-1]
        assert newest.journal_seq == journal.last_seq and newest.journal_hash == journal.last_hash
        assert newest.log is not None and newest.log["n"] > 0
        assert published_since(journal, newest.id) == []
    received = Checkpoint.from_message(newest.message())
    assert received == newest and received.signed_by(public)
    forged = Checkpoint.from_message(newest.message().replace(b'"seq":', b'"seq":1', 1))
    assert not forged.signed_by(public)
    assert read_anchor(table / "journal.anchor").checkpoint == newest.body  # type: ignore[union-attr]


def test_the_event_log_ahead_of_the_journal_names_the_lost_records_and_rounds(table: Path, tmp_path_factory) -> None:
    crashed = tmp_path_factory.mktemp("crashed")
    play(table, 2, 6, snapshot=crashed)
    (crashed / "journal.sqlite-wal").unlink()
    (crashed / "journal.sqlite-shm").unlink()
    (crashed / "journal.anchor").unlink()  # the anchor too: the event log is the last witness
    started = cli(crashed, "run", "--config", "table.toml", "--rounds", "1")
    assert started.rc == 4, started.err
    assert "anchor journal.anchor is missing" in started.err or "holds records up to seq" in started.err


def test_a_held_journal_in_this_process_is_refused_without_touching_its_locks(table: Path) -> None:
    with Journal(table / "journal.sqlite", table_id="TC-01") as journal:
        with pytest.raises(RecordsHeld, match="already in use by this process"):
            Journal(table / "journal.sqlite", table_id="TC-01")
        journal.checkpoint()  # the first is untouched


def _unprivileged(command: list[str]) -> list[str]:
    """``command`` subject to file modes: as root, without the capabilities that override them (``setpriv``)."""
    import shutil

    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file modes cannot be enforced")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]


@pytest.mark.parametrize("target", ["journal", "log"])
def test_a_file_the_service_user_may_not_write_is_named_with_exit_3(table: Path, target: str) -> None:
    (table / ("journal.sqlite" if target == "journal" else "events.jsonl")).chmod(0o444)
    done = subprocess.run(_unprivileged([sys.executable, "-m", "controller.commands.cli", "run", "--config", "table.toml", "--rounds", "1"]),
                          cwd=table, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "permission denied" in done.stderr
    assert ("journal.sqlite" if target == "journal" else "events.jsonl") in done.stderr
