"""The hash-chained event log: every kind of tampering is found, honest crashes and rotation are not flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from controller.commands.cli import main
from controller.engine.log import EventLog
from controller.records.audit import GENESIS, ChainedFile, verify
from controller.records.journal import Journal


def write_trail(tmp_path: Path, events: int = 12, *, max_bytes: int | None = None) -> tuple[Path, Journal]:
    path = tmp_path / "events.jsonl"
    journal = Journal(tmp_path / "j.sqlite", table_id="T1")
    trail = ChainedFile(path, max_bytes=max_bytes, backups=9)
    log = EventLog("T1", json_stream=trail, journal=journal)  # type: ignore[arg-type]
    for n in range(events):
        log.emit("shoe_shuffled", None, shuffle=n, burn=1)
    trail.close()
    return path, journal


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def test_an_untouched_trail_verifies_against_its_journal(tmp_path: Path) -> None:
    path, journal = write_trail(tmp_path)
    report = verify([path], journal.records())
    assert report.ok and report.records == 12
    assert json.loads(lines(path)[0])["prev"] == GENESIS


def test_an_edited_record_is_found(tmp_path: Path) -> None:
    path, _ = write_trail(tmp_path)
    text = lines(path)
    text[4] = text[4].replace('"burn": 1', '"burn": 2')
    path.write_text("".join(text))
    report = verify([path])
    assert not report.ok and any(":5: edited" in p for p in report.problems)


def test_an_edited_last_record_is_found_by_the_journal(tmp_path: Path) -> None:
    path, journal = write_trail(tmp_path)
    text = lines(path)
    text[-1] = text[-1].replace('"burn": 1', '"burn": 0')
    path.write_text("".join(text))
    report = verify([path], journal.records())
    assert any("differs from the journal" in p for p in report.problems)


def test_an_inserted_record_is_found(tmp_path: Path) -> None:
    path, _ = write_trail(tmp_path)
    text = lines(path)
    text.insert(6, text[2])
    path.write_text("".join(text))
    report = verify([path])
    assert any("inserted or reordered" in p for p in report.problems)


def test_a_removed_record_is_found(tmp_path: Path) -> None:
    path, _ = write_trail(tmp_path)
    text = lines(path)
    del text[5]
    path.write_text("".join(text))
    assert any("records removed" in p for p in verify([path]).problems)


def test_reordered_records_are_found(tmp_path: Path) -> None:
    path, _ = write_trail(tmp_path)
    text = lines(path)
    text[3], text[4] = text[4], text[3]
    path.write_text("".join(text))
    assert not verify([path]).ok


def test_a_truncated_tail_is_found_whole_lines_by_the_journal_and_a_cut_line_alone(tmp_path: Path) -> None:
    path, journal = write_trail(tmp_path)
    text = lines(path)
    path.write_text("".join(text[:-2]))
    assert verify([path]).ok, "whole lines cut off the end leave a valid chain..."
    assert any("truncated tail" in p for p in verify([path], journal.records()).problems), "...the journal finds them"
    path.write_text("".join(text)[:-30])
    assert any("truncated tail" in p for p in verify([path]).problems)


def test_a_line_cut_by_a_crash_is_declared_on_reopen_and_accepted(tmp_path: Path) -> None:
    path, journal = write_trail(tmp_path)
    path.write_text(path.read_text()[:-25])
    trail = ChainedFile(path)
    log = EventLog("T1", json_stream=trail, journal=journal)  # type: ignore[arg-type]
    log.emit("shoe_shuffled", None, shuffle=99, burn=1)
    trail.close()
    report = verify([path])
    assert report.ok, report.problems
    assert any("cut short" in n for n in report.notes)


def test_rotation_keeps_the_chain_across_files(tmp_path: Path) -> None:
    path, journal = write_trail(tmp_path, 40, max_bytes=2000)
    files = sorted(tmp_path.glob("events.jsonl.*"), key=lambda p: -int(p.suffix[1:])) + [path]
    assert len(files) >= 3
    report = verify(files, journal.records())
    assert report.ok and report.records == 40 + len(files) - 1, report.problems
    assert json.loads(lines(path)[0])["event"] == "log_rotated"
    assert not verify([files[0], *files[2:]]).ok, "a rotated file left out breaks the chain"
    assert verify(files[1:]).ok, "older files deleted by retention are not a problem"


def test_the_cli_exits_1_on_tampering_and_0_when_intact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = write_trail(tmp_path)
    journal = str(tmp_path / "j.sqlite")
    assert main(["audit", "verify", str(path), "--journal", journal]) == 0
    text = lines(path)
    text[2] = text[2].replace('"shuffle": 2', '"shuffle": 3')
    path.write_text("".join(text))
    assert main(["audit", "verify", str(path), "--journal", journal]) == 1
    assert "PROBLEM" in capsys.readouterr().out
    assert main(["audit", "verify", str(tmp_path / "absent.jsonl")]) == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_tampering_is_found_against_the_journal(tmp_path: Path, data: st.DataObject) -> None:
    if not (tmp_path / "events.jsonl").exists():
        write_trail(tmp_path, 10)[1].close()
    original = lines(tmp_path / "events.jsonl")
    with Journal(tmp_path / "j.sqlite", table_id="T1") as journal:
        records = journal.records()
    text = list(original)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(0, len(text) - 1).filter(lambda k: text[k] != text[i]))
    kind = data.draw(st.sampled_from(["edit", "remove", "insert", "swap", "cut"]))
    if kind == "edit":
        text[i] = text[i].replace('"burn": 1', '"burn": 7')
    elif kind == "remove":
        del text[i]
    elif kind == "insert":
        text.insert(i, text[j])
    elif kind == "swap":
        text[i], text[j] = text[j], text[i]
    else:
        text = text[:i]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(text))
    assert text != original
    assert not verify([tampered], records).ok, kind
