"""``tablectl audit verify --floor-checkpoints``: the table's records against the checkpoints the floor holds of them.

The floor's copy is made here as ``tablectl floor checkpoints`` makes it (the
table's enrolled key and every checkpoint the table sent), from the journal's
own checkpoints, so these run without the floor's servers; tests/floor runs
the same checks through the real outbox, broker and PostgreSQL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from controller.records.journal import Journal
from controller.records.keys import PublicKey, SigningKey, sign_checkpoint
from tests.records.suites import cli, play, write_config

VERIFY = ("audit", "verify", "--config", "table.toml")


@pytest.fixture
def table(tmp_path: Path) -> Path:
    folder = tmp_path / "table"
    folder.mkdir()
    write_config(folder)
    assert cli(folder, "journal", "init", "--config", "table.toml").rc == 0
    play(folder, 3, 1)
    return folder


def _sent(table: Path) -> list[dict[str, Any]]:
    """Every checkpoint the table's journal holds, as the outbox sends them."""
    with Journal(table / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        return [{"id": i, **body} for i, body in journal.checkpoints()]


def _floor_copy(table: Path, checkpoints: list[dict[str, Any]], out: Path, *, pub: Path | None = None) -> Path:
    key = PublicKey.load(pub or table / "journal.pub")
    out.write_text(json.dumps({"table": "TC-01", "public_key": key.pem().decode(), "fingerprint": key.fingerprint,
                               "retired_keys": [], "checkpoints": checkpoints, "refused": 0}))
    return out


def _records(table: Path) -> list[Path]:
    return [f for f in table.iterdir() if f.is_file() and f.suffix not in (".key", ".pub")]


def test_records_put_back_to_an_older_copy_are_intact_alone_and_cut_off_against_the_floor(table: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for file in _records(table):
        shutil.copy2(file, copy / file.name)
    play(table, 3, 2)
    held = _floor_copy(table, _sent(table), tmp_path / "held.json")
    assert cli(table, *VERIFY, "--floor-checkpoints", str(held)).rc == 0
    last = max(c["journal"]["seq"] for c in _sent(table))
    for file in _records(table):
        file.unlink()
    for file in copy.iterdir():
        shutil.copy2(file, table / file.name)
    before = max(c["journal"]["seq"] for c in _sent(table))

    alone = cli(table, *VERIFY)
    assert alone.rc == 0 and "intact" in alone.out, alone.out + alone.err
    caught = cli(table, *VERIFY, "--floor-checkpoints", str(held))
    assert caught.rc == 1, caught.out + caught.err
    assert f"the journal ends at seq {before}; the floor holds the table's checkpoint of seq {last}" in caught.out
    assert f"records {before + 1}-{last} were cut off" in caught.out
    assert "line(s) cut off the end" in caught.out


def test_a_log_and_journal_rewritten_with_a_new_key_pass_with_the_disks_key_and_fail_with_the_floors(
    table: Path, tmp_path: Path
) -> None:
    held = _floor_copy(table, _sent(table), tmp_path / "held.json")
    for file in table.iterdir():
        if file.name != "table.toml":
            file.unlink()
    assert cli(table, "journal", "init", "--config", "table.toml").rc == 0  # a new key: the old one was not at hand
    play(table, 3, 1)
    assert cli(table, *VERIFY).rc == 0
    caught = cli(table, *VERIFY, "--floor-checkpoints", str(held))
    assert caught.rc == 1
    assert "is not the key the floor enrolled for table TC-01" in caught.out
    assert "no line is signed by the table's key" in caught.out
    assert "journal record(s) are not the ones the table signed in the floor's checkpoints" in caught.out


def test_an_honest_restore_with_a_declared_loss_is_not_called_tampering_by_the_floors_copy(table: Path, tmp_path: Path) -> None:
    assert cli(table, "journal", "backup", "--config", "table.toml", "--to", "b.sqlite").rc == 0
    play(table, 2, 5)
    before_loss = _sent(table)  # what the floor received before the disk failed
    (table / "journal.sqlite").unlink()
    (table / "events.jsonl").write_bytes(b"")
    assert cli(table, "journal", "restore", "b.sqlite", "--config", "table.toml", "--accept-loss").rc == 0
    assert cli(table, "audit", "new-log", "--config", "table.toml").rc == 0
    play(table, 2, 6)
    held = _floor_copy(table, before_loss + _sent(table), tmp_path / "held.json")
    verified = cli(table, *VERIFY, "--floor-checkpoints", str(held))
    assert verified.rc == 0, verified.out + verified.err
    assert "declared lost on the table when it was restored" in verified.out


def test_a_floor_copy_changed_on_its_way_and_one_of_another_table_are_named(table: Path, tmp_path: Path) -> None:
    sent = _sent(table)
    forger = SigningKey.generate(tmp_path / "forger.key")
    forged = sign_checkpoint({**{k: v for k, v in sent[-1].items() if k not in ("id", "sig", "key")},
                              "journal": {"seq": sent[-1]["journal"]["seq"] + 50, "hash": "0" * 64}}, forger)
    held = _floor_copy(table, [*sent, {"id": sent[-1]["id"] + 1, **forged}], tmp_path / "held.json")
    said = cli(table, *VERIFY, "--floor-checkpoints", str(held))
    assert said.rc == 1
    assert "1 of the floor's checkpoints in" in said.out and "are not signed by the key the floor enrolled" in said.out
    assert "CUT OFF" not in said.out  # the forged checkpoint is left out

    other = json.loads(held.read_text())
    other["table"] = "TC-09"
    (tmp_path / "other.json").write_text(json.dumps(other))
    wrong = cli(table, *VERIFY, "--floor-checkpoints", str(tmp_path / "other.json"))
    assert wrong.rc == 2 and "holds the floor's checkpoints of table TC-09, not TC-01" in wrong.err
    (tmp_path / "junk.json").write_text("{")
    junk = cli(table, *VERIFY, "--floor-checkpoints", str(tmp_path / "junk.json"))
    assert junk.rc == 2 and "is not JSON: expected what `tablectl floor checkpoints TABLE` prints" in junk.err
    assert junk.traceback is None
