"""Fortune Pai Gow Poker (seed 003): the Fortune Bonus pay table FPG-04, the Envy Bonus, the betting scheme."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.errors import WagerRefused
from controller.rules.pai_gow_poker.fortune import PAYTABLES, rows_held
from tests.paigow.roundkit import deal, new_round, play_out, stacked_deck

TABLE = PAYTABLES["FPG-04"]


@pytest.mark.parametrize(("cards", "row", "pays"), [
    ("4H 5H 6H 7H 8H 9H TH", "7-card straight flush", "5000 to 1"),
    ("AH 2H 3H 4H 5H 6H 7H", "7-card straight flush", "5000 to 1"),
    ("AS KS QS JS TS KH QH", "royal flush + royal match", "1000 to 1"),
    ("4H 5H JK 7H 8H 9H TH", "7-card straight flush with joker", "750 to 1"),
    ("AS AH AD AC JK 2S 7D", "five aces", "250 to 1"),
    ("AS KS QS JS TS 2H 3D", "royal flush", "100 to 1"),
    ("JK KS QS JS TS 2H 3D", "royal flush", "100 to 1"),
    ("9S 8S 7S 6S 5S 2H 3D", "straight flush", "50 to 1"),
    ("9S 9H 9D 9C 5S 2H 3D", "four of a kind", "20 to 1"),
    ("JK AH AD AC 5S 2H 3D", "four of a kind", "20 to 1"),
    ("9S 9H 9D 5C 5S 2H 3D", "full house", "5 to 1"),
    ("AH 9H 7H 4H 2H 2S 3D", "flush", "4 to 1"),
    ("9S 9H 9D KC 5S 2H 3D", "three of a kind", "3 to 1"),
    ("9S TH JD QC KS 2H 3D", "straight", "2 to 1"),
    ("9S 9H 5D 5C 3S 3H KD", "three pair", "push"),
])
def test_every_row_of_the_fortune_pay_table(cards: str, row: str, pays: str) -> None:
    # seed 003 BONUS BET PAYTABLE (FPG-04), one row each
    result = TABLE.result(parse_cards(cards))
    assert (result.row, result.payout.text) == (row, pays)


def test_two_pair_and_less_lose() -> None:
    assert TABLE.result(parse_cards("9S 9H 5D 5C 3S 7H KD")).row is None
    assert TABLE.result(parse_cards("9S 9H 5D 5C 3S 7H KD")).payout.multiplier == 0


def test_three_of_a_kind_with_a_straight_pays_the_higher_by_default() -> None:
    # rules-notes.md: default pay the higher of the two payouts
    cards = parse_cards("9S 9H 9D TC JS QH KD")
    assert rows_held(cards) >= {"three of a kind", "straight"}
    assert TABLE.result(cards).payout.text == "3 to 1"
    assert TABLE.result(cards, overlap="best-hand").payout.text == "2 to 1"


@pytest.mark.parametrize(("row", "envy"), [
    ("7-card straight flush", 100000), ("royal flush + royal match", 25000), ("7-card straight flush with joker", 10000),
    ("five aces", 5000), ("royal flush", 2500), ("straight flush", 1000), ("four of a kind", 500), ("full house", 0),
])
def test_the_envy_amounts_of_fpg_04(row: str, envy: int) -> None:
    assert TABLE.rows[row].envy == envy


def fortune_round(fortunes: dict[int, int], hands: dict[int, str], **options):
    wagers = {}
    for seat, amount in fortunes.items():
        wagers[(seat, "bet")] = 2000
        wagers[(seat, "fortune")] = amount
    round = new_round("fortune-pai-gow", options, wagers, bank=500000)
    deal(round, stacked_deck(hands))
    play_out(round, first_pile=1, dice=(2, 3, 3))  # seat k receives pile k
    return round


NOTHING_2 = "AS QH 7C 5C 3D 2H JD"
QUADS_3 = "9S 9H 9D 9C 2S 5H 7D"
NOTHING_4 = "QS TH 7S 6C 4D 2C JH"
QUADS_PLAYER_DEALER = "8S 8H 8D 8C 3S 4H KD"


def fortune_records(round) -> dict[int, object]:
    return {s.spot: s for s in round.settlements if s.wager == "fortune"}


def test_envy_pays_every_other_qualifying_player_for_a_four_of_a_kind() -> None:
    # seed 003: "If at least one player has a four of a kind or higher, all players with Envy buttons win"
    round = fortune_round({2: 500, 3: 500, 4: 400},
                          {1: QUADS_PLAYER_DEALER, 2: NOTHING_2, 3: QUADS_3, 4: NOTHING_4})
    records = fortune_records(round)
    assert records[2].returned == 500 and "envy: seat 3 four of a kind $5.00" in records[2].reason
    assert records[3].returned == 500 * 21 and "envy" not in records[3].reason  # not for his own hand
    assert records[4].returned == 0  # $4 is below the $5 Envy threshold


def test_the_player_dealers_hand_pays_no_envy() -> None:
    round = fortune_round({2: 500}, {1: QUADS_PLAYER_DEALER, 2: NOTHING_2})
    assert fortune_records(round)[2].returned == 0


def test_envy_is_paid_once_per_qualifying_hand() -> None:
    # seed 003: "In the event more than one player has at least four of a kind ... multiple payouts"
    round = fortune_round({2: 500, 3: 100, 4: 100},
                          {2: NOTHING_2, 3: QUADS_3, 4: "KS KH KD KC 3C 5D 7S"})
    assert fortune_records(round)[2].returned == 1000


def test_the_envy_threshold_is_configurable() -> None:
    # the glossary reads $25
    round = fortune_round({2: 2000, 3: 500}, {2: NOTHING_2, 3: QUADS_3}, envy_threshold=2500)
    assert fortune_records(round)[2].returned == 0


def test_the_fortune_bonus_needs_a_standard_wager_and_whole_dollars() -> None:
    # seed 003 Betting scheme: "must make a standard Pai Gow Poker wager"; "$1 to $20, in increments of $1"
    with pytest.raises(WagerRefused, match="needs a standard"):
        new_round("fortune-pai-gow", wagers={(2, "fortune"): 500})
    with pytest.raises(WagerRefused, match="whole dollars"):
        new_round("fortune-pai-gow", wagers={(2, "bet"): 2000, (2, "fortune"): 550})


def test_no_collection_fee_on_the_fortune_bonus() -> None:
    round = new_round("fortune-pai-gow", wagers={(2, "bet"): 2000, (2, "fortune"): 2000})
    assert [(f.spot, f.amount) for f in round.fees if f.spot != 1] == [(2, 100)]


WEAK_PLAYER_DEALER = "2S 3H 5D 7S 8C JH KD"


def limited_bank_round(bank: int, hands: dict[int, str], bets: int) -> dict[tuple[int, str], object]:
    wagers = {(seat, wager): amount for seat in (2, 3) for wager, amount in (("bet", bets), ("fortune", 500))}
    round = new_round("fortune-pai-gow", None, wagers, bank=bank)
    deal(round, stacked_deck({1: WEAK_PLAYER_DEALER, **hands}))
    play_out(round, first_pile=1, dice=(2, 3, 3))  # seat k receives pile k; seat 2 settles first
    return {(s.spot, s.wager): s for s in round.settlements}


def test_a_short_bank_covers_every_standard_wager_before_any_bonus() -> None:
    # seed 003 Fortune Pai Gow, Round of Play: "Once the standard Pai Gow Poker wagers are settled ... the
    # Cardroom dealer will determine if the player's hand qualifies for the Fortune Bonus". Seat 2's four aces
    # (20 to 1 on $5) came before seat 3's winning standard wager, which got nothing from a $30 bank.
    records = limited_bank_round(3000, {2: "AS AH AD AC QS QH 4C", 3: "KS KH 8S 8H 6C 4D 3C"}, bets=2000)
    assert records[(2, "bet")].returned == 4000
    assert records[(3, "bet")].returned == 3000 and "$10.00 of $20.00 covered" in records[(3, "bet")].reason
    assert records[(2, "fortune")].returned == 500 and "$0.00 of $100.00 covered" in records[(2, "fortune")].reason
    assert records[(1, "bank")].returned == 0


def test_envy_is_paid_from_what_the_bank_has_left_after_every_bonus() -> None:
    # "The player/dealer pays any Envy Bonuses at the end of the round": seat 2's Envy for seat 3's four nines
    # comes after seat 3's own Fortune Bonus. $125 covers the standard wagers ($20), seat 2's losing bonus ($5)
    # and seat 3's four of a kind ($100), nothing of the Envy.
    hands = {2: "AS QH 7C 5C 3D 2H JD", 3: "9H 9D 9C 9S 2C 5H 7D"}
    records = limited_bank_round(12500, hands, bets=1000)
    assert records[(3, "fortune")].returned == 10500
    envy = records[(2, "fortune")]
    assert (envy.returned, envy.outcome.value, envy.payout) == (0, "lose", "lose + envy $5.00")
    assert "$0.00 of $5.00 envy covered" in envy.reason
    # with $5 more the Envy is paid: the bonus lost, the Envy returns its $5
    envy = limited_bank_round(13000, hands, bets=1000)[(2, "fortune")]
    assert (envy.returned, envy.outcome.value) == (500, "push") and "envy covered" not in envy.reason


def test_a_round_journaled_under_the_first_rules_replays_by_them() -> None:
    """The order changed in rules revision 2: a round played before it (journaled without ``rules``) still replays
    to the cent by its own order, and one played after journals ``rules: 2`` and replays by the new order."""
    from controller.engine.recovery import rebuild
    from controller.events import RoundStarted, from_record
    from controller.rules.registry import make_game
    from tests.helpers import MemoryLog

    hands = {2: "AS AH AD AC QS QH 4C", 3: "KS KH 8S 8H 6C 4D 3C"}
    for rules, spot_3_bet in ((1, 2000), (2, 3000)):
        game, log = make_game("fortune-pai-gow"), MemoryLog()
        game.rules_version = rules
        wagers = {(seat, wager): amount for seat in (2, 3) for wager, amount in (("bet", 2000), ("fortune", 500))}
        round = new_round("fortune-pai-gow", None, wagers, log, bank=3000, game=game)
        deal(round, stacked_deck({1: WEAK_PLAYER_DEALER, **hands}))
        play_out(round, first_pile=1, dice=(2, 3, 3))
        assert {(s.spot, s.wager): s.returned for s in round.settlements}[(3, "bet")] == spot_3_bet
        [started] = log.named(RoundStarted.EVENT)
        assert started.get("rules") == (None if rules == 1 else 2)
        replayed = rebuild([from_record(r) for r in log.records()], None)
        assert [s.returned for s in replayed.settlements] == [s.returned for s in round.settlements]
