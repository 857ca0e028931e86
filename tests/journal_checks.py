"""What a journal must prove after any crash: nothing lost, nothing repeated, money conserved to the cent."""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from controller.engine.recovery import rebuild
from controller.events import (
    CardDealt,
    DecisionTaken,
    FeeCollected,
    RoundCompleted,
    RoundRecovered,
    RoundStarted,
    RoundVoided,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
    from_record,
)
from controller.records.journal import Journal


def check_journal(path: Path, table_id: str = "TC-01") -> dict[str, Any]:
    """Assert every invariant the journal must keep; return counts for the caller's own checks."""
    with Journal(path, table_id=table_id, readonly=True) as journal:
        records = journal.stored()
        rows = journal.rounds()
        meters = journal.meters()
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1)), "a record is missing or repeated"
    by_round: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["round"] is not None:
            by_round[record["round"]].append(record)
    ends = Counter(r["round"] for r in records if r["event"] in (RoundCompleted.EVENT, RoundVoided.EVENT))
    starts = Counter(r["round"] for r in records if r["event"] == RoundStarted.EVENT)
    assert all(n == 1 for n in starts.values()) and all(n == 1 for n in ends.values())
    assert set(ends) == {row.id for row in rows if row.ended_seq is not None}

    wagered = paid = 0
    voided = 0
    for row in rows:
        if row.ended_seq is None:
            continue
        round_records = by_round[row.id]
        staked: dict[tuple[int, str], int] = {}
        for r in round_records:
            if r["event"] in (WagerPlaced.EVENT, WagerChanged.EVENT):
                total = r["previous"] + r["amount"] if r.get("by") == DecisionTaken.EVENT else r["amount"]
                if total:
                    staked[(r["spot"], r["wager"])] = total
                else:
                    staked.pop((r["spot"], r["wager"]), None)
        settled = [r for r in round_records if r["event"] == WagerSettled.EVENT]
        keys = Counter((r["spot"], r["wager"]) for r in settled)
        assert all(n == 1 for n in keys.values()), f"round {row.id}: a wager settled twice"
        assert {(r["spot"], r["wager"]): r["stake"] for r in settled} == staked, f"round {row.id}: a wager lost"
        dealt = [r["target"] for r in round_records if r["event"] == CardDealt.EVENT]
        end = next(r for r in round_records if r["event"] in (RoundCompleted.EVENT, RoundVoided.EVENT))
        if end["event"] == RoundCompleted.EVENT:
            assert dealt == ["home", "away"], f"round {row.id}: cards {dealt}"
            replayed = rebuild([from_record(r) for r in round_records], None)
            assert [s.as_event() for s in replayed.settlements] == [
                {k: v for k, v in r.items() if k not in ("event", "table", "round", "seq", "timestamp", "game")}
                for r in settled
            ], f"round {row.id}: the settlement does not follow from the cards"
        else:
            voided += 1
            assert all(r["returned"] == r["stake"] for r in settled)
        assert end["wagered"] == sum(r["stake"] for r in settled)
        assert end["paid"] == sum(r["returned"] for r in settled)
        wagered += end["wagered"]
        paid += end["paid"]
    assert meters.rounds == len(ends) and meters.voided == voided
    assert meters.total.wagered == wagered and meters.total.paid == paid
    assert meters.total.house_win == wagered - paid
    assert sum(m.wagered for m in meters.by_wager.values()) == wagered
    return {"rounds": len(ends), "open": len(rows) - len(ends), "voided": voided, "wagered": wagered, "paid": paid}


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def check_any_game(path: Path, table_id: str) -> dict[str, int]:
    """The game-independent invariants: each ended round replays to its journaled settlement, meters match."""
    with Journal(path, table_id=table_id, readonly=True) as journal:
        rows = journal.rounds()
        meters = journal.meters()
        ended = [row for row in rows if row.ended_seq is not None]
        wagered = paid = between = fees = 0
        for row in ended:
            records = journal.round_records(row.id)
            settled = [r for r in records if isinstance(r, WagerSettled)]
            assert all(staked == done for _, _, staked, done in journal.stakes(row.id)), f"round {row.id}: a wager unsettled"
            if not any(isinstance(r, RoundRecovered) and r.cards is None for r in records):
                replayed = rebuild(records, None)
                assert [s.returned for s in replayed.settlements] == [r.returned for r in settled]
            house = [r for r in settled if r.banker == "house"]
            wagered += sum(r.stake for r in house)
            paid += sum(r.returned for r in house)
            between += sum(r.stake for r in settled if r.banker != "house")
            fees += sum(r.amount for r in records if isinstance(r, FeeCollected))
    assert meters.rounds == len(ended)
    assert meters.total.wagered == wagered and meters.total.paid == paid
    assert meters.between_players.wagered == between and meters.total.fees == fees
    return {"rounds": len(ended), "open": len(rows) - len(ended)}
