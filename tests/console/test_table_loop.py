"""The console's table loop: commands in from one queue, the round engine on one thread, faults to hold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller import events as ev
from controller.engine.commands import (
    CloseBetting,
    CommandRefused,
    CorrectCard,
    Decide,
    DeviceFault,
    OpenRound,
    PlaceWager,
    Resume,
    VoidRound,
)
from controller.engine.config import load_config
from controller.engine.feeds import ShoeFeed
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.errors import DecisionRefused, WagerRefused
from controller.events import CardBurned, CardDealt, FeeCollected, SupervisorActed
from drivers.shoe import InProcessShoe
from tests.console.tables import do, table_loop, wait_until
from tests.helpers import MemoryLog

CONFIG = Path(__file__).resolve().parents[2] / "config"


@pytest.fixture
def top_card() -> Iterator[TableLoop]:
    loop, _ = table_loop("top-card")
    loop.start()
    yield loop
    loop.stop()


def test_a_wager_below_the_minimum_is_refused_with_the_engines_reason(top_card: TableLoop) -> None:
    do(top_card, OpenRound())
    with pytest.raises(WagerRefused, match=r"outside the table limits \$5\.00 to \$1,000\.00"):
        do(top_card, PlaceWager(1, "home", 200))
    assert top_card.snapshot()["message"] == "$2.00 is outside the table limits $5.00 to $1,000.00"


def test_a_wager_after_no_more_bets_is_refused(top_card: TableLoop) -> None:
    do(top_card, OpenRound())
    do(top_card, PlaceWager(1, "home", 1000))
    do(top_card, CloseBetting())
    wait_until(lambda: top_card.snapshot()["round"]["state"] == "complete")
    with pytest.raises(CommandRefused, match="open betting first"):
        do(top_card, PlaceWager(1, "home", 1000))


def test_a_finished_round_is_metered_once_when_the_next_opens(top_card: TableLoop) -> None:
    do(top_card, OpenRound())
    do(top_card, PlaceWager(2, "away", 1500))
    do(top_card, CloseBetting())
    wait_until(lambda: top_card.snapshot()["round"]["state"] == "complete")
    do(top_card, OpenRound())
    meters = top_card.snapshot()["meters"]
    assert (meters["rounds"], meters["wagered"]) == (1, "$15.00")
    assert top_card.snapshot()["recent"][0]["state"] == "complete"
    with pytest.raises(CommandRefused, match=r"is in play \(betting is open\)"):
        do(top_card, OpenRound())


def test_a_device_fault_holds_the_round_and_the_supervisor_resumes_it(top_card: TableLoop) -> None:
    do(top_card, OpenRound())
    do(top_card, DeviceFault("shoe", "door open"))
    view = top_card.snapshot()
    assert (view["round"]["state"], view["round"]["hold_reason"]) == ("hold", "shoe: door open")
    assert view["devices"]["shoe"] == "fault: door open"
    with pytest.raises(WagerRefused, match="no more bets"):
        do(top_card, PlaceWager(1, "home", 1000))
    do(top_card, Resume("door closed"))
    assert top_card.snapshot()["round"]["state"] == "betting"
    assert top_card.snapshot()["devices"]["shoe"] == "ok"


def test_a_fault_between_rounds_keeps_the_next_round_from_opening_until_cleared(top_card: TableLoop) -> None:
    do(top_card, DeviceFault("shoe", "communication lost"))
    with pytest.raises(CommandRefused, match="the table is on hold: shoe: communication lost"):
        do(top_card, OpenRound())
    do(top_card, Resume("cable replaced"))
    assert "betting is open" in do(top_card, OpenRound())


def test_a_void_returns_every_wager_whole(top_card: TableLoop) -> None:
    do(top_card, OpenRound())
    do(top_card, PlaceWager(3, "home", 2500))
    do(top_card, PlaceWager(3, "tie", 500))
    do(top_card, VoidRound("misdeal"))
    round = top_card.snapshot()["round"]
    assert round["state"] == "void" and round["void_reason"] == "misdeal"
    assert [(s["wager"], s["returned"]) for s in round["settlements"]] == [("home", "$25.00"), ("tie", "$5.00")]


def test_a_card_correction_needs_a_card_to_be_due_and_leaves_the_hold_as_it_was(top_card: TableLoop) -> None:
    """Refused, the round was released (journaled as resumed), the device's fault cleared and the hold's reason replaced
    by 'card AS entered by the supervisor, but no card is due': the hold screen no longer said the shoe was down."""
    do(top_card, OpenRound())
    do(top_card, DeviceFault("shoe", "jam"))
    log = top_card.table.log
    before = len(log.named(ev.StateChanged.EVENT))
    with pytest.raises(CommandRefused, match="no card is due"):
        do(top_card, CorrectCard("AS", "misread"))
    view = top_card.snapshot()
    assert view["round"]["state"] == "hold" and view["round"]["hold_reason"] == "shoe: jam"
    assert view["devices"]["shoe"] == "fault: jam"
    assert len(log.named(ev.StateChanged.EVENT)) == before and not log.named(SupervisorActed.EVENT)
    assert [(r["action"], r["reason"]) for r in log.named(ev.SupervisorRefusal.EVENT)] == [("correct_card", "no card is due")]


def test_three_card_poker_decisions_in_turn_and_settlement_against_the_bank() -> None:
    loop, log = table_loop("three-card-poker")
    loop.start()
    try:
        do(loop, OpenRound())
        do(loop, PlaceWager(1, "bank", 50000))
        do(loop, PlaceWager(4, "ante", 1000))
        do(loop, PlaceWager(6, "ante", 1000))
        with pytest.raises(WagerRefused, match="spot 1 takes only bank"):
            do(loop, PlaceWager(1, "ante", 1000))
        do(loop, CloseBetting())
        pending = loop.snapshot()["round"]["pending"]
        assert (pending["spot"], pending["actions"], pending["amounts"], pending["setting"]) == (4, ["play", "fold"], [], None)
        with pytest.raises(DecisionRefused, match="spot 4 decides first"):
            do(loop, Decide(6, "play"))
        do(loop, Decide(4, "play"))
        do(loop, Decide(6, "fold"))
        round = loop.snapshot()["round"]
        assert round["state"] == "complete"
        assert [(s["spot"], s["wager"]) for s in round["settlements"]][-1] == (1, "bank")
        assert log.named(FeeCollected.EVENT)[0]["spot"] == 1
    finally:
        loop.stop()


def test_a_voided_round_is_no_bank_the_player_dealer_position_neither_passes_nor_stops() -> None:
    """Two voided rounds in a row (two device faults, say) leave seat 1 its two banks: only played rounds count."""
    loop, log = table_loop("three-card-poker")
    loop.start()
    try:
        for _ in range(2):
            do(loop, OpenRound())
            do(loop, PlaceWager(1, "bank", 30000))
            do(loop, VoidRound("the shuffler's deck is in doubt"))
        assert loop.snapshot()["stopped"] is None and not log.named(ev.PositionPassed.EVENT)
        assert loop.table.game.table_roles() == {"player_dealer": 1, "bank_button": "1st bank"}
        do(loop, OpenRound())
        do(loop, PlaceWager(1, "bank", 30000))
        do(loop, PlaceWager(4, "ante", 1000))
        do(loop, CloseBetting())
        do(loop, Decide(4, "fold"))
        wait_until(lambda: bool(log.named(ev.PositionPassed.EVENT)))
        assert log.named(ev.PositionPassed.EVENT)[-1]["bank_button"] == "2nd bank"
    finally:
        loop.stop()


def test_an_empty_shoe_holds_the_round_and_the_supervisor_enters_the_card_really_dealt() -> None:
    config = load_config(CONFIG / "top-card.toml")
    log = MemoryLog(config.table_id)
    feed = ShoeFeed(InProcessShoe(1, seed=3, cut_from_end=0), log, burn_after_shuffle=1)
    loop = TableLoop(Table(config, feed, log, session="EMPTY"), players=SimulatedPlayers(random.Random(3)), rounds=40)
    loop.start()
    try:
        wait_until(lambda: (loop.snapshot().get("round") or {}).get("state") == "hold")
        round = loop.snapshot()["round"]
        assert round["hold_reason"] == "shoe: the shoe is empty after 52 cards"
        assert loop.snapshot()["faults"][-1]["reason"] == "the shoe is empty after 52 cards"
        due = round["card_due"]
        do(loop, CorrectCard("qh", "last card keyed in from the table"))
        by_hand = [(r["round"], r.get("target", "burn"), r["card"]) for r in log.records()
                   if r["event"] in (CardDealt.EVENT, CardBurned.EVENT) and r["source"] == "supervisor"]
        assert by_hand == [(round["id"], due, "QH")]
        assert log.named(SupervisorActed.EVENT)[-1]["card"] == "QH"
    finally:
        loop.stop()


def test_a_table_held_for_a_shoe_of_the_wrong_size_opens_again_once_the_supervisor_resumes_it() -> None:
    """The wrong shoe is a fault only the supervisor ends (once the right one is loaded): the table's resume ends it,
    and the next round shuffles the shoe and counts it again."""
    loop, log = table_loop("top-card")
    feed = loop.table.feed
    assert isinstance(feed, ShoeFeed)
    right = 8 * 52  # config/top-card.toml: [shoe] decks = 8
    feed.shoe_cards, feed.decks = right - 52, 7  # the table checks for a shoe of seven decks: the shoe is wrong
    loop.start()
    try:
        with pytest.raises(CommandRefused, match="shoe-size"):
            do(loop, OpenRound())
        assert loop.snapshot()["table_fault"] is not None
        feed.shoe_cards, feed.decks = right, 8  # the shoe the table expects loaded
        assert do(loop, Resume("the eight-deck shoe loaded")) == "table resumed: the next round may open"
        assert "betting is open" in do(loop, OpenRound())
        assert log.named(ev.ShoeShuffled.EVENT)[-1]["cards"] == right
    finally:
        loop.stop()
