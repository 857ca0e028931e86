"""What a table's journal looks like on the floor's broker: stream, subjects, message ids and headers.

Every journal record travels as one JetStream message, unchanged (the
record's own JSON, as the journal keeps it), on the subject
``tablectl.<site>.<table>.<kind>`` of the site's stream ``TABLECTL_<SITE>``.
Its header ``Nats-Msg-Id`` is ``<table>:<seq>:<digest>`` (the first 16 hex
digits of the SHA-256 of the record's bytes), so the stream stores a
re-published record once within its duplicate window, and only that: another
record under the same table and seq (a second journal publishing as the same
table: a replaced PC, a copied config) is a message of its own. The floor's
database keys every record by (table, seq): a record seen twice is stored once
whatever the window, and one that differs from the record it stored is kept
aside, never counted, and alerts the pit (``controller.floor.store``).

Its header ``Tablectl-Chain`` is ``<prev>:<hash>``, the record's link in its
journal's chain (``controller.records.chain``: the hash of the record before
it, and its own): a record that does not follow on from the records the floor
stores for its table (another journal's, past the last seq the first one
reached) is kept aside as one under a taken seq is.

Its header ``Tablectl-Lost`` is ``<first>-<last>``, on the first record after
seqs its journal declared lost (``tablectl journal restore --accept-loss``,
``journal init --after-loss``: a person accepted the loss): that record's
``prev`` is the hash of record ``first - 1``, not of the record before its own
seq, and the floor waits for none of the lost seqs.

Its header ``Tablectl-Awarded`` is ``<seq>``, on a ``jackpot_claimed`` record
whose award its journal already holds when the outbox publishes it (the
``jackpot_awarded`` record at that seq, later in the same journal): a claim the
floor answered and the table paid, which a floor rebuilt from a new stream and
an empty database meets again. That claim is history: the jackpot controller
takes the journaled award as what was paid and decides nothing anew.

The table's signed checkpoints (``controller.records.checkpoints``) travel on
the same stream, on ``tablectl.<site>.<table>.checkpoint.signed`` (five
tokens: never an event's subject), as their canonical JSON, with the message
id ``<table>:checkpoint:<digest>`` (the first 32 hex digits of the message's
SHA-256), so a checkpoint published again is dropped by the window and kept
once by the floor whatever its id in the table's journal.

Names that go into a subject token may hold letters, digits, ``-`` and ``_``
only (NATS reserves ``.``, ``*``, ``>`` and white space).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

SCHEMA_HEADER = "Tablectl-Schema"
"""Header naming the version of the event schema a record was written with."""

TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")


class WireError(ValueError):
    """A name that cannot be a subject token, or a message that is not a table record."""


def token(name: str, what: str) -> str:
    """``name`` checked as one subject token (``what`` names it in the error)."""
    if not TOKEN.match(name):
        raise WireError(f"{what} {name!r} cannot name a NATS subject: use letters, digits, '-' and '_' only")
    return name


def stream_name(site: str) -> str:
    """The JetStream stream that holds every table event of ``site``."""
    return "TABLECTL_" + token(site, "site").upper().replace("-", "_")


def site_subjects(site: str) -> str:
    return f"tablectl.{token(site, 'site')}.>"


def subject(site: str, table: str, kind: str) -> str:
    return f"tablectl.{token(site, 'site')}.{token(table, 'table id')}.{token(kind, 'event')}"


def control_subject(site: str, table: str, command: str) -> str:
    """Where the floor asks a table's outbox for something (``resend``): outside the stream's subjects."""
    return f"tablectl-control.{token(site, 'site')}.{token(table, 'table id')}.{token(command, 'command')}"


def record_digest(data: bytes) -> str:
    """What tells two records of one (table, seq) apart in their message id: the first 16 hex digits of their SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


def msg_id(table: str, seq: int, data: bytes) -> str:
    """A record's message id: the very same record published again has it, another record of that seq does not."""
    return f"{table}:{seq}:{record_digest(data)}"


CHECKPOINT_SUFFIX = ".checkpoint.signed"


def checkpoint_subject(site: str, table: str) -> str:
    """Where a table's signed checkpoints go (a fifth token: no event's subject ends so)."""
    return f"tablectl.{token(site, 'site')}.{token(table, 'table id')}{CHECKPOINT_SUFFIX}"


