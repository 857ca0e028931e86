"""No Bust 21's Buster Bet on each of its two pay tables: the test lab's own count against docs/edge.md.

The lab's enumeration (8 decks, 8 jokers; the player-dealer hits soft 17 or less; a joker hand is made and never
over; the Buster wins when the count is over ``over_above``) gives 29.6979 % on ``seed`` (over 21) and 46.7557 % on
``plain-22-under`` (over 22: a player-dealer's 22 stands and is not over), the figures ``tablectl edge`` prints.
"""

from fractions import Fraction
from pathlib import Path

from controller.rules.blackjack.edge import buster_edge
from controller.rules.blackjack.no_bust_21_edge import VARIANTS
from controller.rules.registry import make_game

LAB = {
    "seed": Fraction(-68400636474951742426240519, 230321756502480701847635847),
    "plain-22-under": Fraction(-76920343175597441839148149, 164515540358914787034025605),
}


def test_the_buster_edge_of_each_variant_matches_the_lab() -> None:
    for name, options in VARIANTS.items():
        assert buster_edge(make_game("no-bust-21", options)).ev == LAB[name]


def test_docs_edge_gives_the_buster_figure_of_each_variant() -> None:
    rows = [line for line in Path("docs/edge.md").read_text().splitlines()
            if line.startswith("| no-bust-21 |") and "| buster |" in line]
    assert rows, "docs/edge.md has no No Bust 21 Buster row"
    text = " ".join(rows)
    for figure in LAB.values():
        assert f"{float(-figure) * 100:.4f}" in text
