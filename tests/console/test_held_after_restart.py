"""A held round recovered from the journal by a table that restarted (``tablectl serve`` stopped and started again)
is resumed or voided from the console as the journal says, not as the new process's feed remembers (it remembers
nothing of the round): with cards of it dealt from the shuffler, its deck is gone with the restart and a fresh deck
could deal them again, so the console offers only the void and refuses a resume (journaled once), as start-up
recovery voids the same round were it not held (``recovery.misdeal_on_restart``), whatever the round was held for
(the shuffler's restart, a card it could not read, a jam), and the screen's help says why. A round held before any
card of it was dealt still resumes, on a fresh deck.

The reference shuffler simulator over a real pty; the loop and its session as ``tablectl serve`` makes them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import queue
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.commands import CloseBetting, CommandRefused, CorrectCard, Resume, VoidRound
from controller.engine.config import TableConfig, load_config
from controller.engine.feeds import RESTARTED_AFTER_CARDS
from controller.engine.holds import DEALT_BEFORE_RESTART, DEALT_BEFORE_STOP
from controller.engine.loop import TableLoop
from controller.engine.session import Session, open_session
from controller.engine.view import HOLD_HELP, VOID_ONLY_HELP
from controller.events import ShufflerShuffled, StackDispensed, SupervisorActed, SupervisorRefusal
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess
from tests.console.tables import do, wait_until
from tests.console.test_device_poll import shuffler_bets, shuffler_round
from tests.helpers import init_table

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def served(config: TableConfig, files: dict[str, Path], seed: int) -> Iterator[tuple[Session, TableLoop]]:
    """The table as ``tablectl serve`` runs it: its session opened on the journal (rounds recovered) and its loop run
    on one thread (the journal's own), commands submitted from this one as the console submits them; stopped after."""
    made: queue.Queue[tuple[Session, TableLoop] | Exception] = queue.Queue()
    stop = threading.Event()

    def serve() -> None:
        try:
            with open_session(config, random.Random(seed), **files) as session:
                loop = session.table_loop(pace=0.0)
                made.put((session, loop))
                loop.run(stop)
        except Exception as exc:  # noqa: BLE001 - told to the test, whether before the loop ran or after
            made.put(exc)

    thread = threading.Thread(target=serve, name="tablectl-serve", daemon=True)
    thread.start()
    first = made.get(timeout=60)
    if isinstance(first, Exception):
        raise first
    try:
        yield first
    finally:
        stop.set()
        thread.join(30)
        assert not thread.is_alive()
    if not made.empty():
        raise made.get()


def table(tmp_path: Path, port: str) -> tuple[TableConfig, dict[str, Path]]:
    """Three Card Poker on the reference shuffler at ``port``, its journal and log initialised."""
    config = load_config(ROOT / "config" / "three-card-poker.toml")
    config = dataclasses.replace(config, shuffler={"driver": "reference", "port": port})
    files = {"journal": tmp_path / "j.sqlite", "events": tmp_path / "ev.jsonl"}
    init_table(files["journal"], files["events"], ROOT / "config" / "three-card-poker.toml")
    return config, files


def records(files: dict[str, Path], round_id: str, kind: type) -> list:  # type: ignore[type-arg]
    with Journal(files["journal"], table_id="TCP-01", readonly=True) as journal:
        return [r for r in journal.round_records(round_id) if isinstance(r, kind)]


def test_a_held_round_with_shuffler_cards_out_recovered_after_a_restart_may_only_be_voided(tmp_path: Path) -> None:
    """The shuffler restarts as the round's second stack is asked for (the first dealt): the round holds to be voided.
    The table stops and starts again on the same journal: the recovered round is still held, its screen offers no
    resume, and a resume is refused with the reason it was held for, journaled once; the void ends it. The old code
    took the resume (the new process's feed knew nothing of the round's lost deck)."""
    with SimulatorProcess("shuffler", "--seed", "4") as sim:
        config, files = table(tmp_path, sim.port)
        with served(config, files, 1) as (session, loop):
            shuffler_bets(loop)
            sim.command("on dispense 2 restart 2")  # the first stack is dealt; the shuffler restarts as it is asked the next
            do(loop, CloseBetting())
            wait_until(lambda: "the deck of this round is gone" in (loop.snapshot()["round"]["hold_reason"] or ""), timeout=15)
            round_id = loop.snapshot()["round"]["id"]
        assert len(records(files, round_id, StackDispensed)) == 1

        with served(config, files, 2) as (session, loop):
            assert [(r.round_id, r.action) for r in session.recovered] == [(round_id, "held")]
            wait_until(lambda: loop.snapshot()["round"] is not None)
            view = loop.snapshot()
            assert (view["round"]["id"], view["round"]["state"]) == (round_id, "hold")
            assert view["screens"]["resume"] is None  # the console shows no resume for it: void only
            assert view["screens"]["hold_help"] == VOID_ONLY_HELP.format(why=DEALT_BEFORE_RESTART)
            with pytest.raises(CommandRefused, match=r"not resumed: .*the deck of this round is gone.*void the round"):
                do(loop, Resume("the shuffler is back after the restart", "pat"))
            refused = records(files, round_id, SupervisorRefusal)
            assert [(r.name, r.step, r.action, r.reason) for r in refused] == [("pat", "table", "resume", RESTARTED_AFTER_CARDS)]
            assert not records(files, round_id, SupervisorActed) and loop.snapshot()["round"]["state"] == "hold"

            assert do(loop, VoidRound("the shuffler restarted mid-deal", "pat")) == f"round {round_id} voided"
        with Journal(files["journal"], table_id="TCP-01", readonly=True) as journal:
            assert journal.round(round_id).state == "void"  # type: ignore[union-attr]


def test_a_held_round_with_no_card_out_recovered_after_a_restart_resumes_on_a_fresh_deck(tmp_path: Path) -> None:
    """The shuffler goes off while betting is open (no card of the round dealt): the round holds. The table stops
    and starts again on the same journal, the shuffler back: the screen offers the resume, and the resume deals the
    round from a deck shuffled and counted by the new process, to its end (the misdeal rule lets it go on)."""
    with SimulatorProcess("shuffler", "--seed", "4") as sim:
        config, files = table(tmp_path, sim.port)
        with served(config, files, 1) as (session, loop):
            shuffler_bets(loop)
            sim.command("restart 600")  # off until plugged in
            wait_until(lambda: loop.snapshot()["round"]["state"] == "hold")
            round_id = loop.snapshot()["round"]["id"]
        sim.command("plug")

        with served(config, files, 2) as (session, loop):
            assert [(r.round_id, r.action) for r in session.recovered] == [(round_id, "held")]
            wait_until(lambda: loop.snapshot()["round"] is not None and loop.snapshot()["devices"]["shuffler"] == "ok",
                       timeout=15)
            assert loop.snapshot()["screens"]["resume"] == "Resume round"
            assert do(loop, Resume("the shuffler is back", "pat")) == f"round {round_id} resumed"
            shuffler_round(loop, bets=False)
        assert records(files, round_id, ShufflerShuffled)  # dealt from a fresh deck
        assert len(records(files, round_id, StackDispensed)) == 2
        assert not records(files, round_id, SupervisorRefusal)


HELD_FOR = {
    # the shuffler's reader cannot read a card of the round's second stack: on a live table the supervisor enters it
    "unreadable-card": ("on dispense 2 unreadable", "a card could not be read"),
    # the shuffler jams as the round's second stack is asked for: on a live table it resumes once cleared
    "jam": ("on dispense 2 fault jam", "a card is jammed"),
}


def table_file(tmp_path: Path, port: str) -> tuple[Path, TableConfig, dict[str, Path]]:
    """``table``, its config written to a file as ``tablectl`` reads it (``tablectl hold`` on the stopped table)."""
    path = tmp_path / "table.toml"
    path.write_text((ROOT / "config" / "three-card-poker.toml").read_text().replace(
        'driver = "simulated"', f'driver = "reference"\nport = "{port}"'))
    files = {"journal": tmp_path / "j.sqlite", "events": tmp_path / "ev.jsonl"}
    init_table(files["journal"], files["events"], path)
    return path, load_config(path), files


def held_with_a_stack_out(sim: SimulatorProcess, config: TableConfig, files: dict[str, Path], held_for: str) -> str:
    """Serve the table, deal a round's first stack and hold it as ``HELD_FOR[held_for]`` says, stop the table: the
    round's id. On the live table the round may be resumed (its feed has the deck)."""
    script, held_with = HELD_FOR[held_for]
    with served(config, files, 1) as (session, loop):
        shuffler_bets(loop)
        sim.command(script)  # the first stack is dealt; the second is refused
        do(loop, CloseBetting())
        wait_until(lambda: loop.snapshot()["round"]["state"] == "hold", timeout=15)
        view = loop.snapshot()
        assert held_with in view["round"]["hold_reason"] and "the deck" not in view["round"]["hold_reason"]
        assert (view["screens"]["resume"], view["screens"]["hold_help"]) == ("Resume round", HOLD_HELP)
        round_id: str = view["round"]["id"]
    assert len(records(files, round_id, StackDispensed)) == 1
    return round_id


@pytest.mark.parametrize("held_for", HELD_FOR)
def test_a_round_held_for_another_reason_with_shuffler_cards_out_recovered_after_a_restart_may_only_be_voided(
    tmp_path: Path, held_for: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held for what the shuffler reported (a card it could not read, a jam), its first stack dealt: on the live
    table the round may be resumed (its feed has the deck). The table stops: ``tablectl hold resume`` is refused at
    once (no PIN asked), as the next start would void it. The table starts again on the same journal: the recovered
    round may only be voided, in the words ``holds.void_only`` has for it (dealt before the table restarted), not the
    ones it was held with: the screen offers no resume and its help says why; a resume, or the card entered, is
    refused with them; each refusal journaled once; the void ends it. (The old screen's help offered the resume and
    the card entry the panel no longer showed, and said nothing of why.)"""
    with SimulatorProcess("shuffler", "--seed", "4") as sim:
        path, config, files = table_file(tmp_path, sim.port)
        round_id = held_with_a_stack_out(sim, config, files, held_for)
        held_with = HELD_FOR[held_for][1]

        typed = io.StringIO("482913\n")
        monkeypatch.setattr("sys.stdin", typed)
        assert main(["hold", "resume", round_id, "--by", "pat", "--pin-stdin", "--config", str(path),
                     "--journal", str(files["journal"]), "--log", str(files["events"])]) == 2
        out, err = capsys.readouterr()
        assert not out and typed.tell() == 0  # refused before any PIN was asked
        assert err.splitlines()[0] == f"tablectl: not resumed: {DEALT_BEFORE_STOP}"

        with served(config, files, 2) as (session, loop):
            assert [(r.round_id, r.action) for r in session.recovered] == [(round_id, "held")]
            wait_until(lambda: loop.snapshot()["round"] is not None)
            view = loop.snapshot()
            assert (view["round"]["id"], view["round"]["state"]) == (round_id, "hold")
            assert held_with in view["screens"]["hold"]  # held for what it was held for
            assert view["screens"]["resume"] is None  # no resume, no card entry: the void only
            assert view["screens"]["hold_help"] == VOID_ONLY_HELP.format(why=DEALT_BEFORE_RESTART)
            for command in (Resume("the shuffler is cleared", "pat"), CorrectCard("QH", "inspected: queen of hearts", "pat")):
                with pytest.raises(CommandRefused) as refused:
                    do(loop, command)
                assert str(refused.value) == f"not resumed: {DEALT_BEFORE_RESTART}"
            assert [(r.name, r.step, r.action, r.reason) for r in records(files, round_id, SupervisorRefusal)] == [
                ("pat", "table", "resume", DEALT_BEFORE_STOP),  # the command line's, on the table stopped
                ("pat", "table", "resume", DEALT_BEFORE_RESTART), ("pat", "table", "correct_card", DEALT_BEFORE_RESTART)]
            assert not records(files, round_id, SupervisorActed) and loop.snapshot()["round"]["state"] == "hold"

            assert do(loop, VoidRound(f"held for a {held_for} when the table restarted", "pat")) == f"round {round_id} voided"
        with Journal(files["journal"], table_id="TCP-01", readonly=True) as journal:
            assert journal.round(round_id).state == "void"  # type: ignore[union-attr]
