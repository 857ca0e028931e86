"""The floor's proof at scale: hundreds of tables, a three-node cluster, PostgreSQL, and every fault at once.

:func:`run_proof` starts a three-node JetStream cluster and PostgreSQL on
loopback, the real floor service (``tablectl floor serve``, a process of its
own), and ``tables`` simulated tables (``controller.floor.simulate``) in
``workers`` processes, each with its real journal and outbox. While they play
it kills a broker node and brings it back, restarts the whole cluster,
restarts PostgreSQL, kills the floor service (SIGKILL) and starts it again,
and cuts one worker's tables off the network for ``cut_seconds``. Then it
stops play, waits (at most ``catch_up_s``, then it fails naming what it
still waited for) for every outbox to publish, every record to be stored,
every jackpot claim to be answered and settled at its table (a table holds a
claimed round for its award after play stops, as a real table does; a full
table whose last run stopped at such a round is run again, ``FullTable.finish``)
and the jackpot controller to have applied the whole stream, and checks:
every table's journal against PostgreSQL record by record and meter by meter
(0 lost, 0 duplicated, 0 different), and the linked jackpot against every
linked table's journal (contributions and payments to the exact fraction of a
cent). ``benchmarks/floor.py`` prints the figures; the marked test
``tests/floor/test_floor_scale.py`` runs a short version.

Everything listens on 127.0.0.1 and everything started here is stopped here.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing as mp
import queue
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import psycopg

from controller import events as ev
from controller.floor.localservers import (
    LocalPostgres,
    NatsCluster,
    ServerError,
    TcpProxy,
)
from controller.floor.outbox import acked_seq
from controller.floor.reconcile import check_table
from controller.floor.wire import stream_name

SITE = "proof"
JACKPOT = "hcf-link"
RATE = Fraction(15, 100)
RESET = 1_000_000
FLOOR_READY_S = 120.0
"""How long a start of the floor service may take to say it is ready (its parts retry forever: it may never be)."""
HELD = 1
"""``tablectl run``'s exit code when it stopped at a round on hold (a device drill, a jackpot claim awaiting the floor)."""
FINISHING_RUNS = 2
"""How many more runs a full table gets after play stops to settle a round its last run left held for a jackpot claim."""


@dataclass
class Plan:
    """What the proof runs: how many tables, how long, at what pace, with which faults."""

    tables: int = 500
    workers: int = 4
    seconds: float = 600.0
    round_seconds: float = 160.0
    linked: int = 24
    jackpot_every: int = 40
    faults: bool = True
    cut_seconds: float = 180.0
    seed: int = 1
    full: tuple[str, ...] = ("top-card", "high-card-flush")
    """Games of the full ``tablectl run`` tables playing beside the simulated ones (a High Card Flush one is linked)."""
    catch_up_s: float = 600.0
    """How long after play stops the proof waits for the floor and the tables to catch up before it fails, naming what it
    still waited for."""


@dataclass
class Fault:
    name: str
    start: float
    end: float


@dataclass
class Result:
    """What the proof measured and found."""

    plan: Plan
    records: int = 0
    seconds: float = 0.0
    peak_per_second: int = 0
    latency: dict[str, tuple[float, float, int]] = field(default_factory=dict)
    """'normal' / 'recovering': (p50 ms, p99 ms, records)."""
    faults: list[Fault] = field(default_factory=list)
    tables_checked: int = 0
    lost: int = 0
    duplicated: int = 0
    different: int = 0
    meter_problems: list[str] = field(default_factory=list)
    jackpot: dict[str, Any] = field(default_factory=dict)
    caught_up_s: float = 0.0
    errors: list[str] = field(default_factory=list)

    full_tables: dict[str, int] = field(default_factory=dict)
    """The full ``tablectl`` tables and how many runs each played."""
    idle_tables: int = 0
    """Tables whose journal holds no record: the proof is void if any table did not play."""

    @property
    def ok(self) -> bool:
        return bool(self.records) and not (self.lost or self.duplicated or self.different or self.meter_problems
                                           or self.errors or self.idle_tables or not self.jackpot.get("reconciled", False))


