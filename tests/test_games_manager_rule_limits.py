"""A manager's [limits] outside what the game's own rules allow a wager are refused, citing the rule.

What the manager saw: `tablectl config check` said "ok" for a No Bust 21 table with `bonus = [100, 5000]` (seed 003:
the Blackjack Bonus Bet "may not exceed $25"), `buster = [50, 20000]` ("The minimum Buster Blackjack Bonus Bet is
$1. The maximum bet is the lesser of the base game wager or $100") and a Fortune Pai Gow table with
`fortune = [50, 5000]` or `[150, 2000]` ("a minimum of $1 to a maximum of $20, in increments of $1"); the shipped
configs' comments cite those very rules. docs/operations.md: the check names "the file, the key and the reason".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir


def edited(tmp_path: Path, game: str, line: str, to: str) -> Path:
    text = (shipped_dir() / f"{game}.toml").read_text()
    assert text.count(f"\n{line}") == 1, line
    path = tmp_path / f"{game}.toml"
    path.write_text(text.replace(f"\n{line}", f"\n{to}"))
    return path


@pytest.mark.parametrize(("game", "line", "to", "said"), [
    ("no-bust-21", "bonus = [100, 2500]", "bonus = [100, 5000]",
     "limits.bonus: outside the game's rules: the maximum must be at most $25.00 (2500 cents), not $1.00 to $50.00"),
    ("pure-21-5", "bonus = [100, 2500]", "bonus = [100, 2600]", "limits.bonus: outside the game's rules"),
    ("no-bust-21", "buster = [100, 10000]", "buster = [50, 20000]",
     "limits.buster: outside the game's rules: the minimum must be at least $1.00 (100 cents), the maximum must be "
     "at most $100.00 (10000 cents), not $0.50 to $200.00 ([50, 20000]); seed 003, Buster Blackjack Bonus Bet"),
    ("fortune-pai-gow", "fortune = [100, 2000]", "fortune = [50, 5000]",
     "limits.fortune: outside the game's rules: the minimum must be at least $1.00"),
    ("fortune-pai-gow", "fortune = [100, 2000]", "fortune = [150, 2000]",
     "limits.fortune: outside the game's rules: both must be whole multiples of $1.00 (100 cents), not $1.50 to "
     '$20.00 ([150, 2000]); seed 003, Fortune Pai Gow Poker, Betting scheme: "The Fortune Bonus wager will be a '
     'minimum of $1 to a maximum of $20, in increments of $1"'),
])
def test_a_limit_the_games_rules_do_not_allow_is_refused_naming_file_key_and_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, line: str, to: str, said: str) -> None:
    path = edited(tmp_path, game, line, to)
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"tablectl: {path}: {said}" in err, err


@pytest.mark.parametrize(("game", "line", "to"), [
    ("no-bust-21", "bonus = [100, 2500]", "bonus = [500, 2500]"),
    ("no-bust-21", "buster = [100, 10000]", "buster = [500, 5000]"),
    ("fortune-pai-gow", "fortune = [100, 2000]", "fortune = [500, 1500]"),
])
def test_limits_inside_the_rules_are_the_managers_to_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, line: str, to: str) -> None:
    assert main(["config", "check", str(edited(tmp_path, game, line, to))]) == 0
    assert ": ok: " in capsys.readouterr().out
