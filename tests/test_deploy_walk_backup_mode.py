"""`tablectl journal backup --to /backup/` run by an operator (umask 022): the copy was world-readable (0644) where the
journal it copies is 0640 (docs/operations.md, Security: the journal is mode 0640); every card of every round, hidden
ones too, and every login are in it. Seen on a deployment walk."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.records.suites import cli, play, write_config


def test_a_backup_is_no_more_readable_than_the_journal(tmp_path: Path) -> None:
    write_config(tmp_path)
    assert cli(tmp_path, "journal", "init", "--config", "table.toml").rc == 0
    play(tmp_path, 1, 1)
    assert stat.S_IMODE((tmp_path / "journal.sqlite").stat().st_mode) == 0o640
    old = os.umask(0o022)
    try:
        done = cli(tmp_path, "journal", "backup", "--config", "table.toml", "--to", "backups/")
    finally:
        os.umask(old)
    assert done.rc == 0, done.err
    [copy] = (tmp_path / "backups").glob("*.sqlite")
    assert stat.S_IMODE(copy.stat().st_mode) == 0o640
