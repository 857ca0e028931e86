"""``tablectl run``: a simulated session balances to the cent, per round and in total."""

import contextlib
import random
import re

from hypothesis import given, settings, strategies as st

from controller.commands.cli import main
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.session import shoe_simulator
from controller.engine.table import Table
from controller.events import CardBurned, CardDealt, WagerSettled
from tests.helpers import MemoryLog, check_session_balances, init_table, play_round


def test_a_thousand_rounds_balance_to_the_cent(tmp_path, capsys) -> None:
    log_file = tmp_path / "events.jsonl"
    assert main(["run", "--rounds", "1000", "--seed", "7", "--log", str(log_file), "--no-journal", "--no-camera"]) == 0
    check_session_balances(capsys.readouterr().out, log_file, 1000)


def test_the_same_seed_plays_the_same_session(tmp_path, capsys) -> None:
    outputs = []
    for name in ("a", "b"):
        init_table(str(tmp_path / f"{name}.sqlite"), str(tmp_path / f"{name}.jsonl"))
        main(["run", "--rounds", "30", "--seed", "11", "--log", str(tmp_path / f"{name}.jsonl"),
              "--journal", str(tmp_path / f"{name}.sqlite"), "--no-camera"])
        outputs.append(re.sub(r"-\d{8}T\d{6}-", "-", capsys.readouterr().out).split("\n", 1)[1])
    assert outputs[0] == outputs[1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 40))
def test_money_is_conserved_over_random_rounds(seed: int, rounds: int) -> None:
    config = load_config()
    log = MemoryLog(config.table_id)
    with contextlib.ExitStack() as stack:  # the default shoe: the reference simulator on a pty
        feed = open_feed(config, log, seed=seed, shoe_port=shoe_simulator(config, seed, stack))
        stack.callback(feed.shoe.close)  # type: ignore[attr-defined]
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(seed))
        for _ in range(rounds):
            round = play_round(table, players)
            assert round.state == "complete"
            assert sum(s.stake for s in round.settlements) == sum(round.wagers.values())
            assert round.totals()["house_win"] == sum(s.house_win for s in round.settlements)
    meter = table.meters.total
    settled = log.named(WagerSettled.EVENT)
    assert meter.wagered == sum(r["stake"] for r in settled)
    assert meter.paid == sum(r["returned"] for r in settled)
    assert meter.wagered - meter.paid == meter.house_win
    cards_dealt = [r for r in log.records() if r["event"] in (CardDealt.EVENT, CardBurned.EVENT)]
    assert len([c for c in cards_dealt if c["event"] == CardDealt.EVENT]) == 2 * rounds
