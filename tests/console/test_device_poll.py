"""Faults a device reports between rounds reach the console at once, not at the next card.

The devices are the reference simulators over real pseudo-terminals, driven
by the reference drivers; the table loop polls its feed between rounds and
while betting is open.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator

import pytest

from controller.engine.commands import CloseBetting, CommandRefused, Decide, OpenRound, PlaceWager, Resume, VoidRound
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.feeds import ShufflerFeed
from controller.engine.loop import TableLoop
from controller.engine.table import Table
from controller.events import (
    ShoeFaulted,
    ShoeRecovered,
    ShoeShuffled,
    ShufflerFaulted,
    ShufflerRecovered,
    ShufflerShuffled,
    StackDispensed,
    SupervisorActed,
    SupervisorRefusal,
)
from drivers.registry import open_shuffler
from drivers.sim.process import SimulatorProcess
from tests.console.tables import CONFIG, do, table_loop, wait_until
from tests.helpers import MemoryLog
from tests.witness.harness import Witness

SHUFFLERS = ["reference", "witness:one-deck-stack", "witness:two-decks", "witness:two-decks-refuse", "witness:one-deck:reset"]
"""The shufflers a restart is tested on: tablectl's simulator, and the witness (tests/witness: docs/protocol.md read
alone) in readings that restart each way the document allows. Switched off, its port gone (a USB device, a pty):
a boot value drawn at random (8.3) and its device SYNC after the restart with SEQ from zero (3.4, 3.6); a boot
counter, per-card events and late replies; busy answering NOT_READY for a second after power-on (8.5), SEQ
anywhere, no event before Hello (3.9). ``:reset``: a watchdog or firmware reset on a serial line (8.4), the port
never closed, so the host learns of it only from the device (its event numbers, NOT_READY, a new boot)."""


class RestartingShuffler:
    """A shuffler for the restart tests over a real pty: ``command`` in the simulator's words (``restart S``,
    ``restart 600`` then ``plug``, ``on dispense N restart S``), done at the witness in its own (``power-off``, ...)."""

    def __init__(self, sim: SimulatorProcess | None, witness: Witness | None, *, reset: bool = False) -> None:
        self.sim, self.witness, self.reset = sim, witness, reset
        self.port = sim.port if sim is not None else witness.url  # type: ignore[union-attr]
        self.decks = 2 if "two-decks" in (witness.reading if witness is not None else "two-decks") else 1

    def command(self, line: str) -> None:
        if self.sim is not None:
            self.sim.command(line)
            return
        assert self.witness is not None
        words = line.split()
        if self.reset:  # the same restarts, the line kept open
            self.witness.control(line.replace("restart", "reset").replace("plug", "power-on"))
        elif words[0] == "restart" and not line.startswith("restart 600"):  # off S seconds, then it boots anew
            self.witness.control("power-off")
            self.witness.control(f"after {words[1]} power-on")
        elif words[0] == "restart":  # off until plugged in
            self.witness.control("power-off")
        elif words[0] == "plug":
            self.witness.control("power-on")
        else:
            self.witness.control(line)

    def shuffles_since_restart(self) -> int:
        if self.sim is not None:  # its events since power-on are its shuffles (no per-card events)
            return int(self.sim.command("status").rsplit("last_event=", 1)[1])
        assert self.witness is not None
        return self.witness.status()["shuffles"]


@contextlib.contextmanager
def shuffler(kind: str, *sim_args: str) -> Iterator[RestartingShuffler]:
    """The ``kind`` of ``SHUFFLERS`` started (the simulator with ``sim_args``, the witness as its reading says)."""
    if kind == "reference":
        with SimulatorProcess("shuffler", "--seed", "4", *sim_args) as sim:
            yield RestartingShuffler(sim, None)
    else:
        _, reading, *how = kind.split(":")
        with Witness("shuffler", reading, args=["--seed", "4"]) as witness:
            yield RestartingShuffler(None, witness, reset=how == ["reset"])


def test_a_shoe_fault_between_rounds_holds_the_table_and_the_next_round_deals_on_once_cleared() -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        loop, log = table_loop("top-card", shoe_port=sim.port)
        loop.start()
        try:
            sim.command("fault jam")
            wait_until(lambda: loop.snapshot()["table_fault"] is not None)
            assert loop.snapshot()["table_fault"].startswith("shoe: shoe fault (jam)")
            assert loop.snapshot()["devices"]["shoe"].startswith("fault: shoe fault (jam)")
            assert log.named(ShoeFaulted.EVENT)[-1]["round"] is None
            with pytest.raises(CommandRefused, match="the table is on hold: shoe: shoe fault"):
                do(loop, OpenRound())
            sim.command("clear")
            wait_until(lambda: bool(log.named(ShoeRecovered.EVENT)))  # read between rounds too
            assert loop.snapshot()["table_fault"] is not None  # until the supervisor resumes
            do(loop, Resume("jam cleared at the shoe"))
            do(loop, OpenRound())
            do(loop, PlaceWager(1, "home", 1000))
            do(loop, CloseBetting())
            wait_until(lambda: loop.snapshot()["round"]["state"] == "complete")
            assert log.named(ShoeRecovered.EVENT)[-1]["code"] == "jam" and len(log.named(ShoeFaulted.EVENT)) == 1
        finally:
            loop.stop()
            loop.table.feed.close()


def test_a_shoe_fault_while_betting_is_open_holds_the_round() -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        loop, _ = table_loop("top-card", shoe_port=sim.port)
        loop.start()
        try:
            do(loop, OpenRound())
            sim.command("fault door-open")
            wait_until(lambda: loop.snapshot()["round"]["state"] == "hold")
            assert loop.snapshot()["round"]["hold_reason"].startswith("shoe: shoe fault (door-open)")
        finally:
            loop.stop()
            loop.table.feed.close()


def test_the_reference_shuffler_reports_a_fault_without_being_asked_to_deal() -> None:
    with SimulatorProcess("shuffler", "--seed", "2") as sim:
        shuffler = open_shuffler("reference", port=sim.port)
        try:
            assert shuffler.reported_fault() is None
            sim.command("fault door-open")
            wait_until(lambda: shuffler.reported_fault() is not None)
            assert shuffler.reported_fault().startswith("shuffler fault (door-open):")  # type: ignore[union-attr]
            sim.command("clear")
            wait_until(lambda: shuffler.reported_fault() is None)
        finally:
            shuffler.close()


def test_a_shuffler_fault_between_rounds_holds_the_table() -> None:
    with SimulatorProcess("shuffler", "--seed", "2") as sim:
        config = load_config(CONFIG / "three-card-poker.toml")
        config = dataclasses.replace(config, shuffler={"driver": "reference", "port": sim.port})
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=2)
        assert isinstance(feed, ShufflerFeed)
        loop = TableLoop(Table(config, feed, log, session="POLL"))
        loop.start()
        try:
            sim.command("fault jam")
            wait_until(lambda: loop.snapshot()["table_fault"] is not None)
            assert loop.snapshot()["table_fault"].startswith("shuffler: shuffler fault (jam)")
        finally:
            loop.stop()
            feed.close()


@pytest.mark.parametrize(("device", "game"), [("shoe", "top-card"), ("shuffler", "three-card-poker")])
def test_a_table_hold_is_not_resumed_while_its_device_is_still_unplugged(device: str, game: str) -> None:
    """No round in play, the device unplugged: a supervisor's resume is refused (journaled, naming the device and
    what to do), the table stays held with the device shown down, never ready; once plugged in, the resume clears
    the hold and the next round opens."""
    with SimulatorProcess(device, "--seed", "4") as sim:
        loop, log = table_loop(game, **{f"{device}_port": sim.port})
        loop.start()
        try:
            sim.command("unplug 600")
            wait_until(lambda: loop.snapshot()["table_fault"] is not None)
            with pytest.raises(CommandRefused, match=rf"not resumed: the {device} is still down .*plug it in"):
                do(loop, Resume(f"the {device} looks fine", "pat"))
            refused = log.named(SupervisorRefusal.EVENT)[-1]
            assert (refused["name"], refused["step"], refused["action"]) == ("pat", "table", "resume")
            assert f"the {device} is still down" in refused["reason"]
            assert not log.named(SupervisorActed.EVENT)
            time.sleep(1.2)  # polls go on: the device is shown as it is, never ready while it is down
            view = loop.snapshot()
            assert view["table_fault"] is not None and view["screens"]["hold"] is not None
            assert view["devices"][device].startswith("fault:"), view["devices"]
            assert view["screens"]["resume"] == "Resume table"
            with pytest.raises(CommandRefused, match="the table is on hold"):
                do(loop, OpenRound())

            sim.command("plug")
            wait_until(lambda: loop.snapshot()["devices"][device] == "ok", timeout=15)
            assert do(loop, Resume(f"the {device} is plugged in", "pat")) == "table resumed: the next round may open"
            assert log.named(SupervisorActed.EVENT)[-1]["action"] == "resume"
            assert loop.snapshot()["devices"][device] == "ok"
            assert "betting is open" in do(loop, OpenRound())
        finally:
            loop.stop()
            loop.table.feed.close()


def restart_between_rounds(sim: SimulatorProcess | RestartingShuffler, loop: TableLoop, log: MemoryLog, device: str, faulted: str) -> None:
    """Restart ``device`` between rounds for 4 s (its lost link holds the table): never shown ready while it is off;
    once it answers it is shown ready, the restart journaled (``faulted``) asks nothing of the supervisor, the table's
    resume goes through, and polls go on showing the device as it reports.

    4 s, well past the 9 tries (about 1.5 s) that find a link dead: a device reset on a line kept open (``:reset``) is
    found deaf only by a request sent while it is, and with 2 s a loaded machine's late tries met the device back up,
    which then showed only as a restart (as 8.4 allows), never as a lost link."""
    sim.command("restart 4")
    wait_until(lambda: loop.snapshot()["table_fault"] is not None)
    assert loop.snapshot()["devices"][device].startswith("fault:")
    wait_until(lambda: any(e["code"] == "device-restarted" for e in log.named(faulted)), timeout=15)
    wait_until(lambda: loop.snapshot()["devices"][device] == "ok", timeout=5)
    assert "device-restarted" not in loop.snapshot()["table_fault"]
    assert do(loop, Resume(f"the {device} is back", "pat")) == "table resumed: the next round may open"
    time.sleep(1.2)
    assert loop.snapshot()["devices"][device] == "ok"


def test_a_shoe_restarted_between_rounds_is_shown_as_it_reports_once_back_and_the_next_round_deals_a_new_shoe() -> None:
    """docs/protocol.md 8.4: between rounds a restart only means a new shoe (no supervisor's word is needed, unlike a
    restart mid-round): once the shoe answers again it is shown ready, never 'fault: ... (device-restarted)' until the
    next shuffle; the table's hold for the lost link is resumed as any, and the next round shuffles a new shoe."""
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        loop, log = table_loop("top-card", shoe_port=sim.port)
        loop.start()
        try:
            shuffles = len(log.named(ShoeShuffled.EVENT))
            restart_between_rounds(sim, loop, log, "shoe", ShoeFaulted.EVENT)
            assert "betting is open" in do(loop, OpenRound())
            assert len(log.named(ShoeShuffled.EVENT)) == shuffles + 1  # 8.4: a new shoe before any card
            do(loop, PlaceWager(1, "home", 1000))
            do(loop, CloseBetting())
            wait_until(lambda: loop.snapshot()["round"]["state"] == "complete", timeout=15)
            assert log.named(ShoeRecovered.EVENT)[-1]["code"] == "device-restarted"
        finally:
            loop.stop()
            loop.table.feed.close()


