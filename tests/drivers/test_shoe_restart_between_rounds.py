"""A jammed shoe power-cycled between rounds (docs/protocol.md 8.4): nothing is at stake, so play goes on.

Seen by a user: the shoe restarted while `tablectl run` was opening the next round (its Shuffle after the cut card
went unanswered, the link lost, the shoe back with a new boot value); `ShoeFeed.wait_recovered` gave up at the
restart and the round, no card of it out, was left on hold for a supervisor. Between rounds a restart only means a
new shoe: it is journaled (`shoe_fault` and `shoe_recovered`, code `device-restarted`), a new shoe is shuffled and
the round deals on. Mid-round the restart still holds the round for the supervisor. The shoe simulator over a real
pty, a real `tablectl run` subprocess.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.engine.config import DEFAULT_CONFIG
from controller.events import RoundHeld, ShoeFaulted, ShoeRecovered, ShoeShuffled
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess
from tests.helpers import init_table

ROOT = Path(__file__).resolve().parents[2]


def run_with_shoe(tmp_path: Path, script: str, rounds: int) -> subprocess.CompletedProcess[str]:
    """`tablectl run` of ``rounds`` rounds on the shoe simulator running ``script`` (its cut card 16 cards in, so the
    second shuffle falls between rounds early)."""
    (tmp_path / "shoe.txt").write_text(script)
    with SimulatorProcess("shoe", "--seed", "3", "--cut", "400", "--script", str(tmp_path / "shoe.txt")) as sim:
        config = tmp_path / "table.toml"
        config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', f'driver = "reference"\nport = "{sim.port}"'))
        init_table(tmp_path / "j.sqlite", tmp_path / "ev.jsonl", config)
        return subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config), "--rounds",
                               str(rounds), "--seed", "1", "--no-camera", "--journal", str(tmp_path / "j.sqlite"), "--log",
                               str(tmp_path / "ev.jsonl")], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_a_shoe_restarted_at_the_shuffle_between_rounds_is_shuffled_again_and_play_goes_on(tmp_path: Path) -> None:
    done = run_with_shoe(tmp_path, "on shuffle 2 restart 2\n", 12)

    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    with Journal(tmp_path / "j.sqlite", table_id="TC-01", readonly=True, anchored=False) as journal:
        assert journal.rounds_started() == 12 and {r.state for r in journal.rounds(12)} == {"complete"}
        faulted = [e for e in journal.records_of(ShoeFaulted) if isinstance(e, ShoeFaulted)]
        recovered = [e for e in journal.records_of(ShoeRecovered) if isinstance(e, ShoeRecovered)]
        shuffles = journal.records_of(ShoeShuffled)
    assert "device-restarted" in [e.code for e in faulted]  # journaled, as any restart
    assert "device-restarted" in [e.code for e in recovered]  # and over once a new shoe is shuffled
    assert len(shuffles) == 2  # the first shoe, then the new shoe after the restart (the Shuffle it cut short never took)


def test_a_shoe_restarted_mid_round_still_holds_the_round_for_the_supervisor(tmp_path: Path) -> None:
    done = run_with_shoe(tmp_path, "on card 5 restart 2\n", 3)  # card 1 the burn, 2-3 round 1's, 4-5 round 2's

    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "tablectl hold resume" in done.stderr
    with Journal(tmp_path / "j.sqlite", table_id="TC-01", readonly=True, anchored=False) as journal:
        held = [e for e in journal.records_of(RoundHeld) if isinstance(e, RoundHeld)]
        restarts = [e for e in journal.records_of(ShoeFaulted) if isinstance(e, ShoeFaulted) and e.code == "device-restarted"]
        states = [r.state for r in journal.rounds()]
    assert held and held[-1].round is not None and held[-1].round.endswith("000002")
    assert [r.round for r in restarts] == [held[-1].round] and states == ["complete", "hold"]  # the run stops there
