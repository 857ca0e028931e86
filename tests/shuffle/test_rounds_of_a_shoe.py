"""``tablectl rounds --shoe N``: every round dealt from a flagged shoe, with the shoe's totals.

Surveillance reading a shoe the shuffle report flagged had to recall its rounds one by one from the report's list.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.events import ShoeShuffled
from tests.shuffle.test_report_rounds import _dealt_between_shuffles, _run


def test_the_rounds_of_a_shoe_are_those_dealt_from_it_with_the_shoes_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, journal = _run(tmp_path, "config/top-card.toml",
                           {"cut_from_end = 52": "cut_from_end = 395", "crosscheck = true": "crosscheck = false"}, 14)
    dealt = _dealt_between_shuffles(journal, ShoeShuffled)
    capsys.readouterr()
    for number, rounds in enumerate(dealt, 1):
        assert main(["rounds", "--config", str(config), "--journal", str(journal), "--shoe", str(number), "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert [r["id"] for r in listed["rounds"]] == rounds and listed["shoe"] == number
        assert listed["totals"]["rounds"] == len(rounds)
        assert listed["totals"]["wagered"] == sum(r["totals"]["wagered"] for r in listed["rounds"])
    assert main(["rounds", "--config", str(config), "--journal", str(journal), "--shoe", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in out if line[:1].isdigit()] == dealt[0]  # a line a round, then the totals
    assert out[-1].startswith(f"shoe 1: {len(dealt[0])} rounds ended (0 voided)  wagered $"), out[-1]


def test_a_shoe_not_in_the_journal_is_named_with_the_shoes_that_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, journal = _run(tmp_path, "config/top-card.toml",
                           {"cut_from_end = 52": "cut_from_end = 395", "crosscheck = true": "crosscheck = false"}, 3)
    capsys.readouterr()
    assert main(["rounds", "--config", str(config), "--journal", str(journal), "--shoe", "7"]) == 2
    err = capsys.readouterr().err
    assert "no shoe 7 in the journal (the last shoes: 1;" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["rounds", "--config", str(config), "--journal", str(journal), "--shoe", "0"])
    assert "must be a shoe number from 1" in capsys.readouterr().err