def test_a_held_round_is_not_resumed_while_its_shoe_is_still_unplugged_and_resumes_once_it_is_back() -> None:
    """As a table's hold (21ac1bf): resuming a round whose next step needs the shoe while the shoe is still down is
    refused, naming it and what to do, journaled as ``supervisor_refused`` (step ``table``, the round's id); the
    round stays held. Plugged in, the resume goes through and the round deals on to its end."""
    with SimulatorProcess("shoe", "--seed", "4") as sim:
        loop, log = table_loop("top-card", shoe_port=sim.port)
        loop.start()
        try:
            do(loop, OpenRound())
            do(loop, PlaceWager(1, "home", 1000))
            sim.command("unplug 600")
            wait_until(lambda: loop.snapshot()["round"]["state"] == "hold")
            round_id = loop.snapshot()["round"]["id"]
            with pytest.raises(CommandRefused, match=r"not resumed: the shoe is still down .*plug it in.*resume the round"):
                do(loop, Resume("the shoe looks fine", "pat"))
            refused = log.named(SupervisorRefusal.EVENT)[-1]
            assert (refused["name"], refused["step"], refused["action"], refused["round"]) == ("pat", "table", "resume", round_id)
            assert "the shoe is still down" in refused["reason"]
            assert not log.named(SupervisorActed.EVENT)
            view = loop.snapshot()
            assert view["round"]["state"] == "hold" and view["screens"]["resume"] == "Resume round"
            assert view["devices"]["shoe"].startswith("fault:"), view["devices"]

            sim.command("plug")
            wait_until(lambda: loop.snapshot()["devices"]["shoe"] == "ok", timeout=15)
            assert do(loop, Resume("the shoe is plugged in", "pat")) == f"round {round_id} resumed"
            do(loop, CloseBetting())
            wait_until(lambda: loop.snapshot()["round"]["state"] == "complete", timeout=15)
            assert [r["action"] for r in log.named(SupervisorActed.EVENT)] == ["resume"]
        finally:
            loop.stop()
            loop.table.feed.close()


