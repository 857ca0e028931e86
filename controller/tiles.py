"""Chinese dominoes for Pai Gow Tiles: the 32-tile set, beside the card vocabulary.

A tile is written by its pips, higher end first: ``6-6`` is Teen, ``1-2`` and
``2-4`` are the two Gee Joon tiles. Eleven "civil" tiles come in identical
pairs; the ten "military" tiles pair up by name, not by pips (``4-5`` and
``3-6`` are both Chop Gow, the nines). Tiles are interned like cards.

>>> Tile.parse("6-6").name, Tile.parse("6-6").rank
('teen', 16)
>>> len(TILE_SET), len(set(TILE_SET))
(32, 21)
"""

from __future__ import annotations

from typing import ClassVar

from controller.cards import Card

__all__ = ["Tile", "UnknownTile", "TILE_SET", "parse_tiles", "Piece"]


class UnknownTile(ValueError):
    """A tile code that names no tile of the Chinese domino set."""


_TILES: tuple[tuple[str, str, int, int], ...] = (
    # code, name, rank, copies
    ("6-6", "teen", 16, 2),
    ("1-1", "day", 15, 2),
    ("4-4", "yun", 14, 2),
    ("1-3", "gor", 13, 2),
    ("5-5", "mooy", 12, 2),
    ("3-3", "chong", 11, 2),
    ("2-2", "bon", 10, 2),
    ("5-6", "foo", 9, 2),
    ("4-6", "ping", 8, 2),
    ("1-6", "tit", 7, 2),
    ("1-5", "look", 6, 2),
    ("4-5", "chop gow", 5, 1),
    ("3-6", "chop gow", 5, 1),
    ("3-5", "chop bot", 4, 1),
    ("2-6", "chop bot", 4, 1),
    ("3-4", "chop chit", 3, 1),
    ("2-5", "chop chit", 3, 1),
    ("1-4", "chop ng", 2, 1),
    ("2-3", "chop ng", 2, 1),
    ("1-2", "gee joon", 1, 1),
    ("2-4", "gee joon", 1, 1),
)


class Tile:
    """One domino. ``rank`` orders single tiles (16 Teen ... 1 Gee Joon); equal ranks share a ``name``."""

    __slots__ = ("code", "name", "rank", "low", "high")
    _interned: ClassVar[dict[str, Tile]] = {}

    code: str
    name: str
    rank: int
    low: int
    high: int

    def __new__(cls, code: str, name: str, rank: int) -> Tile:
        tile = cls._interned.get(code)
        if tile is None:
            tile = object.__new__(cls)
            low, high = sorted(int(p) for p in code.split("-"))
            for attr, value in (("code", code), ("name", name), ("rank", rank), ("low", low), ("high", high)):
                object.__setattr__(tile, attr, value)
            cls._interned[code] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Tile.parse, (self.code,))

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_gee_joon(self) -> bool:
        return self.name == "gee joon"

    @property
    def point_choices(self) -> tuple[int, ...]:
        """Gee Joon's 3 and 6 are interchangeable (seed: "The 6 can be played as a 3 and the 3 as a 6")."""
        return (3, 6) if self.is_gee_joon else (self.pips,)

    @classmethod
    def parse(cls, code: str) -> Tile:
        text = str(code).strip().replace(":", "-").replace("/", "-")
        parts = text.split("-")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise UnknownTile(f"unknown tile {code!r}: a tile is its pips, e.g. 6-6 or 2-4")
        key = "-".join(sorted(parts))
        tile = cls._interned.get(key)
        if tile is None:
            raise UnknownTile(f"unknown tile {code!r}: not one of the 21 Chinese domino faces")
        return tile


TILE_SET: tuple[Tile, ...] = tuple(Tile(code, name, rank) for code, name, rank, copies in _TILES for _ in range(copies))


def parse_tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.replace(",", " ").split()]


Piece = Card | Tile
"""What is dealt: a card, or a domino in Pai Gow Tiles."""
