"""Signed checkpoints of a table's records, for whoever keeps a copy off the table PC (the floor, a lab).

With every commit the journal stores a checkpoint: the journal's head (last
sequence number and its chain hash) and the event log's (last line number,
its hash, the last journaled seq in it), the time, the key's fingerprint and
an Ed25519 signature by the table's key. The newest one is also the anchor.

A checkpoint kept elsewhere pins the records as they were: a journal or log
later cut back, rewritten or replaced no longer reaches that head with that
hash, and the signature shows the checkpoint came from the table.

The table's outbox (``controller.floor.outbox``) publishes each one to the floor
as :meth:`Checkpoint.message` makes it (canonical JSON, verifiable with the
table's ``.pub``); :func:`published_since` gives them in order to any other
reader, and a verifier checks one with
``Checkpoint.from_message(data).signed_by(PublicKey.load(path))``.

The floor keeps every checkpoint it is sent (``controller.floor.checkpoints``),
verified with the table's key as a person enrolled it there; ``tablectl floor
checkpoints TABLE`` exports them with that key, and :class:`FloorCopy` reads the
export for ``tablectl audit verify --floor-checkpoints`` (``controller.records.verify``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.records.errors import storage_error
from controller.records.journal import Journal
from controller.records.keys import KeyProblem, PublicKey, canonical, checkpoint_signed_by


@dataclass(frozen=True)
class Checkpoint:
    id: int
    body: dict[str, Any]

    @property
    def table(self) -> str:
        return str(self.body["table"])

    @property
    def journal_seq(self) -> int:
        return int(self.body["journal"]["seq"])

    @property
    def journal_hash(self) -> str:
        return str(self.body["journal"]["hash"])

    @property
    def log(self) -> dict[str, Any] | None:
        log = self.body.get("log")
        return log if isinstance(log, dict) else None

    def message(self) -> bytes:
        """The checkpoint as sent: canonical JSON with its id, signature included."""
        return canonical({"id": self.id, **self.body})

    @classmethod
    def from_message(cls, data: bytes) -> Checkpoint:
        body = json.loads(data)
        return cls(int(body.pop("id")), body)

    def signed_by(self, public: PublicKey) -> bool:
        return checkpoint_signed_by(self.body, public)


def published_since(journal: Journal, after_id: int = 0) -> list[Checkpoint]:
    """Every checkpoint the journal stored after ``after_id``, oldest first."""
    return [Checkpoint(i, body) for i, body in journal.checkpoints(after_id)]


def latest(journal: Journal) -> Checkpoint | None:
    found = journal.checkpoints_latest()
    return Checkpoint(*found) if found else None


class FloorCopyError(TableError, ValueError):
    """The floor's export of a table's checkpoints cannot be read (not the document ``tablectl floor checkpoints`` writes)."""

    exit_code = 2


@dataclass
class FloorCopy:
    """The checkpoints the floor holds of one table, and the table's key as the floor enrolled it."""

    table: str
    key: PublicKey | None
    checkpoints: list[Checkpoint]
    source: str
    retired: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> FloorCopy:
        """Read ``tablectl floor checkpoints``'s output (a JSON document) from ``path``."""
        try:
            document = json.loads(path.read_bytes())
        except OSError as exc:
            raise storage_error(path, exc, "reading the floor's checkpoints") from None
        except ValueError:
            raise FloorCopyError(f"{path} is not JSON: expected what `tablectl floor checkpoints TABLE` prints") from None
        try:
            table = str(document["table"])
            pem = document.get("public_key")
            key = PublicKey.from_pem(pem.encode(), f"the floor's enrolled key of {table} (in {path})") if pem else None
            checkpoints = [Checkpoint(int(c["id"]), {k: v for k, v in c.items() if k != "id"}) for c in document["checkpoints"]]
            retired = [str(k["fingerprint"]) for k in document.get("retired_keys", [])]
        except KeyProblem:
            raise
        except (KeyError, TypeError, ValueError, AttributeError):
            raise FloorCopyError(f"{path} is not the floor's checkpoints of a table (a table, its key and checkpoints): "
                                 "expected what `tablectl floor checkpoints TABLE` prints") from None
        return cls(table, key, checkpoints, str(path), retired)
