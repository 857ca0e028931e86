"""`[shoe] cut_from_end = 0` is refused: a cut card at the very end has the shoe dealt to its last card.

What the manager saw: `tablectl config check` said "ok" to a Top Card table with `cut_from_end = 0`, and the
table would deal the shoe to its last card, which a casino never does (a round could run out of cards; the
reshuffle is due when the cut card comes out). Now the key is refused with its range, in words, by every command
that reads the config, and never with a traceback; a cut card one card from the end is still accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir

SHIPPED_CUT = "cut_from_end = 52            # cards left behind the cut card (one deck)"


def top_card(tmp_path: Path, cut: int) -> Path:
    text = (shipped_dir() / "top-card.toml").read_text()
    assert SHIPPED_CUT in text
    path = tmp_path / f"cut-{cut}.toml"
    path.write_text(text.replace(SHIPPED_CUT, f"cut_from_end = {cut}"))
    return path


@pytest.mark.parametrize("cut", [0, -1])
def test_a_cut_card_at_the_very_end_is_refused_naming_the_key_and_its_range(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: int) -> None:
    path = top_card(tmp_path, cut)
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: shoe.cut_from_end: must be 1 to 415 for this shoe of 416 cards" in err
    assert "dealt to its last card" in err and f"not {cut}" in err and "Traceback" not in err
    assert main(["run", "--config", str(path), "--rounds", "1"]) == 2
    assert "shoe.cut_from_end: must be 1 to 415" in capsys.readouterr().err


def test_the_top_of_the_range_is_one_fewer_than_the_shoe_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(top_card(tmp_path, 416))]) == 2
    assert "shoe.cut_from_end: must be 1 to 415: the cards left behind the cut card" in capsys.readouterr().err


@pytest.mark.parametrize("cut", [1, 415])
def test_a_cut_card_one_card_from_either_end_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         cut: int) -> None:
    assert main(["config", "check", str(top_card(tmp_path, cut))]) == 0
    assert "ok: Top Card" in capsys.readouterr().out


def test_no_shipped_config_sets_the_cut_card_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted(shipped_dir().glob("*.toml")):
        if "cut_from_end" in path.read_text():
            assert main(["config", "check", str(path)]) == 0, path
