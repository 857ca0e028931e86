"""A shift's report gives its drop, win and hold by game and by wager, not only the table's one line.

What the manager saw: `tablectl rounds --since ... --until ...` (docs/operations.md: "a shift: its rounds ... and its
totals: drop, paid, fees, win, hold") printed one line for the whole period; which wager held what over the
shift (Top Card's Tie against its Home and Away, No Bust 21's Bonus and Buster) was nowhere but in `tablectl
meters`, which counts every round the table ever dealt and is never reset.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.commands.cli import main
from tests.helpers import init_table


def played(tmp_path: Path, capsys: pytest.CaptureFixture[str], rounds: int = 6) -> str:
    journal, log = str(tmp_path / "j.sqlite"), str(tmp_path / "e.jsonl")
    init_table(Path(journal), Path(log))
    assert main(["run", "--rounds", str(rounds), "--seed", "9", "--no-camera", "--log", log, "--journal", journal]) == 0
    capsys.readouterr()
    return journal


def test_a_periods_totals_are_given_by_game_and_wager_and_add_up_to_the_period(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = played(tmp_path, capsys)
    assert main(["rounds", "--journal", journal, "--since", "2000-01-01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    totals, by_game = report["totals"], report["by_game"]
    assert list(by_game) == ["top-card"]
    game = by_game["top-card"]
    assert {k: game[k] for k in totals} == totals
    wagers = game["wagers"]
    assert set(wagers) <= {"home", "away", "tie"} and wagers
    for key in ("wagered", "paid", "house_win"):
        assert sum(w[key] for w in wagers.values()) == totals[key]
    settled = [x for r in report["rounds"] for x in r["settlements"]]
    assert sum(w["count"] for w in wagers.values()) == len(settled)
    for name, w in wagers.items():
        assert w["wagered"] == sum(x["stake"] for x in settled if x["wager"] == name)
        assert w["wagered"] - w["paid"] == w["house_win"]


def test_the_period_text_lines_each_wager_with_its_drop_win_and_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = played(tmp_path, capsys)
    assert main(["rounds", "--journal", journal, "--since", "2000-01-01", "--json"]) == 0
    wagers = json.loads(capsys.readouterr().out)["by_game"]["top-card"]["wagers"]
    assert main(["rounds", "--journal", journal, "--since", "2000-01-01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("period from ")  # the period's own line stays last, its game and wagers above it
    game = next(i for i, line in enumerate(out) if line.startswith("  top-card: "))
    assert out[game].startswith("  top-card: 6 rounds (0 voided)  wagered $")
    lines = {line.split()[0]: line for line in out[game + 1:-1]}
    assert set(lines) == set(wagers)
    for name, w in wagers.items():
        assert f"{w['count']} wagers" in lines[name] and "house win" in lines[name] and "hold " in lines[name]


def test_a_pay_table_changed_mid_shift_is_noted_above_the_figures_it_mixes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The manager changed No Bust 21's Bonus Bet pay table mid-shift: the shift's Bonus hold adds up rounds of two
    pay tables (house edge 9.3404 % against -0.7760 %, docs/edge.md), which the report says."""
    from controller.shipped import shipped_dir

    text = (shipped_dir() / "no-bust-21.toml").read_text()
    text += f'\n[journal]\npath = "{tmp_path / "NB.sqlite"}"\n'
    text = text.replace('events = "var/log/NB-01.events.jsonl"', f'events = "{tmp_path / "NB.events.jsonl"}"')
    config = tmp_path / "nb.toml"
    config.write_text(text)
    init_table(tmp_path / "NB.sqlite", tmp_path / "NB.events.jsonl", config=config)
    assert main(["run", "--config", str(config), "--rounds", "1", "--seed", "5", "--no-camera"]) == 0
    config.write_text(text.replace('\nbonus_paytable = "seed"', '\nbonus_paytable = "seed-any-identical-pair"'))
    assert main(["run", "--config", str(config), "--rounds", "1", "--seed", "6", "--no-camera"]) == 0
    capsys.readouterr()
    assert main(["rounds", "--config", str(config), "--since", "2000-01-01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    changes = report["by_game"]["no-bust-21"]["options"]
    assert [c["options"]["bonus_paytable"] for c in changes] == ["seed", "seed-any-identical-pair"]
    assert changes[1]["from"] == report["rounds"][1]["id"]
    assert main(["rounds", "--config", str(config), "--since", "2000-01-01"]) == 0
    out = capsys.readouterr().out
    assert (f"    note: the game's options changed from round {changes[1]['from']}: bonus_paytable "
            "'seed-any-identical-pair' (was 'seed'); the figures below add up rounds dealt under both") in out
