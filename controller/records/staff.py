"""The people who may run the table: named dealer and supervisor accounts, with a PIN or a card reader's ID.

An account is a name, a role (``dealer`` or ``supervisor``) and one or two
secrets: a PIN of 4 to 12 digits typed on the console, and/or the ID a card
reader types when the person's card is swiped. Only a hash of each secret is
kept, with the standard library's scrypt (memory-hard: every guess costs
``SCRYPT_N * 128 * SCRYPT_R`` bytes, 32 MiB, and about a tenth of a second),
each with a salt of its own. scrypt was chosen over argon2-cffi because it is in
the standard library (no compiled dependency on the table PC) and, at the
sizes of a PIN, the console's rate limit (``controller.console.login``) is
what stops guessing; the hash only has to make a stolen file slow to search.

The accounts live in one JSON file (``[console] staff``, default
``var/staff.json``), written whole to a temporary file and renamed over the
old one, readable by its owner only. ``tablectl staff add|remove|list``
manages it (``controller.commands.staff``).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "staff.json"
>>> store = StaffFile(path)
>>> store.add("ana", "supervisor", pin="482913", cost=2**4)
Account(name='ana', role='supervisor', pin=True, card=False)
>>> store.verify("ana", "482913").role, store.verify("ana", "000000")
('supervisor', None)
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import functools
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from controller.errors import TableError

Role = Literal["dealer", "supervisor"]
ROLES: tuple[Role, ...] = ("dealer", "supervisor")
DEFAULT_STAFF_FILE = Path("var/staff.json")
SCRYPT_N = 2**15
SCRYPT_R = 8
SCRYPT_P = 1
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,31}$")
PIN = re.compile(r"^[0-9]{4,12}$")
CARD = re.compile(r"^[\x21-\x7e]{4,64}$")
FORMAT = 1


class StaffError(TableError, ValueError):
    """A staff account or file that cannot be used; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Account:
    """A person who may log in; ``pin`` and ``card`` say which secrets the account has (never the secrets)."""

    name: str
    role: Role
    pin: bool
    card: bool

    @property
    def supervises(self) -> bool:
        return self.role == "supervisor"


def hash_secret(secret: str, *, cost: int = SCRYPT_N) -> str:
    """``scrypt$N$r$p$salt$hash``, salt and hash in base64."""
    salt = secrets.token_bytes(16)
    digest = _scrypt(secret, salt, cost, SCRYPT_R, SCRYPT_P)
    return "$".join(["scrypt", str(cost), str(SCRYPT_R), str(SCRYPT_P), _b64(salt), _b64(digest)])