def shuffler_bets(loop: TableLoop) -> None:
    """A Three Card Poker round opened on the shuffler, its wagers placed: the player-dealer's bank and one ante."""
    do(loop, OpenRound())
    do(loop, PlaceWager(1, "bank", 30000))
    do(loop, PlaceWager(4, "ante", 1000))


def shuffler_round(loop: TableLoop, *, bets: bool = True) -> None:
    """A Three Card Poker round on the shuffler dealt to its end (``shuffler_bets`` first unless ``bets`` is false)."""
    if bets:
        shuffler_bets(loop)
    do(loop, CloseBetting())
    wait_until(lambda: loop.snapshot()["round"]["state"] == "decisions", timeout=15)
    loop.submit(Decide(4, "play")).result(120)  # the first settlement may wait for the shuffle tests' kernels
    assert loop.snapshot()["round"]["state"] == "complete"


@pytest.mark.parametrize("kind", SHUFFLERS)
def test_a_shuffler_restarted_between_rounds_is_shown_ready_once_back_and_the_next_round_deals_a_fresh_deck(kind: str) -> None:
    """docs/protocol.md 8.4 and 6.3, as for the shoe: between rounds a restart only means fresh decks. The table
    holds while the shuffler is off (its link lost); once it answers it is shown ready, the restart (journaled) asks
    nothing of the supervisor, the resume goes through, and the next round is dealt from a deck shuffled and counted
    after the restart (the machine's decks started again, both of a two-deck machine)."""
    with shuffler(kind, "--decks", "2") as sim:
        loop, log = table_loop("three-card-poker", shuffler_port=sim.port)
        loop.start()
        try:
            shuffler_round(loop)
            restart_between_rounds(sim, loop, log, "shuffler", ShufflerFaulted.EVENT)
            shuffled = len(log.named(ShufflerShuffled.EVENT))
            shuffler_round(loop)
            assert len(log.named(ShufflerShuffled.EVENT)) == shuffled + 1
            assert sim.shuffles_since_restart() == sim.decks  # each deck shuffled since the restart (6.3)
            assert log.named(ShufflerRecovered.EVENT)[-1]["code"] == "device-restarted"
        finally:
            loop.stop()
            loop.table.feed.close()