SUPERVISOR = ("pit-boss", "2468")
"""The proof's supervisor account (name, PIN): the floor refuses to start without one."""


def floor_config(folder: Path, servers: list[str], dsn: str, linked: list[str], *, site: str = SITE, port: int = 0) -> Path:
    """A floor config on these servers, with a staff file holding :data:`SUPERVISOR`.

    The pit page listens on ``port``; 0 (the default) lets the service bind any free port and name it in
    its ready line (:attr:`FloorProcess.url`), so no port is picked before the service binds it.
    """
    from controller.records.staff import StaffFile

    staff = folder / "staff.json"
    StaffFile(staff).add(*SUPERVISOR[:1], "supervisor", pin=SUPERVISOR[1], cost=2**4)
    path = folder / "floor.toml"
    path.write_text(
        f'[floor]\nsite = "{site}"\nlisten = "127.0.0.1:{port}"\nstaff = "{staff}"\n\n'
        f"[broker]\nservers = {json.dumps(servers)}\nreplicas = 3\n\n"
        f'[database]\ndsn = "{dsn}"\n\n'
        + (f'[jackpots.{JACKPOT}]\ntables = {json.dumps(linked)}\nreset = {RESET}\nrate = "{RATE.numerator / RATE.denominator}"\n'
           if linked else "")
    )
    return path


class FullTable:
    """A whole table, ``tablectl run`` on simulated devices with a ``[floor]`` section, playing until told to stop.

    It plays a few rounds a run, run after run on the same journal (each run recovers what the last left open),
    so the floor sees a real table's outbox start, publish, linger and stop again and again, while the faults go on.
    """

    def __init__(self, table_id: str, game: str, folder: Path, servers: list[str], *, jackpot: str | None, seed: int) -> None:
        self.table_id, self.seed, self.servers = table_id, seed, servers
        self.journal = folder / f"{table_id}.sqlite"
        self.log = folder / f"{table_id}.jsonl"
        self.config = folder / f"{table_id}.toml"
        shipped = Path(__file__).resolve().parents[2] / "config" / f"{game}.toml"
        lines = [f'id = "{table_id}"' if line.startswith("id = ") else line for line in shipped.read_text().splitlines()]
        floor = f'\n[floor]\nsite = "{SITE}"\nservers = {json.dumps(servers)}\n' + (f'jackpot = "{jackpot}"\n' if jackpot else "")
        self.config.write_text("\n".join(lines) + "\n" + floor)
        self.runs = 0
        self.finishing = 0
        """Runs after play stopped, to settle a round held for a jackpot claim (:meth:`finish`)."""
        self.last_exit: int | None = None
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, name=f"full-{table_id}", daemon=True)

    def start(self) -> None:
        made = subprocess.run(  # a table's journal, anchor and key are made once, as on a new table PC
            [sys.executable, "-m", "controller.commands.cli", "journal", "init", "--config", str(self.config),
             "--journal", str(self.journal), "--log", str(self.log)], capture_output=True, text=True, check=False, timeout=120)
        if made.returncode != 0:
            raise RuntimeError(f"tablectl journal init for {self.table_id} failed ({made.returncode}): {made.stderr.strip()[-300:]}")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(180)

    def finish(self, say: Callable[[str], None] = print) -> None:
        """After :meth:`stop`: if the last run stopped at a round held for a jackpot claim (its award came too late
        for that run, through a fault), run the table again with ``--rounds 1``, at most :data:`FINISHING_RUNS`
        times, as an operator starts a table that stopped at a held round again: the round, recovered held, waits
        for its award once more and settles, and the run ends with it. A round held for anything else is left as
        it is, and a claim still held after that is what the proof's catch-up names."""
        for _ in range(FINISHING_RUNS):
            if self.last_exit != HELD or not (claims := _held_claims(self.journal)):
                return
            say(f"  {self.table_id}: its last run stopped at a round held for {', '.join(claims)}: run once more to settle it")
            self.finishing += 1
            self._run(rounds=1)

    def _play(self) -> None:
        while not self._stop.is_set():
            self._run(rounds=4)
            self._stop.wait(2.0)

    def _run(self, *, rounds: int) -> None:
        """One ``tablectl run`` of ``rounds`` rounds on the table's journal (it recovers what the last run left open)."""
        self.runs += 1
        done = subprocess.run(
            [sys.executable, "-m", "controller.commands.cli", "run", "--config", str(self.config), "--rounds", str(rounds),
             "--seed", str(self.seed * 1000 + self.runs), "--journal", str(self.journal), "--log", str(self.log),
             "--no-camera"], capture_output=True, text=True, check=False, timeout=300)
        self.last_exit = done.returncode
        if done.returncode not in (0, HELD):  # a round held: the next run (or finish) recovers it
            self.failures.append(f"{self.table_id} run {self.runs}: exit {done.returncode}: {done.stderr.strip()[-300:]}")


