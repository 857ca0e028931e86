"""The journal: durable records, meters that never double count, and storage failures that lose nothing."""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cards import Card
from controller.engine.devices import open_feed
from controller.engine.log import EventLog
from controller.engine.players import SimulatedPlayers
from controller.engine.recovery import recover
from controller.engine.table import Table
from controller.events import WagerSettled, stamped
from controller.records.journal import Journal, JournalConflict, JournalCorrupt, JournalFull
from tests.helpers import MemoryLog, in_process_config, init_table, new_journal, play_round, top_card_round
from tests.journal_checks import check_journal

ROOT = Path(__file__).resolve().parent.parent


def journaled_round(journal: Journal, round_id: str = "T1-R1"):
    log = EventLog("T1", journal=journal)
    return top_card_round(log, round_id=round_id), log  # type: ignore[arg-type]


def play(round, *cards: str) -> None:
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(2, "tie", 125)
    round.close_betting()
    for code in cards:
        round.card(Card.parse(code))


def test_every_event_is_journaled_before_it_is_logged(tmp_path: Path) -> None:
    seen_in_journal = []
    with new_journal(tmp_path / "j.sqlite") as journal:
        log = MemoryLog("T1")
        log.journal = journal
        log.subscribe(lambda event: seen_in_journal.append(journal.last_seq >= event.seq))
        round = top_card_round(log)
        play(round, "KS", "2D")
        assert all(seen_in_journal) and len(seen_in_journal) == len(log.records())
        assert [r["seq"] for r in journal.stored()] == [r["seq"] for r in log.records()]


def test_meters_are_kept_in_the_journal_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        for n, cards in enumerate((("KS", "2D"), ("5H", "5C"), ("2S", "AS"))):
            round, _ = journaled_round(journal, f"T1-R{n}")
            play(round, *cards)
    with Journal(path, table_id="T1") as journal:
        meters = journal.meters()
    # home 1000 wins, then pushes half (500 back) on the tie, then loses; tie 125 loses, wins 11 to 1, loses
    assert meters.rounds == 3
    assert meters.by_wager["home"].wagered == 3000 and meters.by_wager["home"].paid == 2000 + 500
    assert meters.by_wager["tie"].paid == 125 * 12
    assert meters.total.house_win == 3375 - (2500 + 1500)


def test_a_round_cannot_start_twice_nor_a_wager_settle_twice(tmp_path: Path) -> None:
    with new_journal(tmp_path / "j.sqlite") as journal:
        round, log = journaled_round(journal)
        play(round, "KS", "2D")
        settled = next(r for r in journal.records() if isinstance(r, WagerSettled))
        with pytest.raises(JournalConflict, match="already ended"):
            journal.append([stamped(settled, seq=journal.last_seq + 1)])
        with pytest.raises(JournalConflict, match="already started"):
            round2, _ = journaled_round(journal)
            round2.start()
        assert journal.meters().rounds == 1


def test_a_journal_belongs_to_one_table(tmp_path: Path) -> None:
    new_journal(tmp_path / "j.sqlite").close()
    with pytest.raises(JournalConflict, match="belongs to table 'T1'") as refused:
        Journal(tmp_path / "j.sqlite", table_id="T2")
    # a config to correct (exit 2), not records held by another process (3): a walkthrough saw 3
    assert refused.value.exit_code == 2  # type: ignore[attr-defined]


def test_a_full_journal_refuses_the_write_keeps_everything_before_and_the_round_resumes(tmp_path: Path) -> None:
    """[journal] max_size_mb (PRAGMA max_page_count) reached: the failing event is not half-written."""
    config = in_process_config()
    path = tmp_path / "j.sqlite"
    players = SimulatedPlayers(random.Random(3))
    with new_journal(path, config.table_id, max_bytes=160 * 1024) as journal:
        log = EventLog(config.table_id, journal=journal)
        table = Table(config, open_feed(config, log, seed=3), log, session="S")
        with pytest.raises(JournalFull, match="is full"):
            for _ in range(500):
                table.rounds_played = journal.rounds_started()
                play_round(table, players)
        last = journal.last_seq
        assert log.last_seq == last and [r["seq"] for r in journal.stored()][-1] == last
        assert len(journal.open_rounds()) == 1
    with Journal(path, table_id=config.table_id) as journal:
        log = EventLog(config.table_id, journal=journal)
        table = Table(config, open_feed(config, log, seed=4), log, session="S")
        [recovered] = recover(journal, log, table.game, table.limits)
        if recovered.action == "resumed":
            play_round(table, players, recovered.round)
        assert recovered.round.state == "complete"
    counts = check_journal(path)
    assert counts["open"] == 0 and counts["rounds"] >= 2