@pytest.mark.parametrize("kind", SHUFFLERS)
def test_a_shuffler_restarted_while_betting_is_open_holds_the_round_and_its_resume_deals_a_fresh_deck(kind: str) -> None:
    """8.4 mid-round, before any card of the round's deck was dealt: the round holds for the lost link; a resume while
    the shuffler is still off is refused (as c83fa9f's for the shoe); once back the hold says the shuffler restarted
    and what to do, the shuffler is shown ready (not a fault it no longer reports), and the resume deals the round
    from a fresh deck, shuffled and counted first. The old code resumed it onto a Dispense refused NOT_READY, held
    again as 'not-ready: shuffle or load cards first' after every resume."""
    with shuffler(kind) as sim:
        loop, log = table_loop("three-card-poker", shuffler_port=sim.port)
        loop.start()
        try:
            shuffler_bets(loop)
            shuffled = len(log.named(ShufflerShuffled.EVENT))
            sim.command("restart 600")  # off until plugged in
            wait_until(lambda: loop.snapshot()["round"]["state"] == "hold")
            round_id = loop.snapshot()["round"]["id"]
            with pytest.raises(CommandRefused, match=r"not resumed: the shuffler is still down .*then resume the round"):
                do(loop, Resume("the shuffler looks fine", "pat"))
            assert log.named(SupervisorRefusal.EVENT)[-1]["round"] == round_id

            sim.command("plug")  # it boots anew
            wait_until(lambda: "restarted" in loop.snapshot()["round"]["hold_reason"], timeout=15)
            view = loop.snapshot()
            assert view["round"]["state"] == "hold" and view["devices"]["shuffler"] == "ok", view["devices"]
            assert "lost the deck of this round before any card of it was dealt: resume the round" in view["round"]["hold_reason"]
            time.sleep(1.2)  # polls go on: shown as it reports, the restart not a fault of it now
            assert loop.snapshot()["devices"]["shuffler"] == "ok"
            assert any(e["code"] == "device-restarted" for e in log.named(ShufflerFaulted.EVENT))

            assert do(loop, Resume("the shuffler restarted before any card", "pat")) == f"round {round_id} resumed"
            shuffler_round(loop, bets=False)
            assert len(log.named(ShufflerShuffled.EVENT)) == shuffled + 1  # a fresh deck for the round
            assert [e["round"] for e in log.named(StackDispensed.EVENT)] == [round_id, round_id]
            assert [r["action"] for r in log.named(SupervisorActed.EVENT)] == ["resume"]
        finally:
            loop.stop()
            loop.table.feed.close()