class FloorProcess:
    """``tablectl floor serve`` as a process of its own, to kill and start again.

    :meth:`start` returns once the service is ready; :attr:`url` is then its pit page, read from the
    service's ready line (with ``[floor] listen`` on port 0, a port chosen afresh by each start).
    """

    def __init__(self, config: Path, log: Path) -> None:
        self.config, self.log = config, log
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, timeout: float = FLOOR_READY_S) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "controller.commands.cli", "floor", "serve", "--config", str(self.config)],
                stdout=subprocess.PIPE, stderr=out, start_new_session=True,
            )
        stdout = self.process.stdout
        assert stdout is not None
        said: list[bytes] = []
        reader = threading.Thread(target=lambda: said.append(stdout.readline()), name="floor-ready", daemon=True)
        reader.start()
        reader.join(timeout)  # a service that never gets ready (a part retrying forever) must not hang the proof
        line = said[0].decode(errors="replace") if said else ""
        page = re.search(r"pit page on (http://\S+?)/?$", line.strip())
        if page is None:
            if said:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(10)  # exiting, having said why in its log
            if self.process.poll() is None:  # reaped: a service that did not start leaves no process behind
                self.process.send_signal(signal.SIGKILL)
                self.process.wait(10)
            reader.join(10)  # its pipe ends with it: the reader is done before the pipe is closed
            self._close()
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else "(no log)"
            said_what = f"it said {line.strip()!r}" if said else f"it said nothing within {timeout:.0f} s"
            raise ServerError(f"the floor service did not start ({said_what}); its log {self.log} ends:\n{tail}")
        self.url = page.group(1)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self._close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close()

    def _close(self) -> None:
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()


def _worker(spec: dict[str, Any], stop_play: Any, stop: Any, results: Any) -> None:
    """One worker process: its share of the tables, playing and publishing until told to stop."""
    from controller.floor.simulate import SimulatedTable, TableGroup

    rng = random.Random(spec["seed"])
    tables = [
        SimulatedTable(t["id"], t["game"], Path(t["journal"]), spec["templates"][t["game"]], spec["round_seconds"],
                       random.Random(rng.random()), jackpot=t.get("jackpot"), jackpot_every=spec["jackpot_every"])
        for t in spec["tables"]
    ]
    group = TableGroup(tables, servers=spec["servers"], site=SITE)

    async def main() -> None:
        play, done = asyncio.Event(), asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                if stop_play.is_set():
                    play.set()
                await asyncio.sleep(0.2)
            play.set()
            done.set()

        watcher = asyncio.create_task(watch())
        await group.run(play, done)
        watcher.cancel()

    asyncio.run(main())
    results.put({t.table_id: {"played": t.played, "claims": t.claims} for t in tables})


