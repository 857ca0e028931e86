"""The table on the reference shoe over a pseudo-terminal: the default run, and a fault sending the round to hold."""

from __future__ import annotations

import contextlib
import os
import random

from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.session import shoe_simulator
from controller.engine.table import Table
from controller.events import CardBurned, CardDealt, RoundCompleted, RoundHeld, RoundResumed, ShoeFaulted, ShoeRecovered
from drivers.reference.shoe import ReferenceShoe
from drivers.sim.process import SimulatorProcess
from tests.helpers import MemoryLog, play_round


def test_the_default_table_deals_from_the_shoe_simulator_over_a_pseudo_terminal() -> None:
    config = load_config()
    log = MemoryLog(config.table_id)
    with contextlib.ExitStack() as stack:
        feed = open_feed(config, log, seed=5, shoe_port=shoe_simulator(config, 5, stack))
        shoe = feed.shoe  # type: ignore[attr-defined]
        stack.callback(shoe.close)
        assert isinstance(shoe, ReferenceShoe)
        assert os.path.realpath(shoe.session.where).startswith("/dev/pts/")
        table = Table(config, feed, log, session="S")
        rounds = [play_round(table, SimulatedPlayers(random.Random(5))) for _ in range(3)]
    assert [r.state for r in rounds] == ["complete"] * 3
    assert len(log.named(CardDealt.EVENT)) == 6


def test_a_jammed_shoe_puts_the_round_on_hold_with_the_dealers_message() -> None:
    config = load_config()
    log = MemoryLog(config.table_id)
    with SimulatorProcess("shoe", "--seed", "2") as sim:
        feed = open_feed(config, log, seed=2, shoe_port=sim.port)
        table = Table(config, feed, log, session="S", recovery_timeout=1.0)
        players = SimulatedPlayers(random.Random(2))
        assert play_round(table, players).state == "complete"
        sim.command("fault jam")
        held = play_round(table, players)
        feed.shoe.close()  # type: ignore[attr-defined]
    assert held.state == "hold"
    # found before the shuffle ("the shoe is not ready: ...") or at the first card: the same words for the dealer
    assert (held.hold_reason or "").endswith("shoe fault (jam): a card is jammed: open the lid, clear the card path, "
                                             "close the lid")
    assert log.named(ShoeFaulted.EVENT)[0]["code"] == "jam"


def test_a_jam_cleared_mid_round_holds_then_resumes_the_round_with_nothing_lost() -> None:
    # issue 3: a device fault holds the round; the round resumes once the device reports it cleared
    import threading

    config = load_config()
    log = MemoryLog(config.table_id)
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        feed = open_feed(config, log, seed=4, shoe_port=sim.port)
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(4))
        assert play_round(table, players).state == "complete"
        sim.command("fault jam")
        clearing = threading.Timer(0.5, sim.command, args=("clear",))
        clearing.start()
        resumed = play_round(table, players)
        clearing.join()
        after = play_round(table, players)
        feed.shoe.close()  # type: ignore[attr-defined]
    assert resumed.state == after.state == "complete"
    events = [r["event"] for r in log.records() if r["round"] == resumed.id]
    assert events.index(ShoeFaulted.EVENT) < events.index(RoundHeld.EVENT) < events.index(ShoeRecovered.EVENT) \
        < events.index(RoundResumed.EVENT) < events.index(RoundCompleted.EVENT)
    dealt = [r["card"] for r in log.named(CardDealt.EVENT)] + [r["card"] for r in log.named(CardBurned.EVENT)]
    assert len(dealt) == 2 * 3 + 1


def test_an_unplugged_shoe_is_waited_for_and_the_round_completes_with_every_card_once() -> None:
    # issue 3: unplug and return mid-round recovers with nothing lost or counted twice
    import threading

    config = load_config()
    log = MemoryLog(config.table_id)
    with SimulatorProcess("shoe", "--seed", "6") as sim:
        feed = open_feed(config, log, seed=6, shoe_port=sim.port)
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(6))
        rounds = [play_round(table, players)]
        unplug = threading.Thread(target=sim.command, args=("unplug 0.4",))
        unplug.start()
        rounds += [play_round(table, players) for _ in range(4)]
        unplug.join()
        feed.shoe.close()  # type: ignore[attr-defined]
    assert [r.state for r in rounds] == ["complete"] * 5
    cards = [r["card"] for r in log.records() if r["event"] in (CardDealt.EVENT, CardBurned.EVENT)]
    assert len(cards) == 2 * 5 + 1


def test_a_shoe_slow_to_answer_or_silent_for_a_moment_is_not_taken_for_a_dead_one() -> None:
    # issue 48, case 10: on a busy table PC answers come late; docs/protocol.md 9.2, 9.3: a slow reply is no loss,
    # and the link tolerates about 1.5 s without an acknowledgement
    import threading

    config = load_config()
    log = MemoryLog(config.table_id)
    with SimulatorProcess("shoe", "--seed", "5", "--reading", "late", "--set", "reply_delay=1.5") as sim:
        feed = open_feed(config, log, seed=5, shoe_port=sim.port)
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(5))
        rounds = [play_round(table, players)]
        sim.command("noise drop=1")  # the device starved of the processor: nothing in or out
        threading.Timer(0.8, sim.command, args=("noise",)).start()
        rounds += [play_round(table, players) for _ in range(2)]
        feed.close()
    assert [r.state for r in rounds] == ["complete"] * 3
    assert [(r["code"], r["message"]) for r in log.named(ShoeFaulted.EVENT)] == []
