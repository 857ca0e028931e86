"""What a surveillance officer or a table-games manager reads back with `tablectl rounds`, `round` and
`shuffle report`: found by a walk through the recall tools with the documents alone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.cards import Card
from controller.commands.cli import main
from controller.engine.log import EventLog
from tests.helpers import new_journal, top_card_round
from tests.test_round_correction import top_card


def _config(tmp_path: Path) -> Path:
    from controller.engine.config import DEFAULT_CONFIG

    path = tmp_path / "t1.toml"
    path.write_text(DEFAULT_CONFIG.read_text().replace('id = "TC-01"', 'id = "T1"'))
    return path


def _top_card(journal, *cards: str):
    """A Top Card round journaled as the table journals it (``tests/test_round_correction.py``'s round)."""
    return top_card(EventLog("T1", journal=journal), *cards)


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_round_times_name_their_time_zone(tmp_path: Path, capsys, tokyo) -> None:
    # The walk saw `2026-11-30 05:50:42` for a round the event log stamps 2026-11-29T20:50:42Z: local time,
    # with nothing to say so; a player's dispute from another desk could not be lined up with the log.
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        _top_card(journal, "KH", "2D")
    config = str(_config(tmp_path))
    assert main(["rounds", "--journal", str(path), "--config", config]) == 0
    listed = capsys.readouterr().out
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config]) == 0
    shown = capsys.readouterr().out.splitlines()[0]
    assert listed.split()[1].endswith("+09:00") and listed.split()[2] == "T1-R1", listed
    assert "started " in shown and shown.count("+09:00") == 2, shown


def test_round_says_why_each_wager_was_settled_and_what_fees_were_taken(tmp_path: Path, capsys) -> None:
    # The walk saw a Pai Gow Tiles spot paid $214.75 on a $118.00 "win 1 to 1", fees of $2.00 a spot taken and a
    # round totalled "wagered $0.00  paid $0.00  house win $13.00": the journal says why (the bank ran out: $96.75
    # of $118.00 covered), but neither `round` nor its --json did.
    from tests.helpers import init_table

    journal, log = tmp_path / "j.sqlite", tmp_path / "e.jsonl"
    config = tmp_path / "pgt.toml"
    from controller.shipped import shipped_dir

    config.write_text((shipped_dir() / "pai-gow-tiles.toml").read_text())
    init_table(journal, log, config)
    common = ["--journal", str(journal), "--config", str(config)]
    assert main(["run", "--rounds", "2", "--seed", "3", "--log", str(log), *common]) == 0
    capsys.readouterr()
    assert main(["rounds", *common]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert all("between players" in line and "fees" in line and "wagered" not in line for line in listed), listed
    round_id = listed[-1].split()[2]
    assert main(["round", round_id, "--json", *common]) == 0
    import json

    shown = json.loads(capsys.readouterr().out)
    assert all(s["reason"] for s in shown["settlements"])
    assert shown["fees"] and sum(f["amount"] for f in shown["fees"]) == shown["totals"]["fees"] > 0
    assert shown["totals"]["between_players"] > 0
    assert main(["round", round_id, *common]) == 0
    text = capsys.readouterr().out
    paid = [line for line in text.splitlines() if line.startswith("  paid")]
    assert paid and all(s["reason"] in text for s in shown["settlements"])
    assert sum(line.startswith("  fee ") for line in text.splitlines()) == len(shown["fees"])
    totals = text.splitlines()[-1]
    assert "fees $" in totals and "between players $" in totals, totals


def test_round_names_the_supervisor_who_resumed_it_and_entered_a_card(tmp_path: Path, capsys) -> None:
    # The walk resumed a held round with `tablectl hold resume ... --by alice --card QH`: `round` showed the hold and
    # "QH -> away from supervisor", but not who (alice), when, or that the round was resumed at all.
    from controller.engine import holds
    from controller.events import SupervisorActed

    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        log = EventLog("T1", journal=journal)
        round = top_card_round(log)  # type: ignore[arg-type]
        round.start()
        round.place_wager(1, "home", 1000)
        round.close_betting()
        round.card(Card.parse("KH"))
        round.put_on_hold("shoe: card 3 of the shoe could not be read")
        log.emit(SupervisorActed(round="T1-R1", action="resume", reason="resumed by the supervisor", by="alice", card="2D"))
        holds.resume(round, by="supervisor", card=Card.parse("2D"))
        assert round.state == "complete"
    config = str(_config(tmp_path))
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config, "--json"]) == 0
    import json

    [acted] = json.loads(capsys.readouterr().out)["supervisor"]
    assert (acted["by"], acted["action"], acted["card"]) == ("alice", "resume", "2D") and acted["at"].endswith("Z")
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config]) == 0
    text = capsys.readouterr().out
    assert "alice" in text and "entered 2D" in text and "resumed" in text, text



