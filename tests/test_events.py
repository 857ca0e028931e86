"""The typed events (``controller.events``): lossless records, their generated reference, and no event by string."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest

from controller.engine.recovery import rebuild
from controller.events import (
    EVENTS,
    SCHEMA_VERSION,
    UNSET,
    BettingClosed,
    CardDealt,
    DecisionTaken,
    Event,
    IrregularityReported,
    PositionPassed,
    Revealed,
    RoundCompleted,
    RoundEvent,
    ShoeShuffled,
    SupervisorActed,
    UnknownEvent,
    WagerSettled,
    from_record,
    json_schema,
    markdown,
    to_record,
)
from controller.odds import Outcome
from controller.records.errors import JournalCorrupt
from controller.records.journal import Journal
from controller.records.keys import SigningKey
from controller.records.migrate import migrate
from controller.records.recall import recall

ROOT = Path(__file__).resolve().parent.parent
ALSO_STATES_OR_VALUES = {BettingClosed.EVENT, Revealed.EVENT, DecisionTaken.EVENT, IrregularityReported.EVENT}
"""Event names that are also words of another kind: round states (``no_more_bets``, ``reveal``), the console's
command for "no more bets", the ``by`` of a wager a decision placed and of a round an irregularity resumed. A
string with one of these names is not taken for an event reference."""


def sample(kind: Any) -> Any:
    """A value of type ``kind`` (the first member of a union that is not ``None`` or ``UNSET``)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, __import__("types").UnionType):
        return sample(next(a for a in typing.get_args(kind) if a not in (type(None), msgspec.UnsetType)))
    if origin is list:
        return [sample(typing.get_args(kind)[0])]
    if origin is dict:
        return {"k": 1}
    return {str: "x", int: 3, float: 1.5, bool: True, Fraction: Fraction(7, 2), Outcome: Outcome.WIN}.get(kind, "x")


def example(cls: type[Event]) -> Event:
    hints = typing.get_type_hints(cls)
    fields = {name: sample(hints[name]) for name in cls.__struct_fields__ if name != "details"}
    fields.update(table="T1", round="T1-R1", seq=9, timestamp="2026-01-01T00:00:00Z")
    if cls.OPEN:
        fields["details"] = {"player_dealer": 3, "hands": {"1": "AS KD"}}
    return cls(**fields)


@pytest.mark.parametrize("name", list(EVENTS))
def test_every_event_goes_to_its_stored_form_and_back_without_loss(name: str) -> None:
    event = example(EVENTS[name])
    record = json.loads(json.dumps(to_record(event)))
    assert record["event"] == name and list(record)[:5] == ["event", "table", "round", "seq", "timestamp"]
    assert from_record(record) == event


def test_an_unset_field_is_absent_from_the_record_and_reads_back_unset() -> None:
    record = to_record(example(SupervisorActed))
    assert "index" in record
    bare = {k: v for k, v in record.items() if k not in ("index", "card", "previous")}
    assert from_record(bare).index is UNSET


def test_the_game_s_own_fields_are_written_flat_and_read_back_into_details() -> None:
    passed = PositionPassed(round="T1-R1", game="three-card-poker", details={"player_dealer": 4, "stopped": "no bank"})
    record = to_record(passed)
    assert record["player_dealer"] == 4 and "details" not in record
    assert from_record(record) == passed


def test_a_settlement_keeps_its_exact_amount_as_a_fraction() -> None:
    record = to_record(example(WagerSettled))
    assert record["exact_returned"] == "7/2" and from_record(record).exact_returned == Fraction(7, 2)  # type: ignore[attr-defined]


def test_a_record_the_schema_cannot_read_is_named() -> None:
    with pytest.raises(UnknownEvent, match="no event 'wager_withdrawn'"):
        from_record({"event": "wager_withdrawn", "seq": 4})
    record = to_record(example(WagerSettled)) | {"stake": "a lot"}
    with pytest.raises(UnknownEvent, match=WagerSettled.EVENT):
        from_record(record)


def test_a_round_s_own_events_carry_the_game_and_the_table_s_do_not() -> None:
    assert "game" in to_record(example(CardDealt))
    assert "game" not in to_record(example(ShoeShuffled))
    assert all(issubclass(cls, RoundEvent) == ("game" in cls.__struct_fields__) for cls in EVENTS.values())


def test_the_json_schema_names_every_event_and_the_version() -> None:
    schema = json_schema()
    assert schema["x-tablectl-schema-version"] == SCHEMA_VERSION
    assert {cls.__name__ for cls in EVENTS.values()} <= set(schema["$defs"])


def test_docs_events_md_is_generated_from_the_module() -> None:
    """Regenerate with ``python -m controller.events > docs/events.md``."""
    assert (ROOT / "docs" / "events.md").read_text(encoding="utf-8") == markdown() + "\n"
    printed = subprocess.run([sys.executable, "-m", "controller.events"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert printed.stdout == markdown() + "\n"


def string_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_event_is_named_by_a_string_outside_the_events_module() -> None:
    names = set(EVENTS) - ALSO_STATES_OR_VALUES
    found = []
    for package in ("controller", "drivers", "vision", "tests", "benchmarks"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "controller" / "events.py":
                continue
            found += [f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in string_literals(path) if text in names]
    assert found == [], "name events by their class (WagerSettled, WagerSettled.EVENT), not by a string"


def test_the_check_would_catch_an_event_named_by_a_string(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    name = WagerSettled.EVENT
    bad.write_text(f'"""{name} in a docstring is prose."""\nif record["event"] == "{name}":\n    pass\n')
    assert sorted(string_literals(bad)) == [(2, "event"), (2, name)]


OLD_JOURNALS = sorted((ROOT / "tests" / "data" / "before-typed-events").glob("*.sqlite"))


@pytest.mark.parametrize("path", OLD_JOURNALS, ids=lambda p: p.stem)
def test_a_journal_written_before_the_typed_events_reads_replays_and_recalls_as_it_is(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    table = {"top-card": "TC-01", "three-card-poker": "TCP-01"}[path.stem]
    with pytest.raises(JournalCorrupt, match="journal migrate"):  # from before the record chain too: migrated first
        Journal(copy, table_id=table, readonly=True)
    migrate(copy, table, SigningKey.generate(tmp_path / "table.key"))
    with Journal(copy, table_id=table, readonly=True) as journal:
        stored, events = journal.stored(), journal.records()
        assert [to_record(e) for e in events] == stored  # every record reads, and writes back as it was
        rows = journal.rounds()
        assert len(rows) == 3 and all(row.ended_seq is not None for row in rows)
        for row in rows:
            round_records = journal.round_records(row.id)
            end = next(e for e in round_records if isinstance(e, RoundCompleted))
            replayed = rebuild(round_records, None)
            assert replayed.state == row.state == "complete"
            assert replayed.totals() == {k: getattr(end, k) for k in replayed.totals()}  # the settlement, to the cent
            assert recall(round_records)["state"] == "complete"
