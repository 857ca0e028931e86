"""Messages that send the reader to a section of a document (`docs/operations.md, "Backups and restoring the journal"`)
name a heading that document has: a damaged journal's message cited "Restoring the journal", which docs/operations.md
does not have (its heading is "Backups and restoring the journal"); seen on a deployment walk."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITED = re.compile(r'(docs/[a-z0-9-]+\.md), \\?"([^"\\]+)\\?"')


def test_every_quoted_section_a_message_cites_is_a_heading_of_that_document() -> None:
    cited: set[tuple[str, str]] = set()
    for folder in ("controller", "drivers", "vision"):
        for source in (ROOT / folder).rglob("*.py"):
            cited |= set(CITED.findall(source.read_text(encoding="utf-8")))
    assert ("docs/operations.md", "Backups and restoring the journal") in cited
    for document, section in sorted(cited):
        headings = {line.lstrip("#").strip() for line in (ROOT / document).read_text(encoding="utf-8").splitlines()
                    if line.startswith("#")}
        assert section in headings, f'{document} has no heading "{section}"'
