"""The House Way: the card room's chart for setting a hand, loaded from data, and the setter that applies it.

Seed 003: any player "may ask for his hand to be set House Way", and a
player wagering on several seats has the other hands played House Way. The
chart (``config/house-way/double-hand-poker.toml``, reconstructed in
``shared/notes/house-way.md``) is data: each row names a kind of seven-card
hand (:func:`hand_kind`), the ranks it covers, and one of the :data:`RULES`
below with its parameter. A card room replaces the file to change its way.

Where a rule leaves equal choices (two ways to keep a straight, a flush
against a straight) the setting whose back hand ranks higher is taken, then
the one whose front ranks higher (house-way.md). The setter never returns a
foul hand: should a card room's chart ask for one, the hand is reset "the
most logical way" (seed 003: the best back hand with a legal front), and
the setting says so.

>>> from controller.cards import parse_cards
>>> way = load_house_way()
>>> str(way.set(parse_cards("AS TH 8D 7C 2S KH QD")).hand)
'KH QD / AS TH 8D 7C 2S'
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from controller.cards import Card, Rank
from controller.errors import ConfigError
from controller.rules.evaluators.five_card import Category, category
from controller.rules.pai_gow_poker.hands import ACE, SetHand, back_value, foul_reason, front_value, settings
from controller.shipped import house_way_file

__all__ = ["HAND_KINDS", "RULES", "DEFAULT_FILE", "Row", "HouseWay", "HouseWaySetting", "hand_kind",
           "load_house_way", "parse_example"]

DEFAULT_FILE = house_way_file("double-hand-poker")
"""The chart a table uses unless its config names another: ``/etc/tablectl/house-way/``, else the shipped one."""

RANKED_KINDS = {"two-pair": range(3, 15), "three-of-a-kind": range(2, 15), "four-of-a-kind": range(2, 15)}
"""Kinds whose rows are chosen by a rank (the big pair, the set, the four), and the ranks that occur."""
HAND_KINDS = (
    "no-pair", "one-pair", "two-pair", "three-pair", "three-of-a-kind", "two-sets", "full-house",
    "four-of-a-kind", "five-aces", "straight-or-flush-no-pair", "straight-or-flush-one-pair",
    "straight-or-flush-two-pair", "straight-or-flush-three-of-a-kind",
)
_COMPLETE = (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)


def _rank(card: Card) -> int:
    return ACE if card.is_joker else int(card.rank)


def _order(card: Card) -> tuple[int, int, str]:
    """Highest first; a natural ace before the joker, so the joker is the ace that goes up front."""
    return (-_rank(card), int(card.is_joker), card.code)


@dataclass(frozen=True)
class Hand:
    """Seven cards seen the way the chart sees them: groups by rank (the joker with the aces)."""

    cards: tuple[Card, ...]
    groups: dict[int, list[Card]]
    complete: bool
    """Some five of the cards make a straight or a flush (or a straight flush)."""
    wheel: str

    @classmethod
    def of(cls, cards: Sequence[Card], wheel: str) -> Hand:
        groups: dict[int, list[Card]] = {}
        for card in sorted(cards, key=_order):
            groups.setdefault(_rank(card), []).append(card)
        complete = any(category(back_value(s.back, wheel)) in _COMPLETE for s in settings(cards))
        return cls(tuple(cards), groups, complete, wheel)

    def sized(self, n: int) -> list[int]:
        """Ranks held exactly ``n`` times, highest first."""
        return sorted((r for r, g in self.groups.items() if len(g) == n), reverse=True)

    def singles(self, *excluded: int) -> list[Card]:
        return sorted((c for r, g in self.groups.items() if r not in excluded and len(g) == 1 for c in g), key=_order)

    def others(self, *excluded: int) -> list[Card]:
        return sorted((c for r, g in self.groups.items() if r not in excluded for c in g), key=_order)


def hand_kind(hand: Hand) -> tuple[str, int | None]:
    """The chart row's kind of hand, and its deciding rank (big pair, set or four) where the row needs one."""
    shape = sorted((len(g) for g in hand.groups.values()), reverse=True)
    if shape[0] == 5:
        return "five-aces", None
    if shape[0] == 4:
        return "four-of-a-kind", hand.sized(4)[0]
    if shape[:2] == [3, 3]:
        return "two-sets", None
    if shape[0] == 3 and shape[1] == 2:
        return "full-house", None
    if shape[0] == 3:
        return ("straight-or-flush-three-of-a-kind", None) if hand.complete else ("three-of-a-kind", hand.sized(3)[0])
    pairs = hand.sized(2)
    if len(pairs) == 3:
        return "three-pair", None
    if len(pairs) == 2:
        return ("straight-or-flush-two-pair", None) if hand.complete else ("two-pair", pairs[0])
    if len(pairs) == 1:
        return ("straight-or-flush-one-pair", None) if hand.complete else ("one-pair", None)
    return ("straight-or-flush-no-pair", None) if hand.complete else ("no-pair", None)


