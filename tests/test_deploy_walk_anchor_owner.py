"""`tablectl journal anchor --rewrite --config /etc/tablectl/table.toml`, run by root as docs/operations.md prints it
after a lost anchor: the new anchor was `root:root`, and `tablectl serve` as the service user stopped with
'reading the journal's anchor failed: permission denied' (exit 3, restarted until systemd gave up). Seen on a
deployment walk. Run where the test is root (only root may give a file to another user)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.records.suites import cli, play, write_config

SERVICE_UID = SERVICE_GID = 64999
"""A uid and gid standing for the `tablectl` service user (not the test's own)."""


def test_an_anchor_rewritten_by_root_is_the_service_users(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root may give a file to another user: the case is root rewriting a service's anchor")
    write_config(tmp_path)
    assert cli(tmp_path, "journal", "init", "--config", "table.toml").rc == 0
    play(tmp_path, 1, 1)
    for path in [tmp_path, *tmp_path.iterdir()]:  # the table's files and folder are the service user's (StateDirectory=)
        os.chown(path, SERVICE_UID, SERVICE_GID)
    (tmp_path / "journal.anchor").unlink()
    assert cli(tmp_path, "journal", "verify", "--config", "table.toml").rc == 4
    done = cli(tmp_path, "journal", "anchor", "--rewrite", "--config", "table.toml")
    assert done.rc == 0, done.err
    st = (tmp_path / "journal.anchor").stat()
    assert (st.st_uid, st.st_gid) == (SERVICE_UID, SERVICE_GID)
    assert cli(tmp_path, "journal", "verify", "--config", "table.toml").rc == 0
