"""A run of the signed event log cut out for one round: evidence a regulator checks with the table's public key.

``tablectl round ID --signed FILE`` writes the trail's lines from the round's first record to its last, every line
between them too (another table event, a restart's ``chain_started``), byte for byte: each line keeps its number,
its link to the line before and its signature, so ``tablectl audit verify --excerpt FILE --public-key TABLE.pub``
shows them the table's, unchanged, in order and none missing between them, without the rest of the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from controller.events import RoundCompleted, RoundStarted, RoundVoided

ROUND_OPENED = RoundStarted.EVENT
ROUND_ENDED = frozenset({RoundCompleted.EVENT, RoundVoided.EVENT})


def _lines(files: Sequence[Path]) -> Iterator[tuple[bytes, dict[str, object] | None]]:
    for path in files:
        with path.open("rb") as stream:
            for raw in stream:
                line = raw.rstrip(b"\n")
                try:
                    record = json.loads(line)
                except ValueError:
                    record = None
                yield line, record if isinstance(record, dict) else None


def cut(files: Sequence[Path], first_seq: int, last_seq: int) -> list[bytes]:
    """The trail's lines (oldest file first) from the one recording ``first_seq`` to the one recording ``last_seq``
    (or the last line in between, if the trail stops short of it); empty when the trail holds none of them."""
    out: list[bytes] = []
    kept = 0  # lines of ``out`` up to its last record of the round's seqs
    for line, record in _lines(files):
        seq = record.get("seq") if record else None
        inside = isinstance(seq, int) and first_seq <= seq <= last_seq
        if not out and not inside:
            continue
        out.append(line)
        if inside:
            kept = len(out)
        if isinstance(seq, int) and seq >= last_seq:
            break
    return out[:kept]


def rounds_held(records: Sequence[dict[str, object]]) -> list[str]:
    """What an excerpt shows of each round in it: whole (its opening and its end among the lines), or which is not."""
    opened: dict[str, bool] = {}
    ended: dict[str, bool] = {}
    for record in records:
        round_id = record.get("round")
        if not isinstance(round_id, str):
            continue
        opened.setdefault(round_id, False)
        ended.setdefault(round_id, False)
        if record.get("event") == ROUND_OPENED:
            opened[round_id] = True
        elif record.get("event") in ROUND_ENDED:
            ended[round_id] = True
    notes = []
    for round_id, was_opened in opened.items():
        if was_opened and ended[round_id]:
            notes.append(f"round {round_id}: whole, from its {ROUND_OPENED} to its end")
            continue
        missing = [name for name, there in ((f"its {ROUND_OPENED}", was_opened),
                                            (f"its end ({RoundCompleted.EVENT} or {RoundVoided.EVENT})", ended[round_id]))
                   if not there]
        notes.append(f"round {round_id}: {' and '.join(missing)} not among these lines")
    return notes