# -- the rules: each returns the two front cards --------------------------------------------------

Rule = Callable[[Hand, str | None], list[Card] | None]


def _best_of(hand: Hand, candidates: list[SetHand]) -> list[Card] | None:
    """The candidate with the highest back, then the highest front (the chart's tie-break)."""
    if not candidates:
        return None
    best = max(candidates, key=lambda s: (back_value(s.back, hand.wheel), front_value(s.front)))
    return list(best.front)


def _highest_back_next_two_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.others()[1:3]


def _pair_back_two_highest_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.singles()[:2]


def _split(hand: Hand, _: str | None) -> list[Card]:
    """Two pair: the small pair in front. Four of a kind: two of the four in front.

    Which two of the four go in front matters only for aces with the joker: the
    joker left behind may complete a straight or a flush there (AS AH AD JK 5C 3S 2H:
    two natural aces in front keep A-JK-5-3-2, a five-high straight, behind). The
    chart's tie-break decides: the higher back hand, then the higher front.
    """
    pairs = hand.sized(2)
    if len(pairs) >= 2:
        return hand.groups[pairs[1]][:2]
    four = hand.groups[hand.sized(4)[0]]
    rest = [c for c in hand.cards if c not in four]
    choices = [SetHand(front, tuple(c for c in four if c not in front) + tuple(rest))
               for front in combinations(four, 2)]
    best = _best_of(hand, choices)
    assert best is not None
    return best


def _kept_group_ranks(hand: Hand) -> list[int]:
    fours = hand.sized(4)
    return fours[:1] if fours else hand.sized(2)[:2]


def _best_front_from(cards: list[Card]) -> list[Card]:
    pairs = list(combinations(cards, 2))
    values = [front_value(pair) for pair in pairs]
    return list(pairs[values.index(max(values))])


def _meets(front: list[Card], needed: str) -> bool:
    """A pair meets any rank; otherwise the front's top card must reach the rank."""
    if category(front_value(front)) is Category.ONE_PAIR:
        return True
    return needed != "pair" and max(_rank(c) for c in front) >= Rank.from_char(needed)


def _together(hand: Hand, _: str | None) -> list[Card]:
    return _best_front_from(hand.others(*_kept_group_ranks(hand)))


def _together_if_front(hand: Hand, needed: str | None) -> list[Card]:
    front = _together(hand, None)
    return front if _meets(front, needed or "pair") else _split(hand, None)


def _highest_pair_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.groups[hand.sized(2)[0]][:2]


def _trips_back_two_highest_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.others(hand.sized(3)[0])[:2]


def _ace_and_next_front(hand: Hand, _: str | None) -> list[Card]:
    return [hand.groups[ACE][-1], hand.others(ACE)[0]]


def _higher_set_pair_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.groups[hand.sized(3)[0]][-2:]


def _pair_of_aces_front(hand: Hand, _: str | None) -> list[Card]:
    return hand.groups[ACE][-2:]


