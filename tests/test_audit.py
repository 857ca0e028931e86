"""The signed event log: every kind of tampering is found and named; restarts, crashes and rotation are not flagged."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from controller.commands.cli import main
from controller.engine.log import EventLog
from controller.events import ShoeShuffled, WagerSettled
from controller.records import legacy
from controller.records.audit import ChainedFile, split_signature
from controller.records.journal import Journal
from controller.records.keys import LINE_LABEL, SigningKey
from controller.records.verify import JournalView, Report, verify
from tests.helpers import new_journal


class Table:
    """A journal, its key and its signed trail, written through the real event log."""

    def __init__(self, tmp_path: Path) -> None:
        self.dir = tmp_path
        self.path = tmp_path / "events.jsonl"
        self.key = SigningKey.generate(tmp_path / "T1.key")
        new_journal(tmp_path / "j.sqlite", key=self.key).close()

    def session(self, events: int = 6, *, max_bytes: int | None = None, close: bool = True) -> None:
        journal = Journal(self.dir / "j.sqlite", table_id="T1", key=self.key)
        trail = ChainedFile(self.path, table_id="T1", key=self.key, max_bytes=max_bytes, backups=9,
                            journal_seq=journal.last_seq)
        journal.log_head = trail.position
        log = EventLog("T1", json_stream=trail, journal=journal)  # type: ignore[arg-type]
        for record in journal.stored(after_seq=trail.last_seq):
            log.write_stored(record)
        for n in range(events):
            log.emit(ShoeShuffled(shuffle=n, burn=1))
        if close:
            trail.close()
            journal.checkpoint()
            journal.close()
        else:  # killed: no chain_closed, no last checkpoint
            trail._file.close()
            trail._lock.release()
            journal.close()

    def view(self) -> JournalView:
        with Journal(self.dir / "j.sqlite", table_id="T1", readonly=True) as journal:
            return JournalView({r["seq"]: r for r in journal.stored()}, [c for _, c in journal.checkpoints()], journal.last_seq)

    def verify(self, files: list[Path] | None = None) -> Report:
        return verify(files or [self.path], self.key.public, self.view())

    def lines(self) -> list[bytes]:
        return self.path.read_bytes().splitlines(keepends=True)

    def write(self, lines: list[bytes]) -> None:
        self.path.write_bytes(b"".join(lines))


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.session()
    t.session()
    return t


def kinds(report: Report) -> set[str]:
    return {f.kind for f in report.findings}


def test_an_honest_trail_with_a_restart_is_intact_in_two_chains(table: Table) -> None:
    report = table.verify()
    assert report.ok, report.problems
    assert len(report.chains) == 2 and report.records == 12
    assert report.chains[1].previous == "closed" and all(c.closed for c in report.chains)
    assert "intact" in report.summary() and table.key.fingerprint in report.summary()


def test_every_line_is_numbered_chained_and_signed(table: Table) -> None:
    lines = table.lines()
    first = json.loads(lines[0])
    assert first["event"] == "chain_started" and first["n"] == 1 and first["prev"] == "0" * 64
    body, sig = split_signature(lines[3].rstrip(b"\n"))
    assert sig is not None and table.key.public.verify(sig, LINE_LABEL, body)
    assert [json.loads(line)["n"] for line in lines] == list(range(1, len(lines) + 1))


def test_an_edited_record_is_named_as_changed(table: Table) -> None:
    lines = table.lines()
    edited = lines[4].replace(b'"burn": 1', b'"burn": 2')
    assert edited != lines[4]
    table.write([*lines[:4], edited, *lines[5:]])
    report = table.verify()
    assert kinds(report) >= {"changed"}, report.problems
    assert any(":5 " in f.text for f in report.findings if f.kind == "changed")


def test_a_removed_line_is_named_with_its_number(table: Table) -> None:
    lines = table.lines()
    del lines[5]
    table.write(lines)
    report = table.verify()
    assert "removed" in kinds(report) and any("(n 6-6)" in f.text for f in report.findings), report.problems


def test_reordered_lines_are_found(table: Table) -> None:
    lines = table.lines()
    lines[3], lines[4] = lines[4], lines[3]
    table.write(lines)
    assert kinds(table.verify()) & {"moved", "removed"}


def test_a_copied_line_is_named_as_repeated(table: Table) -> None:
    lines = table.lines()
    lines.insert(7, lines[3])
    table.write(lines)
    assert "repeated" in kinds(table.verify())


def test_whole_lines_cut_off_the_end_are_found_by_the_journal(table: Table) -> None:
    lines = table.lines()
    table.write(lines[:-1])  # only the chain_closed line: no record lost, but the journal's checkpoint saw it
    report = table.verify()
    assert kinds(report) == {"cut off"}, report.problems
    table.write(lines[:-4])
    assert "cut off" in kinds(table.verify())
    assert verify([table.path], table.key.public, None).ok, "without the journal the end is not anchored"


def test_a_forged_record_appended_without_the_key_is_found(table: Table) -> None:
    lines = table.lines()
    last = json.loads(lines[-1])
    forged = {"event": WagerSettled.EVENT, "table": "T1", "round": "T1-R9", "seq": 99, "stake": 100, "returned": 100000,
              "n": last["n"] + 1, "prev": __import__("hashlib").sha256(lines[-1].rstrip(b"\n")).hexdigest()}
    table.write([*lines, json.dumps(forged).encode() + b"\n"])
    report = table.verify()
    assert "added" in kinds(report) and any("not signed" in f.text for f in report.findings)


def test_a_log_rewritten_with_another_key_is_found(table: Table) -> None:
    other = Ed25519PrivateKey.generate()
    rewritten, head = [], "0" * 64
    for raw in table.lines():
        body, _ = split_signature(raw.rstrip(b"\n"))
        record = json.loads(body)
        record["prev"] = head
        text = json.dumps(record, separators=(",", ":")).encode()
        text = text[:-1] + f',"sig":"{base64.b64encode(other.sign(LINE_LABEL + text)).decode()}"}}'.encode()
        head = __import__("hashlib").sha256(text).hexdigest()
        rewritten.append(text + b"\n")
    table.write(rewritten)
    report = table.verify()
    assert not report.ok and any("no line is signed by the table's key" in f.text for f in report.findings)


@pytest.mark.parametrize("cut", [25, 1], ids=["mid-line", "only-its-newline"])
def test_a_line_torn_by_a_crash_is_declared_on_restart_and_not_a_problem(tmp_path: Path, cut: int) -> None:
    """A cut that took only the newline leaves a line that parses: it is torn all the same, and its record logged again."""
    t = Table(tmp_path)
    t.session(close=False)
    t.path.write_bytes(t.path.read_bytes()[:-cut])
    t.session()
    report = t.verify()
    assert report.ok, report.problems
    assert any("cut short" in n for n in report.notes)
    assert report.chains[1].previous == "cut short (crash or kill)"


def test_rotation_keeps_the_chain_across_files_and_retention_is_a_note(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.session(40, max_bytes=3000)
    files = sorted(tmp_path.glob("events.jsonl.*"), key=lambda p: -int(p.suffix[1:])) + [t.path]
    assert len(files) >= 3
    assert t.verify(files).ok, t.verify(files).problems
    assert not t.verify([files[0], *files[2:]]).ok, "a rotated file left out in the middle is lines removed"
    report = verify(files[1:], t.key.public, None)
    assert report.ok and any("rotated file" in n for n in report.notes)


def test_an_empty_log_is_reported_as_empty(tmp_path: Path) -> None:
    (tmp_path / "e.jsonl").write_bytes(b"")
    report = verify([tmp_path / "e.jsonl"])
    assert report.empty and not report.ok and report.summary().startswith("EMPTY")


def test_the_cli_says_intact_with_its_chains_exits_1_on_tampering_and_2_on_a_missing_file(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["audit", "verify", str(table.path), "--journal", str(table.dir / "j.sqlite"), "--table", "T1",
            "--public-key", str(table.dir / "T1.pub")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "intact: 12 records" in out and "chain 2" in out
    lines = table.lines()
    edited = lines[2].replace(b'"shuffle": 1', b'"shuffle": 3')
    assert edited != lines[2]
    table.write([*lines[:2], edited, *lines[3:]])
    assert main(args) == 1
    assert "CHANGED" in capsys.readouterr().out
    assert main(["audit", "verify", str(table.dir / "absent.jsonl")]) == 2


def test_a_second_writer_of_the_same_log_is_refused(table: Table) -> None:
    trail = ChainedFile(table.path, table_id="T1", key=table.key)
    try:
        with pytest.raises(OSError, match="in use"):
            ChainedFile(table.path, table_id="T1", key=table.key)
    finally:
        trail.close()


def test_a_log_of_another_table_is_refused(table: Table) -> None:
    with pytest.raises(OSError, match="belongs to table 'T1', not 'T2'"):
        ChainedFile(table.path, table_id="T2", key=table.key)


def test_a_legacy_log_still_verifies_with_the_old_chain(tmp_path: Path) -> None:
    import hashlib

    head, lines = "0" * 64, []
    for n in range(5):
        line = json.dumps({"event": ShoeShuffled.EVENT, "seq": n + 1, "prev": head}).encode()
        head = hashlib.sha256(line).hexdigest()
        lines.append(line + b"\n")
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"".join(lines))
    assert legacy.verify([path]).ok
    path.write_bytes(b"".join(lines).replace(b'"seq": 3', b'"seq": 4'))
    assert not legacy.verify([path]).ok


def test_keygen_where_a_key_is_refuses_as_a_usage_error_and_keeps_the_key(tmp_path: Path, capsys) -> None:
    # A walkthrough saw exit 4 ("records damaged: a person restores them", which systemd does not restart) for a
    # table whose key simply exists already.
    from tests.helpers import init_table

    init_table(tmp_path / "j.sqlite", tmp_path / "e.jsonl")
    key = next(tmp_path.glob("*.key"))
    before = key.read_bytes()
    assert main(["audit", "keygen", "--journal", str(tmp_path / "j.sqlite"), "--log", str(tmp_path / "e.jsonl")]) == 2
    assert "already holds a key: a table keeps its key" in capsys.readouterr().err
    assert key.read_bytes() == before
