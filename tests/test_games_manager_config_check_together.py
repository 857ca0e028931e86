"""`tablectl config check` of a floor's configs together refuses two tables given one id, journal or event log.

What the manager saw: opening a Top Card table from a copy of the No Bust 21 table's config, its id left "NB-01",
`tablectl config check nb.toml tc.toml tcp.toml` said "ok" for all three; the two tables would then write one
journal (docs/operations.md: "two tables never share one" event log; one writer per table).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir


def copy(tmp_path: Path, game: str, name: str, *changes: tuple[str, str]) -> Path:
    text = (shipped_dir() / f"{game}.toml").read_text()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text)
    return path


def test_two_tables_given_one_id_are_refused_naming_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = copy(tmp_path, "no-bust-21", "nb.toml")
    tc = copy(tmp_path, "top-card", "tc.toml", ('id = "TC-01"', 'id = "NB-01"'))
    tcp = copy(tmp_path, "three-card-poker", "tcp.toml")
    assert main(["config", "check", str(nb), str(tc), str(tcp)]) == 2
    out, err = capsys.readouterr()
    assert f"{nb}: ok:" in out and f"{tcp}: ok:" in out and f"{tc}: ok:" not in out
    assert (f"tablectl: {tc}: table.id: 'NB-01' is also the table id of {nb}: two tables cannot share one (its "
            "journal, event log and key are named by it, and the floor tells tables apart by it): give this table an "
            "id of its own") in err
    assert err.count("tablectl: ") == 1  # the journal and log named by the id are not refused over again


def test_two_tables_given_one_event_log_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    first = copy(tmp_path, "three-card-poker", "tcp1.toml")
    second = copy(tmp_path, "three-card-poker", "tcp2.toml", ('id = "TCP-01"', 'id = "TCP-02"'))
    assert main(["config", "check", str(first), str(second)]) == 2
    err = capsys.readouterr().err
    assert f"tablectl: {second}: log.events: '{tmp_path / 'var/log/TCP-01.events.jsonl'}' is also the event log of" in err
    assert "give this table its own log.events" in err


def test_one_config_named_twice_or_tables_of_their_own_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = copy(tmp_path, "no-bust-21", "nb.toml")
    assert main(["config", "check", str(nb), str(nb), "top-card", "three-card-poker"]) == 0
    assert capsys.readouterr().err == ""
