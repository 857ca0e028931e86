"""Checking a table's event log (``controller.records.audit``): intact, or exactly what was changed, added, removed or cut off.

``verify(files, public_key, journal)`` reads the trail's files (oldest first)
and reports:

- **changed**: a line whose signature no longer matches it;
- **added**: a line not signed by the table's key (written by someone without it);
- **removed**: lines missing between two genuine lines (their numbers ``n`` jump);
- **moved** or **repeated**: a genuine line out of its place, or a copy of one;
- **cut off**: the trail ends before a head the journal's signed checkpoints
  saw, or before records the journal holds;
- **differs from the journal**: a genuine line and the journal disagree (the journal was changed);
- **damaged**: a line that is not a JSON record (a line torn by a crash and declared by the next start is not).

Given the floor's copy of the table's signed checkpoints (:class:`FloorCopy`,
``tablectl floor checkpoints``), the table's key is the one the floor enrolled
(not the ``.pub`` on the table's disk, which whoever holds the disk may have
replaced along with the key, the log and the journal's own checkpoints), and
the journal and the log must still reach every head the floor holds: a journal
or log cut back, or rewound to an older copy with its anchor, ends before the
floor's newest checkpoint (**cut off**); a journal whose records were rewritten
no longer has the hashes the table signed (**changed**).

A trail whose lines are all genuine, linked and complete is *intact*, in N
chains (one per start of a process: a restart is a new chain, never a
problem). An empty trail is reported as *empty*, not intact.

Signatures are checked lazily: every line's link (``prev``, the hash of the
line before) is checked, and in each run of linked lines the last line's
signature vouches for all of them (each signature covers the hash of the line
before it); only where a run ends in a bad signature is it bisected to find
the first bad line. A trail of a million lines verifies at hashing speed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.records.audit import GENESIS, MARKERS, line_hash, split_signature
from controller.records.chain import ranges
from controller.records.checkpoints import Checkpoint, FloorCopy
from controller.records.excerpt import rounds_held
from controller.records.keys import LINE_LABEL, PublicKey, checkpoint_signed_by

LOG_ONLY = frozenset({"n", "prev", "sig"})
"""Fields the trail adds to a journaled record."""


@dataclass
class Line:
    where: str
    raw: bytes
    record: dict[str, Any] | None
    hash: str
    body: bytes
    sig: str | None
    torn: bool = False
    genuine: bool | None = None

    @property
    def n(self) -> int | None:
        value = (self.record or {}).get("n")
        return value if isinstance(value, int) else None

    @property
    def prev(self) -> str | None:
        value = (self.record or {}).get("prev")
        return value if isinstance(value, str) else None

    def describe(self) -> str:
        record = self.record or {}
        what = [f"n {self.n}" if self.n is not None else None,
                f"seq {record['seq']}" if isinstance(record.get("seq"), int) else None,
                str(record.get("event")) if record.get("event") else None,
                f"round {record['round']}" if record.get("round") else None]
        return f"{self.where} (" + ", ".join(w for w in what if w) + ")"


@dataclass(frozen=True)
class Finding:
    kind: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


@dataclass
class ChainInfo:
    start: str
    started: str | None
    previous: str | None
    journaled: bool
    records: int = 0
    seqs: list[int] = field(default_factory=list)
    closed: bool = False


@dataclass
class JournalView:
    """What the verifier needs of the journal: its records by seq, its checkpoints, its head."""

    records: dict[int, dict[str, Any]]
    checkpoints: list[dict[str, Any]]
    last_seq: int
    first_seq: int = 1
    hashes: dict[int, str] = field(default_factory=dict)
    """Each record's chain hash (what a checkpoint signs): needed to compare with the floor's checkpoints."""
    gaps: list[tuple[int, int]] = field(default_factory=list)
    """Sequence numbers declared lost by a person on restoring (first, last)."""


@dataclass
class Report:
    files: list[str]
    lines: int = 0
    records: int = 0
    chains: list[ChainInfo] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    key: str | None = None
    empty: bool = False

    @property
    def ok(self) -> bool:
        return not self.findings and not self.empty

    @property
    def problems(self) -> list[str]:
        return [str(f) for f in self.findings]

    def summary(self) -> str:
        if self.empty:
            return f"EMPTY: {', '.join(self.files)} holds no records"
        if self.ok:
            signed = f", every line signed by {self.key}" if self.key else ", signatures NOT checked (no public key)"
            return f"intact: {self.records} records in {self.lines} lines, {len(self.chains)} chain(s){signed}"
        kinds = sorted({f.kind for f in self.findings})
        return f"TAMPERED OR DAMAGED: {len(self.findings)} finding(s) ({', '.join(kinds)})"

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "empty": self.empty, "summary": self.summary(), "files": self.files, "lines": self.lines,
                "records": self.records, "key": self.key,
                "chains": [{"start": c.start, "started": c.started, "previous": c.previous, "journaled": c.journaled,
                            "records": c.records, "seqs": ranges(c.seqs), "closed": c.closed} for c in self.chains],
                "findings": [{"kind": f.kind, "text": f.text} for f in self.findings], "notes": self.notes}


def _lines(paths: Sequence[Path], report: Report) -> list[Line]:
    lines: list[Line] = []
    for path in paths:
        data = path.read_bytes()
        parts = data.split(b"\n")
        unterminated = parts.pop()
        if unterminated:
            parts.append(unterminated)
        for number, raw in enumerate(parts, 1):
            try:
                record = json.loads(raw)
            except ValueError:
                record = None
            body, sig = split_signature(raw)
            lines.append(Line(f"{path}:{number}", raw, record if isinstance(record, dict) else None, line_hash(raw), body, sig))
        if unterminated:
            lines[-1].torn = True  # cut short without its newline: declared by a later start, or the end of this trail
    return lines


def _declared_torn(lines: list[Line], report: Report) -> list[Line]:
    """The lines that count: a torn line the next record declares (by hash and length) is set aside as a note."""
    kept: list[Line] = []
    for i, line in enumerate(lines):
        following = lines[i + 1].record if i + 1 < len(lines) else None
        if following and following.get("event") == "log_tail_torn" and following.get("torn_sha256") == line.hash:
            report.notes.append(f"{line.where}: a line cut short when the controller stopped ({len(line.raw)} bytes, "
                                "declared by the next record)")
            continue
        kept.append(line)
    return kept


def verify(paths: Sequence[str | Path], public_key: PublicKey | None = None, journal: JournalView | None = None,
           floor: FloorCopy | None = None, *, excerpt: bool = False) -> Report:
    """Check the trail in ``paths`` (oldest first) against the table's public key and, given them, the journal and
    the floor's copy of the table's checkpoints (whose enrolled key then is the table's key).

    ``excerpt``: the lines are a run cut from the trail (``tablectl round ID --signed FILE``): that lines came before
    and after them is expected; each must still be the table's, in its place, with none missing between them."""
    files = [Path(p) for p in paths]
    findings: list[Finding] = []
    if floor is not None and floor.key is not None:
        if public_key is not None and public_key.fingerprint != floor.key.fingerprint:
            findings.append(Finding("key", f"the public key {public_key.source} ({public_key.fingerprint}) is not the key the floor "
                                           f"enrolled for table {floor.table} ({floor.key.fingerprint}): the table's key was "
                                           "replaced; the records are checked with the floor's"))
        public_key = floor.key
    report = Report([str(p) for p in files], key=public_key.fingerprint if public_key else None, findings=findings)
    lines = _declared_torn(_lines(files, report), report)
    report.lines = len(lines)
    if not lines:
        report.empty = True
        if floor is not None:
            _against_floor([], journal, floor, report)
        return report
    for line in lines:
        if line.record is None:
            report.findings.append(Finding("damaged", f"{line.where} is not a JSON record ({len(line.raw)} bytes): "
                                                      "edited or damaged"))
    parsed = [line for line in lines if line.record is not None]
    _authenticate(parsed, public_key, report)
    _links(parsed, report, excerpt=excerpt)
    _chains(parsed, report)
    if parsed and parsed[-1].torn:
        report.notes.append(f"{parsed[-1].where}: the last line has no line end (written just before a stop)")
    if excerpt:
        numbers = [line.n for line in parsed if line.n is not None]
        span = f"lines {min(numbers)} to {max(numbers)}" if numbers else "no numbered line"
        report.notes.append(f"an excerpt of the table's trail ({span}): it shows that these lines are the table's, "
                            "unchanged, in their order and none missing between them; not what came before or after")
        report.notes += rounds_held([line.record for line in parsed if line.record is not None and line.genuine])
    elif journal is not None:
        _against_journal(parsed, journal, public_key, report)
    elif floor is None:
        report.notes.append("the end is not anchored: give the journal (--journal or --config) to find lines cut off the end")
    if floor is not None:
        _against_floor(parsed, journal, floor, report)
    return report


def _signed(line: Line, public_key: PublicKey) -> bool:
    if line.genuine is None:
        line.genuine = line.sig is not None and line.n is not None and public_key.verify(line.sig, LINE_LABEL, line.body)
    return line.genuine


def _authenticate(lines: list[Line], public_key: PublicKey | None, report: Report) -> None:
    """Mark each line genuine or not, checking one signature per run of linked lines (bisecting a run that ends badly)."""
    if public_key is None:
        for line in lines:
            line.genuine = True
        report.notes.append("signatures NOT checked: no public key given (--public-key or --config): the links alone "
                            "do not show that the log was not rewritten")
        return
    runs: list[list[Line]] = []
    for line in lines:
        if runs and line.prev == runs[-1][-1].hash:
            runs[-1].append(line)
        else:
            runs.append([line])
    for run in runs:
        if _signed(run[-1], public_key):
            for line in run:
                line.genuine = True
            continue
        good, bad = -1, len(run) - 1  # run[good] is genuine (or none), run[bad] is not
        while bad - good > 1:
            mid = (good + bad) // 2
            if _signed(run[mid], public_key):
                good = mid
            else:
                bad = mid
        for i, line in enumerate(run):
            line.genuine = i <= good
    fakes = [i for i, line in enumerate(lines) if not line.genuine]
    if fakes and len(fakes) == len(lines):
        named = sorted({str(line.record.get("key")) for line in lines if line.record and line.record.get("event") == "chain_started"})
        report.findings.append(Finding("added", f"no line is signed by the table's key {public_key.fingerprint}: the whole log was "
                                                f"written or rewritten without it (its chains name key(s) {', '.join(named) or 'none'}), "
                                                "or this is not the table's public key"))
        return
    groups: list[list[int]] = []
    for i in fakes:
        if groups and groups[-1][-1] == i - 1:
            groups[-1].append(i)
        else:
            groups.append([i])
    for group in groups:
        first, last = lines[group[0]], lines[group[-1]]
        span = first.describe() if len(group) == 1 else f"{first.describe()} to {last.describe()}"
        at_end = group[-1] == len(lines) - 1
        if all(lines[i].sig is None for i in group):
            report.findings.append(Finding("added", f"{span}: not signed: written by someone without the table's key"
                                                    + (" (appended at the end)" if at_end else "")))
        else:
            report.findings.append(Finding("changed" if not at_end else "added",
                                           f"{span}: does not match its signature: changed after it was written"
                                           + (", or added at the end with a forged signature" if at_end else "")))


def _links(lines: list[Line], report: Report, *, excerpt: bool = False) -> None:
    """Breaks in the chain between genuine lines: lines removed, moved or repeated; the trail's beginning (of an
    ``excerpt``, whatever line it begins at)."""
    seen: dict[str, Line] = {}
    last: Line | None = None  # the last genuine line
    between = 0  # lines that are not genuine since it
    for line in lines:
        if not line.genuine:
            between += 1
            continue
        if last is None:
            first_n = line.n or 0
            if (line.prev == GENESIS and first_n == 1) or (excerpt and between == 0):
                pass
            elif (line.record or {}).get("event") == "log_rotated":
                report.notes.append(f"{line.where}: the trail given begins at line {first_n}, in a rotated file (older files not "
                                    "given, or removed by retention)")
            elif first_n - 1 > between:
                report.findings.append(Finding("removed", f"the first {first_n - 1 - between} line(s) of the trail are missing "
                                                          f"before {line.describe()}"))
        elif line.hash in seen:
            report.findings.append(Finding("repeated", f"{line.describe()} is a copy of {seen[line.hash].where}"))
        elif (line.n or 0) <= (last.n or 0):
            origin = next((p for p in seen.values() if p.hash == line.prev), None)
            report.findings.append(Finding("moved", f"{line.describe()} is out of its place, after {last.where}"
                                                    + (f" (it followed {origin.where})" if origin else "")))
        elif (between == 0 and line.prev != last.hash) or (line.n or 0) - (last.n or 0) - 1 > between:
            gap_from, gap_to = (last.n or 0) + 1, (line.n or 0) - 1
            if line.prev in seen and seen[line.prev] is not last:
                report.findings.append(Finding("moved", f"{line.describe()} is out of its place: it followed {seen[line.prev].where}"))
            else:
                report.findings.append(Finding("removed", f"{gap_to - gap_from + 1 - between} line(s) (n {gap_from}-{gap_to}) "
                                                          f"removed between {last.where} and {line.describe()}"))
        seen.setdefault(line.hash, line)
        last, between = line, 0


def _chains(lines: list[Line], report: Report) -> None:
    current: ChainInfo | None = None
    for line in lines:
        record = line.record or {}
        event = record.get("event")
        if event == "chain_started" and line.genuine:
            current = ChainInfo(line.where, record.get("timestamp"), record.get("previous"), bool(record.get("journaled")))
            report.chains.append(current)
            continue
        if current is None:
            current = ChainInfo(line.where, None, "begins in an earlier file", True)
            report.chains.append(current)
        if event == "chain_closed":
            current.closed = True
        elif event not in MARKERS:
            report.records += 1
            current.records += 1
            if isinstance(record.get("seq"), int):
                current.seqs.append(int(record["seq"]))


def _journaled_records(lines: list[Line]) -> dict[int, Line]:
    """The genuine lines of journaled chains, by seq."""
    out: dict[int, Line] = {}
    journaled = True
    for line in lines:
        record = line.record or {}
        if record.get("event") == "chain_started":
            journaled = bool(record.get("journaled", True))
        elif journaled and line.genuine and isinstance(record.get("seq"), int) and record.get("event") not in MARKERS:
            out.setdefault(int(record["seq"]), line)
    return out


def _against_journal(lines: list[Line], journal: JournalView, public_key: PublicKey | None, report: Report) -> None:
    logged = _journaled_records(lines)
    differ = []
    for seq, line in sorted(logged.items()):
        kept = journal.records.get(seq)
        if kept is None:
            continue
        entry = {k: v for k, v in (line.record or {}).items() if k not in LOG_ONLY}
        if entry != kept:
            fields = sorted(k for k in entry.keys() | kept.keys() if entry.get(k) != kept.get(k))
            differ.append(f"seq {seq} ({', '.join(f'{k}: log {entry.get(k)!r}, journal {kept.get(k)!r}' for k in fields[:3])})")
    if differ:
        report.findings.append(Finding("differs from the journal", f"{len(differ)} genuine log record(s) differ from the journal's "
                                                                   f"(the journal was changed): {'; '.join(differ[:5])}"))
    first_logged = min(logged) if logged else None
    last_logged = max(logged) if logged else 0
    if first_logged is not None:
        absent = [s for s in journal.records if first_logged <= s <= last_logged and s not in logged]
        if absent and not any(f.kind in ("removed", "changed", "added", "damaged") for f in report.findings):
            report.findings.append(Finding("removed", f"journal records seq {ranges(absent)} are missing from the log"))
    if journal.last_seq > last_logged and journal.records:
        beyond = [s for s in journal.records if s > last_logged]
        report.findings.append(Finding("cut off", f"the log's records end at seq {last_logged}; the journal holds seq "
                                                  f"{ranges(beyond)} after it (lines cut off the end, or never written)"))
    _against_checkpoints(lines, journal, public_key, report)


def _against_checkpoints(lines: list[Line], journal: JournalView, public_key: PublicKey | None, report: Report) -> None:
    """The newest signed checkpoint of the trail's head must be in the trail: otherwise lines were cut off the end."""
    heads = [c for c in journal.checkpoints if isinstance(c.get("log"), dict) and isinstance(c["log"].get("n"), int)]
    if not heads:
        return
    if public_key is not None:
        forged = [c for c in heads if not checkpoint_signed_by(c, public_key)]
        if forged:
            report.findings.append(Finding("changed", f"{len(forged)} of the journal's checkpoints are not signed by the table's key "
                                                      f"(the newest at {forged[-1].get('at')})"))
            heads = [c for c in heads if c not in forged]
            if not heads:
                return
    newest = heads[-1]["log"]
    by_n = {line.n: line for line in lines if line.n is not None and line.genuine}
    last_n = max(by_n) if by_n else 0
    at = heads[-1].get("at")
    if newest["n"] > last_n:
        report.findings.append(Finding("cut off", f"the log ends at line {last_n}; the journal's checkpoint of {at} saw line "
                                                  f"{newest['n']} (seq {newest.get('seq')}): {newest['n'] - last_n} line(s) cut off the end"))
    elif newest["n"] in by_n and by_n[newest["n"]].hash != newest.get("head"):
        report.findings.append(Finding("changed", f"line {newest['n']} is not the line the journal's checkpoint of {at} saw"))


def _against_floor(lines: list[Line], journal: JournalView | None, floor: FloorCopy, report: Report) -> None:
    """The journal and the log must still reach every head the floor holds, with the hashes the table signed.

    A checkpoint's signature is checked only where it is used (the newest heads, and any whose hash the journal
    contradicts): each chain hash covers everything before it, so an honest copy costs a signature or two.
    """
    held = sorted(floor.checkpoints, key=_order)
    if floor.key is None:
        report.notes.append(f"the floor's copy ({floor.source}) names no enrolled key for {floor.table}: its checkpoints are "
                            "compared unverified")
    verdicts: dict[int, bool] = {}

    def genuine(checkpoint: Checkpoint) -> bool:
        if id(checkpoint) not in verdicts:
            verdicts[id(checkpoint)] = floor.key is None or checkpoint.signed_by(floor.key)
        return verdicts[id(checkpoint)]

    newest = next((c for c in reversed(held) if genuine(c)), None)
    if newest is None:
        report.notes.append(f"the floor holds no checkpoint of table {floor.table} ({floor.source})")
    else:
        report.notes.append(f"compared with {len(held)} checkpoint(s) the floor holds of {floor.table}, the newest of journal "
                            f"seq {newest.journal_seq} signed at {newest.body.get('at')}")
        if journal is not None:
            _journal_against_floor(journal, [c for c in held if c.journal_seq not in journal.hashes
                                             or journal.hashes[c.journal_seq] == c.journal_hash or genuine(c)], newest, report)
        logged = next((c for c in reversed(held) if c.log is not None and isinstance(c.log.get("n"), int) and genuine(c)), None)
        if logged is not None:
            _log_against_floor(lines, logged, report)
    forged = sum(1 for ok in verdicts.values() if not ok)
    if forged and floor.key is not None:
        report.findings.append(Finding("changed", f"{forged} of the floor's checkpoints in {floor.source} are not signed by the "
                                                  f"key the floor enrolled ({floor.key.fingerprint}): that copy was changed "
                                                  "after it left the floor; they are left out"))


def _order(checkpoint: Checkpoint) -> tuple[int, str, int]:
    """Checkpoints in the order the table signed them: by journal seq (never reused), then time, then id (an id is
    reused by a journal put back from a backup; a checkpoint of the log alone repeats the journal's seq)."""
    return checkpoint.journal_seq, str(checkpoint.body.get("at") or ""), checkpoint.id


def _declared_lost(journal: JournalView, seq: int) -> bool:
    return any(first <= seq <= last for first, last in journal.gaps)


def _journal_against_floor(journal: JournalView, held: list[Checkpoint], newest: Checkpoint, report: Report) -> None:
    if newest.journal_seq > journal.last_seq:
        report.findings.append(Finding("cut off", f"the journal ends at seq {journal.last_seq}; the floor holds the table's "
                                                  f"checkpoint of seq {newest.journal_seq} signed at {newest.body.get('at')}: "
                                                  f"records {journal.last_seq + 1}-{newest.journal_seq} were cut off (the "
                                                  "journal was cut back, or put back to an older copy)"))
    differ = [c for c in held if c.journal_seq in journal.hashes and journal.hashes[c.journal_seq] != c.journal_hash]
    if differ:
        first = min(differ, key=lambda c: c.journal_seq)
        report.findings.append(Finding("changed", f"{len({c.journal_seq for c in differ})} journal record(s) are not the ones "
                                                  f"the table signed in the floor's checkpoints, from seq {first.journal_seq} "
                                                  f"(signed at {first.body.get('at')}): the journal was rewritten"))
    lost = sorted({c.journal_seq for c in held if c.journal_seq not in journal.hashes and c.journal_seq <= journal.last_seq
                   and c.journal_seq >= journal.first_seq and _declared_lost(journal, c.journal_seq)})
    if lost:
        report.notes.append(f"the floor's checkpoints saw seq {ranges(lost)}, declared lost on the table when it was restored: "
                            "the floor's copy of those records is the one to keep")


def _log_against_floor(lines: list[Line], newest: Checkpoint, report: Report) -> None:
    """The log must reach the newest head of it the floor holds (since the log last began anew), with that line."""
    head = newest.log or {}
    by_n = {line.n: line for line in lines if line.n is not None and line.genuine}
    last_n = max(by_n) if by_n else 0
    at = newest.body.get("at")
    if head["n"] > last_n:
        report.findings.append(Finding("cut off", f"the log ends at line {last_n}; the floor holds the table's checkpoint of "
                                                  f"{at}, which saw line {head['n']} (seq {head.get('seq')}): "
                                                  f"{head['n'] - last_n} line(s) cut off the end"))
    elif head["n"] in by_n and by_n[head["n"]].hash != head.get("head"):
        report.findings.append(Finding("changed", f"line {head['n']} of the log is not the line the table signed in the "
                                                  f"floor's checkpoint of {at}"))
