"""The fault matrix: every device fault at every moment, on a shoe and a shuffler, played through the real table.

Each scenario starts a simulated device (in one of the readings of
``drivers/sim/readings.toml``) on a pseudo-terminal, opens the table on it
through the configuration path ``tablectl run`` uses, injects one fault at one
moment, and plays rounds. When a round is held only the supervisor can end
(an unreadable card, a restart mid-round, a stack lost), the simulated
supervisor acts through ``controller.holds``: clears the machine, enters the
card the device could not read (the simulator knows it), or voids the round.

Then it counts: every card that left the device against every card the journal
records from it (dealt, burned, unreadable, stray, unplaced, or in a stack),
so a lost card and a card recorded twice both show; and any exception that
escaped the table is a traceback. ``python -m tests.drivers.fault_matrix``
prints the whole table.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller import events as ev
from controller.engine import holds
from controller.engine.commands import PlaceWager, Sit
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.feeds import CardFeed
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Round
from controller.engine.table import Table
from drivers.sim.behaviour import reading, readings
from drivers.sim.device import SimDevice
from drivers.sim.endpoints import PtyEndpoint
from drivers.sim.shoe import ShoeSim
from drivers.sim.shuffler import ShufflerSim
from tests.helpers import MemoryLog, play_round
from tests.witness.device import READINGS as WITNESS_READINGS
from tests.witness.harness import MatrixWitness, Witness

CONFIG = Path(__file__).resolve().parents[2] / "config"
TEMPLATES = {"shoe": (CONFIG / "top-card.toml").read_text(), "shuffler": (CONFIG / "three-card-poker.toml").read_text()}
MOMENTS = {
    "shoe": ("start-up", "idle", "shuffling", "dealing", "reshuffle"),
    "shuffler": ("start-up", "idle", "shuffling", "dealing", "mid-stack", "reshuffle"),
}
FAULTS = {
    # fault: the control command(s) that make it (see drivers.sim.device); "{clear}" clears it a little later
    "shoe": {
        "jam": "fault jam 0.6",
        "door-open": "fault door-open 0.6",
        "unreadable": "unreadable",
        "unplug": "unplug 0.4",
        "silence": "noise drop=1|later 1.2 noise",
        "restart": "restart 0.3",
        "no-answer": "ignore {command} 2",
        "bad-card": "badcard",
        "bad-reply": "badreply",
    },
    "shuffler": {
        "jam": "fault jam 0.6",
        "door-open": "fault door-open 0.6",
        "unreadable": "unreadable|later 1.0 clear",
        "unplug": "unplug 0.4",
        "silence": "noise drop=1|later 1.2 noise",
        "restart": "restart 0.3",
        "no-answer": "ignore {command} 2",
        "bad-card": "badcard",
        "bad-reply": "badreply",
        "duplicate": "duplicate|later 1.0 clear",
        "miscount": "miscount 51|later 1.0 clear",
    },
}
ROUNDS = {"shoe": 4, "shuffler": 2}
CUT_FROM_END = 410
"""The shoe's cut card six cards in (of Top Card's eight decks): the third round brings it out, the fourth reshuffles."""
UNKNOWN_CARDS = ("may be in the tray", "not understood", "more often than the deck holds", "no longer has events",
                 "could not be read: the supervisor identifies it", "the deck of this round is gone")
"""Holds after which the supervisor voids the round: a card is out whose identity the table does not know."""
PYTHON_WORDS = ("Errno", "fileno", "NoneType", "has no attribute", "argument must be", "Traceback", "Exception")
"""Words of Python's own errors, which no dealer should read (issue 48, case 7)."""
SEED = 11
WITNESS = "witness-"
"""The prefix of a reading of the witness device (``tests/witness``) rather than of tablectl's simulator."""
TIMING = "heartbeat = 0.1\nreply_timeout = 2.0"
"""Quicker than the defaults (docs/protocol.md 9.1) so a silent device costs seconds, not a minute, per scenario."""
WORKERS = 6
"""Scenarios played at once: each mostly waits for its device, so they share the cores well."""


@dataclass(frozen=True)
class Scenario:
    device: str
    fault: str
    moment: str
    reading: str

    @property
    def id(self) -> str:
        return f"{self.device}-{self.fault}-{self.moment}-{self.reading}"


@dataclass
class Outcome:
    """What one scenario did, counted."""

    scenario: Scenario
    sent: int = 0
    journaled: int = 0
    unreadable: int = 0
    unknown: int = 0
    forgotten: int = 0
    lost: int = 0
    duplicated: int = 0
    tracebacks: list[str] = field(default_factory=list)
    rounds: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.tracebacks or self.problems)


