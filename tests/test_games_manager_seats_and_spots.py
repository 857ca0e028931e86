"""A player-dealer table with fewer spots than the seats its position passes among is refused by config check.

What the manager saw: a No Bust 21 table cut to six spots (`spots = 6`, zones 7 and 8 removed) with
`player_dealer_seat = 7` passed `tablectl config check` ("ok ... 6 spots"); `tablectl run` then voided every round
("the table cannot start: the player-dealer must post a bank before no more bets"): the player-dealer sat at a seat
the layout does not have, and the position passes among `[game] seats` (8 unless set), not among the spots.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir


def edited(tmp_path: Path, game: str, *changes: tuple[str, str]) -> Path:
    text = (shipped_dir() / f"{game}.toml").read_text()
    for line, to in changes:
        assert text.count(f"\n{line}") == 1, line
        text = text.replace(f"\n{line}", f"\n{to}")
    path = tmp_path / f"{game}.toml"
    path.write_text(text)
    return path


def six_spot_no_bust(tmp_path: Path, *more: tuple[str, str]) -> Path:
    return edited(tmp_path, "no-bust-21", ("spots = 8 ", "spots = 6 "), ("7 = [[", "# 7 = [["), ("8 = [[", "# 8 = [["),
                  *more)


def check(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["config", "check", str(path)])
    return code, capsys.readouterr().err


def test_a_six_spot_no_bust_table_must_say_its_position_passes_among_six_seats(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = six_spot_no_bust(tmp_path, ("player_dealer_seat = 1 ", "player_dealer_seat = 7 "))
    code, err = check(path, capsys)
    assert code == 2
    assert (f"tablectl: {path}: game.seats: the player-dealer position passes among 8 seats, but the table has 6 "
            "spots ([table] spots): set seats = 6, or spots = 8") in err


def test_with_seats_set_a_seat_off_the_table_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = six_spot_no_bust(tmp_path, ("player_dealer_seat = 1 ", "seats = 6\nplayer_dealer_seat = 1 "),
                            ("proposition_player_seats = [4, 8]", "proposition_player_seats = [4, 6]"))
    assert check(path, capsys)[0] == 0
    path = six_spot_no_bust(tmp_path, ("player_dealer_seat = 1 ", "seats = 6\nplayer_dealer_seat = 1 "))
    code, err = check(path, capsys)
    assert code == 2 and "game.proposition_player_seats" in err and "[4, 8]" in err


def test_a_pai_gow_table_of_fewer_spots_than_its_seven_seats_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = edited(tmp_path, "fortune-pai-gow", ("spots = 7 ", "spots = 5 "))
    code, err = check(path, capsys)
    assert code == 2
    assert (f"tablectl: {path}: table.spots: must be 7 for Fortune Pai Gow Poker: the player-dealer position passes "
            "among its 7 seats, not 5") in err


def test_a_three_card_poker_table_of_six_spots_and_six_seats_is_fine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = edited(tmp_path, "three-card-poker", ("spots = 8 ", "spots = 6 "),
                  ("player_dealer_seat = 1 ", "seats = 6\nplayer_dealer_seat = 1 "))
    assert check(path, capsys)[0] == 0
