"""Two tables given one [table] id: the second game's config is refused at the first one's journal, by name.

What the manager saw: a Three Card Poker table T-01 had played; a Top 5 Poker config copied from it kept
`id = "T-01"` (and its journal and log). `tablectl journal init` said the journal "is already the journal of table
T-01 ... nothing changed", and `tablectl run` dealt Top 5 Poker rounds into the Three Card Poker table's journal:
its meters then mixed the two games (`hold 102.08%`), never to be reset (docs/operations.md, Meters).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir
from tests.helpers import init_table


def table_config(tmp_path: Path, game: str, name: str) -> Path:
    """The shipped config of ``game`` as table T-01, its journal and log in ``tmp_path``."""
    text = (shipped_dir() / f"{game}.toml").read_text()
    lines = []
    for line in text.splitlines():
        if line.startswith("id = "):
            line = 'id = "T-01"'
        elif line.startswith("events = "):
            line = f'events = "{tmp_path / "T-01.events.jsonl"}"'
        lines.append(line)
    lines += ["", "[journal]", f'path = "{tmp_path / "T-01.sqlite"}"']
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_config_of_another_game_with_the_same_table_id_is_refused_naming_both_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    poker = table_config(tmp_path, "three-card-poker", "tcp.toml")
    top5 = table_config(tmp_path, "top-5-poker", "top5.toml")
    init_table(tmp_path / "T-01.sqlite", tmp_path / "T-01.events.jsonl", config=poker)
    assert main(["run", "--config", str(poker), "--rounds", "1", "--seed", "3"]) == 0
    capsys.readouterr()
    seq = (tmp_path / "T-01.sqlite").stat().st_size

    assert main(["journal", "init", "--config", str(top5)]) == 2
    err = capsys.readouterr().err
    assert "rounds of three-card-poker" in err and "table.game = 'top-5-poker'" in err
    assert "[table] id" in err and str(top5) in err and "Traceback" not in err

    assert main(["run", "--config", str(top5), "--rounds", "1", "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablectl: journal ") and "two tables given one [table] id?" in err
    assert main(["meters", "--config", str(poker), "--json"]) == 0
    assert '"rounds": 1' in capsys.readouterr().out  # nothing of Top 5 Poker was dealt into it
    assert (tmp_path / "T-01.sqlite").stat().st_size == seq

    # the table's own config goes on as before
    assert main(["run", "--config", str(poker), "--rounds", "1", "--seed", "4"]) == 0