@pytest.mark.parametrize("kind", SHUFFLERS)
def test_a_shuffler_restarted_with_cards_of_the_round_dealt_holds_it_to_be_voided_and_refuses_a_resume(kind: str) -> None:
    """8.4 mid-round, cards of the round's deck dealt: a fresh deck could deal them again, so the round is held to be
    voided, saying so; a resume is refused (journaled) rather than held again at once; the shuffler is shown as it
    reports. Voided, the next round is dealt from fresh decks."""
    with shuffler(kind) as sim:
        loop, log = table_loop("three-card-poker", shuffler_port=sim.port)
        loop.start()
        try:
            shuffler_bets(loop)
            sim.command("on dispense 2 restart 2")  # the first stack is dealt; the shuffler restarts as it is asked the next
            do(loop, CloseBetting())
            wait_until(lambda: "the deck of this round is gone" in (loop.snapshot()["round"]["hold_reason"] or ""), timeout=15)
            round_id = loop.snapshot()["round"]["id"]
            wait_until(lambda: not loop.snapshot()["devices"]["shuffler"].startswith("fault: the shuffler stopped"))
            assert "device-restarted" not in loop.snapshot()["devices"]["shuffler"]
            with pytest.raises(CommandRefused, match=r"not resumed: .*the deck of this round is gone.*void the round"):
                do(loop, Resume("the shuffler is back", "pat"))
            refused = log.named(SupervisorRefusal.EVENT)[-1]
            assert (refused["round"], refused["step"], refused["action"]) == (round_id, "table", "resume")
            assert loop.snapshot()["round"]["state"] == "hold" and not log.named(SupervisorActed.EVENT)

            assert do(loop, VoidRound("the shuffler restarted mid-deal", "pat")) == f"round {round_id} voided"
            shuffler_round(loop)
        finally:
            loop.stop()
            loop.table.feed.close()