def _journal_seq(path: Path) -> tuple[int, int]:
    """(last seq, acked seq) of a journal."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        last = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
    finally:
        db.close()
    return last, acked_seq(path, stream_name(SITE))


def run_proof(plan: Plan, folder: Path, say: Callable[[str], None] = print) -> Result:
    """Run the proof in ``folder``; stops everything it started before it returns."""
    from controller.floor.simulate import GAMES, template_rounds

    result = Result(plan)
    folder.mkdir(parents=True, exist_ok=True)
    config_dir = Path(__file__).resolve().parents[2] / "config"
    say(f"playing {len(GAMES)} games' template rounds ...")
    templates = template_rounds(config_dir, rounds=30, seed=plan.seed)
    cluster = NatsCluster(folder / "nats", size=3)
    postgres = LocalPostgres(folder / "postgres")
    proxies: list[TcpProxy] = []
    floor: FloorProcess | None = None
    workers: list[Any] = []
    ctx = mp.get_context("spawn")
    stop_play, stop, results = ctx.Event(), ctx.Event(), ctx.Queue()
    try:
        cluster.start()
        postgres.start()
        proxies = [TcpProxy(node.client_port) for node in cluster.nodes]
        for proxy in proxies:
            proxy.start()
        rng = random.Random(plan.seed)
        tables: list[dict[str, str]] = []
        for index in range(plan.tables):
            linked = index < plan.linked
            game = "high-card-flush" if linked else rng.choice(GAMES)
            table = {"id": f"T{index + 1:03d}", "game": game, "journal": str(folder / "tables" / f"T{index + 1:03d}.sqlite")}
            tables.append(table | ({"jackpot": JACKPOT} if linked else {}))
        (folder / "tables").mkdir(exist_ok=True)
        full = [FullTable(f"F{index + 1:02d}", game, folder / "tables", cluster.urls, seed=plan.seed + index,
                          jackpot=JACKPOT if game == "high-card-flush" else None) for index, game in enumerate(plan.full)]
        linked_ids = [t["id"] for t in tables if "jackpot" in t] + [f.table_id for f in full if "high-card" in f.config.read_text()]
        floor = FloorProcess(floor_config(folder, cluster.urls, postgres.dsn, linked_ids), folder / "floor.log")
        floor.start()
        say(f"floor service up; starting {plan.tables} tables in {plan.workers} processes")
        for w in range(plan.workers):
            share = tables[w :: plan.workers]
            servers = [p.url for p in proxies] if w == 0 else cluster.urls
            spec = {"seed": plan.seed * 1000 + w, "tables": share, "templates": templates, "round_seconds": plan.round_seconds,
                    "jackpot_every": plan.jackpot_every, "servers": servers}
            process = ctx.Process(target=_worker, args=(spec, stop_play, stop, results), name=f"tables-{w}", daemon=True)
            process.start()
            workers.append(process)
        for full_table in full:
            full_table.start()
        started = time.monotonic()
        wall_start = dt.datetime.now(dt.UTC)
        schedule = _schedule(plan) if plan.faults else []
        for at, name, action in schedule:
            _sleep_until(started + at)
            say(f"  t={time.monotonic() - started:5.0f} s  {name}")
            action(cluster, postgres, floor, proxies, result, time.monotonic() - started)
        _sleep_until(started + plan.seconds)
        stop_play.set()
        for full_table in full:
            full_table.stop()
        played_until = time.monotonic()
        say("play stopped; waiting for every outbox and the floor to catch up ...")
        for full_table in full:
            full_table.finish(say)
        journals = [Path(t["journal"]) for t in tables] + [t.journal for t in full if t.journal.exists()]
        result.full_tables = {t.table_id: t.runs for t in full}
        result.errors += [f for t in full for f in t.failures]
        _republish(full)
        linked_journals = ([Path(t["journal"]) for t in tables if "jackpot" in t]
                           + [t.journal for t in full if t.table_id in linked_ids and t.journal.exists()])
        caught_up, waiting = _catch_up(journals, linked_journals, postgres.dsn, timeout=plan.catch_up_s, say=say)
        result.caught_up_s = caught_up - played_until
        result.errors += [f"not caught up {plan.catch_up_s:.0f} s after play stopped: still waiting for {w}" for w in waiting]
        stop.set()
        reports: dict[str, Any] = {}
        for process in workers:
            try:
                reports.update(results.get(timeout=120))
            except queue.Empty:
                result.errors.append(f"a table process ({process.name}) did not report within 120 s of being stopped")
                break
        result.seconds = plan.seconds
        _measure(result, postgres.dsn, journals, wall_start)
        _reconcile_jackpot(result, postgres.dsn, linked_journals)
    finally:
        stop_play.set()
        stop.set()
        for process in workers:
            process.join(30)
            if process.is_alive():
                process.kill()
        if floor is not None:
            floor.stop()
        for proxy in proxies:
            proxy.stop()
        cluster.stop()
        postgres.remove()
    return result


def _republish(full: list[FullTable]) -> None:
    """A full table's outbox ends with its run: what it had not published by then goes out with one last run of it."""
    for table in full:
        if table.journal.exists():
            subprocess.run([sys.executable, "-m", "controller.floor.outbox", "--journal", str(table.journal), "--table",
                            table.table_id, "--site", SITE, "--linger", "30",
                            *(a for url in table.servers for a in ("--server", url))],
                           input=b"", capture_output=True, check=False, timeout=120)


