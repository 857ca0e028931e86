"""Operations settings in a table config ([journal], [log]) and command-line arguments: each mistake named, nothing half-applied."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG, load_config
from controller.errors import ConfigError

GOOD = DEFAULT_CONFIG.read_text()


@pytest.mark.parametrize(
    ("extra", "key", "reason"),
    [
        ('[journal]\npath = ""', "journal.path", "must not be empty"),
        ("[journal]\npath = 7", "journal.path", "must be text"),
        ("[journal]\nmax_size_mb = 0", "journal.max_size_mb", "must be 1 to"),
        ('[journal]\nmax_size_mb = "1GB"', "journal.max_size_mb", "whole number"),
        ("[journal]\nmax_size_mb = true", "journal.max_size_mb", "must be a whole number, not true"),
        ('[journal]\nfile = "j.sqlite"', "journal.file", "unknown key: expected one of path, max_size_mb"),
        ("[journal]\nmax_size_mb = 1.5", "journal.max_size_mb", "whole number"),
    ],
)
def test_each_journal_mistake_is_named(tmp_path: Path, extra: str, key: str, reason: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD + "\n" + extra + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key and reason in info.value.reason


@pytest.mark.parametrize(
    ("extra", "key", "reason"),
    [
        ("max_bytes = 100", "log.max_bytes", "must be 4096 to"),
        ("backups = 0", "log.backups", "must be 1 to 99"),
        ('rotate = "daily"', "log.rotate", "unknown key"),
        ('max_bytes = "big"', "log.max_bytes", "whole number"),
    ],
)
def test_each_log_mistake_is_named(tmp_path: Path, extra: str, key: str, reason: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace("[log]\n", f"[log]\n{extra}\n"))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key and reason in info.value.reason


def test_a_broken_config_opens_no_journal_and_no_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace('events = "var/log/TC-01.events.jsonl"',
                                 f'events = "{tmp_path}/e.jsonl"\n\n[journal]\npath = "{tmp_path}/j.sqlite"\nmax_size_mb = -1'))
    assert main(["run", "--config", str(path), "--rounds", "1"]) == 2
    assert "journal.max_size_mb" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rounds", "--last", "0"], "--last: must be at least 1, not 0"),
        (["rounds", "--last", "ten"], "--last: must be a whole number of rounds, not 'ten'"),
        (["serve", "--interval", "-1"], "--interval: must be 0 to 3600 seconds"),
        (["serve", "--rounds", "many"], "--rounds: must be a whole number of rounds"),
        (["run", "--rounds", "0"], "--rounds: must be at least 1, not 0"),
        (["run", "--rounds", "lots"], "--rounds: must be a whole number of rounds, not 'lots'"),
        (["audit", "check", "x"], "invalid choice: 'check'"),
    ],
)
def test_each_bad_argument_is_named_with_what_would_be_right(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