def scenarios(device: str, *, every_reading: bool = False, witness: bool = False) -> list[Scenario]:
    """Every fault at every moment; each in one reading (taken in turn, so every reading is played), or in all.

    ``witness``: on the device written from docs/protocol.md alone (``tests/witness``), in its readings, instead of
    tablectl's simulator."""
    names = [f"{WITNESS}{name}" for name in WITNESS_READINGS[device]] if witness else sorted(readings(device))
    out = []
    for i, (fault, moment) in enumerate((f, mo) for f in FAULTS[device] for mo in MOMENTS[device]):
        for name in names if every_reading else [names[i % len(names)]]:
            out.append(Scenario(device, fault, moment, name))
    return out


# ---- one scenario ----------------------------------------------------------------------


def _actions(s: Scenario) -> list[str]:
    command = {"shuffling": "shuffle", "mid-stack": "dispense"}.get(s.moment, "deal" if s.device == "shoe" else "dispense")
    return FAULTS[s.device][s.fault].format(command=command).split("|")


def _triggered(s: Scenario, decks: int) -> list[str]:
    """The ``on`` triggers that make the fault at its moment (start-up and idle are injected by hand)."""
    at = {
        ("shoe", "shuffling"): "shuffle 1",
        ("shoe", "dealing"): "card 2",
        ("shoe", "reshuffle"): "shuffle 2",
        ("shuffler", "shuffling"): "shuffle 1",
        ("shuffler", "mid-stack"): "dispense 2",
        ("shuffler", "reshuffle"): f"shuffle {3 if decks == 2 else 2}",
    }.get((s.device, s.moment))
    if at is None:
        return []
    return [f"on {at} {action}" for action in _actions(s)]


@contextlib.contextmanager
def _device(s: Scenario) -> Iterator[SimDevice | MatrixWitness]:
    if s.reading.startswith(WITNESS):
        args = ["--seed", str(SEED)] + (["--decks", "8", "--cut-from-end", str(CUT_FROM_END)] if s.device == "shoe" else [])
        with Witness(s.device, s.reading.removeprefix(WITNESS), args=args) as witness:
            yield MatrixWitness(witness)
        return
    behaviour = reading(s.device, s.reading)
    endpoint = PtyEndpoint()
    sim: SimDevice
    if s.device == "shoe":
        sim = ShoeSim(endpoint, decks=8, seed=SEED, cut_from_end=CUT_FROM_END, behaviour=behaviour)
    else:
        sim = ShufflerSim(endpoint, seed=SEED, behaviour=behaviour)
    sim.start()
    try:
        yield sim
    finally:
        sim.stop()
        endpoint.close()


def _config(s: Scenario, port: str, tmp: Path) -> Path:
    if s.device == "shoe":
        text = TEMPLATES["shoe"]
        text = text.replace('driver = "reference"', f'driver = "reference"\nport = "{port}"\n{TIMING}')
        text = text.replace("cut_from_end = 52", f"cut_from_end = {CUT_FROM_END}")
        text = text.replace("crosscheck = true", "crosscheck = false")
    else:
        text = TEMPLATES["shuffler"]
        text = text.replace('driver = "simulated"', f'driver = "reference"\nport = "{port}"\n{TIMING}')
    path = tmp / f"{s.id}.toml"
    path.write_text(text)
    return path


class FaultAfterWagers(SimulatedPlayers):
    """Players who place their wagers, after which (once) the device develops the fault: the 'dealing' moment."""

    def __init__(self, rng: random.Random, inject: list[str], sim: SimDevice | MatrixWitness) -> None:
        super().__init__(rng)
        self.inject, self.sim = inject, sim

    def wagers(self, round: Round) -> list[PlaceWager | Sit]:
        commands = super().wagers(round)
        while self.inject:
            self.sim.control(self.inject.pop(0))
        return commands


def play(s: Scenario, tmp: Path) -> Outcome:
    """Run one scenario (see module doc) and count what it did; nothing it raises escapes."""
    outcome = Outcome(s)
    try:
        _play(s, tmp, outcome)
    except Exception:  # noqa: BLE001 - a scenario that could not even start is a failure, reported as such
        outcome.tracebacks.append(traceback.format_exc())
    return outcome


