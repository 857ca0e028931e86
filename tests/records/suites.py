"""The damage and tamper suites of issue #46: what the tests run a few of and ``benchmarks/records.py`` runs in full.

Damage suite: a table plays, its files are damaged the way disks and operators
damage them (the journal deleted, emptied, truncated, bytes flipped; the WAL
deleted, truncated or damaged after a crash; the anchor or the event log
deleted; the disk filling up), and the table is started again. Each case ends
in one of:

- ``stopped``: the start refused, with exit 3 or 4, naming the damaged file (and,
  where records are lost, their sequence numbers), without a traceback; then
  the documented remedy (``journal restore``, ``journal anchor --rewrite``,
  ``audit new-log``, freeing space) is applied and the table must start with
  every committed record back, hash for hash (``restored``);
- ``intact``: the start went on and every committed record is there, unchanged;
- ``SILENT LOSS``: the start went on without a committed record, or with one changed;
- ``TRACEBACK``: any command raised instead of saying what is wrong.

Reading commands (``meters``, ``rounds``, ``audit verify``, ``journal verify``) are
also run on every damaged state: none may raise, and none may change a byte.

Tamper suite: honest trails (several games, restarts, crashes, rotation) must
verify intact; then someone without the key edits, deletes, reorders, cuts,
appends, inserts, rewrites: every tampering must be found.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from controller.commands.cli import main
from controller.engine.config import load_config
from controller.engine.players import SimulatedPlayers
from controller.engine.session import open_session
from controller.events import WagerSettled
from controller.records.audit import split_signature, trail_files
from controller.records.checkpoints import Checkpoint, FloorCopy
from controller.records.errors import RecordsError
from controller.records.journal import Journal
from controller.records.keys import LINE_LABEL, PublicKey
from controller.records.verify import JournalView, Report, verify

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("top-card", "three-card-poker", "high-card-flush", "no-bust-21", "two-cards-high")


# -- a table in a folder -------------------------------------------------------------------------------------


def write_config(folder: Path, game: str = "top-card", *, log_dir: str = ".", max_bytes: int | None = None) -> Path:
    """The game's shipped config with its records in ``folder`` (relative paths), devices simulated in process, no camera."""
    text = (ROOT / "config" / f"{game}.toml").read_text()
    lines = []
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped.split("]")[0] + "]"
        if section in ("[shoe]", "[shuffler]") and stripped.startswith("driver ="):
            line = 'driver = "simulated"'
        if section == "[vision]" and stripped.startswith("crosscheck"):
            line = "crosscheck = false"
        if section == "[log]" and stripped.startswith("events"):
            line = f'events = "{log_dir}/events.jsonl"' + (f"\nmax_bytes = {max_bytes}" if max_bytes else "")
        lines.append(line)
    lines.append('\n[journal]\npath = "journal.sqlite"')
    config = folder / "table.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


@dataclass
class Cli:
    rc: int
    out: str
    err: str
    traceback: str | None = None


def cli(folder: Path, *args: str) -> Cli:
    """``tablectl ARGS`` in this process, in ``folder``; an exception is caught and reported as a traceback."""
    out, err = io.StringIO(), io.StringIO()
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(list(args))
            except SystemExit as exc:
                rc = int(exc.code or 0)
            except BaseException:  # noqa: BLE001 - any exception here is the failure being counted
                return Cli(-1, out.getvalue(), err.getvalue(), traceback.format_exc())
    finally:
        os.chdir(cwd)
    return Cli(rc, out.getvalue(), err.getvalue())


def play(folder: Path, rounds: int, seed: int, *, snapshot: Path | None = None) -> None:
    """Play ``rounds`` rounds in this process; with ``snapshot``, copy the table's files while it is still open (a crash image)."""
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        config = load_config("table.toml")
        rng = random.Random(seed)
        with open_session(config, rng) as session:
            players = SimulatedPlayers(random.Random(seed + 1))
            for _ in range(rounds):
                session.play(players)
                if session.table.stopped:
                    break
            if snapshot is not None:
                copy_files(folder, snapshot)
    finally:
        os.chdir(cwd)


