"""The files tablectl ships: a starting config per game and the House Way charts.

They live in the repository's ``config/`` folder (the design card's place for
them, where an operator looks) and are package data: ``controller/shipped`` is
a link to ``../config``, which the wheel carries as real files, so an install
reads them with ``importlib.resources`` wherever it was put.

A name is looked for in this order (``docs/operations.md``, Configuration):

1. a path given on the command line (``--config FILE``);
2. the table's own folder, ``/etc/tablectl/`` (``TABLECTL_CONFIG_DIR`` names another);
3. the shipped files.

With no ``--config`` at all, ``/etc/tablectl/table.toml`` is the table's config
when it exists, and the shipped ``top-card.toml`` otherwise.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

SYSTEM_CONFIG = "table.toml"
"""The table's config in the system folder: what ``tablectl run`` and ``serve`` read without ``--config``."""

DEFAULT_GAME = "top-card"


def shipped_dir() -> Path:
    """The shipped files (the repository's ``config/``), as installed."""
    return Path(str(files("controller") / "shipped"))


def system_dir() -> Path:
    """The table's own configuration folder: ``/etc/tablectl`` unless ``TABLECTL_CONFIG_DIR`` says otherwise."""
    return Path(os.environ.get("TABLECTL_CONFIG_DIR") or "/etc/tablectl")


def shipped_configs() -> list[str]:
    """The game ids with a shipped starting config."""
    return sorted(p.stem for p in shipped_dir().glob("*.toml"))


def house_ways() -> list[str]:
    """The names of the shipped House Way charts."""
    return sorted(p.stem for p in (shipped_dir() / "house-way").glob("*.toml"))


def find(name: str, folder: str = "") -> Path | None:
    """``NAME.toml`` in the system folder, else among the shipped files (``folder``: e.g. ``house-way``)."""
    for base in (system_dir(), shipped_dir()):
        path = base / folder / f"{name}.toml"
        if path.is_file():
            return path
    return None


def house_way_file(name: str) -> Path:
    """The House Way chart called ``name`` (system folder first); the shipped one's path if none is found."""
    return find(name, "house-way") or shipped_dir() / "house-way" / f"{name}.toml"


def is_name(text: str) -> bool:
    """Whether ``text`` names a shipped file (``pai-gow-tiles``) rather than giving a path (``./x.toml``)."""
    return bool(text) and "/" not in text and not text.endswith(".toml") and text not in (".", "..")
