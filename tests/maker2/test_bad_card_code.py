"""A shoe whose firmware sends a card code that is not a card (docs/protocol.md 10.6): what the dealer reads."""

from __future__ import annotations

import re
from pathlib import Path

from tests.maker2.maker import ROOT, run_table


def test_what_10_6_says_the_dealer_reads_is_what_the_dealer_reads(tmp_path: Path) -> None:
    """10.6 quoted the hold as 'the shoe sent a card code that is not a card: call technical support'; the table
    holds the round as for any unreadable card ('card 4 of the shoe could not be read: the supervisor identifies it
    ...') and journals the protocol error as a warning ('the shoe broke the protocol (...): call technical support')."""
    run, events = run_table(tmp_path, "shoe", "top-card", 3, controls=("at 3 event 1 4 XX 0",))
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    clause = doc[doc.index("**10.6 Protocol errors.**") : doc.index("## 11.")]
    quoted = [" ".join(q.split()) for q in re.findall(r'"([^"]+)"', clause)]
    assert quoted, "10.6 quotes nothing the dealer reads"
    said = run.stdout + run.stderr + events
    for quote in quoted:
        for part in (p for p in re.split(r"\.\.\.|\bN\b|\(\)", quote) if len(p.strip()) > 3):
            assert part.strip() in said, f"10.6 quotes {quote!r}: {part.strip()!r} is not what the table said:\n{run.stderr}"
