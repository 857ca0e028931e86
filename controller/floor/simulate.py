"""Simulated tables for the floor's proof at scale: real journals, real outboxes, hundreds of them in one process.

A full ``tablectl`` table is a process with devices and a round engine; a
floor of 500 of them does not fit a test machine. A simulated table here is
the part of a table the floor sees: a real journal (``Journal.append``, the
same SQLite file and meters a table keeps) that rounds are written into at a
table's pace, and the real outbox (:class:`controller.floor.outbox.Outbox`)
publishing it. The rounds are replays of rounds real tables played
(:func:`template_rounds` runs ``tablectl run`` for each game), renumbered
and restamped for the simulated table, written in the chunks a table writes
them (one transaction per input, as the engine does), spread over the
round's length.

Many simulated tables share one asyncio loop and one broker connection per
process (:class:`TableGroup`), which is what makes 500 of them light.
A linked High Card Flush table also claims jackpots: now and then it deals a
seven-card straight flush, journals the claim, waits for the controller's
award in the key-value bucket however long it takes, and settles the
Progressive wager with it, as the engine does.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller import events as ev
from controller.floor import broker
from controller.floor.jackpot import award_key, bucket_name, claim_key
from controller.floor.outbox import Outbox, Position, read_journal

GAMES = ("top-card", "high-card-flush", "three-card-poker", "top-5-poker", "no-bust-21", "double-hand-poker")
ROYAL = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]


def template_rounds(config_dir: Path, games: Sequence[str] = GAMES, rounds: int = 30, seed: int = 1) -> dict[str, list[list[dict[str, Any]]]]:
    """Rounds real tables played, per game: each round its records as journaled."""
    out: dict[str, list[list[dict[str, Any]]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            journal = Path(folder) / f"{game}.sqlite"
            made = subprocess.run(
                [sys.executable, "-m", "controller.commands.cli", "journal", "init", "--config", str(config_dir / f"{game}.toml"),
                 "--journal", str(journal), "--log", str(Path(folder) / f"{game}.jsonl")],
                capture_output=True, text=True, check=False,
            )
            if made.returncode != 0:
                raise RuntimeError(f"tablectl journal init for {game} failed ({made.returncode}): {made.stderr.strip()[-500:]}")
            played = subprocess.run(
                [sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config_dir / f"{game}.toml"),
                 "--rounds", str(rounds), "--seed", str(seed), "--journal", str(journal),
                 "--log", str(Path(folder) / f"{game}.jsonl"), "--no-camera"],
                capture_output=True, text=True, check=False,
            )
            if played.returncode != 0:
                raise RuntimeError(f"tablectl run for {game} failed ({played.returncode}): {played.stderr.strip()[-500:]}")
            out[game] = _rounds_of(journal)
    return out


def _rounds_of(journal: Path) -> list[list[dict[str, Any]]]:
    """The journal's complete rounds, each its records in order (a shuffle the round began with included)."""
    db = sqlite3.connect(journal)
    records = [json.loads(text) for (text,) in db.execute("SELECT record FROM events ORDER BY seq")]
    db.close()
    by_round: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("round") is not None:
            by_round.setdefault(record["round"], []).append(record)
    return [rows for rows in by_round.values()
            if {r["event"] for r in rows} >= {ev.RoundStarted.EVENT} and {r["event"] for r in rows} & {ev.RoundCompleted.EVENT, ev.RoundVoided.EVENT}]


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class SimulatedTable:
    """One table: its journal, its outbox and the rounds it replays."""

    table_id: str
    game: str
    journal_path: Path
    rounds: list[list[dict[str, Any]]]
    round_seconds: float
    rng: random.Random
    jackpot: str | None = None
    jackpot_every: int = 0
    """With a linked jackpot: one round in ``jackpot_every`` deals a seven-card straight flush (0: never)."""
    played: int = 0
    claims: list[str] = field(default_factory=list)
    _seq: int = 0
    writer: concurrent.futures.Executor | None = None
    """The one thread this table's journal is used from (SQLite connections belong to their thread)."""
    holding: str | None = None
    """The claim of the round this table holds for the floor's award, from its claim until its settlement is journaled."""

    def open(self) -> None:
        from controller.records.journal import Journal

        exists = self.journal_path.exists() and self.journal_path.stat().st_size > 0
        self.journal = (Journal(self.journal_path, table_id=self.table_id) if exists
                        else Journal.create(self.journal_path, table_id=self.table_id))
        self._seq = self.journal.last_seq

    def close(self) -> None:
        self.journal.close()

    def _append(self, records: list[dict[str, Any]]) -> None:
        stamped = []
        for record in records:
            self._seq += 1
            stamped.append(ev.from_record({**record, "table": self.table_id, "seq": self._seq, "timestamp": _now()}))
        self.journal.append(stamped)

    async def _write(self, records: list[dict[str, Any]]) -> None:
        await asyncio.get_running_loop().run_in_executor(self.writer, self._append, records)

    async def play(self, stop: asyncio.Event, kv: Any | None, done: asyncio.Event | None = None) -> None:
        """Play rounds at the table's pace until ``stop``.

        A round holding a jackpot claim is finished even after ``stop``, as a table holds it: the award is
        waited for and the round settled with it, unless ``done`` (the end of publishing) comes first.
        While such a round holds, :attr:`holding` names its claim: the table is not to be cancelled then.
        """
        done = done or stop
        await asyncio.sleep(self.rng.uniform(0, self.round_seconds))
        while not stop.is_set():
            template = self.rng.choice(self.rounds)
            self.played += 1
            round_id = f"{self.table_id}-SIM-{self.played:06d}"
            records: list[dict[str, Any]] | None = [{**r, "round": round_id} for r in template]
            if self.jackpot and self.jackpot_every and self.rng.randrange(self.jackpot_every) == 0:
                records = await self._with_jackpot(template, round_id, kv, done)
            if records is None:
                return
            # a round's records come in bursts: betting, dealing, settling, spread over its length
            chunks = _split(records, self.rng)
            pause = self.round_seconds / max(1, len(chunks))
            for chunk in chunks:
                if stop.is_set() and self.holding is None:
                    return
                await self._write(chunk)
                if not stop.is_set():
                    await asyncio.sleep(pause * self.rng.uniform(0.5, 1.5))
            self.holding = None

    async def _with_jackpot(self, template: list[dict[str, Any]], round_id: str, kv: Any, done: asyncio.Event) -> list[dict[str, Any]] | None:
        """A round whose only wager, a $1 Progressive on spot 1, hits a seven-card straight flush paid from the floor's meter.

        Its records up to the claim are journaled (and so published) at once; the rest, the settlement with the
        award, is given back to be journaled once the controller has answered, however long that takes (until
        ``done``: play stopping does not end a round held for its award, as it does not at a table).
        """
        assert self.jackpot is not None
        spot, stake = 1, 100
        claim = claim_key(self.table_id, round_id, spot)
        opened = {**next(r for r in template if r["event"] == ev.RoundStarted.EVENT), "round": round_id}
        head = [opened, {"event": ev.WagerPlaced.EVENT, "round": round_id, "game": self.game, "spot": spot, "wager": "progressive",
                         "amount": stake, "previous": 0}]
        head += [{"event": ev.CardDealt.EVENT, "round": round_id, "game": self.game, "card": card, "target": f"spot {spot}",
                  "source": "shuffler"} for card in ROYAL]
        head.append({"event": ev.JackpotClaimed.EVENT, "round": round_id, "game": self.game, "jackpot": self.jackpot, "spot": spot,
                     "target": f"spot {spot}", "cards": ROYAL, "length": 7, "share": "1"})
        self.holding = claim  # before the write: a table cancelled while its claim is written would never settle it
        await self._write(head)
        self.claims.append(claim)
        award = None
        while award is None and not done.is_set():
            award = await _award(kv, self.jackpot, claim)
            if award is None:
                await asyncio.sleep(0.5)
        if award is None:
            return None
        exact = Fraction(stake) + (Fraction(award["amount"]) if award["verified"] else 0)
        returned = -(-exact.numerator // exact.denominator)  # the player's rounding: a fraction of a cent goes up
        return [
            {"event": ev.JackpotAwarded.EVENT, "round": round_id, "game": self.game, "spot": spot,
             **{k: award.get(k) for k in ("jackpot", "verified", "amount", "meter_before", "meter_after", "reason", "stream_seq")}},
            {"event": ev.WagerSettled.EVENT, "round": round_id, "game": self.game, "spot": spot, "wager": "progressive",
             "stake": stake, "outcome": "win", "payout": "100% of the meter", "returned": returned,
             "exact_returned": str(exact), "house_win": stake - returned, "reason": "7-card straight flush: from the floor's meter",
             "banker": "house", "rounded": exact.denominator > 1},
            {"event": ev.RoundCompleted.EVENT, "round": round_id, "game": self.game, "wagered": stake, "paid": returned, "fees": 0,
             "house_win": stake - returned, "between_players": 0},
        ]


async def _award(kv: Any, jackpot: str, claim: str) -> dict[str, Any] | None:
    if kv is None:
        return None
    try:
        entry = await kv.get(award_key(jackpot, claim))
    except Exception:  # noqa: BLE001 - not there yet, or the floor is away: ask again later
        return None
    return dict(json.loads(entry.value)) if entry.value else None


def _split(records: list[dict[str, Any]], rng: random.Random) -> list[list[dict[str, Any]]]:
    """The round's records in the transactions a table would write: each input with what it sets off."""
    chunks: list[list[dict[str, Any]]] = []
    for record in records:
        starts = record["event"] in (ev.RoundStarted.EVENT, ev.WagerPlaced.EVENT, ev.CardDealt.EVENT, ev.DecisionTaken.EVENT, ev.StackDispensed.EVENT)
        if not chunks or (starts and chunks[-1][-1]["event"] != ev.RoundStarted.EVENT):
            chunks.append([record])
        else:
            chunks[-1].append(record)
    return chunks


class TableGroup:
    """Simulated tables sharing one asyncio loop and one broker connection: their play and their outboxes."""

    def __init__(self, tables: Sequence[SimulatedTable], *, servers: Sequence[str], site: str) -> None:
        self.tables = list(tables)
        self.servers = list(servers)
        self.site = site
        self.outboxes = [Outbox(t.journal_path, table_id=t.table_id, site=site, servers=servers, poll_interval=0.25,
                                catch_up_rate=500) for t in self.tables]

    async def run(self, stop_play: asyncio.Event, stop: asyncio.Event) -> None:
        """Play until ``stop_play``, publish until ``stop``."""
        loop = asyncio.get_running_loop()
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="journals") as writer:
            for table in self.tables:
                table.writer = writer
                await loop.run_in_executor(writer, table.open)
            try:
                await asyncio.gather(self._publish(stop), self._play(stop_play, stop))
            finally:
                for table in self.tables:
                    await loop.run_in_executor(writer, table.close)

    async def _play(self, stop: asyncio.Event, done: asyncio.Event) -> None:
        kv = None
        client = None
        if any(t.jackpot for t in self.tables):
            client = await broker.connect(servers=self.servers, max_reconnect_attempts=-1, reconnect_time_wait=1,
                                        error_cb=_quiet)
            kv = await _wait_bucket(client, self.site, stop)
        tasks = [asyncio.create_task(t.play(stop, kv, done)) for t in self.tables]
        await stop.wait()
        for table, task in zip(self.tables, tasks, strict=True):
            if table.holding is None:  # a table holding a round for its award settles it first (until ``done``)
                task.cancel()
        failures = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
                    if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
        if failures:
            raise failures[0]
        if client is not None:
            await client.close()

    async def _publish(self, stop: asyncio.Event) -> None:
        dbs = [read_journal(o.path) for o in self.outboxes]
        try:
            for outbox in self.outboxes:
                outbox.position = Position(outbox.path)
                outbox._acked = outbox.position.get(outbox.stream)[0]
            while not stop.is_set():
                client = await broker.connect(servers=self.servers, connect_timeout=2, reconnect_time_wait=1,
                                            max_reconnect_attempts=-1, allow_reconnect=True, error_cb=_quiet)
                try:
                    drains = [asyncio.create_task(o._drain(client, db)) for o, db in zip(self.outboxes, dbs, strict=True)]
                    waiter = asyncio.create_task(stop.wait())
                    await asyncio.wait([waiter, *drains], return_when=asyncio.FIRST_COMPLETED)
                    for outbox in self.outboxes:
                        outbox._stop.set()
                    await asyncio.gather(*drains, return_exceptions=True)
                    waiter.cancel()
                    if not stop.is_set():
                        for outbox in self.outboxes:
                            outbox._stop.clear()
                finally:
                    with contextlib.suppress(Exception):
                        await client.close()
        finally:
            for db in dbs:
                db.close()
            for outbox in self.outboxes:
                outbox.position.close()


async def _quiet(exc: Exception) -> None:
    """A connection error while the network is cut: the outboxes note and retry; nothing to print."""


async def _wait_bucket(client: Any, site: str, stop: asyncio.Event) -> Any:
    js = client.jetstream(timeout=5)
    while not stop.is_set():
        try:
            return await js.key_value(bucket_name(site))
        except Exception:  # noqa: BLE001 - the jackpot controller has not made it yet
            await asyncio.sleep(0.5)
    return None


