"""`tablectl staff add NAME --role dealer --config /etc/tablectl/table.toml` run by root (docs/console.md prints it
without `sudo -u tablectl`) on a table whose staff file is the service user's: the file became root's, mode 0600, and
`tablectl serve` stopped with 'cannot read the staff file: Permission denied' (exit 2, restarted until systemd gave
up). Seen on a deployment walk. A real `tablectl` subprocess; run where the test is root (only root may give a file
to another user)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE_UID = SERVICE_GID = 64999
"""A uid and gid standing for the `tablectl` service user (not the test's own)."""


def staff_add(folder: Path, name: str, role: str, pin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", "staff", "add", name, "--role", role,
                           "--pin-stdin", "--file", str(folder / "staff.json")],
                          input=pin + "\n", capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_staff_added_by_root_keeps_the_file_the_service_users(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root may give a file to another user: the case is root adding staff on a service's table")
    state = tmp_path / "state"
    state.mkdir(mode=0o750)
    os.chown(state, SERVICE_UID, SERVICE_GID)  # the service's state directory, as StateDirectory= makes it
    first = staff_add(state, "dana", "supervisor", "482913")  # a new file in the service's folder
    assert first.returncode == 0, first.stderr
    staff = state / "staff.json"
    assert (staff.stat().st_uid, staff.stat().st_gid) == (SERVICE_UID, SERVICE_GID)
    second = staff_add(state, "lee", "dealer", "2468")  # an existing file replaced
    assert second.returncode == 0, second.stderr
    st = staff.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (SERVICE_UID, SERVICE_GID, 0o600)
