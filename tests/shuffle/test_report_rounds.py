"""``tablectl shuffle report`` names the rounds dealt from each shoe: what surveillance asks of a flagged shuffle.

Before, a shoe's "rounds" were the rounds its records were journaled in: a shoe's tests are journaled when it
ends, before the next shuffle, so a shoe of a shuffler (a fresh deck a round) was shown in the next round and the
last deck in none, and a shoe of ten rounds was shown in the eleventh, the first of the next shoe.

The tables here deal from the reference simulators on pseudo-terminals (``tablectl run`` starts the shoe's).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.events import CardBurned, CardDealt, Event, ShoeShuffled, ShufflerShuffled, ShuffleTested
from controller.records.keys import SigningKey
from controller.records.migrate import migrate
from drivers.conformance.run import simulator
from tests.helpers import init_table


def _run(tmp_path: Path, config: str, replace: dict[str, str], rounds: int) -> tuple[Path, Path]:
    text = Path(config).read_text()
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path, journal = tmp_path / "table.toml", tmp_path / "journal.sqlite"
    path.write_text(text)
    init_table(journal, tmp_path / "events.jsonl", path)
    assert main(["run", "--config", str(path), "--rounds", str(rounds), "--seed", "3", "--journal", str(journal),
                 "--log", str(tmp_path / "events.jsonl"), "--no-camera"]) == 0
    return path, journal


def _dealt_between_shuffles(journal: Path, shuffled: type[Event]) -> list[list[str]]:
    """The rounds whose cards the journal shows between one ``shuffled`` record and the next, per shoe."""
    with sqlite3.connect(journal) as db:
        records = [json.loads(r) for (r,) in db.execute("SELECT record FROM events ORDER BY seq")]
    shoes: list[list[str]] = []
    for r in records:
        if r["event"] == shuffled.EVENT:
            shoes.append([])
        elif r["event"] in (CardDealt.EVENT, CardBurned.EVENT) and r["round"] not in shoes[-1]:
            shoes[-1].append(r["round"])
    return shoes


def _report(config: Path, journal: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main(["shuffle", "report", "--config", str(config), "--journal", str(journal), "--no-picture", *extra]) == 0
    return capsys.readouterr().out


def test_a_shoes_rounds_are_those_dealt_from_it_not_the_next_shoes_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 21 cards before the cut card: a burn after the shuffle, then two cards a round: 10 rounds a shoe. The shoe
    # reports the cut card just after card 21 (4.13); at simulated speed the next round may already have opened
    # when it arrives, and that round is finished before the shuffle (5.4): 11 rounds. Either shoe will do.
    config, journal = _run(tmp_path, "config/top-card.toml",
                           {"cut_from_end = 52": "cut_from_end = 395", "crosscheck = true": "crosscheck = false"}, 12)
    dealt = _dealt_between_shuffles(journal, ShoeShuffled)
    assert len(dealt) == 2 and len(dealt[0]) in (10, 11), dealt
    shoes = json.loads(_report(config, journal, capsys, "--json"))
    assert [s["rounds"] for s in shoes] == dealt
    out = _report(config, journal, capsys, "--shoe", "1")
    assert f"dealt in {len(dealt[0])} rounds: {dealt[0][0]} to {dealt[0][-1]}" in out, out
    assert dealt[1][0] not in out.splitlines()[0]


def test_a_shufflers_deck_is_shown_in_the_round_it_was_dealt_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with simulator("shuffler", "reference", seed=3) as sim:
        config, journal = _run(tmp_path, "config/three-card-poker.toml",
                               {'driver = "simulated"': f'driver = "reference"\nport = "{sim.url}"'}, 3)
    dealt = _dealt_between_shuffles(journal, ShufflerShuffled)
    assert len(dealt) == 3 and all(len(rounds) == 1 for rounds in dealt)
    shoes = json.loads(_report(config, journal, capsys, "--json"))
    assert [s["rounds"] for s in shoes] == dealt, "each deck in its own round, the last one too"
    assert f"dealt in round {dealt[1][0]}" in _report(config, journal, capsys, "--shoe", "2")


OLD_JOURNALS = sorted(Path("tests/data/before-typed-events").glob("*.sqlite"))


@pytest.mark.parametrize("path", OLD_JOURNALS, ids=lambda p: p.stem)
def test_a_journal_from_before_the_rounds_were_recorded_finds_them_from_its_cards(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    table = "TC-01" if path.stem == "top-card" else "TCP-01"
    migrate(copy, table, SigningKey.generate(tmp_path / "table.key"))
    with sqlite3.connect(copy) as db:
        assert all('"rounds"' not in r for (r,) in db.execute("SELECT record FROM events WHERE event = ?",
                                           (ShuffleTested.EVENT,)))
    dealt = _dealt_between_shuffles(copy, ShoeShuffled if path.stem == "top-card" else ShufflerShuffled)
    assert main(["shuffle", "report", "--table", table, "--journal", str(copy), "--no-picture", "--json"]) == 0
    assert [s["rounds"] for s in json.loads(capsys.readouterr().out)] == dealt
