"""Changing a table config in place, as a tool must: comments and layout kept, the result checked, a backup kept.

``edit_config`` parses the file with tomlkit (which keeps every comment, blank
line and the way each array is written), applies a change to that document,
and checks the result against the schema before anything is written: a change
the schema refuses (a zone named for a target the game does not have) leaves
the file as it was and raises ``ConfigError``. The file it replaces is kept
beside it as ``NAME.YYYYMMDDTHHMMSS.bak`` (never over an older one), and the new text is written to a
temporary file and renamed over the old one, so a crash leaves one or the other.

A file that names no game (a ``[vision]`` table kept for ``tablectl vision
read``) is checked as far as it goes: its ``[vision]`` table against the schema.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import shutil
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import tomlkit
from pydantic import ValidationError
from tomlkit.exceptions import TOMLKitError

from controller.engine.config import parse_config
from controller.engine.config_schema import Vision, problems_of
from controller.errors import ConfigError

Change = Callable[[tomlkit.TOMLDocument], None]


def edit_config(path: Path, change: Change) -> Path | None:
    """Apply ``change`` to the config at ``path`` (a new file if there is none) and write it back; the backup's
    path, or ``None`` for a new file. ``ConfigError`` when the result would not pass ``tablectl config check``."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        doc = tomlkit.parse(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "(file)", f"cannot be read: {exc}") from None
    except TOMLKitError as exc:
        raise ConfigError(str(path), "(syntax)", f"not valid TOML: {exc}") from None
    change(doc)
    new_text = tomlkit.dumps(doc)
    check_text(new_text, str(path))
    backup = keep_backup(path) if path.exists() else None
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(new_text, encoding="utf-8")
    if backup is not None:
        shutil.copymode(backup, tmp)
        _same_owner(path, tmp)
    os.replace(tmp, path)
    return backup


def _same_owner(path: Path, tmp: Path) -> None:
    """Give ``tmp`` the owner and group of ``path`` (root, the one who may, editing a service's config: the docs'
    ``root:tablectl`` 0640 must stay readable by the service's group)."""
    try:
        was = path.stat()
        if os.geteuid() == 0 and (tmp.stat().st_uid, tmp.stat().st_gid) != (was.st_uid, was.st_gid):
            os.chown(tmp, was.st_uid, was.st_gid)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigError(str(path), "(file)", f"cannot give the new file the old one's owner: {exc.strerror or exc}") from None


def keep_backup(path: Path) -> Path:
    """A copy of ``path`` as ``NAME.YYYYMMDDTHHMMSS.bak`` (``-2``, ``-3``, ... after the time when one of that
    second exists: an existing backup is never overwritten, so two edits in one second keep the original)."""
    stamp = f"{dt.datetime.now().astimezone():%Y%m%dT%H%M%S}"
    for n in itertools.count(1):
        backup = path.with_name(f"{path.name}.{stamp}{'' if n == 1 else f'-{n}'}.bak")
        try:
            with path.open("rb") as source, backup.open("xb") as copy:
                shutil.copyfileobj(source, copy)
        except FileExistsError:
            continue
        except OSError as exc:
            raise ConfigError(str(path), "(file)", f"cannot keep a backup as {backup}: {exc.strerror or exc}") from None
        shutil.copystat(path, backup)
        return backup
    raise AssertionError("unreachable")


def check_text(text: str, file: str) -> None:
    """Raise ``ConfigError`` unless ``text`` is a config the schema accepts (see the module for one with no game)."""
    data = tomllib.loads(text)
    table = data.get("table")
    if isinstance(table, dict) and "game" in table:
        parse_config(data, file)
        return
    try:
        Vision.model_validate(data.get("vision", {}))
    except ValidationError as exc:
        first, *more = problems_of(exc, Vision, ("vision",))
        raise ConfigError(file, first.key, first.reason, more=[(p.key, p.reason) for p in more]) from None


def set_layout(calibration: Mapping[str, Any], zones: Mapping[str, Sequence[Sequence[float]]] | None) -> Change:
    """The change ``tablectl vision calibrate`` makes: ``[vision.calibration]`` replaced, and ``[vision.zones]``
    replaced by ``zones`` when given (kept as it is when ``None``); every other line stays as written."""

    def change(doc: tomlkit.TOMLDocument) -> None:
        vision = _table(doc, "vision")
        target = _table(vision, "calibration")
        for key, value in calibration.items():
            target[key] = value
        if zones is not None:
            table = _table(vision, "zones")
            for name in [n for n in table if n not in zones]:
                del table[name]
            for name, polygon in zones.items():
                table[name] = [list(point) for point in polygon]

    return change


def _table(container: Any, key: str) -> Any:
    if key not in container:
        container[key] = tomlkit.table()
    return container[key]
