"""Fortune Pai Gow's Envy is never won on one's own hand, and a player's own hands are every seat he bets on.

Seed 003, Fortune Pai Gow Poker: "A player cannot win an Envy Bonus for their own or for the player/dealer's
hand."; Double-Hand Poker general rule 12: "A player may wager on more than one seat. However, the player may only
play one hand. The other hand(s) will be played 'House Way'." (``extra_seats``)."""

from controller.engine.recovery import rebuild
from controller.events import from_record
from controller.rules.registry import make_game
from tests.helpers import MemoryLog
from tests.paigow.roundkit import deal, new_round, play_out, stacked_deck

HANDS = {1: "2C 3D 4H 6S 8C KD AH", 5: "2S 3C 5D 6H 9C TS QS", 6: "7D 7C 7H 7S AD KS 4S"}
WAGERS = {(5, "bet"): 2000, (5, "fortune"): 500, (6, "bet"): 1000}


def fortune_of_seat_5(rules: int | None = None) -> tuple[int, str, object]:
    game = make_game("fortune-pai-gow", {"extra_seats": [[5, 6]]})
    if rules is not None:
        game.rules_version = rules
    log = MemoryLog()
    round = new_round("fortune-pai-gow", None, WAGERS, log, bank=10000, game=game)
    deal(round, stacked_deck(HANDS))
    play_out(round, first_pile=1, dice=(2, 3, 3))
    assert round.hand.set_by_house_way == {6}  # seat 6 is the same player's second seat
    replayed = rebuild([from_record(r) for r in log.records()], None)
    assert replayed.totals() == round.totals()
    [fortune] = [s for s in round.settlements if (s.spot, s.wager) == (5, "fortune")]
    return fortune.returned, fortune.payout, replayed


def test_no_envy_for_the_four_of_a_kind_on_the_players_own_second_seat() -> None:
    # seat 5's $5 Fortune Bonus holds no paying hand; the four sevens lie on seat 6, which the same player bets
    returned, payout, _ = fortune_of_seat_5()
    assert (returned, payout) == (0, "lose")


def test_a_round_journaled_before_revision_4_replays_with_the_envy_it_paid() -> None:
    returned, payout, _ = fortune_of_seat_5(rules=3)
    assert (returned, payout) == (500, "lose + envy $5.00")
