"""No card waits for the shuffle tests' kernels to compile: they compile in the background from the table's opening,
the cards dealt meanwhile are kept and tested once they are ready, and nothing settles on untested cards."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from controller import events as ev
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.shuffle import forward, kernels, warm
from controller.engine.table import Table
from tests.helpers import MemoryLog, play_round

ROOT = Path(__file__).resolve().parents[2]

COLD_TABLE = """
import dataclasses, json, random, threading
from numba.core import event
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.shuffle import warm
from controller.engine.table import Table
from controller.events import CardBurned, CardDealt, ShuffleAlarm
from tests.helpers import MemoryLog, play_round

config = load_config("config/top-card.toml")  # an 8-deck shoe: a burn and two cards a round
config = dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated", "shuffle": "factory"},
                             sections={k: v for k, v in config.sections.items() if k != "vision"})
compiled_in = []  # the thread of every numba compile


class Compiles(event.Listener):
    def on_start(self, e):
        compiled_in.append(threading.current_thread().name)

    def on_end(self, e):
        pass


event.register("numba:compile", Compiles())
log = MemoryLog(config.table_id)
ready_when_dealt = []
log.subscribe(lambda e: ready_when_dealt.append(warm.ready()) if isinstance(e, CardBurned | CardDealt) else None)
table = Table(config, open_feed(config, log, seed=5), log, session="S")
watch = table.feed.watch
players = SimulatedPlayers(random.Random(5))
rounds = []
for _ in range(4):
    round = play_round(table, players)
    rounds.append({"state": round.state, "paid": len(round.settlements), "untested": watch.monitor.untested(),
                   "dealt": len(watch.monitor.dealt), "checked": dict(watch.monitor._checked)})
    if round.state == "hold":
        break
print(json.dumps({"ready_when_dealt": ready_when_dealt, "rounds": rounds, "compiled_in": sorted(set(compiled_in)),
                  "alarms": [a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold"]}))
"""


def test_the_first_card_is_dealt_before_the_kernels_compile_and_every_card_is_still_tested(tmp_path: Path) -> None:
    """A fresh install (an empty numba cache) with a factory-order shoe: the round's first cards are dealt while the
    kernels compile, then tested before the round settles; the shoe is held before anything pays, by the 7th card."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run([sys.executable, "-c", COLD_TABLE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["compiled_in"] == ["shuffle-kernels-warm-up"], "the table's own thread compiled (a card waited)"
    # the burn and the first card are journaled as dealt while the kernels compile; the round's last card is
    # journaled with its reveal, which waits (before anything settles) for the cards to be tested
    assert out["ready_when_dealt"][:2] == [False, False], "the first cards were not dealt while compiling"
    first = out["rounds"][0]
    assert first["untested"] == 0 and set(first["checked"].values()) == {first["dealt"]}, "a card left untested"
    last = out["rounds"][-1]
    assert last["state"] == "hold" and last["paid"] == 0
    assert out["alarms"] and out["alarms"][0]["shoe"] == 1 and out["alarms"][0]["card"] <= 7
    assert any((tmp_path / "numba").rglob("*.nbi")), "the kernels were not cached for the next start"


def _signatures() -> dict[str, int]:
    """Compiled signatures of each kernel the monitor calls (the ``_`` helpers are compiled into their callers)."""
    return {f"{module.__name__}.{name}": len(f.signatures) for module in (kernels, forward)
            for name, f in vars(module).items() if hasattr(f, "signatures") and not name.startswith("_")}


def test_the_warm_up_compiles_every_signature_a_table_calls() -> None:
    """After ``warm``, a shoe and a shuffler dealing (and ending shoes) compile nothing more: the warm-up covers
    every kernel with the argument types the table gives it, so ``tablectl shuffle warm`` leaves nothing to compile."""
    warm.warm()
    before = _signatures()
    assert all(before.values()), [name for name, n in before.items() if not n]
    for path, device in (("config/top-card.toml", "shoe"), ("config/three-card-poker.toml", "shuffler")):
        config = load_config(path)
        config = dataclasses.replace(config, **{device: {**getattr(config, device), "driver": "simulated"}},
                                     sections={k: v for k, v in config.sections.items() if k != "vision"})
        log = MemoryLog(config.table_id)
        table = Table(config, open_feed(config, log, seed=3), log, session="S")
        players = SimulatedPlayers(random.Random(3))
        for _ in range(30):
            play_round(table, players)
        table.feed.close()
        assert log.named(ev.ShuffleTested.EVENT)
    assert _signatures() == before


def test_tablectl_shuffle_warm_loads_every_kernel_a_table_calls() -> None:
    """The service's ``ExecStartPre``, in a process of its own that has imported nothing else: it once ran no kernel at
    all (the monitor, which says what to run, was never imported), said "ready in 0.0 s" and left the first table to
    compile for a minute or two while its console waited. The session's own warm-up has filled the cache, so here
    it loads them."""
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "shuffle", "warm"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    warm.warm()
    assert f": {warm.kernels_ready()} kernels (numba cache: " in done.stdout, done.stdout
    assert warm.kernels_ready() == len(_signatures())