def _complete(hand: Hand, setting: SetHand) -> bool:
    return category(back_value(setting.back, hand.wheel)) in _COMPLETE


def _complete_back_highest_front(hand: Hand, _: str | None) -> list[Card] | None:
    candidates = [s for s in settings(hand.cards) if _complete(hand, s)]
    if not candidates:
        return None
    top = max(front_value(s.front) for s in candidates)
    return _best_of(hand, [s for s in candidates if front_value(s.front) == top])


def _complete_back_pair_front(hand: Hand, _: str | None) -> list[Card] | None:
    candidates = [s for s in settings(hand.cards)
                  if _complete(hand, s) and category(front_value(s.front)) is Category.ONE_PAIR]
    if not candidates:
        return _complete_back_highest_front(hand, None)
    top = max(front_value(s.front) for s in candidates)
    return _best_of(hand, [s for s in candidates if front_value(s.front) == top])


RULES: dict[str, Rule] = {
    "highest-back-next-two-front": _highest_back_next_two_front,
    "pair-back-two-highest-front": _pair_back_two_highest_front,
    "split": _split,
    "together": _together,
    "together-if-front": _together_if_front,
    "highest-pair-front": _highest_pair_front,
    "trips-back-two-highest-front": _trips_back_two_highest_front,
    "ace-and-next-front": _ace_and_next_front,
    "higher-set-pair-front": _higher_set_pair_front,
    "pair-of-aces-front": _pair_of_aces_front,
    "complete-back-highest-front": _complete_back_highest_front,
    "complete-back-pair-front": _complete_back_pair_front,
    "as-two-pair": lambda hand, _: None,  # handled by HouseWay.set: the two-pair rows decide
}
"""The rule words a chart may use, and what each puts in front."""


@dataclass(frozen=True, slots=True)
class Row:
    hand: str
    rule: str
    ranks: frozenset[int] = frozenset()
    front_at_least: str | None = None
    examples: tuple[str, ...] = ()

    def matches(self, kind: str, rank: int | None) -> bool:
        return self.hand == kind and (not self.ranks or rank in self.ranks)


@dataclass(frozen=True, slots=True)
class HouseWaySetting:
    """A hand set House Way: the setting, the chart row used, and whether it had to be reset."""

    hand: SetHand
    row: Row
    reset: str | None = None
    """Why the row's setting was replaced (it would have been foul); ``None`` normally."""


@dataclass(frozen=True)
class HouseWay:
    name: str
    rows: tuple[Row, ...]
    source: str

    def row_for(self, kind: str, rank: int | None) -> Row:
        for row in self.rows:
            if row.matches(kind, rank):
                return row
        raise LookupError(f"{self.source}: no House Way row for {kind} {rank or ''}".strip())

    def set(self, cards: Sequence[Card], wheel: str = "lowest") -> HouseWaySetting:
        """Set seven cards House Way."""
        hand = Hand.of(cards, wheel)
        kind, rank = hand_kind(hand)
        row = self.row_for(kind, rank)
        if row.rule == "as-two-pair":
            pairs = hand.sized(2)
            row = self.row_for("two-pair", pairs[0])
        front = RULES[row.rule](hand, row.front_at_least)
        if front is not None:
            back = tuple(c for c in hand.cards if c not in front)
            reason = foul_reason(front, back, wheel)
            if reason is None:
                return HouseWaySetting(SetHand(tuple(front), back), row)
        else:
            reason = f"rule {row.rule!r} finds no setting for this hand"
        legal = [s for s in settings(cards) if foul_reason(s.front, s.back, wheel) is None]
        best = max(legal, key=lambda s: (back_value(s.back, wheel), front_value(s.front)))
        return HouseWaySetting(best, row, reset=reason)


# -- loading and validating a chart ----------------------------------------------------------------

_ROW_KEYS = {"hand", "rule", "ranks", "front_at_least", "examples"}


