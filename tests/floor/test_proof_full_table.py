"""The floor's proof (controller/floor/proof.py) finishes a full ``tablectl run`` table whose last run, when play
stopped, stopped at a round held for a linked jackpot claim, as an operator would: it runs the table again
(``FullTable.finish``: ``--rounds 1``, at most twice), the recovered round waits for the floor's award and settles,
and the proof's catch-up no longer waits for the claim. Before, nothing ran the table again and the proof failed
``catch_up_s`` later naming the claim; the proof met it only when a fault delayed an award past a run's end.

Forced here rather than waited for: the table's shuffler deals every deck in factory order (the first seated
spot is dealt a seven-card straight flush every round) and the floor service is not running while it plays, so its
first claim is never answered and the run stops at the round (after ``jackpot.AWARD_WAIT``). The floor service is
started once play stopped. A real three-node JetStream cluster, PostgreSQL and the floor service process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from controller import events as ev
from controller.floor.localservers import NatsCluster
from controller.floor.proof import (
    HELD,
    JACKPOT,
    FloorProcess,
    FullTable,
    _catch_up,
    _held_claims,
    _outstanding,
    _republish,
    floor_config,
)
from controller.records.journal import Journal
from tests.helpers import init_table


def wait_until(check: Callable[[], object], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.5)


def test_a_full_table_stopped_at_a_round_held_for_its_jackpot_claim_is_run_again_until_the_award_settles_it(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    table = FullTable("F01", "high-card-flush", folder, cluster.urls, jackpot=JACKPOT, seed=1)
    # every deck in factory order: the first seated spot is dealt 2S to 8S, a seven-card straight flush, every round
    table.config.write_text(table.config.read_text().replace('driver = "simulated"', 'driver = "simulated"\nshuffle = "factory"')
                            + "\n[shuffle]\nenabled = false\n")
    table.start()
    try:
        wait_until(lambda: table.journal.exists() and _held_claims(table.journal), timeout=180)
    finally:
        table.stop()  # the run in flight waits for an award no floor gives, and stops at the round
    held = _held_claims(table.journal)
    assert (table.runs, table.last_exit, table.failures) == (1, HELD, [])

    floor = FloorProcess(floor_config(tmp_path, cluster.urls, database, [table.table_id]), tmp_path / "floor.log")
    floor.start()
    try:
        waiting = _outstanding([table.journal], [table.journal], database)
        assert waiting and waiting[0].startswith(f"the floor's award for {len(held)} jackpot claims"), waiting
        said: list[str] = []
        table.finish(said.append)
        assert said == [f"  F01: its last run stopped at a round held for {', '.join(held)}: run once more to settle it"]
        assert (table.runs, table.finishing, table.last_exit, table.failures) == (2, 1, 0, [])
        assert not _held_claims(table.journal)
        _republish([table])
        _, waiting = _catch_up([table.journal], [table.journal], database, timeout=120, say=lambda line: None)
        assert waiting == []
    finally:
        floor.stop()

    with Journal(table.journal, table_id="F01", readonly=True) as journal:
        records = journal.records()
    claimed = [r for r in records if isinstance(r, ev.JackpotClaimed)]
    awarded = {(r.round, r.spot): r for r in records if isinstance(r, ev.JackpotAwarded)}
    settled = {(r.round, r.spot): r for r in records if isinstance(r, ev.WagerSettled) and r.wager == "progressive"}
    assert [f"F01 {c.round} spot {c.spot}" for c in claimed] == held
    for claim in claimed:  # paid once, what the floor awarded
        award = awarded[(claim.round, claim.spot)]
        assert award.verified and award.amount is not None, award
        paid = settled[(claim.round, claim.spot)]
        assert paid.exact_returned == paid.stake + Fraction(award.amount)
    assert len([r for r in records if isinstance(r, ev.RoundCompleted)]) == len({c.round for c in claimed})


def test_a_full_table_whose_last_run_ended_with_nothing_held_is_not_run_again(tmp_path: Path) -> None:
    """Only a round held for a jackpot claim is finished: a run that ended cleanly, or held for something else
    (a device drill), is left as it is."""
    table = FullTable("F01", "top-card", tmp_path, ["nats://127.0.0.1:1"], jackpot=None, seed=1)
    init_table(table.journal, table.log, table.config)
    for last in (None, 0, HELD):
        table.last_exit = last
        table.finish(lambda line: None)
        assert (table.runs, table.finishing) == (0, 0)