def test_a_file_size_limit_stops_the_run_cleanly_and_a_restart_finishes_the_round(tmp_path: Path) -> None:
    """A real write failure (RLIMIT_FSIZE, as a full disk): exit 3 with a message, no traceback, nothing lost."""
    journal, log = tmp_path / "j.sqlite", tmp_path / "events.jsonl"
    args = [sys.executable, "-m", "controller.commands.cli", "run", "--rounds", "400", "--seed", "5", "--no-camera",
            "--journal", str(journal), "--log", str(log)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    init_table(journal, log)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (400 * 1024, 400 * 1024))

    full = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, preexec_fn=limit, check=False)
    assert full.returncode == 3, full.stderr
    assert full.stdout.count(" complete ") >= 1
    assert "Traceback" not in full.stderr and "holds at its last journaled event" in full.stderr
    again = subprocess.run([*args[:5], "3", *args[6:]], env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    counts = check_journal(journal)
    assert counts["open"] == 0 and counts["rounds"] >= full.stdout.count(" complete ") + 3 - 1


def test_a_corrupted_page_is_found_on_open(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        for n in range(30):
            round, _ = journaled_round(journal, f"T1-R{n}")
            play(round, "KS", "2D")
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[4 * page + 8 : 5 * page - 8] = os.urandom(page - 16)
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="restore it: `tablectl journal restore BACKUP`"):
        Journal(path, table_id="T1")


def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database" * 400)
    with pytest.raises(JournalCorrupt):
        Journal(path, table_id="T1")


def test_the_cli_refuses_to_run_on_a_damaged_journal(tmp_path: Path, capsys) -> None:
    from controller.commands.cli import main

    path = tmp_path / "j.sqlite"
    path.write_bytes(b"garbage" * 2000)
    assert main(["run", "--rounds", "1", "--journal", str(path), "--log", str(tmp_path / "e.jsonl")]) == 4
    assert "damaged" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["meters"], ["rounds"], ["round", "TC-01-R1"], ["replay", "TC-01-R1"], ["journal", "verify"],
                                     ["journal", "backup"], ["audit", "verify"], ["audit", "checkpoint"], ["hold", "list"],
                                     ["shuffle", "report", "--no-picture"], ["journal", "init"]])
def test_a_journal_path_that_is_a_directory_is_named_by_every_command(tmp_path: Path, capsys, command: list[str]) -> None:
    from controller.commands.cli import main

    path, log = tmp_path / "TC-01.sqlite", tmp_path / "e.jsonl"
    if command[0] == "audit":  # it reads the event log first: one there is
        init_table(path, log)
        assert main(["run", "--rounds", "1", "--no-camera", "--journal", str(path), "--log", str(log)]) == 0
        capsys.readouterr()
        path.rename(tmp_path / "aside.sqlite")
    path.mkdir()
    assert main([*command, "--journal", str(path), *(["--log", str(log)] if command[0] == "audit" else [])]) == 3
    assert capsys.readouterr().err == (
        f"tablectl: journal {path} is a directory, not a journal file: give the table's journal file (--journal, or the "
        "config's [journal] path), or move this aside and restore the journal (`tablectl journal restore BACKUP`, "
        "docs/operations.md)\n")