def check_secret(secret: str, stored: str) -> bool:
    """Whether ``secret`` hashes to ``stored`` (compared in constant time)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        expected = base64.b64decode(digest)
        return hmac.compare_digest(_scrypt(secret, base64.b64decode(salt), int(n), int(r), int(p)), expected)
    except (ValueError, TypeError):
        return False


def _scrypt(secret: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(secret.encode(), salt=salt, n=n, r=r, p=p, maxmem=2 * 128 * r * n + 2**20, dklen=32)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@functools.cache
def _decoy() -> str:
    """Checked against when a name is unknown, so a wrong name takes as long as a wrong PIN."""
    return hash_secret("decoy")


class StaffFile:
    """The accounts file: read on every look-up (so ``tablectl staff`` changes apply at once), written atomically."""

    def __init__(self, path: Path | str = DEFAULT_STAFF_FILE) -> None:
        self.path = Path(path)

    # -- reading --------------------------------------------------------

    def _records(self) -> dict[str, dict[str, Any]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StaffError(f"{self.path}: cannot read the staff file: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise StaffError(f"{self.path}: not a staff file (bad JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("accounts"), dict):
            raise StaffError(f"{self.path}: not a staff file of format {FORMAT}")
        accounts: dict[str, dict[str, Any]] = data["accounts"]
        for name, record in accounts.items():
            if not isinstance(record, dict) or record.get("role") not in ROLES:
                raise StaffError(f"{self.path}: account {name!r} has no valid role")
        return accounts

    def accounts(self) -> list[Account]:
        return [self._account(name, record) for name, record in sorted(self._records().items())]

    def has_supervisor(self) -> bool:
        return any(a.supervises for a in self.accounts())

    @staticmethod
    def _account(name: str, record: dict[str, Any]) -> Account:
        return Account(name, record["role"], bool(record.get("pin")), bool(record.get("card")))

    def verify(self, name: str, secret: str) -> Account | None:
        """The account when ``secret`` is its PIN or its card's ID, else ``None`` (unknown names cost the same)."""
        record = self._records().get(name)
        stored = [record[k] for k in ("pin", "card") if record and record.get(k)] if record else []
        ok = False
        for hashed in stored or [_decoy()]:
            ok = check_secret(secret, hashed) or ok
        return self._account(name, record) if ok and record else None

    # -- writing --------------------------------------------------------

    def add(self, name: str, role: str, *, pin: str | None = None, card: str | None = None, cost: int = SCRYPT_N) -> Account:
        """Add an account, or replace the secrets and role of an existing one."""
        if not NAME.match(name):
            raise StaffError(f"{name!r} is not a usable name: a letter, then up to 31 letters, digits, '.', '_' or '-'")
        if role not in ROLES:
            raise StaffError(f"role must be dealer or supervisor, not {role!r}")
        if pin is None and card is None:
            raise StaffError(f"{name}: give a PIN, a card ID, or both")
        if pin is not None and not PIN.match(pin):
            raise StaffError(f"{name}: a PIN is 4 to 12 digits")
        if card is not None and not CARD.match(card):
            raise StaffError(f"{name}: a card ID is 4 to 64 printable characters without spaces")
        records = self._records()
        records[name] = {
            "role": role,
            "pin": hash_secret(pin, cost=cost) if pin is not None else None,
            "card": hash_secret(card, cost=cost) if card is not None else None,
            "added": dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        }
        self._write(records)
        return self._account(name, records[name])

    def remove(self, name: str) -> None:
        records = self._records()
        if name not in records:
            raise StaffError(f"{self.path}: no account named {name!r}")
        del records[name]
        self._write(records)

    def _keep_owner(self, fd: int) -> None:
        """Run by root (``tablectl staff add`` without ``sudo -u tablectl``), keep the file the owner it had, or give a new
        one its folder's (the service's state directory): a staff file root's alone stops ``serve`` (cannot read it)."""
        if os.geteuid() != 0:
            return
        for where in (self.path, self.path.parent):
            with contextlib.suppress(OSError):
                st = os.stat(where)
                if (st.st_uid, st.st_gid) != (0, 0):
                    os.fchown(fd, st.st_uid, st.st_gid)
                return

    def _write(self, records: dict[str, dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": FORMAT, "accounts": records}, indent=2, sort_keys=True) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=".staff-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                os.fchmod(out.fileno(), 0o600)
                self._keep_owner(out.fileno())
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise StaffError(f"{self.path}: cannot write the staff file: {exc.strerror or exc}") from None


class SessionAccounts:
    """The accounts a console checks: the staff file's, plus any made for this session only (``run --console``)."""

    def __init__(self, store: StaffFile | None, extra: dict[str, tuple[Role, str]] | None = None) -> None:
        self.store = store
        self._extra = {name: (role, hash_secret(pin)) for name, (role, pin) in (extra or {}).items()}

    def has_supervisor(self) -> bool:
        return any(role == "supervisor" for role, _ in self._extra.values()) or (
            self.store is not None and self.store.has_supervisor())

    def verify(self, name: str, secret: str) -> Account | None:
        if name in self._extra:
            role, hashed = self._extra[name]
            return Account(name, role, True, False) if check_secret(secret, hashed) else None
        if self.store is None:
            check_secret(secret, _decoy())
            return None
        return self.store.verify(name, secret)


def one_session_account() -> tuple[str, str]:
    """A name and a fresh 6-digit PIN for a supervisor that exists only while this process runs."""
    return "demo", f"{secrets.randbelow(10**6):06d}"
