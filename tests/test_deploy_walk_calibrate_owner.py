"""`tablectl vision calibrate --config /etc/tablectl/table.toml`, run by root as docs/operations.md prints it, on the
config installing step 3 leaves `root:tablectl` 0640: the rewritten file was `root:root` 0640, the service user could
no longer read it, and `tablectl serve` stopped with '(file): cannot be read: Permission denied' (exit 2, restarted
until systemd gave up). Seen on a deployment walk. A real `tablectl` subprocess; the owner checked where the test
runs as root (only root may give a file another group)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE_GID = 64999
"""A group standing for `tablectl` (not the test's own)."""


def test_calibrate_keeps_the_configs_owner_group_and_mode(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root may give a file another group: the case is root editing the service's config")
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "config" / "top-card.toml").read_text(encoding="utf-8"), encoding="utf-8")
    os.chown(config, 0, SERVICE_GID)
    config.chmod(0o640)
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "vision", "calibrate", "--config", str(config),
                           "--image-points", "117.6,40 1802.4,40 1900,1050 20,1050",
                           "--table-points", "0,0 800,0 800,450 0,450"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "calibrated" in done.stdout
    st = config.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (0, SERVICE_GID, 0o640)