def _play(s: Scenario, tmp: Path, outcome: Outcome) -> None:
    with _device(s) as sim:
        decks = len(getattr(sim, "decks", [None]))
        for trigger in _triggered(s, decks):
            sim.control(trigger)
        if s.moment == "start-up":
            for action in _actions(s):
                sim.control(action if not action.startswith("ignore") else action.replace("ignore deal", "ignore shuffle"))
            time.sleep(0.1)
        config = load_config(_config(s, sim.url, tmp))
        log = MemoryLog(config.table_id)
        late = _actions(s) if (s.device, s.moment) == ("shuffler", "dealing") else []
        players = FaultAfterWagers(random.Random(SEED), late, sim)
        feed: CardFeed | None = None
        try:
            feed = open_feed(config, log, seed=SEED)
            table = Table(config, feed, log, session="M", recovery_timeout=8.0)
            _rounds(s, sim, table, feed, players, outcome)
        except Exception:  # noqa: BLE001 - anything escaping the table is what this test exists to find
            outcome.tracebacks.append(traceback.format_exc())
        finally:
            if feed is not None:
                try:
                    feed.close()
                except Exception:  # noqa: BLE001 - a traceback on closing is one too
                    outcome.tracebacks.append(traceback.format_exc())
        time.sleep(0.05)
        _count(s, sim, log, outcome)


def _rounds(s: Scenario, sim: SimDevice | MatrixWitness, table: Table, feed: CardFeed, players: SimulatedPlayers, out: Outcome) -> None:
    interventions = 0
    for number in range(ROUNDS[s.device]):
        if number == 1 and s.moment == "idle":
            for action in _actions(s):
                sim.control(action)
            time.sleep(0.2)
        round = play_round(table, players)
        while round.state == "hold" and interventions < 4:
            interventions += 1
            reason = round.hold_reason or ""
            if s.device not in reason:
                out.problems.append(f"round {round.id} held without naming the {s.device}: {reason!r}")
            if f"{s.device}: {s.device}:" in reason:  # the feed's words and the table's prefix both naming it
                out.problems.append(f"round {round.id} held naming the {s.device} twice: {reason!r}")
            if any(words in reason for words in PYTHON_WORDS):
                out.problems.append(f"round {round.id} held in Python's words, not the dealer's: {reason!r}")
            round = _supervise(sim, table, feed, players, round)
        out.rounds.append(f"{round.state}: {round.hold_reason}" if round.state == "hold" else round.state)
        if round.state == "hold":
            break


def _supervise(sim: SimDevice | MatrixWitness, table: Table, feed: CardFeed, players: SimulatedPlayers, round: Round) -> Round:
    """The supervisor: clear the machine, then enter the card it could not read (resume), resume, or void."""
    sim.control("clear")
    sim.control("noise")
    sim.control("ignore off")
    time.sleep(0.3)
    reason = round.hold_reason or ""
    if "could not be read: the supervisor identifies it" in reason and sim.unread:
        holds.resume(round, by="supervisor", feed=feed, card=sim.unread.pop(0))
    elif any(words in reason for words in UNKNOWN_CARDS):
        holds.void(round, by="supervisor", reason=f"void after: {reason}", feed=feed)
    else:
        holds.resume(round, by="supervisor", feed=feed)
    return play_round(table, players, round)


def _count(s: Scenario, sim: SimDevice | MatrixWitness, log: MemoryLog, out: Outcome) -> None:
    """Cards out of the device against cards the journal records from it."""
    garbled = Counter(c.code for c in sim.garbled)  # sent with a code that is not a card: unreadable to the host
    sent = Counter(c.code for how, c in sim.out if c is not None) - garbled
    out.unreadable = sum(1 for how, c in sim.out if c is None) + sum(garbled.values())
    journaled, unreadable, unknown = _journaled(s.device, log.records())
    out.sent = sum(sent.values())
    out.journaled = sum(journaled.values())
    lost = sum((sent - journaled).values())
    out.unknown = min(unknown, lost)  # cards of a stack whose answer never came: the hold says so (9.5)
    out.forgotten = min(_forgotten(sim, log, sent - journaled), lost - out.unknown)
    out.lost = lost - out.unknown - out.forgotten
    out.duplicated = sum((journaled - sent).values())
    if unreadable < out.unreadable and s.device == "shoe":
        out.problems.append(f"{out.unreadable} unreadable card(s) out of the shoe, {unreadable} journaled as such")
    if s.device == "shuffler":
        dealt = Counter(r["card"] for r in log.records() if r["event"] in (ev.CardDealt.EVENT, ev.CardBurned.EVENT)
                        and r.get("source") == "shuffler")
        over = dealt - journaled
        if over:
            out.problems.append(f"cards dealt that no stack brought: {dict(over)}")


