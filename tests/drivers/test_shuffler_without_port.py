"""A shuffler table configured for the reference protocol without a port is refused in words that hold for a shuffler.

Before, ``tablectl run`` refused it saying 'only `tablectl run` and `tablectl serve --simulated-players` start a
simulator when no port is set' (they start one for a shoe only): a lab setting up a flagged-shuffler drill
(docs/shuffle.md: the pty simulators take scripted orders) was sent round in a circle.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main


def test_a_shuffler_without_a_port_is_told_how_to_get_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text(Path("config/three-card-poker.toml").read_text().replace('driver = "simulated"', 'driver = "reference"'))
    assert main(["run", "--config", str(config), "--rounds", "1", "--no-journal"]) == 2
    err = capsys.readouterr().err
    assert "shuffler.port: the shuffler driver 'reference' needs the port the shuffler is on" in err
    assert "run `tablectl simulate shuffler` and set port to the PORT it prints" in err and "only `tablectl run`" not in err