def checkpoint_table(subject_name: str) -> str | None:
    """The table whose checkpoint ``subject_name`` carries, or None when it carries no checkpoint."""
    parts = subject_name.split(".")
    if len(parts) == 5 and subject_name.endswith(CHECKPOINT_SUFFIX):
        return parts[2]
    return None


def checkpoint_digest(message: bytes) -> str:
    """What names one checkpoint message everywhere (its stream id, its key in the floor's database)."""
    return hashlib.sha256(message).hexdigest()[:32]


def checkpoint_msg_id(table: str, message: bytes) -> str:
    return f"{table}:checkpoint:{checkpoint_digest(message)}"


def encode(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":"), default=str).encode()


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One journal record as it arrives on the floor, with where it came from."""

    table: str
    seq: int
    kind: str
    round_id: str | None
    record: dict[str, Any]
    prev: str | None = None
    """The hash of the record before it in its journal's chain (``None``: sent by a table from before the header)."""
    hash: str | None = None
    """Its own hash in that chain."""
    lost: tuple[int, int] | None = None
    """The seqs just before it that its journal declared lost (first, last): its ``prev`` is record ``first - 1``'s."""

    @property
    def follows(self) -> int:
        """The seq of the record it follows on from in its journal's chain."""
        return self.lost[0] - 1 if self.lost is not None else self.seq - 1


CHAIN_HEADER = "Tablectl-Chain"
_CHAIN = re.compile(r"^([0-9a-f]{64}):([0-9a-f]{64})$")


def chain_header(prev: str, hash: str) -> str:
    return f"{prev}:{hash}"


LOST_HEADER = "Tablectl-Lost"
_LOST = re.compile(r"^([0-9]{1,18})-([0-9]{1,18})$")


def lost_header(first: int, last: int) -> str:
    return f"{first}-{last}"


AWARDED_HEADER = "Tablectl-Awarded"


def awarded_seq(headers: dict[str, str] | None) -> int | None:
    """The journal seq of the award a claim's ``Tablectl-Awarded`` header names, or None (no header, or not a seq)."""
    value = (headers or {}).get(AWARDED_HEADER, "")
    return int(value) if value.isdigit() and 0 < len(value) <= 18 else None


def decode(data: bytes, subject_name: str = "", headers: dict[str, str] | None = None) -> TableRecord:
    """A message's payload (and its chain header) read back as a table record; :class:`WireError` names what is wrong."""
    try:
        record = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"message on {subject_name or 'the stream'} is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise WireError(f"message on {subject_name or 'the stream'} is not a record (a JSON object)")
    table, seq, kind = record.get("table"), record.get("seq"), record.get("event")
    if not isinstance(table, str) or not isinstance(seq, int) or not isinstance(kind, str):
        raise WireError(f"message on {subject_name or 'the stream'} lacks its table, seq or event")
    round_id = record.get("round")
    chain = (headers or {}).get(CHAIN_HEADER)
    link = _CHAIN.match(chain) if chain is not None else None
    if chain is not None and link is None:
        raise WireError(f"message on {subject_name or 'the stream'} has a {CHAIN_HEADER} header that is not <prev>:<hash>")
    declared = (headers or {}).get(LOST_HEADER)
    lost = _LOST.match(declared) if declared is not None else None
    if declared is not None and (lost is None or not 1 <= int(lost[1]) <= int(lost[2]) == seq - 1):
        raise WireError(f"message on {subject_name or 'the stream'} has a {LOST_HEADER} header that is not "
                        f"<first>-<last> ending at the seq before its record's ({seq})")
    return TableRecord(table, seq, kind, round_id if isinstance(round_id, str) else None, record,
                       link[1] if link else None, link[2] if link else None,
                       (int(lost[1]), int(lost[2])) if lost else None)


def reason(exc: BaseException) -> str:
    """An exception as a reader sees it: its message, or its kind when it has none (a bare timeout)."""
    text = str(exc).strip()
    name = {"TimeoutError": "no answer in time"}.get(type(exc).__name__, type(exc).__name__)
    return text if text and text != "nats: timeout" else name if not text else f"{text} ({name})"
