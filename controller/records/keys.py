"""The table's signing key: Ed25519 (``cryptography``), one key pair per table.

Why Ed25519 and not an HMAC: a signature is checked with the *public* key, so
a test lab, a regulator or the floor can verify a table's event log and its
checkpoints without being able to forge one; an HMAC key would have to be
handed to every verifier, and each of them could then write records the table
never wrote. The private key never leaves the table PC.

Files (``tablectl journal init`` or ``tablectl audit keygen`` makes them):

- ``TABLE.key``: the private key, PEM (PKCS#8), mode 0600, owned by the
  service user; refused if anyone else may read it. By default beside the
  journal (``var/journal/TC-01.key``), never beside the event log:
  ``[log] key`` moves it.
- ``TABLE.pub``: the public key, PEM (SubjectPublicKeyInfo): what a verifier
  needs, with its fingerprint (``ed25519:`` and 16 hex digits of its SHA-256).

What is signed (each message starts with its own label, so a signature made
for one use is never valid for another):

- every line of the event log (``controller.records.audit``): ``tablectl log line`` + the line without its ``sig``;
- every checkpoint (the journal's head and the log's): ``tablectl checkpoint`` + its canonical JSON.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.errors import TableError
from controller.records.errors import RecordsDamaged, RecordsError, storage_error

LINE_LABEL = b"tablectl log line\n"
CHECKPOINT_LABEL = b"tablectl checkpoint\n"


class KeyProblem(RecordsDamaged):
    """The table's key is missing, unreadable, not a key, the wrong one, or readable by others."""


class KeyExists(TableError):
    """``audit keygen`` where the table has a key already: refused, nothing damaged (exit 2, as a usage error)."""

    exit_code = 2


def key_path(journal: Path) -> Path:
    """The default private key path for a journal: ``TC-01.sqlite`` -> ``TC-01.key``."""
    return journal.with_suffix(".key")


def public_path(private: Path) -> Path:
    return private.with_suffix(".pub")


def fingerprint_of(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


class PublicKey:
    """A verifier's key: checks signatures, cannot make them."""

    def __init__(self, key: Ed25519PublicKey, source: str) -> None:
        self.key = key
        self.source = source
        self.fingerprint = fingerprint_of(key)

    @classmethod
    def load(cls, path: Path) -> PublicKey:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise KeyProblem(f"public key {path} does not exist: the table's `.pub` file (made with its key) is needed to verify") from None
        except OSError as exc:
            raise storage_error(path, exc, "reading the public key") from None
        return cls.from_pem(data, str(path))

    @classmethod
    def from_pem(cls, data: bytes, source: str) -> PublicKey:
        """The key in PEM ``data`` (``source`` names where it came from in errors)."""
        try:
            key = serialization.load_pem_public_key(data)
        except ValueError:
            try:
                key = serialization.load_pem_private_key(data, password=None).public_key()  # a private key file also gives it
            except (ValueError, TypeError):
                raise KeyProblem(f"{source} is not a PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise KeyProblem(f"{source} holds a {type(key).__name__}, not an Ed25519 key")
        return cls(key, source)

    def verify(self, signature: str, label: bytes, message: bytes) -> bool:
        try:
            raw = base64.b64decode(signature, validate=True)
            self.key.verify(raw, label + message)
        except (InvalidSignature, ValueError, binascii.Error):
            return False
        return True

    def pem(self) -> bytes:
        return self.key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


class SigningKey:
    """The table's private key: signs log lines and checkpoints."""

    def __init__(self, key: Ed25519PrivateKey, path: Path) -> None:
        self.key = key
        self.path = path
        self.public = PublicKey(key.public_key(), str(public_path(path)))
        self.fingerprint = self.public.fingerprint

    @classmethod
    def generate(cls, path: Path) -> SigningKey:
        """A new key pair at ``path`` (mode 0600) and its ``.pub``; refuses to replace an existing key."""
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            raise KeyExists(f"{path} already holds a key: a table keeps its key (remove it yourself to make a new one)") from None
        except OSError as exc:
            raise storage_error(path, exc, "creating the table's key") from None
        try:
            os.write(fd, pem)
            os.fsync(fd)
        finally:
            os.close(fd)
        signing = cls(key, path)
        try:
            public_path(path).write_bytes(signing.public.pem())
        except OSError as exc:
            raise storage_error(public_path(path), exc, "writing the public key") from None
        return signing

    @classmethod
    def load(cls, path: Path) -> SigningKey:
        try:
            mode = path.stat().st_mode
            data = path.read_bytes()
        except FileNotFoundError:
            raise KeyProblem(f"the table's signing key {path} is missing: restore it from where it was kept "
                             "(a log signed with a new key no longer matches the key the lab registered), "
                             "or for a new table `tablectl journal init`") from None
        except OSError as exc:
            raise storage_error(path, exc, "reading the table's signing key") from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyProblem(f"the table's signing key {path} may be read by others (mode {stat.S_IMODE(mode):04o}): "
                             f"`chmod 600 {path}` (and owned by the service user)")
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise KeyProblem(f"{path} is not a PEM private key (damaged?): restore the table's key from its backup") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyProblem(f"{path} holds a {type(key).__name__}, not an Ed25519 key")
        return cls(key, path)

    def sign(self, label: bytes, message: bytes) -> str:
        return base64.b64encode(self.key.sign(label + message)).decode()


def canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def sign_checkpoint(body: dict[str, Any], key: SigningKey | None) -> dict[str, Any]:
    """``body`` with its key's fingerprint and signature (``sig``); unchanged but for ``key: None`` when there is no key."""
    signed = {**body, "key": key.fingerprint if key else None}
    if key is not None:
        signed["sig"] = key.sign(CHECKPOINT_LABEL, canonical(signed))
    return signed


def checkpoint_signed_by(checkpoint: dict[str, Any], public: PublicKey) -> bool:
    body = {k: v for k, v in checkpoint.items() if k != "sig"}
    sig = checkpoint.get("sig")
    return isinstance(sig, str) and public.verify(sig, CHECKPOINT_LABEL, canonical(body))


__all__ = ["KeyProblem", "PublicKey", "RecordsError", "SigningKey", "checkpoint_signed_by", "key_path", "public_path",
           "sign_checkpoint"]
