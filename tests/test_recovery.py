"""Recovery and replay: a cut-off round resumes, stays held, or is void by the game's misdeal rule; replay finds tampering."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cards import Card
from controller.commands.cli import main
from controller.engine.log import EventLog
from controller.engine.recovery import JournalMismatch, rebuild, recover
from controller.engine.round import Limits
from controller.events import Event, RoundRecovered, StateChanged, WagerSettled, from_record
from controller.records.journal import Journal
from controller.rules.top_card.game import TopCard
from tests.helpers import TOP_CARD_LIMITS, new_journal, top_card_round


class ShuffledTopCard(TopCard):
    """Top Card dealt from a shuffler: the default misdeal rule voids it once cards are out."""

    device = "shuffler"


def cut_off_round(journal: Journal, *cards: str, hold: str | None = None) -> None:
    """A round whose process 'died' after these cards: the Round object is simply dropped."""
    round = top_card_round(EventLog("T1", journal=journal))  # type: ignore[arg-type]
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(3, "tie", 250)
    round.close_betting()
    for code in cards:
        round.card(Card.parse(code))
    if hold:
        round.put_on_hold(hold)


def reopen(path: Path, game: TopCard | None = None):
    journal = Journal(path, table_id="T1")
    log = EventLog("T1", journal=journal)
    return journal, log, recover(journal, log, game or TopCard(), Limits(TOP_CARD_LIMITS))


def test_a_shoe_round_cut_off_mid_deal_resumes_where_it_stopped(tmp_path: Path) -> None:
    with new_journal(tmp_path / "j.sqlite") as journal:
        cut_off_round(journal, "9H")
    journal, log, [recovered] = reopen(tmp_path / "j.sqlite")
    assert recovered.action == "resumed" and recovered.round.state == "dealing"
    assert recovered.round.wagers == {(1, "home"): 1000, (3, "tie"): 250}
    recovered.round.card(Card.parse("2C"))
    assert recovered.round.state == "complete"
    assert {s.wager: s.returned for s in recovered.round.settlements} == {"home": 2000, "tie": 0}
    assert journal.meters().rounds == 1 and journal.meters().total.paid == 2000
    assert [r["action"] for r in journal.stored() if r["event"] == RoundRecovered.EVENT] == ["resumed"]


def test_a_shuffler_round_cut_off_after_cards_is_void_by_the_misdeal_rule_with_every_wager_returned(tmp_path: Path) -> None:
    with new_journal(tmp_path / "j.sqlite") as journal:
        cut_off_round(journal, "9H")
    journal, _, [recovered] = reopen(tmp_path / "j.sqlite", ShuffledTopCard())
    assert recovered.action == "voided" and "every wager is returned" in recovered.message
    assert recovered.round.state == "void"
    assert {(s.spot, s.wager): s.returned for s in recovered.round.settlements} == {(1, "home"): 1000, (3, "tie"): 250}
    assert journal.meters().voided == 1 and journal.meters().total.house_win == 0


def test_a_held_round_is_still_held_after_a_restart(tmp_path: Path) -> None:
    with new_journal(tmp_path / "j.sqlite") as journal:
        cut_off_round(journal, "9H", hold="shoe door open")
    journal, _, [recovered] = reopen(tmp_path / "j.sqlite")
    assert recovered.action == "held" and recovered.round.hold_reason == "shoe door open"
    recovered.round.release()
    recovered.round.card(Card.parse("9C"))
    assert recovered.round.state == "complete"
    replayed = rebuild(journal.round_records("T1-R1"), None)
    assert replayed.settlements == recovered.round.settlements


def test_a_round_whose_last_card_was_journaled_settles_on_restart_exactly_once(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        commit = journal.append

        def killed_before_settling(events: list[Event]) -> None:
            """The last card commits; the kill lands before what it sets off (the reveal, the settlement) does."""
            settling = next((i for i, e in enumerate(events) if isinstance(e, StateChanged) and e.state == "reveal"), None)
            commit(events[:settling])
            if settling is not None:
                raise KeyboardInterrupt("the kill came after the last card, before the settlement committed")

        journal.append = killed_before_settling  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            cut_off_round(journal, "9H", "9C")
    journal, _, [recovered] = reopen(path)
    assert recovered.action == "completed"
    assert journal.meters().rounds == 1
    assert sum(r["event"] == WagerSettled.EVENT for r in journal.stored()) == 2
    journal.close()
    _, _, again = reopen(path)
    assert again == []


def test_replay_reproduces_the_settlement_and_finds_an_altered_journal(tmp_path: Path, capsys) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        cut_off_round(journal, "KH", "KD")
        records = journal.round_records("T1-R1")
        [settled] = [r for r in journal.stored() if r["event"] == WagerSettled.EVENT and r["wager"] == "tie"]
    assert {s.wager: s.returned for s in rebuild(records, None).settlements} == {"home": 500, "tie": 250 * 12}
    assert main(["replay", "T1-R1", "--journal", str(path), "--config", str(_config(tmp_path))]) == 0
    assert "reproduced to the cent" in capsys.readouterr().out
    forged = [from_record({**settled, "returned": settled["returned"] + 100}) if e.seq == settled["seq"] else e for e in records]
    with pytest.raises(JournalMismatch):
        rebuild(forged, None)
    with sqlite3.connect(path) as db:  # the same forgery in the file: the record chain finds it before any replay
        db.execute("UPDATE events SET record = ? WHERE seq = ?", (json.dumps({**settled, "returned": 3100}), settled["seq"]))
    assert main(["replay", "T1-R1", "--journal", str(path), "--config", str(_config(tmp_path))]) == 4
    assert f"seq {settled['seq']} no longer match their checksum" in capsys.readouterr().err


def test_recall_lists_rounds_and_shows_cards_with_their_source(tmp_path: Path, capsys) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        cut_off_round(journal, "KH", "2D")
    config = str(_config(tmp_path))
    assert main(["rounds", "--last", "5", "--journal", str(path), "--config", config]) == 0
    assert "T1-R1  complete KH 2D" in capsys.readouterr().out
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["cards"][0] == {"card": "KH", "target": "home", "source": "shoe", "seq": shown["cards"][0]["seq"]}
    assert {(s["wager"], s["returned"]) for s in shown["settlements"]} == {("home", 2000), ("tie", 0)}
    assert main(["round", "T1-R9", "--journal", str(path), "--config", config]) == 2
    assert "last rounds are: T1-R1" in capsys.readouterr().err
    assert main(["rounds", "--journal", str(tmp_path / "none.sqlite"), "--config", config]) == 2
    capsys.readouterr()
    assert main(["meters", "--journal", str(path), "--config", config, "--json"]) == 0
    meters = json.loads(capsys.readouterr().out)
    assert (meters["rounds"], meters["wagered"], meters["paid"]) == (1, 1250, 2000)


def _config(tmp_path: Path) -> Path:
    from controller.engine.config import DEFAULT_CONFIG

    path = tmp_path / "t1.toml"
    path.write_text(DEFAULT_CONFIG.read_text().replace('id = "TC-01"', 'id = "T1"'))
    return path


def test_a_round_on_hold_lists_what_is_staked_not_a_zero_wagered(tmp_path: Path, capsys) -> None:
    # A walkthrough saw a held round with $247.50 on the layout listed as "wagered $0.00 paid $0.00".
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        cut_off_round(journal, "KH", hold="shoe: card 3 not dealt")
    assert main(["rounds", "--journal", str(path), "--config", str(_config(tmp_path))]) == 0
    line = capsys.readouterr().out
    assert "T1-R1  hold" in line and "staked     $12.50  not settled" in line and "wagered" not in line