@pytest.mark.parametrize("damage", ["missing", "damaged"])
def test_journal_verify_checks_what_it_can_without_the_anchor_and_says_what_to_do(tmp_path: Path, capsys, damage: str) -> None:
    """The table refuses a journal whose anchor is missing and says to check it with `journal verify`: verify then
    checks the journal and the event log, reports them, and names the anchor's loss (exit 4), so a person can decide."""
    from controller.commands.cli import main

    files = ["--journal", str(tmp_path / "j.sqlite"), "--log", str(tmp_path / "e.jsonl")]
    init_table(tmp_path / "j.sqlite", tmp_path / "e.jsonl")
    assert main(["run", "--rounds", "2", "--no-camera", *files]) == 0
    anchor = tmp_path / "j.anchor"
    anchor.unlink() if damage == "missing" else anchor.write_bytes(b"\0" * anchor.stat().st_size)
    capsys.readouterr()
    assert main(["journal", "verify", *files]) == 4
    out, err = capsys.readouterr()
    assert "whole in itself" in out and f"anchor {anchor}: {damage.upper()}: nothing shows" in out
    assert "not ahead of the journal, not behind its checkpoint" in out
    assert "`tablectl journal anchor --rewrite`" in err and "journal verify" not in err
    assert main(["journal", "anchor", "--rewrite", *files]) == 0
    assert main(["journal", "verify", *files]) == 0 and ": intact: " in capsys.readouterr().out


def test_a_backup_that_does_not_exist_is_refused_by_name_and_nothing_changes(tmp_path: Path, capsys) -> None:
    from controller.commands.cli import main

    journal = tmp_path / "j.sqlite"
    files = ["--journal", str(journal), "--log", str(tmp_path / "e.jsonl")]
    init_table(journal, tmp_path / "e.jsonl")
    assert main(["run", "--rounds", "1", "--no-camera", *files]) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    capsys.readouterr()
    assert main(["journal", "restore", str(tmp_path / "nosuch.sqlite"), *files]) == 2
    assert capsys.readouterr().err == f"tablectl: backup {tmp_path / 'nosuch.sqlite'} does not exist: nothing was restored or changed\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_the_backups_restore_hint_is_a_command_a_shell_runs_as_it_reads(tmp_path: Path, capsys) -> None:
    """Paths with spaces are quoted, and only the options given are repeated (no `--config None`)."""
    import shlex

    from controller.commands.cli import main

    folder = tmp_path / "my table"
    folder.mkdir()
    config = folder / "my table.toml"
    config.write_text((Path(__file__).resolve().parents[1] / "config" / "top-card.toml").read_text())
    files = ["--config", str(config), "--journal", str(folder / "j 1.sqlite"), "--log", str(folder / "e 1.jsonl")]
    init_table(folder / "j 1.sqlite", folder / "e 1.jsonl", config)
    capsys.readouterr()
    assert main(["journal", "backup", *files, "--to", f"{folder}/"]) == 0
    hint = capsys.readouterr().out.splitlines()[-1].split("restore with: ", 1)[1]
    words = shlex.split(hint)
    assert words[:3] == ["tablectl", "journal", "restore"] and Path(words[3]).is_file() and words[4:] == files


def test_migrating_a_journal_that_needs_none_is_a_success_that_says_so(tmp_path: Path, capsys) -> None:
    from controller.commands.cli import main

    journal = tmp_path / "j.sqlite"
    init_table(journal, tmp_path / "e.jsonl")
    before = journal.read_bytes()
    assert main(["journal", "migrate", "--journal", str(journal), "--log", str(tmp_path / "e.jsonl")]) == 0
    assert capsys.readouterr().out == f"journal {journal} already has the record chain (schema 2): nothing to migrate\n"
    assert journal.read_bytes() == before and not list(tmp_path.glob("*.schema1-*"))
    # its key lost, migrate makes none: a new key would not be the one its chain was signed with
    keys = sorted(tmp_path.glob("*.key*"))
    for key in keys:
        key.unlink()
    assert main(["journal", "migrate", "--journal", str(journal), "--log", str(tmp_path / "e.jsonl")]) == 0
    assert "nothing to migrate" in capsys.readouterr().out and keys and not list(tmp_path.glob("*.key*"))
