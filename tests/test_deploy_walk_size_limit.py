"""A table whose journal reaches the process's file-size limit (``ulimit -f``, systemd's ``LimitFSIZE=``): docs/operations.md
promises exit 3 with a message naming the file and the cause. SQLite reports the refused write as a plain
'disk I/O error', which reads as a failing disk; seen on a deployment walk under ``tablectl serve``."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.helpers import init_table

ROOT = Path(__file__).resolve().parent.parent


def test_a_journal_at_the_file_size_limit_is_said_to_be_at_the_limit_not_a_disk_io_error(tmp_path: Path) -> None:
    journal, log = tmp_path / "j.sqlite", tmp_path / "events.jsonl"
    init_table(journal, log)
    limit = 400 * 1024

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--rounds", "400", "--seed", "5",
                           "--no-camera", "--journal", str(journal), "--log", str(log)],
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, capture_output=True, text=True,
                          preexec_fn=limited, timeout=600, check=False)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    failed = [line for line in done.stderr.splitlines() if line.startswith("tablectl: journal ")]
    assert failed, done.stderr
    assert "a file-size limit is reached: no file may grow past 409,600 bytes" in failed[0], failed[0]
    assert "disk I/O error" not in failed[0].split("(ulimit -f")[0]