def _forgotten(sim: SimDevice | MatrixWitness, log: MemoryLog, missing: Counter[str]) -> int:
    """Cards of ``missing`` whose events no host could have had: the simulator's power cycle wiped them from its
    event log before it wrote them to its port (``SimDevice.wiped``), and the journal records the restart
    (``device-restarted``, 8.4).

    A restart loses the device's volatile log (7.1, 8.4), so a card let out just before it (a shoe's own burn
    right after its shuffle, say) is reported to no one; the host's part is to notice the restart. A card whose
    event was written to the port, or still in the log, stays lost if it is not journaled. The witness device
    does not say what its restarts wiped: none of its cards is excused."""
    restarted = any(r.get("code") == "device-restarted" for r in log.records())
    if not restarted or not isinstance(sim, SimDevice):
        return 0
    return sum((missing & Counter(c.code for _, c in sim.wiped if c is not None)).values())


def play_all(todo: list[Scenario], tmp: Path, workers: int = WORKERS,
             done: Callable[[Outcome], None] = lambda outcome: None) -> list[Outcome]:
    """Every scenario of ``todo``, ``workers`` at a time, in the order given."""
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="matrix") as pool:
        futures = [pool.submit(play, s, tmp) for s in todo]
        outcomes = []
        for future in futures:
            outcomes.append(future.result())
            done(outcomes[-1])
    return outcomes


def _journaled(device: str, records: list[dict[str, Any]]) -> tuple[Counter[str], int, int]:
    """The cards the journal records from the device; how many it records as unreadable; how many cards of stacks
    whose answer never came (9.5) it records as asked for."""
    journaled: Counter[str] = Counter()
    unreadable = unknown = 0
    for r in records:
        event = r["event"]
        if event == ev.CardUnreadable.EVENT:
            unreadable += 1
        elif device == "shoe" and (
            (event in (ev.CardDealt.EVENT, ev.CardBurned.EVENT, ev.CardFaulted.EVENT) and r.get("source") == "shoe")
            or event == ev.ShoeCardBurned.EVENT
            or (event == ev.CardUnplaced.EVENT and r["card"] != "--")  # an unplaced unreadable one is card_unreadable
        ):
            journaled[r["card"]] += 1
        elif device == "shuffler" and event in (ev.StackDispensed.EVENT, ev.StackUnknown.EVENT):
            # the stack is what the shuffler sends; the round takes its cards one by one
            journaled.update(c for c in r["cards"] if c != "--")
            unknown += r["asked"] if event == ev.StackUnknown.EVENT and not r["cards"] else 0
    return journaled, unreadable, unknown


def table_of(outcomes: list[Outcome]) -> str:
    lines = [f"{'scenario':<52} {'sent':>5} {'journ':>5} {'unread':>6} {'unkn':>4} {'forgot':>6} {'lost':>4} {'dup':>4} {'tb':>3}  rounds"]
    for o in outcomes:
        lines.append(f"{o.scenario.id:<52} {o.sent:>5} {o.journaled:>5} {o.unreadable:>6} {o.unknown:>4} {o.forgotten:>6} {o.lost:>4} "
                     f"{o.duplicated:>4} {len(o.tracebacks):>3}  {', '.join(o.rounds)}"
                     + (f"  PROBLEMS: {o.problems}" if o.problems else ""))
    lines.append(totals(outcomes))
    return "\n".join(lines)


def totals(outcomes: list[Outcome]) -> str:
    return (f"{len(outcomes)} scenarios: {sum(o.sent for o in outcomes)} cards sent by the devices, "
            f"{sum(o.journaled for o in outcomes)} journaled, {sum(o.unreadable for o in outcomes)} made unreadable "
            f"(journaled as such), {sum(o.unknown for o in outcomes)} in stacks whose answer never came (journaled as "
            f"such, 9.5), {sum(o.forgotten for o in outcomes)} wiped by a restart before reaching the host (8.4), "
            f"{sum(o.lost for o in outcomes)} lost, {sum(o.duplicated for o in outcomes)} "
            f"duplicated, {sum(len(o.tracebacks) for o in outcomes)} tracebacks, "
            f"{sum(1 for o in outcomes if not o.ok)} scenarios with a problem")


def main(argv: list[str]) -> int:
    import tempfile

    every, witness = "--every-reading" in argv, "--witness" in argv
    devices = [a for a in argv if a in MOMENTS] or list(MOMENTS)
    todo = [s for device in devices for s in scenarios(device, every_reading=every, witness=witness)]
    with tempfile.TemporaryDirectory() as tmp:
        outcomes = play_all(todo, Path(tmp), done=lambda o: print(table_of([o]).splitlines()[1], flush=True))
    print(table_of(outcomes))
    for o in outcomes:
        for tb in o.tracebacks:
            print(f"--- {o.scenario.id}\n{tb}")
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