def _sleep_until(moment: float) -> None:
    while (left := moment - time.monotonic()) > 0:
        time.sleep(min(left, 1.0))


Action = Callable[[NatsCluster, LocalPostgres, FloorProcess, list[TcpProxy], Result, float], None]


def _schedule(plan: Plan) -> list[tuple[float, str, Action]]:
    """The faults, spread over the run: each begins, and the run goes on through it."""
    s = plan.seconds
    cut = min(plan.cut_seconds, 0.3 * s)

    def mark(name: str, length: float) -> Action:
        def note(c: NatsCluster, p: LocalPostgres, f: FloorProcess, x: list[TcpProxy], r: Result, now: float) -> None:
            r.faults.append(Fault(name, now, now + length))
        return note

    def then(*actions: Action) -> Action:
        def run(*args: Any) -> None:
            for action in actions:
                action(*args)
        return run

    return [
        (0.10 * s, "kill broker node 3 (SIGKILL)", then(mark("broker node 3 down", 0.08 * s), lambda c, *_: c.nodes[2].kill())),
        (0.18 * s, "start broker node 3 again", lambda c, *_: c.nodes[2].start()),
        (0.28 * s, "restart the whole cluster", then(mark("cluster restarted", 30), lambda c, *_: c.restart())),
        (0.40 * s, "restart PostgreSQL", then(mark("PostgreSQL restarted", 30), lambda c, p, *_: p.restart())),
        (0.50 * s, "kill the floor service (SIGKILL)", then(mark("floor service down", 0.03 * s + 30), lambda c, p, f, *_: f.kill())),
        (0.53 * s, "start the floor service again", lambda c, p, f, *_: f.start()),
        (0.58 * s, f"cut a quarter of the tables off the network for {cut:.0f} s",
         then(mark("tables cut off", cut + 60), lambda c, p, f, x, *_: _each(x, TcpProxy.cut))),
        (0.58 * s + cut, "reconnect them", lambda c, p, f, x, *_: _each(x, TcpProxy.restore)),
    ]


def _each(proxies: list[TcpProxy], action: Callable[[TcpProxy], None]) -> None:
    for proxy in proxies:
        action(proxy)


