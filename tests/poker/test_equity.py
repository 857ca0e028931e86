"""``tablectl odds``: exact equities, checked against the per-hand evaluators board by board (seed 003 Omaha Hi-Low
rules 3, 12, 13: halves, ties, scoops)."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from controller.cards import Card, deck_with_joker, parse_cards
from controller.commands.cli import main
from controller.rules.evaluators import evaluate, omaha_high, omaha_low
from controller.rules.poker.equity import equities


def brute_force(game: str, holes: list[list[Card]], board: list[Card], joker: bool) -> list[Fraction]:
    """Each player's pot share, averaged over every river, with the per-hand evaluators."""
    known = {c for h in holes for c in h} | set(board)
    deck = [c for c in deck_with_joker() if (joker or not c.is_joker) and c not in known]
    totals = [Fraction(0)] * len(holes)
    for river in deck:
        full = [*board, river]
        if game == "holdem":
            highs = [evaluate([*h, *full]) for h in holes]
            lows = [None] * len(holes)
        else:
            highs = [omaha_high(h, full)[0] for h in holes]
            lows = [(lambda r: None if r is None else r[0])(omaha_low(h, full)) for h in holes]
        hi_winners = [i for i, v in enumerate(highs) if v == max(highs)]
        qualified = [v for v in lows if v is not None]
        lo_winners = [i for i, v in enumerate(lows) if qualified and v == max(qualified)]
        half = Fraction(1, 2) if lo_winners else Fraction(1)
        for i in hi_winners:
            totals[i] += half / len(hi_winners)
        for i in lo_winners:
            totals[i] += Fraction(1, 2) / len(lo_winners)
    return [t / len(deck) for t in totals]


@st.composite
def spots(draw: st.DrawFn) -> tuple[str, list[list[Card]], list[Card], bool]:
    game = draw(st.sampled_from(["holdem", "omaha-hi-lo"]))
    joker = game == "omaha-hi-lo" and draw(st.booleans())
    players = draw(st.integers(2, 4))
    size = 2 if game == "holdem" else 4
    deck = [c for c in deck_with_joker() if joker or not c.is_joker]
    cards = draw(st.permutations(deck))[: players * size + 4]
    holes = [list(cards[i * size:(i + 1) * size]) for i in range(players)]
    return game, holes, list(cards[players * size:]), joker


@settings(max_examples=25, deadline=None)
@given(spots())
def test_exact_equity_matches_the_per_hand_evaluators_river_by_river(spot) -> None:
    game, holes, board, joker = spot
    result = equities(game, holes, board, joker=joker)
    assert [p.equity for p in result.players] == brute_force(game, holes, board, joker)
    assert sum(p.equity for p in result.players) == 1


def test_a_preflop_holdem_spot_enumerates_every_board() -> None:
    result = equities("holdem", [parse_cards("AS KS"), parse_cards("QH QD")])
    assert result.boards == 1712304  # C(48, 5)
    assert result.players[0].equity == Fraction(197833, 428076)  # 46.21 %, the published AKs v QQ figure


def test_omaha_scoops_and_splits_on_the_flop() -> None:
    result = equities("omaha-hi-lo", [parse_cards("AS 2S KD QD"), parse_cards("AH 3H 4C 5C")], parse_cards("8S 7H TD"))
    assert (result.boards, result.low_boards) == (820, 567)
    assert result.players[0].equity == Fraction(269, 410)


@pytest.mark.parametrize(("args", "message"), [
    (["holdem", "--hole", "AS KS"], "two or more players"),
    (["holdem", "--hole", "AS KS", "--hole", "AS QD"], "cards named twice: AS"),
    (["holdem", "--hole", "AS KS", "--hole", "QH QD", "--board", "2C 3C"], "0, 3, 4 or 5 cards"),
    (["holdem", "--hole", "AS KS", "--hole", "QH XX"], "unknown rank 'X'"),
    (["holdem", "--hole", "AS KS", "--hole", "QH QD", "--joker"], "only Omaha hi-lo"),
])
def test_bad_input_is_refused_with_the_reason(args: list[str], message: str, capsys) -> None:
    assert main(["odds", *args]) == 2
    assert message in capsys.readouterr().err


def test_json_output(capsys) -> None:
    assert main(["odds", "omaha-hi-lo", "--joker", "--hole", "JK 2S KD QD", "--hole", "AH 3H 4C 5C",
                 "--board", "8S 7H TD 6C", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"] == 53 - 8 - 4 and out["joker"] is True
    assert sum(Fraction(p["equity"]) for p in out["players"]) == 1