def test_round_shows_the_card_a_supervisor_corrected_not_the_misread_one(tmp_path: Path, capsys) -> None:
    # A card misread as 9H and corrected to KD settled on KD, but `round` still listed 9H: the surveillance
    # officer's card list disagreed with the payout and with `replay`.
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        round = _top_card(journal, "9H")
        round.correct_card(0, Card.parse("KD"), "camera saw KD")
        round.card(Card.parse("KH"))
    config = str(_config(tmp_path))
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config, "--json"]) == 0
    import json

    shown = json.loads(capsys.readouterr().out)
    assert [c["card"] for c in shown["cards"]] == ["KD", "KH"]
    assert shown["cards"][0]["corrected_from"] == "9H"
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config]) == 0
    text = capsys.readouterr().out
    assert "KD -> home" in text and "9H" in text and "camera saw KD" in text, text
    assert main(["rounds", "--journal", str(path), "--config", config]) == 0
    assert " KD KH " in capsys.readouterr().out


def test_shuffle_report_reads_the_table_it_is_asked_for(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/shuffle.md: `tablectl shuffle report [--table ID]`. The walk asked for `--table NB-01` beside the default
    # config and was refused: "journal var/journal/NB-01.sqlite belongs to table 'NB-01', not 'TC-01'".
    from tests.helpers import init_table

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABLECTL_CONFIG_DIR", str(tmp_path / "etc"))  # no table config of this machine's: the shipped top-card
    config = tmp_path / "t2.toml"
    config.write_text(_config(tmp_path).read_text().replace('id = "T1"', 'id = "T2"'))
    init_table(Path("var/journal/T2.sqlite"), tmp_path / "e.jsonl", config)
    assert main(["shuffle", "report", "--table", "T2", "--no-picture"]) == 0, capsys.readouterr().err
    assert "belongs to table" not in capsys.readouterr().err


def test_round_shows_when_each_wager_went_down_against_no_more_bets_and_every_refused_one(tmp_path: Path, capsys) -> None:
    # Surveillance, a dealer suspected of past-posting: `round` listed each wager's final amount alone, with no time,
    # no "no more bets", and not the wager the table refused after the first card.
    from controller.errors import WagerRefused

    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        round = _top_card(journal, "KH")
        with pytest.raises(WagerRefused):
            round.place_wager(2, "away", 5000)
        round.card(Card.parse("2D"))
    config = str(_config(tmp_path))
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config, "--json"]) == 0
    import json

    shown = json.loads(capsys.readouterr().out)
    assert all(w["at"].endswith("Z") and w["seq"] < shown["betting_closed"]["seq"] for w in shown["wagers"])
    [refused] = shown["refused"]
    assert (refused["spot"], refused["wager"], refused["amount"]) == (2, "away", 5000)
    assert refused["seq"] > shown["cards"][0]["seq"]
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("  wager    spot 1 home") and " at " in line for line in lines), lines
    assert any(line.startswith("  closed   no more bets at ") for line in lines), lines
    assert any(line.startswith("  refused  spot 2 away") and "$50.00" in line for line in lines), lines


