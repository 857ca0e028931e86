"""A real table's round claims the linked jackpot end to end: journal, outbox process, JetStream, controller, award.

Every part is the real one: the round writes its SQLite journal, the table's
outbox (``python -m controller.floor.outbox``) publishes it to a three-node
JetStream cluster, the floor's jackpot controller verifies the claim against
the table's published cards and answers in its bucket, and the table's side
(``JackpotClient.source``) hands the award to the held round, which settles.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller import events as ev
from controller.cards import parse_cards
from controller.engine import jackpot
from controller.engine.config_schema import Floor
from controller.engine.floor_link import OutboxProcess
from controller.engine.log import EventLog
from controller.engine.recovery import recover
from controller.engine.round import Limits, Round
from controller.floor.config import parse_floor_config
from controller.floor.jackpot import JackpotClient, JackpotController, claim_key
from controller.floor.localservers import NatsCluster
from controller.records.journal import Journal
from controller.rules.base import Decision
from controller.rules.registry import make_game

SITE = "jp"
TABLE = "HCF-01"
SEVEN, SIX, DEALER = "AH 2H 3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S 7S 9D", "KD QD JD 8C 9C TC 2C"
WAGERS = {(1, "ante"): 500, (1, "progressive"): 100, (2, "ante"): 500, (2, "progressive"): 100}
RESET = 1_000_000


@contextmanager
def jackpot_controller(cluster: NatsCluster, database: str) -> Iterator[JackpotController]:
    config = parse_floor_config({
        "floor": {"site": SITE}, "broker": {"servers": cluster.urls}, "database": {"dsn": database},
        "jackpots": {"hcf": {"tables": [TABLE], "reset": RESET, "rate": "0.15"}},
    }, "floor.toml")
    controller = JackpotController(config, "hcf")
    # a Runner, not a bare loop: closing it cancels and awaits what the NATS client left (a subscription's task from a
    # reconnect under way when the controller stopped), which a bare loop.close() leaves for the collector to report
    # in whatever test runs next on this worker
    runner = asyncio.Runner()
    loop = runner.get_loop()
    thread = threading.Thread(target=runner.run, args=(controller.run(),), daemon=True)
    thread.start()
    try:
        yield controller
    finally:
        loop.call_soon_threadsafe(controller.stop.set)
        thread.join(30)
        assert not thread.is_alive(), "the jackpot controller did not stop within 30 s"
        runner.close()


@contextmanager
def table(path: Path, cluster: NatsCluster) -> Iterator[tuple[Journal, EventLog]]:
    """The table's journal and log, with its outbox publishing to the floor as ``[floor]`` makes it."""
    journal = Journal(path, table_id=TABLE) if path.exists() else Journal.create(path, table_id=TABLE)  # as journal init makes it
    outbox = OutboxProcess(path, TABLE, Floor(site=SITE, servers=cluster.urls, jackpot="hcf"))
    outbox.start()
    try:
        yield journal, EventLog(TABLE, journal=journal)
    finally:
        outbox.stop()
        journal.close()


def play_to_the_claim(log: EventLog) -> Round:
    round = Round("HCF-01-R1", make_game("high-card-flush", {"linked_jackpot": "hcf"}), log, spots=6,
                  limits=Limits(dict.fromkeys(("ante", "flush_bonus", "straight_flush_bonus", "progressive"), (1, 100_000))))
    round.start()
    for (spot, wager), amount in WAGERS.items():
        round.place_wager(spot, wager, amount)
    round.close_betting()
    for card in parse_cards(f"{SEVEN} {SIX} {DEALER}"):
        round.card(card, "shuffler")
    round.decide(Decision(1, "raise", 1500))
    round.decide(Decision(2, "raise", 1500))
    return round


def wait_for_awards(round: Round, cluster: NatsCluster, timeout: float = 60.0) -> None:
    """What the table's loop does while the round holds: the watcher asks the floor, the loop hands in what it found."""
    watcher = jackpot.AwardWatcher(JackpotClient(cluster.urls, SITE, "hcf").source(TABLE), interval=0.2)
    try:
        watcher.want(round)
        end = time.monotonic() + timeout
        while jackpot.pending(round) and time.monotonic() < end:
            watcher.take(round)
            time.sleep(0.2)
    finally:
        watcher.close()


def progressive_returns(journal: Journal) -> dict[int, int]:
    return {r.spot: r.returned for r in journal.records() if isinstance(r, ev.WagerSettled) and r.wager == "progressive"}


