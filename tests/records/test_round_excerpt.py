"""``tablectl round ID --signed FILE``: one round's lines of the signed event log, checked on their own.

Before, a round could be handed over only as ``round --json`` (unsigned: anyone could edit it) or with the whole
event log; ``audit verify`` on a round's lines alone reported the lines before them as removed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.events import RoundCompleted, RoundStarted
from tests.helpers import init_table


def _table(tmp_path: Path, rounds: int = 3) -> tuple[Path, Path, Path]:
    config = tmp_path / "table.toml"
    config.write_text(Path("config/top-card.toml").read_text().replace("crosscheck = true", "crosscheck = false")
                      + f'\n[journal]\npath = "{tmp_path}/journal.sqlite"\n')
    text = config.read_text().replace('events = "var/log/TC-01.events.jsonl"', f'events = "{tmp_path}/events.jsonl"')
    config.write_text(text)
    init_table(tmp_path / "journal.sqlite", config=config)
    assert main(["run", "--config", str(config), "--rounds", str(rounds), "--seed", "5", "--no-camera"]) == 0
    return config, tmp_path / "events.jsonl", tmp_path / "journal.key.pub"


def _verify(path: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["audit", "verify", "--excerpt", str(path), "--public-key", str(key)])
    return code, capsys.readouterr().out


def _export(config: Path, number: str, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["round", number, "--config", str(config), "--signed", str(out)]) == 0
    return capsys.readouterr().err


def test_a_rounds_signed_lines_verify_alone_whole_and_an_edit_or_a_cut_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, log, _ = _table(tmp_path)
    out = tmp_path / "round2.jsonl"
    said = _export(config, "2", out, capsys)
    key = Path(said.rsplit("--public-key ", 1)[1].strip())
    assert key.is_file() and key.suffix == ".pub", said
    lines = out.read_bytes().splitlines()
    records = [json.loads(line) for line in lines]
    round_id = records[0]["round"]
    assert records[0]["event"] == RoundStarted.EVENT and records[-1]["event"] == RoundCompleted.EVENT
    assert all(line in log.read_bytes().splitlines() for line in lines)  # byte for byte the table's
    code, text = _verify(out, key, capsys)
    assert code == 0 and "intact" in text and f"round {round_id}: whole" in text, text

    edited = tmp_path / "edited.jsonl"
    changed = [line.replace(b'"timestamp": "', b'"timestamp": "1', 1) if i == len(lines) // 2 else line
               for i, line in enumerate(lines)]
    edited.write_bytes(b"".join(line + b"\n" for line in changed))
    code, text = _verify(edited, key, capsys)
    assert code == 1 and "CHANGED" in text, text

    middle = tmp_path / "middle.jsonl"
    middle.write_bytes(b"".join(line + b"\n" for i, line in enumerate(lines) if i != len(lines) // 2))
    code, text = _verify(middle, key, capsys)
    assert code == 1 and "REMOVED" in text, text

    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(line + b"\n" for line in lines[:-1]))
    code, text = _verify(short, key, capsys)
    assert code == 0 and f"round {round_id}: its end (round_complete or round_voided) not among these lines" in text


def test_an_excerpt_needs_the_public_key_and_a_round_needs_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, log, _ = _table(tmp_path, rounds=1)
    out = tmp_path / "round1.jsonl"
    _export(config, "1", out, capsys)
    assert main(["audit", "verify", "--excerpt", str(out), "--config", str(config), "--key", str(tmp_path / "none")]) == 2
    assert "give it with --public-key" in capsys.readouterr().err
    log.rename(tmp_path / "elsewhere.jsonl")
    assert main(["round", "1", "--config", str(config), "--signed", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no event log at" in err and "--log FILE" in err and "Traceback" not in err
    assert main(["round", "1", "--config", str(config), "--signed", str(out), "--log", str(tmp_path / "elsewhere.jsonl")]) == 0