def load_house_way(path: str | Path = DEFAULT_FILE) -> HouseWay:
    """Read and validate a House Way chart; every error names the file and the row."""
    file = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(file, "(file)", "no such House Way file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(file, "(syntax)", f"not valid TOML: {exc}") from None
    return parse_house_way(data, file)


def parse_house_way(data: Mapping[str, Any], file: str = "<house way>") -> HouseWay:
    head = data.get("house_way", {})
    name = head.get("name", Path(file).stem) if isinstance(head, dict) else None
    if not isinstance(name, str):
        raise ConfigError(file, "house_way.name", "must be text")
    raw_rows = data.get("row")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise ConfigError(file, "row", "is missing: a chart is a list of [[row]] tables")
    rows = tuple(_row(file, i, raw) for i, raw in enumerate(raw_rows, 1))
    way = HouseWay(name, rows, file)
    _check_coverage(way)
    return way


def _row(file: str, index: int, raw: Any) -> Row:
    key = f"row[{index}]"
    if not isinstance(raw, dict):
        raise ConfigError(file, key, "must be a table")
    unknown = set(raw) - _ROW_KEYS
    if unknown:
        raise ConfigError(file, f"{key}.{min(unknown)}", f"unknown key: expected {', '.join(sorted(_ROW_KEYS))}")
    hand, rule = raw.get("hand"), raw.get("rule")
    if hand not in HAND_KINDS:
        raise ConfigError(file, f"{key}.hand", f"{hand!r} is not a kind of hand: expected one of {', '.join(HAND_KINDS)}")
    if rule not in RULES:
        raise ConfigError(file, f"{key}.rule", f"{rule!r} is not a House Way rule: expected one of {', '.join(RULES)}")
    ranks = raw.get("ranks", [])
    if ranks and hand not in RANKED_KINDS:
        raise ConfigError(file, f"{key}.ranks", f"a {hand} row covers every such hand and takes no ranks")
    try:
        rank_set = frozenset(ACE if r == "A" else int(Rank.from_char(r)) for r in ranks)
    except (ValueError, TypeError, AttributeError):
        raise ConfigError(file, f"{key}.ranks", f'must be rank letters such as "A", "T", "9", not {ranks!r}') from None
    needed = raw.get("front_at_least")
    if (needed is not None) != (rule == "together-if-front"):
        raise ConfigError(file, f"{key}.front_at_least", 'goes with the rule "together-if-front", and only with it')
    if needed is not None and needed != "pair":
        try:
            Rank.from_char(needed)
        except (ValueError, TypeError, AttributeError):
            raise ConfigError(file, f"{key}.front_at_least", f'must be a rank letter or "pair", not {needed!r}') from None
    examples = raw.get("examples", [])
    for example in examples:
        try:
            parse_example(example)
        except ValueError as exc:
            raise ConfigError(file, f"{key}.examples", str(exc)) from None
    return Row(hand, rule, rank_set, needed, tuple(examples))


def _check_coverage(way: HouseWay) -> None:
    """Every kind of hand, at every rank it can have, must find a row."""
    for kind in HAND_KINDS:
        for rank in RANKED_KINDS.get(kind, [None]):
            try:
                way.row_for(kind, rank)
            except LookupError as exc:
                raise ConfigError(way.source, "row", f"{exc}: the chart must cover every hand") from None


def parse_example(text: str) -> tuple[list[str], list[str]]:
    """A chart example ``"K Q / A T 8 7 2"`` as front and back rank words (``JK`` the joker)."""
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(f'example {text!r} must read "front / back"')
    front, back = parts[0].split(), parts[1].split()
    if len(front) != 2 or len(back) != 5:
        raise ValueError(f"example {text!r} must have two cards in front and five in back")
    for word in front + back:
        if word != "JK" and (len(word) != 1 or word not in "AKQJT98765432"):
            raise ValueError(f"example {text!r}: {word!r} is not a rank letter or JK")
    counts = Counter(front + back)
    if any(n > 4 for w, n in counts.items() if w != "JK") or counts["JK"] > 1:
        raise ValueError(f"example {text!r} holds more cards of a rank than a deck has")
    return front, back