def award_rows(database: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(database) as conn:
        return conn.execute("SELECT claim, verified, amount FROM jackpot_awards WHERE name = 'hcf' ORDER BY stream_seq").fetchall()


def test_a_linked_hit_at_a_real_table_is_verified_by_the_floor_and_paid_the_meter_exactly(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    with jackpot_controller(cluster, database), table(tmp_path / "hcf.sqlite", cluster) as (journal, log):
        round = play_to_the_claim(log)
        assert round.state == "hold"
        wait_for_awards(round, cluster)
        assert round.state == "complete", round.hold_reason
        returns = progressive_returns(journal)
    # the claims reach the floor in the order journaled: spot 1's seven-card straight flush takes the whole meter
    # (which goes back to its reset amount), then spot 2's six-card one 10 % of that; this round's own
    # contributions reach the meter with its settlement, after both
    assert returns == {1: 100 + RESET, 2: 100 + RESET // 10}
    rows = award_rows(database)
    assert [(claim, verified, Fraction(amount)) for claim, verified, amount in rows] == [
        (claim_key(TABLE, "HCF-01-R1", 1), True, Fraction(RESET)), (claim_key(TABLE, "HCF-01-R1", 2), True, Fraction(RESET, 10))]


def test_a_table_that_loses_the_floor_during_the_round_holds_the_claim_across_a_restart_and_is_paid_once(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    path = tmp_path / "hcf.sqlite"
    with jackpot_controller(cluster, database):
        with table(path, cluster) as (journal, log):
            cluster.stop()                      # the floor goes away before the hit
            round = play_to_the_claim(log)
            wait_for_awards(round, cluster, timeout=3)
            assert round.state == "hold" and [c.spot for c in jackpot.pending(round)] == [1, 2]
        cluster.start()                         # the table was stopped meanwhile; the floor is back
        with table(path, cluster) as (journal, log):
            recovered = recover(journal, log, make_game("high-card-flush", {"linked_jackpot": "hcf"}), Limits({}))
            assert [(r.action, r.round_id) for r in recovered] == [("held", "HCF-01-R1")]
            round = recovered[0].round
            assert round is not None
            wait_for_awards(round, cluster)
            assert round.state == "complete", round.hold_reason
            events = [r.EVENT for r in journal.records()]
            returns = progressive_returns(journal)
    assert events.count(ev.JackpotClaimed.EVENT) == 2 and events.count(ev.JackpotAwarded.EVENT) == 2
    assert returns == {1: 100 + RESET, 2: 100 + RESET // 10}
    assert len(award_rows(database)) == 2


def test_tablectl_run_at_a_linked_table_claims_waits_for_and_settles_each_hit_with_the_floors_award(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from controller.commands.cli import main

    config = tmp_path / "hcf.toml"
    shipped = Path("config/high-card-flush.toml").read_text().replace('driver = "simulated"', 'driver = "simulated"\nshuffle = "factory"')
    # every deck in factory order: the first seated spot is dealt 2S to 8S, a seven-card straight flush, every round
    config.write_text(shipped + f'\n[shuffle]\nenabled = false\n\n[floor]\nsite = "{SITE}"\nservers = {json.dumps(cluster.urls)}\n'
                      'jackpot = "hcf"\n')
    journal = tmp_path / "hcf.sqlite"
    assert main(["journal", "init", "--config", str(config), "--journal", str(journal), "--log", str(tmp_path / "hcf.jsonl")]) == 0
    with jackpot_controller(cluster, database):
        assert main(["run", "--config", str(config), "--rounds", "6", "--seed", "5", "--journal", str(journal),
                     "--log", str(tmp_path / "hcf.jsonl"), "--no-camera"]) == 0
    # the dealer is told why the run pauses before it waits for the floor's award, not after
    assert re.search(r"round HCF-\S+: jackpot hcf: ", capsys.readouterr().out)
    with Journal(journal, table_id=TABLE, readonly=True) as records:
        events = records.records()
    claimed = [r for r in events if isinstance(r, ev.JackpotClaimed)]
    awarded = {(r.round, r.spot): r for r in events if isinstance(r, ev.JackpotAwarded)}
    settled = {(r.round, r.spot): r for r in events if isinstance(r, ev.WagerSettled) and r.wager == "progressive"}
    assert claimed, "no round put a Progressive on the spot dealt the straight flush: pick another seed"
    for claim in claimed:
        award = awarded[(claim.round, claim.spot)]
        assert award.verified and award.amount is not None, award
        paid = settled[(claim.round, claim.spot)]
        assert paid.exact_returned == paid.stake + Fraction(award.amount)
    rows = award_rows(database)
    assert sorted(Fraction(amount) for _, _, amount in rows) == sorted(Fraction(a.amount or 0) for a in awarded.values())
