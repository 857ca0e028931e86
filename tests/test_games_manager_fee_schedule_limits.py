"""Limits below (or above) the posted collection fee schedule are refused by config check; at the table such a
wager is refused by name at "no more bets", never a traceback.

What the manager saw: a No Bust 21 table with `base = [100, 600]` ($1 to $6, a low-limit game) checked "ok", and
`tablectl run` stopped at the first $3.75 base wager with a Python traceback ending in
`controller.rules.fees.FeeError: blackjack-player: $3.75 is below the posted minimum of $5.00` (seed 003's posted
blackjack schedule starts at $5). A Fortune Pai Gow table with `bet = [500, 100000]` checked "ok" too, though the
posted pai gow fee covers $10 to $500 a wager (the shipped config's comment says so) and every other bet is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.round import Limits, Round
from controller.errors import WagerRefused
from controller.events import WagerRefusal
from controller.money import Rounding
from controller.rules.registry import make_game
from controller.shipped import shipped_dir
from tests.helpers import MemoryLog


def edited(tmp_path: Path, game: str, line: str, to: str) -> Path:
    text = (shipped_dir() / f"{game}.toml").read_text()
    assert text.count(f"\n{line}") == 1, line
    path = tmp_path / f"{game}.toml"
    path.write_text(text.replace(f"\n{line}", f"\n{to}"))
    return path


@pytest.mark.parametrize(("game", "line", "to", "said"), [
    ("no-bust-21", "base = [500, 100000]", "base = [100, 600]",
     "limits.base: the posted collection fee schedule 'blackjack-player' covers $5.00 or more a wager, not $1.00 to "
     "$6.00: a wager it does not cover is refused at no more bets; keep the limits within [500, 600]"),
    ("fortune-pai-gow", "bet = [1000, 50000]", "bet = [500, 100000]",
     "limits.bet: the posted collection fee schedule 'pai-gow-player' covers $10.00 to $500.00 a wager, not $5.00 to "
     "$1,000.00"),
    ("pai-gow-tiles", "main = [1000, 50000]", "main = [1000, 60000]",
     "limits.main: the posted collection fee schedule 'pai-gow-player' covers $10.00 to $500.00 a wager"),
])
def test_limits_outside_the_posted_fee_schedule_are_refused_by_config_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, line: str, to: str, said: str) -> None:
    path = edited(tmp_path, game, line, to)
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"tablectl: {path}: {said}" in err, err


def test_a_fortune_pai_gow_table_without_a_player_fee_may_post_any_limits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = edited(tmp_path, "fortune-pai-gow", 'fee_schedule = "pai-gow-player"', 'fee_schedule = "none"')
    path.write_text(path.read_text().replace("\nbet = [1000, 50000]", "\nbet = [500, 100000]"))
    assert main(["config", "check", str(path)]) == 0


def test_a_base_wager_below_the_posted_fee_is_refused_by_name_before_no_more_bets() -> None:
    log = MemoryLog()
    round = Round("R1", make_game("no-bust-21", {"player_dealer_seat": 8}), log, spots=8,
                  limits=Limits({"base": (100, 100000), "bank": (100, 100000)}), rounding=Rounding.PLAYER)
    round.start()
    round.place_wager(8, "bank", 10000)
    round.place_wager(1, "base", 375)
    round.place_wager(2, "base", 1000)
    with pytest.raises(WagerRefused, match=r"spot 1 base: no posted collection fee covers it: blackjack-player: "
                                           r"\$3.75 is below the posted minimum of \$5.00"):
        round.close_betting()
    assert round.state == "betting" and log.named(WagerRefusal.EVENT)[-1]["spot"] == 1
    round.place_wager(1, "base", 500)  # the dealer corrects it; the round deals on
    round.close_betting()
    assert round.state == "dealing"