def copy_files(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.is_file():
            shutil.copyfile(item, target / item.name)
            shutil.copymode(item, target / item.name)
        elif item.is_dir() and item.name != "snapshot":
            copy_files(item, target / item.name)


def truth(folder: Path) -> list[tuple[int, str]]:
    with Journal(folder / "journal.sqlite", table_id=table_id(folder), readonly=True) as journal:
        return journal.chain_hashes()


def table_id(folder: Path) -> str:
    return load_config(folder / "table.toml").table_id


def fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# -- the damage suite ----------------------------------------------------------------------------------------

DAMAGE = ("deleted", "emptied", "truncated", "flipped", "wal_deleted", "wal_truncated", "wal_damaged",
          "anchor_deleted", "log_deleted", "disk_full", "disk_full_log")
REMEDY = {"anchor_deleted": ("journal", "anchor", "--rewrite", "--config", "table.toml"),
          "log_deleted": ("audit", "new-log", "--config", "table.toml")}


@dataclass
class DamageCase:
    kind: str
    seed: int
    verdict: str = ""
    detail: str = ""
    restored: bool | None = None
    messages: list[str] = field(default_factory=list)


def _flip(path: Path, rng: random.Random, count: int) -> None:
    data = bytearray(path.read_bytes())
    for _ in range(count):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _damage(kind: str, folder: Path, rng: random.Random) -> None:
    journal, wal = folder / "journal.sqlite", folder / "journal.sqlite-wal"
    if kind == "deleted":
        for f in (journal, wal, folder / "journal.sqlite-shm"):
            f.unlink(missing_ok=True)
    elif kind == "emptied":
        journal.write_bytes(b"")
    elif kind == "truncated":
        size = journal.stat().st_size
        os.truncate(journal, rng.randrange(0, size))
    elif kind == "flipped":
        _flip(journal, rng, rng.randint(1, 8))
    elif kind == "wal_deleted":
        wal.unlink()
        (folder / "journal.sqlite-shm").unlink(missing_ok=True)
    elif kind == "wal_truncated":
        os.truncate(wal, rng.randrange(0, wal.stat().st_size))
    elif kind == "wal_damaged":
        _flip(wal, rng, rng.randint(1, 8))
    elif kind == "anchor_deleted":
        (folder / "journal.anchor").unlink()
    elif kind == "log_deleted":
        for f in trail_files(folder / "events.jsonl"):
            f.unlink()


def _reading_commands(folder: Path, case: DamageCase) -> None:
    """Every reading command on the damaged table: no traceback, and not one byte written."""
    before = fingerprint(folder)
    for args in (("meters", "--config", "table.toml"), ("rounds", "--config", "table.toml"),
                 ("audit", "verify", "--config", "table.toml"), ("journal", "verify", "--config", "table.toml")):
        result = cli(folder, *args)
        if result.traceback:
            case.verdict, case.detail = "TRACEBACK", f"{' '.join(args)}: {result.traceback.splitlines()[-1]}"
            return
    after = fingerprint(folder)
    if after != before:
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        case.verdict, case.detail = "WROTE", f"a reading command changed {', '.join(changed)}"


def _lost(folder: Path, committed: list[tuple[int, str]]) -> str | None:
    """What of ``committed`` the journal in ``folder`` no longer holds (or holds changed); ``None`` when nothing."""
    try:
        now = dict(truth(folder))
    except RecordsError as exc:
        return f"the journal cannot be read after a start that went on: {exc}"
    missing = [seq for seq, h in committed if now.get(seq) != h]
    if missing:
        return f"{len(missing)} committed records missing or changed (seq {missing[0]}...)"
    reused = [seq for seq in now if committed and seq <= committed[-1][0] and seq not in dict(committed)]
    return f"sequence numbers reused: {reused[:5]}" if reused else None


def run_damage_case(kind: str, seed: int, work: Path) -> DamageCase:
    case = DamageCase(kind, seed)
    rng = random.Random(f"{kind}-{seed}")
    folder = work / f"{kind}-{seed}"
    folder.mkdir(parents=True)
    game = GAMES[seed % len(GAMES)] if kind not in ("disk_full", "disk_full_log") else "top-card"
    write_config(folder, game, log_dir="logs" if kind == "disk_full_log" else ".")
    init = cli(folder, "journal", "init", "--config", "table.toml")
    if init.rc != 0:
        case.verdict, case.detail = "SETUP", init.err
        return case
    play(folder, rng.randint(1, 4), rng.randrange(10**6))
    backup = cli(folder, "journal", "backup", "--config", "table.toml", "--to", "backup.sqlite")
    if backup.rc != 0:
        case.verdict, case.detail = "SETUP", backup.err
        return case
    if kind in ("disk_full", "disk_full_log"):
        return _disk_full(case, folder, rng)
    crash = kind.startswith("wal_")
    snapshot = folder / "snapshot"
    play(folder, rng.randint(1, 5), rng.randrange(10**6), snapshot=snapshot if crash else None)
    if crash:  # the table was killed: its files are as they were while it ran
        for item in folder.iterdir():
            if item.is_file():
                item.unlink()
        copy_files(snapshot, folder)
        shutil.rmtree(snapshot)
    committed = truth_while_crashed(folder) if crash else truth(folder)
    _damage(kind, folder, rng)
    _reading_commands(folder, case)
    if case.verdict:
        return case
    start = cli(folder, "run", "--config", "table.toml", "--rounds", "1", "--seed", str(seed))
    case.messages.append(start.err.strip())
    if start.traceback:
        case.verdict, case.detail = "TRACEBACK", start.traceback.splitlines()[-1]
        return case
    if start.rc == 0:
        lost = _lost(folder, committed)
        case.verdict, case.detail = ("SILENT LOSS", lost) if lost else ("intact", "started; every committed record is there")
        return case
    if start.rc not in (3, 4) or not any(name in start.err for name in ("journal.sqlite", "journal.anchor", "events.jsonl")):
        case.verdict, case.detail = "UNCLEAR", f"exit {start.rc}: {start.err.strip()[:300]}"
        return case
    case.verdict, case.detail = "stopped", start.err.strip().splitlines()[0][:400]
    remedy = REMEDY.get(kind, ("journal", "restore", "backup.sqlite", "--config", "table.toml"))
    fixed = cli(folder, *remedy)
    case.messages.append(fixed.out.strip() + fixed.err.strip())
    if fixed.traceback:
        case.verdict, case.detail = "TRACEBACK", f"{' '.join(remedy)}: {fixed.traceback.splitlines()[-1]}"
        return case
    again = cli(folder, "run", "--config", "table.toml", "--rounds", "1", "--seed", str(seed + 1))
    if again.traceback:
        case.verdict, case.detail = "TRACEBACK", again.traceback.splitlines()[-1]
        return case
    case.restored = fixed.rc == 0 and again.rc == 0 and _lost(folder, committed) is None
    if not case.restored:
        case.messages.append(f"remedy exit {fixed.rc}, restart exit {again.rc}: {again.err.strip()[:300]}")
    return case


def truth_while_crashed(folder: Path) -> list[tuple[int, str]]:
    """The committed records of a crash image, read from a copy (reading the image would recover its WAL)."""
    copy = folder.parent / f"{folder.name}-copy"
    copy_files(folder, copy)
    try:
        return truth(copy)
    finally:
        shutil.rmtree(copy)


def _disk_full(case: DamageCase, folder: Path, rng: random.Random) -> DamageCase:
    """A real full filesystem: a small tmpfs (in a user and mount namespace of its own) holding the table's files."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-r", "-m", "true"], capture_output=True).returncode:
        case.verdict, case.detail = "SKIPPED", "unshare (user and mount namespaces) is not available here"
        return case
    used = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) // 1024
    mount = "logs" if case.kind == "disk_full_log" else "."
    (folder / "logs").mkdir(exist_ok=True)
    logged = sum(p.stat().st_size for p in (folder / "logs").rglob("*") if p.is_file()) // 1024
    # room for what the table holds already (a tmpfs smaller than the log would cut it while copying it in), and a little more
    size = logged + rng.randint(8, 96) if case.kind == "disk_full_log" else used + rng.randint(24, 320)
    py = f"{sys.executable} -m controller.commands.cli"
    target = folder if mount == "." else folder / mount
    script = f"""
outside={folder}.outside; result={folder}.result; io={folder}.io
mkdir -p $outside $result $io && cp -a {target}/. $outside/
mount -t tmpfs -o size={size}k tmpfs {target} || exit 99
cd {folder} && cp -a $outside/. {target}/
{py} run --config table.toml --rounds 600 --seed {case.seed} > $io/full.out 2> $io/full.err; echo $? > $io/full.rc
mount -o remount,size=64m {target}
{py} run --config table.toml --rounds 2 --seed {case.seed + 1} > $io/again.out 2> $io/again.err; echo $? > $io/again.rc
{py} journal verify --config table.toml > $io/verify.out 2>&1; echo $? > $io/verify.rc
{py} audit verify --config table.toml > $io/audit.out 2>&1; echo $? > $io/audit.rc
cp -a {folder}/. $result/
cd / && umount {target}
cp -a $result/. {folder}/ && cp -a $io/. {folder}/ && rm -rf $outside $result $io
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(["unshare", "-r", "-m", "sh", "-c", script], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode == 99 or not (folder / "full.rc").exists():
        case.verdict, case.detail = "SKIPPED", f"tmpfs could not be mounted: {done.stderr.strip()[:200]}"
        return case

    def read(name: str) -> str:
        return (folder / name).read_text() if (folder / name).exists() else ""

    full_rc, again_rc = int(read("full.rc") or -9), int(read("again.rc") or -9)
    full_err = read("full.err")
    case.messages += [full_err.strip(), read("again.err").strip(), read("verify.out").strip(), read("audit.out").strip()]
    if "Traceback" in full_err or "Traceback" in read("again.err"):
        case.verdict, case.detail = "TRACEBACK", full_err.strip().splitlines()[-1]
        return case
    played = [line.split()[0] for line in read("full.out").splitlines() if line.startswith(table_id(folder) + "-")]
    if full_rc != 3 or "full" not in full_err or ("journal.sqlite" not in full_err and "events.jsonl" not in full_err
                                                   and "journal.anchor" not in full_err):
        case.verdict, case.detail = "UNCLEAR", f"exit {full_rc} on a full disk: {full_err.strip()[:300]}"
        return case
    case.verdict, case.detail = "stopped", full_err.strip().splitlines()[0][:400]
    try:
        with Journal(folder / "journal.sqlite", table_id=table_id(folder), readonly=True) as journal:
            ended = {row.id for row in journal.rounds() if row.ended_seq is not None}
    except RecordsError as exc:
        case.restored, case.detail = False, str(exc)
        return case
    case.restored = again_rc == 0 and read("verify.rc").strip() == "0" and read("audit.rc").strip() == "0" and set(played) <= ended
    return case


# -- the tamper suite ----------------------------------------------------------------------------------------


@dataclass
class Trail:
    folder: Path
    files: list[Path]
    public: PublicKey
    sent: dict[str, Checkpoint] = field(default_factory=dict)
    """Every checkpoint the table's journal held after each session, as its outbox would have sent them to the floor."""

    def view(self) -> JournalView:
        with Journal(self.folder / "journal.sqlite", table_id=table_id(self.folder), readonly=True) as journal:
            return JournalView({r["seq"]: r for r in journal.stored()}, [c for _, c in journal.checkpoints()],
                               journal.last_seq, journal.first_seq, dict(journal.chain_hashes()),
                               [(first, last) for first, last, _, _ in journal.gaps()])

    def floor(self) -> FloorCopy:
        """The floor's copy of the trail's checkpoints, with the table's key as the floor enrolled it."""
        return FloorCopy(table_id(self.folder), self.public, list(self.sent.values()), "the floor's copy")

    def keep_sent(self) -> None:
        """What the outbox would have published by now: the journal's checkpoints (read from a copy: a crash image
        read in place would recover its WAL)."""
        copy = self.folder.parent / f"{self.folder.name}-sent"
        copy_files(self.folder, copy)
        try:
            with Journal(copy / "journal.sqlite", table_id=table_id(copy), readonly=True) as journal:
                for i, body in journal.checkpoints():
                    checkpoint = Checkpoint(i, body)
                    self.sent.setdefault(checkpoint.message().decode(), checkpoint)
        finally:
            shutil.rmtree(copy)

    def lines(self) -> list[bytes]:
        return [line for f in self.files for line in f.read_bytes().splitlines(keepends=True)]


def honest_trail(folder: Path, seed: int) -> Trail:
    """A table's trail over several sessions: restarts, a crash now and then, rotation on some tables, a run without a journal."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    rotate = rng.random() < 0.3
    write_config(folder, GAMES[seed % len(GAMES)], max_bytes=rng.randint(20_000, 60_000) if rotate else None)
    assert cli(folder, "journal", "init", "--config", "table.toml").rc == 0
    trail = Trail(folder, [], PublicKey.load(folder / "journal.pub"))
    for _ in range(rng.randint(2, 4)):
        if rng.random() < 0.25:  # killed: the files as they were while it ran
            snapshot = folder / "snapshot"
            play(folder, rng.randint(1, 3), rng.randrange(10**6), snapshot=snapshot)
            for item in folder.iterdir():
                if item.is_file():
                    item.unlink()
            copy_files(snapshot, folder)
            shutil.rmtree(snapshot)
            if rng.random() < 0.5:  # the kill tore the log's last line
                log = folder / "events.jsonl"
                os.truncate(log, log.stat().st_size - rng.randint(1, 40))
        else:
            play(folder, rng.randint(1, 3), rng.randrange(10**6))
        trail.keep_sent()
    result = cli(folder, "run", "--config", "table.toml", "--rounds", "1", "--seed", str(seed))
    assert result.rc == 0, result.err
    trail.keep_sent()
    trail.files = trail_files(folder / "events.jsonl")
    return trail


def check(trail: Trail, lines: Sequence[bytes] | None = None, *, with_journal: bool = True, with_floor: bool = False) -> Report:
    """Verify the trail (or ``lines`` written in its place) as a lab would: the table's public key and its journal
    (and with ``with_floor`` the floor's copy of its checkpoints)."""
    files = trail.files
    if lines is not None:
        tampered = trail.folder / "tampered.jsonl"
        tampered.write_bytes(b"".join(lines))
        files = [tampered]
    return verify(files, trail.public, trail.view() if with_journal else None, trail.floor() if with_floor else None)


def _hash(line: bytes) -> str:
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def _relink(lines: list[bytes], start: int, key: Ed25519PrivateKey | None) -> list[bytes]:
    """Recompute ``prev`` (and re-sign with ``key``, or drop ``sig``) from ``start`` on: what someone without the table's key can do."""
    out = list(lines[:start])
    for raw in lines[start:]:
        body, _ = split_signature(raw.rstrip(b"\n"))
        try:
            record = json.loads(body)
        except ValueError:
            out.append(raw)
            continue
        if out:
            record["prev"] = _hash(out[-1])
        text = json.dumps(record, separators=(",", ":")).encode()
        if key is not None:
            text = text[:-1] + f',"sig":"{base64.b64encode(key.sign(LINE_LABEL + text)).decode()}"}}'.encode()
        out.append(text + b"\n")
    return out


def _edit(raw: bytes, rng: random.Random) -> bytes:
    """Change one value of a record the way a fraud would (an amount, a card, a round, an event)."""
    body, sig = split_signature(raw.rstrip(b"\n"))
    try:
        record = json.loads(body)
    except ValueError:  # a line torn by a crash, kept in the trail as it was: change one of its bytes
        line = raw.rstrip(b"\n")
        at = rng.randrange(len(line))
        return line[:at] + (b"X" if line[at : at + 1] != b"X" else b"Y") + line[at + 1 :] + b"\n"
    candidates = [k for k, v in record.items() if k not in ("prev", "n") and isinstance(v, (int, str)) and not isinstance(v, bool)]
    name = rng.choice(candidates)
    value = record[name]
    record[name] = value + rng.choice((1, 100, 5000)) if isinstance(value, int) else (value[:-1] + ("X" if value[-1:] != "X" else "Y")
                                                                                     if value else "X")
    text = json.dumps(record, separators=(",", ":")).encode()
    if sig is not None:
        text = text[:-1] + f',"sig":"{sig}"}}'.encode()
    return text + b"\n"


TAMPERS: dict[str, Callable[[list[bytes], random.Random, Ed25519PrivateKey], list[bytes]]] = {}


def tamper(name: str) -> Callable[[Callable[[list[bytes], random.Random, Ed25519PrivateKey], list[bytes]]],
                                  Callable[[list[bytes], random.Random, Ed25519PrivateKey], list[bytes]]]:
    def register(fn: Callable[[list[bytes], random.Random, Ed25519PrivateKey], list[bytes]]) -> Any:
        TAMPERS[name] = fn
        return fn
    return register


@tamper("edit")
def _t_edit(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    return [*lines[:i], _edit(lines[i], rng), *lines[i + 1 :]]


@tamper("edit and relink")
def _t_edit_relink(lines: list[bytes], rng: random.Random, other: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    return _relink([*lines[:i], _edit(lines[i], rng), *lines[i + 1 :]], i, other if rng.random() < 0.5 else None)


@tamper("delete a line")
def _t_delete(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    return [*lines[:i], *lines[i + 1 :]]


@tamper("delete lines and relink")
def _t_delete_relink(lines: list[bytes], rng: random.Random, other: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    j = min(len(lines), i + rng.randint(1, 8))
    return _relink([*lines[:i], *lines[j:]], i, other if rng.random() < 0.5 else None)


@tamper("delete a range")
def _t_delete_range(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    return [*lines[:i], *lines[min(len(lines), i + rng.randint(2, 20)) :]]


@tamper("reorder")
def _t_reorder(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    i, j = sorted(rng.sample(range(len(lines)), 2))
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return out


@tamper("move a line")
def _t_move(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    out = list(lines)
    line = out.pop(rng.randrange(len(out)))
    out.insert(rng.randrange(len(out) + 1), line)
    return out if out != lines else _t_reorder(lines, rng, _)


@tamper("truncate whole lines")
def _t_truncate(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    return lines[: len(lines) - rng.randint(1, min(len(lines) - 1, 30))]


@tamper("truncate at a byte")
def _t_truncate_bytes(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    data = b"".join(lines)
    cut = rng.randrange(max(1, len(data) - 4000), len(data) - 1)
    return [data[:cut]]


@tamper("append a forged record")
def _t_append(lines: list[bytes], rng: random.Random, other: Ed25519PrivateKey) -> list[bytes]:
    last = json.loads(split_signature(lines[-1].rstrip(b"\n"))[0])
    forged = {"table": last.get("table"), "round": "forged", "seq": 10**6, "event": WagerSettled.EVENT, "spot": 1,
              "wager": "home", "stake": 500, "returned": 500_000, "n": last.get("n", 0) + 1, "prev": _hash(lines[-1])}
    text = json.dumps(forged, separators=(",", ":")).encode()
    style = rng.randrange(3)
    if style == 1:
        text = text[:-1] + f',"sig":"{base64.b64encode(other.sign(LINE_LABEL + text)).decode()}"}}'.encode()
    elif style == 2:
        text = text[:-1] + f',"sig":"{base64.b64encode(os.urandom(64)).decode()}"}}'.encode()
    return [*lines, text + b"\n"]


@tamper("append a replayed line")
def _t_replay(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    return [*lines, lines[rng.randrange(len(lines))]]


@tamper("insert a copy")
def _t_insert(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    i = rng.randrange(len(lines))
    return [*lines[:i], lines[rng.randrange(len(lines))], *lines[i:]]


@tamper("rewrite the whole log")
def _t_rewrite(lines: list[bytes], rng: random.Random, other: Ed25519PrivateKey) -> list[bytes]:
    edited = list(lines)
    if rng.random() < 0.7:
        i = rng.randrange(len(edited))
        edited[i] = _edit(edited[i], rng)
    return _relink(edited, 0, other if rng.random() < 0.7 else None)


@tamper("remove a chain")
def _t_remove_chain(lines: list[bytes], rng: random.Random, _: Ed25519PrivateKey) -> list[bytes]:
    starts = [i for i, raw in enumerate(lines) if b'"event":"chain_started"' in raw]
    if len(starts) < 2:
        return _t_delete_range(lines, rng, _)
    k = rng.randrange(len(starts))
    end = starts[k + 1] if k + 1 < len(starts) else len(lines)
    return [*lines[: starts[k]], *lines[end:]]


def tamperings(trail: Trail, count: int, rng: random.Random, other: Ed25519PrivateKey, *,
               first: int = 0) -> list[tuple[str, list[bytes]]]:
    """``count`` tamperings of the trail, each kind in turn from the ``first``-th, as (kind, the tampered lines).

    (A suite that takes fewer per trail than there are kinds passes ``first`` on, so every kind is tried.)
    """
    lines = trail.lines()
    names = sorted(TAMPERS)
    out = []
    for n in range(first, first + count):
        tampered = TAMPERS[names[n % len(names)]](lines, rng, other)
        if tampered != lines:
            out.append((names[n % len(names)], tampered))
    return out
