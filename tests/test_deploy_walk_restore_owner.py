"""`tablectl journal restore` as docs/operations.md prints it, run by root on a table whose files are the service user's:
the restored journal must be the service user's again, with the journal's mode, or the service cannot open it (exit 3,
restarted until systemd gives up). Seen on a deployment walk: root:root 0644 after a restore."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.records.suites import cli, play, truth, write_config

SERVICE_UID = SERVICE_GID = 64999
"""A uid and gid standing for the `tablectl` service user (not the test's own)."""


@pytest.fixture
def umask_022() -> Iterator[None]:
    """An operator's shell: umask 022, so a file made without care is world-readable."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize("damage", ["bytes flipped", "deleted"])
def test_a_restored_journal_keeps_the_service_users_owner_and_the_journals_mode(tmp_path: Path, umask_022: None,
                                                                                 damage: str) -> None:
    write_config(tmp_path)
    assert cli(tmp_path, "journal", "init", "--config", "table.toml").rc == 0
    play(tmp_path, 2, 1)
    assert cli(tmp_path, "journal", "backup", "--config", "table.toml", "--to", "backups/b.sqlite").rc == 0
    play(tmp_path, 2, 3)
    committed = truth(tmp_path)
    journal = tmp_path / "journal.sqlite"
    assert stat.S_IMODE(journal.stat().st_mode) == 0o640
    as_root = os.geteuid() == 0
    if as_root:  # the table's files and folder are the service user's, as StateDirectory= makes them
        for path in [tmp_path, *tmp_path.iterdir()]:
            if path.name != "backups":
                os.chown(path, SERVICE_UID, SERVICE_GID)
    if damage == "deleted":
        journal.unlink()
    else:
        data = bytearray(journal.read_bytes())
        for offset in range(len(data) - 3000, len(data) - 2000, 97):
            data[offset] ^= 0x5A
        journal.write_bytes(bytes(data))

    restored = cli(tmp_path, "journal", "restore", "backups/b.sqlite", "--config", "table.toml")
    assert restored.rc == 0, restored.err + restored.out
    assert "verified by the anchor" in restored.out
    assert truth(tmp_path) == committed
    for path in (journal, tmp_path / "journal.anchor"):
        st = path.stat()
        assert stat.S_IMODE(st.st_mode) == 0o640, f"{path.name}: {oct(st.st_mode)}"
        if as_root:
            assert (st.st_uid, st.st_gid) == (SERVICE_UID, SERVICE_GID), path.name
