"""A copy of a table's journal read off the table: a regulator given `journal backup`'s copy reads its rounds.

Found by a surveillance officer: `tablectl round ... --journal COPY` and `shuffle report --journal COPY` on a backup
refused with "its anchor ... is missing", and the advice (`journal anchor --rewrite`) needs the table's private key,
which a reader off the table never has. The copy is read, every record checked against the hash chain, and the
reader told what the missing anchor leaves unknown; a journal whose own anchor lies beside it is still held to it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG
from tests.helpers import init_table


def test_a_backup_copy_is_read_off_the_table_with_a_note_on_its_anchor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal, log = tmp_path / "table" / "TC-01.sqlite", tmp_path / "table" / "TC-01.jsonl"
    journal.parent.mkdir()
    init_table(journal, log, DEFAULT_CONFIG)
    played = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--journal", str(journal), "--log",
                             str(log), "--rounds", "3", "--seed", "5", "--no-camera"],
                            capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stderr
    copy = tmp_path / "handed-over" / "TC-01-copy.sqlite"
    copy.parent.mkdir()
    assert main(["journal", "backup", "--journal", str(journal), "--to", str(copy)]) == 0
    assert not copy.with_suffix(".anchor").exists()
    capsys.readouterr()

    assert main(["rounds", "--journal", str(copy)]) == 0
    out, err = capsys.readouterr()
    assert out.count("TC-01-") == 3, out
    assert "read without its anchor" in err and "hash chain" in err
    assert main(["shuffle", "report", "--journal", str(copy)]) == 0
    assert "shoe" in capsys.readouterr().out

    # the table's own journal, its anchor beside it, is read against it as before: no note
    assert main(["rounds", "--journal", str(journal)]) == 0
    assert "anchor" not in capsys.readouterr().err
