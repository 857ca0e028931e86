"""The round's side of a jackpot linked across tables: claimed at the reveal, held until the floor awards, paid once.

The floor's side (the controller verifying and answering over NATS) is in
``test_jackpot.py``; here the award is handed to the round as the table's
loop hands it what the floor put in its bucket.
"""

from __future__ import annotations

from typing import Any

import pytest

from controller import events as ev
from controller.engine import jackpot
from controller.engine.config import ConfigError, parse_config
from controller.engine.recovery import rebuild
from controller.errors import IllegalAction
from tests.games.rounds import deal, decide, new_round, returned
from tests.helpers import MemoryLog

LINKED = {"linked_jackpot": "hcf-floor"}
SEVEN = "AH 2H 3H 4H 5H 6H 7H"     # a seven-card straight flush: 100 % of the meter
SIX = "2S 3S 4S 5S 6S 7S 9D"       # a six-card straight flush: 10 % of the meter
DEALER = "KD QD JD 8C 9C TC 2C"
WAGERS = {(1, "ante"): 500, (1, "progressive"): 100, (2, "ante"): 500, (2, "progressive"): 100}


def award(spot: int, amount: str | None, *, verified: bool = True, reason: str | None = None) -> dict[str, Any]:
    """The controller's answer as it stands in the floor's jackpot bucket (``controller.floor.jackpot``)."""
    return {"jackpot": "hcf-floor", "claim": f"T:T-R1:{spot}", "table": "T", "round": "T-R1", "spot": spot,
            "share": "1", "verified": verified, "amount": amount, "meter_before": "1000000", "meter_after": "1000000",
            "reason": reason, "stream_seq": 41}


def claimed_round(log: MemoryLog | None = None) -> Any:
    round = deal(new_round("high-card-flush", LINKED, log=log), WAGERS, f"{SEVEN} {SIX} {DEALER}")
    decide(round, 1, "raise", amount=1500)
    decide(round, 2, "raise", amount=1500)
    return round


def test_a_linked_hit_is_claimed_and_the_round_holds_until_the_floor_awards_it() -> None:
    log = MemoryLog()
    round = claimed_round(log)
    assert round.state == "hold" and not round.settlements
    claims = log.named(ev.JackpotClaimed.EVENT)
    assert [(c["spot"], c["length"], c["share"], c["target"]) for c in claims] == [(1, 7, "1", "spot 1"), (2, 6, "1/10", "spot 2")]
    assert claims[0]["cards"] == SEVEN.split()
    assert "awaiting the floor's award" in round.hold_reason
    assert [c.spot for c in jackpot.pending(round)] == [1, 2]


def test_the_round_settles_by_itself_with_the_exact_amounts_awarded_once_the_last_award_is_in() -> None:
    log = MemoryLog()
    round = claimed_round(log)
    jackpot.award(round, award(2, "2000003/20"))     # 10 % of a meter at 1,000,003 cents: 100,000.15
    assert round.state == "hold" and [c.spot for c in jackpot.pending(round)] == [1]
    jackpot.award(round, award(1, "900003"))
    assert round.state == "complete"
    assert log.named(ev.RoundResumed.EVENT)[-1]["by"] == "floor"
    result = returned(round)
    assert result[(2, "progressive")] == 100 + 100_001   # 100,000.15 rounded in the player's favour
    assert result[(1, "progressive")] == 100 + 900_003
    assert [r["event"] for r in log.records()].count(ev.JackpotAwarded.EVENT) == 2


def test_an_award_handed_twice_is_journaled_once() -> None:
    log = MemoryLog()
    round = claimed_round(log)
    jackpot.award(round, award(2, "1"))
    assert "already" in jackpot.award(round, award(2, "1"))
    assert len(log.named(ev.JackpotAwarded.EVENT)) == 1
    with pytest.raises(IllegalAction, match="no jackpot claim at spot 3"):
        jackpot.award(round, award(3, "1"))


def test_a_refused_claim_keeps_the_round_on_hold_for_a_supervisor_with_the_floors_reason() -> None:
    round = claimed_round()
    jackpot.award(round, award(2, "10"))
    jackpot.award(round, award(1, None, verified=False, reason="the cards claimed are not the cards the table dealt"))
    assert round.state == "hold"
    round.release(by="supervisor")
    assert round.state == "hold" and "refused the claim at spot 1" in round.hold_reason
    round.void_round("jackpot claim refused")
    assert returned(round)[(1, "progressive")] == 100


def test_the_round_re_enacted_from_its_journal_settles_the_same_without_the_floor() -> None:
    log = MemoryLog()
    round = claimed_round(log)
    jackpot.award(round, award(2, "2000003/20"))
    jackpot.award(round, award(1, "900003"))
    replayed = rebuild([ev.from_record(r) for r in log.records()], None)
    assert replayed.state == "complete"
    assert returned(replayed) == returned(round)


def test_a_round_held_for_its_claim_is_re_enacted_still_held_and_then_settles_once() -> None:
    log = MemoryLog()
    claimed_round(log)   # the table stops here: the floor has not answered
    live = MemoryLog()
    recovered = rebuild([ev.from_record(r) for r in log.records()], live)
    assert recovered.state == "hold" and [c.spot for c in jackpot.pending(recovered)] == [1, 2]
    jackpot.award(recovered, award(1, "5"))
    jackpot.award(recovered, award(2, "7"))
    assert recovered.state == "complete"
    assert [r["event"] for r in live.records()].count(ev.JackpotClaimed.EVENT) == 0  # the claims stand as journaled
    assert len(live.named(ev.WagerSettled.EVENT)) == 6


def test_an_unlinked_table_pays_its_own_meter_and_claims_nothing() -> None:
    log = MemoryLog()
    round = deal(new_round("high-card-flush", log=log), WAGERS, f"{SEVEN} {SIX} {DEALER}")
    decide(round, 1, "raise", amount=1500)
    decide(round, 2, "raise", amount=1500)
    assert round.state == "complete" and not log.named(ev.JackpotClaimed.EVENT)
    assert round.game.progressive.cents == 1_000_000


def test_the_floors_jackpot_key_is_refused_on_a_game_without_a_linked_wager() -> None:
    config = {"table": {"id": "T", "game": "top-card"}, "limits": {"main": [100, 10000], "tie": [100, 1000]},
              "floor": {"site": "s", "servers": ["nats://127.0.0.1:4222"], "jackpot": "hcf-floor"}}
    with pytest.raises(ConfigError, match=r"floor\.jackpot.*no wager paid from a jackpot"):
        parse_config(config)
    hcf = {"table": {"id": "T", "game": "high-card-flush"},
           "limits": {w: [100, 10000] for w in ("ante", "flush_bonus", "straight_flush_bonus", "progressive")},
           "floor": {"site": "s", "servers": ["nats://127.0.0.1:4222"], "jackpot": "hcf-floor"}}
    assert parse_config(hcf).make_game().progressive.jackpot == "hcf-floor"


def test_a_table_imports_no_database_driver_linked_or_not() -> None:
    """The Quick start installs no ``floor`` extra: ``tablectl run`` and the jackpot's table side must not need psycopg."""
    import subprocess
    import sys

    code = ("import sys; import controller.commands.cli, controller.commands.run, controller.floor.jackpot_client; "
            "sys.exit('psycopg' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
