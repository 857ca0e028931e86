"""The seed's remedies for dealing irregularities (seed 003: Texas Hold-em lines 1182-1190, Omaha DEALING RULES 1654-1681).

Reports are the round's ``Irregularity(kind, card, target, count)``:

``count`` at ``hole:S`` (a player dealt more or fewer cards than the game calls for)
    Hold'em and low-ball (line 1182): discovered before two players have acted,
    a misdeal (every stake returned, the hand dealt again from the same
    button); later, that hand is dead and forfeits what it put in. Omaha
    (dealing rule 3, lines 1662-1665): before the player acts, an extra card
    (``card``) is the burn card before the flop and a missing one comes from the
    top of the deck (``card`` names the card the deal credited to the seat but
    that it does not hold: it is dead); after he acted, the hand is dead.
``count`` at ``flop`` (a flop with too many cards; ``card`` the extra one)
    All of them go back and are reshuffled, the burn card stays burned, and no
    new burn precedes the new flop (lines 1185-1186, 1666-1668). Once there has
    been action on the flop the cards stand (line 1667): refused for the floor.
``premature`` (a card turned before the round of betting is complete)
    During the first round: the flop turned early; report the burn card first,
    it stays burned, the flop cards go back to be reshuffled and no new burn
    precedes the flop (Omaha rule 5). During the flop betting: the turn does not
    play; after the betting the next card is burned and dealt as the turn, then
    the stub is reshuffled with the set-aside card and the river is dealt
    without a burn (lines 1187-1189, rule 6). During the turn betting: the same
    for the river (line 1190, rule 7).
``boxed``
    A card face up in the deck is dead and goes to the discards; the next card
    replaces it (line 1654). A card of no deck of this game (a joker in a
    52-card game) is treated the same (line 1655).
``exposed`` (a hole card exposed by the dealer)
    The player may not keep it: after the deal the next card replaces it, and
    the exposed card is the burn card before the flop (or the draw) (lines 1658-1661).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from controller.cards import Card
from controller.rules.base import Irregularity, dealt_card
from controller.rules.poker.hand import PokerHand, Step

__all__ = ["apply", "KINDS"]

Rule = Callable[[PokerHand, Irregularity, Sequence[Card], bool], str]


def apply(hand: PokerHand, report: Irregularity, deck: Sequence[Card], *, fix_counts: bool) -> str:
    """Apply the remedy to ``hand`` (``hand.misdeal`` set when the round is void); return what was done.

    ``fix_counts`` selects Omaha's rule 3 for a wrong hole-card count instead of the hold'em misdeal rule.
    Raises ``ValueError`` when the report does not fit the hand.
    """
    try:
        rule = KINDS[report.kind]
    except KeyError:
        raise ValueError(f"unknown irregularity {report.kind!r}: expected one of {', '.join(KINDS)}") from None
    done = rule(hand, report, deck, fix_counts)
    hand.notes.append(f"{report.kind}: {done}")
    return done


def _card(report: Irregularity) -> Card:
    if report.card is None:
        raise ValueError(f"a {report.kind} report names the card")
    return dealt_card(report.card)


def _acted(hand: PokerHand, seat: int) -> bool:
    return hand.betting is not None and hand.betting.street == 0 and seat in hand.betting.acted_at


def _count(hand: PokerHand, report: Irregularity, deck: Sequence[Card], fix_counts: bool) -> str:
    if report.target == "flop":
        return _flop_too_many(hand, report)
    kind, _, seat_text = (report.target or "").partition(":")
    if kind != "hole" or not seat_text.isdigit() or int(seat_text) not in hand.seats:
        raise ValueError(f"a count report names a seat's hand (hole:S) or the flop, not {report.target!r}")
    seat = int(seat_text)
    if not fix_counts:
        if hand.actions < 2:
            hand.misdeal = f"seat {seat} dealt the wrong number of cards, found before two players acted"
            return hand.misdeal
        return _dead(hand, seat, "dealt the wrong number of cards, found after two players acted")
    if _acted(hand, seat):
        return _dead(hand, seat, "acted on a hand with the wrong number of cards")
    card = _card(report)
    if report.count is None or report.count == len(hand.holes[seat]):
        raise ValueError("say how many cards the seat really holds")
    if report.count > len(hand.holes[seat]) or card not in hand.holes[seat]:
        _burn_now(hand, card)
        return f"seat {seat}'s extra card {card} is the burn card before the flop"
    hand.holes[seat].remove(card)
    hand.discards.append(card)
    hand.script.insert(0, Step("card", target=f"hole:{seat}"))
    return f"seat {seat} never held {card} (dead): it receives the missing card from the top of the deck"


def _dead(hand: PokerHand, seat: int, why: str) -> str:
    hand.folded.add(seat)
    return f"seat {seat} {why}: the hand is dead and forfeits what it put in"


def _flop_too_many(hand: PokerHand, report: Irregularity) -> str:
    head = hand.script[0] if hand.script else None
    if len(hand.board) != 3 or head is None or head.kind != "bet" or head.street != 1:
        raise ValueError("applies only to a flop of three cards with more cards turned before the flop betting")
    if hand.betting is not None and hand.betting.street == 1 and hand.betting.acted_at:
        raise ValueError("there has been action on this flop: the cards stand as dealt (floor decision)")
    returned = [*hand.board, *([report.card] if report.card else [])]
    hand.seen.difference_update(hand.board)
    hand.board.clear()
    hand.script[:0] = [Step("card", target="flop")] * 3
    hand.betting = None
    return (f"flop {' '.join(map(str, returned))} taken back and reshuffled into the stub; the burn card stays, "
            "no new burn before the new flop")


def _premature(hand: PokerHand, report: Irregularity, deck: Sequence[Card], fix_counts: bool) -> str:
    card = _card(report)
    head = hand.script[0] if hand.script else None
    if head is None or head.kind != "bet":
        raise ValueError("a card turned early is reported during a round of betting")
    if head.street == 0 and not hand.board and any(s.target == "flop" for s in hand.script):
        if any(s.target == "burn:flop" for s in hand.script):
            _burn_now(hand, card)
            return f"{card} burned before a flop turned early stays burned; no new burn before the flop"
        return f"{card} turned early with the flop goes back to be reshuffled"
    if head.street not in (1, 2) or len(hand.board) < 3:
        raise ValueError("a turn turns early during the flop betting, a river during the turn betting")
    hand.set_aside.append(card)
    river_burn = max(i for i, step in enumerate(hand.script) if step.target.startswith("burn:"))
    del hand.script[river_burn]
    which = "turn" if head.street == 1 else "river"
    return (f"{card} turned up early as the {which} does not play; after the betting the stub is reshuffled with it "
            "and the river is dealt without a burn")


def _burn_now(hand: PokerHand, card: Card) -> None:
    """``card`` is burned now in place of the next burn the script would deal."""
    burn = next((i for i, step in enumerate(hand.script) if step.target.startswith("burn:")), None)
    if burn is None:
        raise ValueError("no burn card is still to come")
    del hand.script[burn]
    hand.burns.append(card)
    hand.seen.add(card)


def _boxed(hand: PokerHand, report: Irregularity, deck: Sequence[Card], fix_counts: bool) -> str:
    card = _card(report)
    if hand.last_card is not None and hand.last_card[1] is card:
        target, _ = hand.last_card
        kind, _, seat = target.partition(":")
        pile = hand.holes[int(seat)] if kind in ("hole", "draw") else hand.burns if kind == "burn" else hand.board
        pile.remove(card)
        hand.script.insert(0, Step("card", target=target))
        hand.last_card = None
    elif card in hand.seen:
        raise ValueError(f"{card} is not the card just dealt: a boxed card is caught as it comes off the deck")
    elif card in deck:
        hand.seen.add(card)
    hand.discards.append(card)
    return f"boxed card {card} is dead and goes to the discards; the next card replaces it"


def _exposed(hand: PokerHand, report: Irregularity, deck: Sequence[Card], fix_counts: bool) -> str:
    card = _card(report)
    seat = next((s for s, cards in hand.holes.items() if card in cards), None)
    if seat is None:
        raise ValueError(f"{card} is in no player's hand")
    if hand.exposed is not None:
        raise ValueError(f"{hand.exposed} is already waiting to be the burn card")
    deal_end = next((i for i, step in enumerate(hand.script) if not step.target.startswith("hole:")), len(hand.script))
    burn = next((i for i, step in enumerate(hand.script) if step.target.startswith("burn:")), None)
    if burn is None or any(step.kind == "bet" and step.street > 0 for step in hand.script[:burn]):
        raise ValueError("applies during the first round, before the first burn card")
    hand.holes[seat].remove(card)
    hand.exposed = card
    del hand.script[burn]
    hand.script.insert(deal_end, Step("card", target=f"hole:{seat}"))
    hand.burns.append(card)
    return (f"seat {seat} may not keep exposed {card}: the next card after the deal replaces it, and it is the "
            "burn card before the next round of cards")


KINDS: dict[str, Rule] = {
    "count": _count,
    "premature": _premature,
    "boxed": _boxed,
    "exposed": _exposed,
}
