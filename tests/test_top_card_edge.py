"""Top Card's exact edges, checked against an independent count of every ordered pair of cards."""

import json
from collections import Counter
from fractions import Fraction

from controller.commands.cli import main
from controller.money import Rounding
from controller.rules.edges import compute
from controller.rules.top_card.game import TopCard
from controller.settlement import settle


def brute_force_ev() -> dict[str, Fraction]:
    """Settle a one-unit stake of 1,000,000 cents for each of the 416 x 415 ordered (home, away) pairs."""
    game = TopCard()
    by_rank = Counter(c.rank for c in game.deck())
    totals: Counter[str] = Counter()
    pairs = 0
    for home, n_home in by_rank.items():
        for away, n_away in by_rank.items():
            ways = n_home * (n_away - (home == away))
            pairs += ways
            result = "tie" if home == away else "home" if home > away else "away"
            for wager in game.wagers:
                record = settle(1, wager, 1_000_000, game.payout(wager, result), Rounding.HOUSE)
                totals[wager] += ways * (record.returned - record.stake)
    assert pairs == 416 * 415
    return {w: Fraction(v, pairs * 1_000_000) for w, v in totals.items()}


def test_edges_match_an_independent_count() -> None:
    [table] = compute("top-card")
    expected = brute_force_ev()
    for wager, edge in table["wagers"].items():
        assert Fraction(edge["exact"]) == expected[wager]
        assert edge["method"] == "exact" and edge["stderr"] is None


def test_published_figures() -> None:
    # P(tie) = 31/415 over eight decks: Home/Away -31/830 (3.73%), Tie 12 * 31/415 - 1 = -43/415 (10.36%)
    [table] = compute("top-card")
    assert table["wagers"]["home"]["exact"] == "-31/830"
    assert table["wagers"]["tie"]["exact"] == "-43/415"
    assert round(table["wagers"]["tie"]["house_edge"], 4) == 0.1036


def test_cli_prints_the_json_contract(capsys) -> None:
    assert main(["edge", "top-card", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, list) and data[0]["game"] == "top-card" and data[0]["paytable"] == "standard"
    for edge in data[0]["wagers"].values():
        assert set(edge) == {"ev", "house_edge", "exact", "method", "stderr", "assumptions"}
        assert edge["house_edge"] == -edge["ev"]


def test_cli_says_how_long_each_pay_table_took(capsys) -> None:
    assert main(["edge", "top-card", "--json"]) == 0
    (table,) = json.loads(capsys.readouterr().out)
    assert table["seconds"] >= 0 and table["cpu_seconds"] >= 0


def test_a_pay_table_without_a_game_is_refused_by_name(capsys) -> None:
    assert main(["edge", "--paytable", "standard"]) == 2
    assert "--paytable needs a game" in capsys.readouterr().err
