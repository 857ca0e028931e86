"""Restoring the journal of a table that has not played yet (`journal init`, a backup, the journal lost).

Found by an engineer walking the restore runbook: the anchor of such a table holds seq 0 and the hash the chain starts
from, which no record has; `journal restore` exited 4, "the records put back do not give the hash the anchor holds for
seq 0", though the backup was the table's own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.records.journal import Journal


def _tablectl(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_a_table_that_has_not_played_is_restored_from_its_own_backup(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(Path("config/top-card.toml").read_text())
    assert _tablectl("journal", "init", "--config", str(config), cwd=tmp_path).returncode == 0
    backup = _tablectl("journal", "backup", "--config", str(config), cwd=tmp_path)
    assert backup.returncode == 0, backup.stderr
    [copy] = (tmp_path / "var" / "journal" / "backups").glob("*.sqlite")
    (tmp_path / "var" / "journal" / "TC-01.sqlite").unlink()

    restored = _tablectl("journal", "restore", str(copy), "--config", str(config), cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert "anchor" in restored.stdout + restored.stderr
    with Journal(tmp_path / "var" / "journal" / "TC-01.sqlite", table_id="TC-01", readonly=True) as journal:
        assert journal.last_seq == 0
    assert _tablectl("journal", "verify", "--config", str(config), cwd=tmp_path).returncode == 0