def _held_claims(journal: Path) -> list[str]:
    """The claims ``journal`` holds a round for: journaled, their award not (yet)."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=30)
    try:
        rows = db.execute("SELECT event, record FROM events WHERE event IN (?, ?)",
                          (ev.JackpotClaimed.EVENT, ev.JackpotAwarded.EVENT)).fetchall()
    finally:
        db.close()
    claimed: list[tuple[str, int]] = []
    awarded: set[tuple[str, int]] = set()
    for event, text in rows:
        record = json.loads(text)
        key = (str(record.get("round")), int(record.get("spot", 0)))
        if event == ev.JackpotClaimed.EVENT:
            claimed.append(key)
        else:
            awarded.add(key)
    return [f"{journal.stem} {round_id} spot {spot}" for round_id, spot in claimed if (round_id, spot) not in awarded]


def _outstanding(journals: list[Path], linked: list[Path], dsn: str) -> list[str]:
    """What the floor and the tables have yet to do before the proof can check them: empty once caught up."""
    waiting: list[str] = []
    # in this order: a claim settled after its journal was read is seen as records to publish, never missed
    held = [claim for journal in linked for claim in _held_claims(journal)]
    if held:
        waiting.append(f"the floor's award for {len(held)} jackpot claims the tables hold their rounds for ({', '.join(held[:5])})")
    seqs = [_journal_seq(j) for j in journals]
    total = sum(last for last, _ in seqs)
    lag = sum(last - acked for last, acked in seqs)
    if lag:
        waiting.append(f"the outboxes to publish {lag} records")
    try:
        with psycopg.connect(dsn, connect_timeout=3) as conn:
            counted = conn.execute("SELECT COUNT(*), COALESCE(MAX(stream_seq), 0) FROM events").fetchone()
            applied = (conn.execute("SELECT applied_stream_seq FROM jackpots WHERE name = %s", (JACKPOT,)).fetchone()
                       if linked else None)  # no linked table: no jackpot, no table of jackpots
    except psycopg.Error as exc:
        return [*waiting, f"PostgreSQL to answer ({str(exc).strip()[:200]})"]
    stored, last_stream_seq = (int(counted[0]), int(counted[1])) if counted else (0, 0)
    if stored < total:
        waiting.append(f"the floor to store {total - stored} of the tables' {total} records in PostgreSQL")
    if linked and (applied is None or int(applied[0]) < last_stream_seq):
        waiting.append(f"the jackpot controller to apply the stream up to seq {last_stream_seq} "
                       f"(applied up to {int(applied[0]) if applied else 0})")
    return waiting


def _catch_up(journals: list[Path], linked: list[Path], dsn: str, *, timeout: float, say: Callable[[str], None]) -> tuple[float, list[str]]:
    """Wait, at most ``timeout`` seconds, until every record is stored, every jackpot claim answered and settled at its
    table, and the jackpot controller has applied it all; when, and what was still awaited at the deadline (empty if nothing)."""
    deadline = time.monotonic() + timeout
    while True:
        waiting = _outstanding(journals, linked, dsn)
        if not waiting:
            return time.monotonic(), []
        if time.monotonic() >= deadline:
            say(f"  (timed out after {timeout:.0f} s waiting for {'; '.join(waiting)})")
            return time.monotonic(), waiting
        time.sleep(1)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def _measure(result: Result, dsn: str, journals: list[Path], wall_start: dt.datetime) -> None:
    with psycopg.connect(dsn) as conn:
        counted = conn.execute("SELECT COUNT(*) FROM events").fetchone()
        result.records = int(counted[0]) if counted else 0
        peak = conn.execute(
            "SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) n FROM events GROUP BY date_trunc('second', stored_at)) s"
        ).fetchone()
        result.peak_per_second = int(peak[0]) if peak else 0
        rows = conn.execute(
            "SELECT EXTRACT(EPOCH FROM at - %s), EXTRACT(EPOCH FROM stored_at - at) * 1000 FROM events WHERE at IS NOT NULL",
            (wall_start,),
        ).fetchall()
        normal: list[float] = []
        recovering: list[float] = []
        for offset, latency in rows:
            journaled, stored = float(offset), float(offset) + float(latency) / 1000
            # recovering: a fault (or the minute after it) overlapped the record's way from the journal to PostgreSQL
            inside = any(f.start <= stored and journaled <= f.end for f in result.faults)
            (recovering if inside else normal).append(float(latency))
        result.latency = {"normal": (_percentile(normal, 0.5), _percentile(normal, 0.99), len(normal)),
                          "recovering": (_percentile(recovering, 0.5), _percentile(recovering, 0.99), len(recovering))}
        for journal in journals:
            check = check_table(conn, journal)
            result.tables_checked += 1
            result.idle_tables += check.journal_records == 0
            for problem in check.problems:
                if "missing on the floor" in problem:
                    result.lost += int(problem.split()[0])
                elif "the journal lacks" in problem:
                    result.duplicated += int(problem.split()[0])
                elif "differ" in problem:
                    result.different += int(problem.split()[0])
                else:
                    result.meter_problems.append(f"{check.table}: {problem}")


def _reconcile_jackpot(result: Result, dsn: str, journals: list[Path]) -> None:
    """The controller's meter against the linked tables' journals: contributions and payments, exactly."""
    contributed = Fraction(0)
    paid = Fraction(0)
    claims = 0
    for journal in journals:
        db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
        kinds = (ev.WagerSettled.EVENT, ev.JackpotClaimed.EVENT, ev.JackpotAwarded.EVENT)
        for (text,) in db.execute("SELECT record FROM events WHERE event IN (?, ?, ?)", kinds):
            record = json.loads(text)
            if record["event"] == ev.JackpotClaimed.EVENT:
                claims += 1
            elif record["event"] == ev.JackpotAwarded.EVENT:
                paid += Fraction(str(record["amount"])) if record["verified"] else 0
            elif record.get("wager") == "progressive" and not str(record.get("reason", "")).startswith("void"):
                contributed += RATE * int(record["stake"])
        db.close()
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT amount, contributed, paid, seeded FROM jackpots WHERE name = %s", (JACKPOT,)).fetchone()
        awards = conn.execute("SELECT COUNT(*), COUNT(*) FILTER (WHERE settled_seq IS NULL) FROM jackpot_awards "
                              "WHERE name = %s", (JACKPOT,)).fetchone()
    amount, theirs_contributed, theirs_paid, seeded = (Fraction(v) for v in row) if row else (Fraction(0),) * 4
    result.jackpot = {
        "claims": claims, "awards": int(awards[0]) if awards else 0, "unsettled": int(awards[1]) if awards else 0,
        "contributed": contributed, "paid": paid, "controller_contributed": theirs_contributed,
        "controller_paid": theirs_paid, "meter": amount, "seeded": seeded,
        "reconciled": contributed == theirs_contributed and paid == theirs_paid
        and amount == seeded + theirs_contributed - theirs_paid,
    }


def report(result: Result) -> str:
    """The proof's figures as the benchmark prints them."""
    plan = result.plan
    lines = [
        f"tables {plan.tables} in {plan.workers} processes, {plan.seconds:.0f} s of play, a round every ~{plan.round_seconds:.0f} s",
        f"records {result.records}: {result.records / max(plan.seconds, 1):.0f} events/s sustained, peak {result.peak_per_second}/s stored",
    ]
    for kind, (p50, p99, n) in result.latency.items():
        lines.append(f"latency journal -> PostgreSQL, {kind:10}: p50 {p50:8.1f} ms  p99 {p99:9.1f} ms  ({n} records)")
    if result.full_tables:
        lines.append("full tablectl tables: " + ", ".join(f"{t} ({n} runs)" for t, n in result.full_tables.items()))
    lines.append(f"caught up {result.caught_up_s:.0f} s after play stopped")
    lines.append("faults survived: " + "; ".join(f.name for f in result.faults) if result.faults else "faults: none")
    lines.append(f"tables checked {result.tables_checked} ({result.idle_tables} that never played): lost {result.lost}, duplicated {result.duplicated}, "
                 f"different {result.different}, meter differences {len(result.meter_problems)}")
    lines.extend(f"  {p}" for p in result.meter_problems[:10])
    j = result.jackpot
    if j:
        lines.append(f"linked jackpot: {j['claims']} claims, {j['awards']} awards ({j['unsettled']} unsettled); contributed "
                     f"{float(j['contributed']) / 100:,.4f} $ by the journals vs {float(j['controller_contributed']) / 100:,.4f} $; "
                     f"paid {float(j['paid']) / 100:,.4f} $ vs {float(j['controller_paid']) / 100:,.4f} $: "
                     + ("reconciled exactly" if j["reconciled"] else "NOT RECONCILED"))
    lines.append("PASS" if result.ok else "FAIL")
    return "\n".join(lines)

