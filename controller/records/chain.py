"""The journal's record chain and row checksums: pure functions, no I/O.

Every journal record is stored with ``prev``, the hash of the record before
it (``GENESIS`` before the first), and ``hash``, the SHA-256 of its sequence
number, ``prev``, round, event and text: the record's own checksum and the
next record's link. A record changed, removed, inserted or moved breaks the
chain where it happened. Every other row of the journal (rounds, wagers,
meters, counters, metadata, checkpoints) carries ``sum``, a checksum of its
values, so a flipped byte anywhere is found on opening.

>>> h = record_hash(1, GENESIS, "R1", "an_event", '{"seq":1}')
>>> len(h), h == record_hash(1, GENESIS, "R1", "an_event", '{"seq":1}')
(64, True)
>>> h == record_hash(1, GENESIS, "R1", "an_event", '{"seq":2}')
False
>>> row_sum("home", 3, 3000, 2500) == row_sum("home", 3, 3000, 2501)
False
>>> ranges([3, 4, 5, 9, 11, 12])
'3-5, 9, 11-12'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

GENESIS = "0" * 64


def record_hash(seq: int, prev: str, round_id: str | None, event: str, text: str) -> str:
    head = f"{seq}\n{prev}\n{'-' if round_id is None else 'r:' + round_id}\n{event}\n"
    return hashlib.sha256(head.encode() + text.encode()).hexdigest()


def row_sum(*values: Any) -> str:
    """A row's checksum (64 bits are plenty to tell a damaged row; the chain guards the records)."""
    return hashlib.sha256(json.dumps(values, separators=(",", ":")).encode()).hexdigest()[:16]


def ranges(numbers: Iterable[int]) -> str:
    """Sorted numbers as compact ranges, for messages."""
    out: list[str] = []
    ordered = sorted(set(numbers))
    start = prev = None
    for n in [*ordered, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(out)
