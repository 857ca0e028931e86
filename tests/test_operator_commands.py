"""The operator's commands as a person or a script uses them: `run --json`, the time column of `rounds`,
dollars in what a person reads."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.errors import WagerRefused
from controller.rules.registry import make_game
from tests.helpers import init_table, top_card_round
from tests.terminal import TABLECTL

ROOT = Path(__file__).resolve().parents[1]


def test_run_json_is_one_document_of_cents_that_adds_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--rounds", "4", "--seed", "9", "--no-camera", "--json", "--log", str(tmp_path / "e.jsonl"),
            "--journal", str(tmp_path / "j.sqlite")]
    init_table(tmp_path / "j.sqlite", tmp_path / "e.jsonl")
    assert main(argv) == 0
    session = json.loads(capsys.readouterr().out)
    assert session["table"] == "TC-01" and session["game"] == "top-card" and len(session["rounds"]) == 4
    meters = session["meters"]
    assert meters["rounds"] == 4 and meters["wagered"] == sum(r["wagered"] for r in session["rounds"])
    assert meters["house_win"] == meters["wagered"] - meters["paid"] + meters["fees"]
    assert session["journal_meters"]["wagered"] == meters["wagered"] and session["held"] is None


def test_rounds_lists_each_round_with_the_time_it_started(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(tmp_path / "j.sqlite")
    init_table(journal, tmp_path / "e.jsonl")
    assert main(["rounds", "--journal", journal]) == 0
    assert capsys.readouterr().out == "no round has been played at this table yet\n"
    before = dt.datetime.now().astimezone().replace(microsecond=0)
    assert main(["run", "--rounds", "2", "--seed", "9", "--no-camera", "--log", str(tmp_path / "e.jsonl"), "--journal", journal]) == 0
    capsys.readouterr()
    assert main(["rounds", "--journal", journal]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        when = dt.datetime.strptime(line[:25], "%Y-%m-%d %H:%M:%S%z")  # local time, with its offset from UTC
        assert before - dt.timedelta(seconds=1) <= when <= dt.datetime.now().astimezone() and line[25:27] == "  "
        assert " TC-01-" in line and "wagered" in line and "$" in line
    assert main(["round", lines[0].split()[2], "--journal", journal]) == 0
    assert "started " + lines[0][:25] in capsys.readouterr().out.splitlines()[0]


def test_a_period_of_rounds_is_listed_with_its_drop_win_and_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A shift's figures from one table without the floor: `meters` counts the table's whole life and `rounds` only took
    --last N, so a manager added a shift up by hand from `rounds --json` (a recall walk)."""
    journal, log = str(tmp_path / "j.sqlite"), str(tmp_path / "e.jsonl")
    init_table(journal, log)
    assert main(["run", "--rounds", "3", "--seed", "9", "--no-camera", "--log", log, "--journal", journal, "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)["meters"]
    assert main(["rounds", "--journal", journal, "--since", "2000-01-01", "--json"]) == 0
    period = json.loads(capsys.readouterr().out)
    assert len(period["rounds"]) == 3 and {k: period["totals"][k] for k in ("rounds", "wagered", "paid", "house_win")} == {
        "rounds": 3, "wagered": whole["wagered"], "paid": whole["paid"], "house_win": whole["house_win"]}
    # the first round's end splits the period: before it nothing, from it all three
    ended = period["rounds"][0]["ended"]
    assert main(["rounds", "--journal", journal, "--until", ended, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["rounds"] == 0
    assert main(["rounds", "--journal", journal, "--since", ended]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("period from ") and ": 3 rounds ended (0 voided)  wagered $" in last and " hold " in last
    assert main(["rounds", "--journal", journal, "--since", "2026-11-29 10:00", "--until", "2026-11-29 09:00"]) == 2
    assert "is not after --since" in capsys.readouterr().err


def test_a_round_is_found_by_its_number_or_its_id_in_any_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's receipt or a surveillance note gives "round 3": `round` found only the exact full id."""
    journal, log = str(tmp_path / "j.sqlite"), str(tmp_path / "e.jsonl")
    init_table(journal, log)
    for seed in ("9", "10"):  # two sessions: the table numbers its rounds on across them
        assert main(["run", "--rounds", "2", "--seed", seed, "--no-camera", "--log", log, "--journal", journal]) == 0
    capsys.readouterr()
    assert main(["rounds", "--journal", journal]) == 0
    ids = [line.split()[2] for line in capsys.readouterr().out.splitlines()]
    assert [i.rsplit("-", 1)[-1] for i in ids] == ["000001", "000002", "000003", "000004"]
    for asked in (ids[2].lower(), "3", "000003"):
        assert main(["round", asked, "--journal", journal]) == 0
        assert capsys.readouterr().out.startswith(f"round {ids[2]} ")
    assert main(["round", "999", "--journal", journal]) == 2
    assert "no round '999'" in capsys.readouterr().err


def test_a_wager_outside_the_limits_is_refused_in_dollars() -> None:
    round = top_card_round()
    round.open_betting()
    with pytest.raises(WagerRefused) as refused:
        round.place_wager(1, "home", 500000)
    assert str(refused.value) == "spot 1 home: $5,000.00 is outside the table limits $5.00 to $1,000.00"


def test_serve_prints_a_line_per_round_and_a_summary_and_journals_where_told(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "config" / "top-card.toml").read_text().replace('driver = "reference"', 'driver = "simulated"')
                      .replace('events = "var/log/TC-01.events.jsonl"', f'events = "{tmp_path}/events.jsonl"'))
    journal = tmp_path / "elsewhere" / "j.sqlite"
    init_table(journal, config=config)
    done = subprocess.run([TABLECTL, "serve", "--config", str(config), "--simulated-players", "--rounds", "3", "--interval", "0",
                           "--seed", "4", "--no-console", "--journal", str(journal)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rounds = [line for line in lines if line.startswith("TC-01-")]
    assert len(rounds) >= 3 and all(" complete " in line and "wagered" in line and "$" in line for line in rounds)
    assert "summary" in lines and any(line.startswith("house win") for line in lines)
    assert journal.exists() and not (tmp_path / "var" / "journal").exists()


def test_a_progressive_hit_names_what_the_meter_paid_in_dollars() -> None:
    game = make_game("high-card-flush")  # the meter starts at its $10,000 reset
    _, reason = game.progressive_payout(7, 100)
    assert reason == "7-card straight flush: $10,000.00 from the meter"


def test_ctrl_c_ends_a_run_after_the_round_in_play_with_its_summary_and_the_records_whole(tmp_path: Path) -> None:
    """Ctrl-C at the terminal (SIGINT to the whole process group, the simulated shoe's process too): no traceback;
    the round in play finishes, the summary of the rounds played is printed, exit 130, and the journal verifies."""
    files = ["--journal", str(tmp_path / "j.sqlite"), "--log", str(tmp_path / "e.jsonl")]
    init_table(tmp_path / "j.sqlite", tmp_path / "e.jsonl")
    run = subprocess.Popen([TABLECTL, "run", "--rounds", "100000", "--seed", "2", "--no-camera", *files], cwd=tmp_path,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        assert run.stdout is not None
        while " complete " not in run.stdout.readline():
            pass
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == 130, err
    assert "Traceback" not in err and "device lost" not in err and "tablectl: interrupted after " in err
    assert "\nsummary\n" in out and "journal meters: " in out
    verified = subprocess.run([TABLECTL, "journal", "verify", *files], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0 and "intact" in verified.stdout, verified.stdout + verified.stderr