def test_a_journal_copied_off_another_table_is_read_without_its_config(tmp_path: Path, capsys) -> None:
    # docs/operations.md: the recall commands take `--config FILE` or `--journal FILE`. A journal copied off table
    # NB-01 and read with --journal alone was refused as "belongs to table 'NB-01', not 'TC-01': give this table its
    # own [journal] path" (the default config's table, and advice for a table that runs, not for a reader).
    import subprocess
    import sys

    from controller.engine.config import DEFAULT_CONFIG
    from tests.helpers import init_table

    journal, log = tmp_path / "copied.sqlite", tmp_path / "copied.jsonl"
    config = DEFAULT_CONFIG.parent / "no-bust-21.toml"
    init_table(journal, log, config)
    played = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config), "--journal",
                             str(journal), "--log", str(log), "--rounds", "14", "--seed", "3", "--no-camera"],
                            capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stderr
    capsys.readouterr()
    assert main(["meters", "--journal", str(journal)]) == 0
    assert "rounds      14" in capsys.readouterr().out
    assert main(["rounds", "--journal", str(journal), "--last", "14"]) == 0
    assert capsys.readouterr().out.count("NB-01-") == 14
    # a blackjack hand's cards name the spot, and the hand only when it was split (the walk read "-> 4.0")
    assert main(["round", "14", "--journal", str(journal)]) == 0
    cards = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  card ")]
    assert cards and not any(".0 " in line or ".1 " in line for line in cards), cards
    assert any("-> spot 3 hand 2 " in line for line in cards) and any("-> spot 4    " in line for line in cards), (
        "seed 3's round 14 splits spot 3: " + "\n".join(cards))
    # read as a table, the journal is still another table's: the reader is told which config to give
    assert main(["meters", "--journal", str(journal), "--config", str(_config(tmp_path))]) == 2
    assert "give --config the config of table 'NB-01'" in capsys.readouterr().err


def _played(journal, round_id: str, wagers: list[tuple[int, str, int]], cards: tuple[str, str]) -> None:
    round = top_card_round(EventLog("T1", journal=journal), round_id=round_id)  # type: ignore[arg-type]
    round.start()
    for spot, wager, cents in wagers:
        round.place_wager(spot, wager, cents)
    round.close_betting()
    for code in cards:
        round.card(Card.parse(code))


def test_rounds_lists_one_spots_rounds_and_the_big_ones_with_what_the_spot_won_or_lost(tmp_path: Path, capsys) -> None:
    # A surveillance officer asked about the player at spot 3 had to read every round of the shift: rounds listed
    # only the table's totals. --spot and --staked choose the rounds; the spot's own money is on each line.
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        _played(journal, "T1-R1", [(1, "home", 1000), (3, "away", 50000)], ("KH", "2D"))   # spot 3 loses $500
        _played(journal, "T1-R2", [(1, "home", 2500)], ("KH", "2D"))                       # spot 3 sits out
        _played(journal, "T1-R3", [(3, "home", 2000)], ("KH", "2D"))                       # spot 3 wins $20
        _played(journal, "T1-R4", [(2, "home", 60000), (3, "home", 500)], ("2D", "KH"))     # spot 3 loses $5
    common = ["--journal", str(path), "--config", str(_config(tmp_path))]
    assert main(["rounds", "--spot", "3", *common]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines] == ["T1-R1", "T1-R3", "T1-R4"], lines
    assert lines[0].endswith("spot 3 staked    $500.00  returned      $0.00  lost $500.00"), lines[0]
    assert lines[1].endswith("spot 3 staked     $20.00  returned     $40.00  won $20.00"), lines[1]
    assert main(["rounds", "--spot", "3", "--last", "1", *common]) == 0
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["T1-R4"]
    assert main(["rounds", "--staked", "$500", *common]) == 0  # any spot with $500 or more down
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["T1-R1", "T1-R4"]
    assert main(["rounds", "--spot", "3", "--staked", "500", *common]) == 0
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["T1-R1"]
    assert main(["rounds", "--spot", "3", "--since", "2000-01-01", *common]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "rounds played at spot 3 only: 3 rounds ended" in out[-2], out[-2]
    assert out[-1] == ("over the period, 3 rounds: spot 3 staked    $525.00  returned     $40.00  lost $485.00"), out[-1]
    assert main(["rounds", "--spot", "5", *common]) == 0
    assert capsys.readouterr().out.strip() == "no round played at spot 5 in the journal"
    with pytest.raises(SystemExit):
        main(["rounds", "--staked", "12.345", *common])
    assert "argument --staked: not an amount of money: '12.345'" in capsys.readouterr().err
