"""The seed's remedies for dealing irregularities (seed 003: Texas Hold-em lines 1182-1190, Omaha DEALING RULES 1654-1681).

``misdeal``
    A player dealt more or fewer cards than the game calls for. Discovered
    before two players have acted: a misdeal, every stake returned and the hand
    dealt again with the same button. Discovered later: that player's hand is
    dead and he forfeits what he put in (line 1182-1184).
``extra_card`` / ``missing_card`` (Omaha dealing rule 3)
    A player dealt one card too many, found before he acts: the extra card is
    the burn card before the flop (no other burn). One card too few (the deal
    credited him a card he does not hold, which is dead): he gets the next card
    from the top. Found after he acted: his hand is dead and he
    forfeits his blinds.
``premature_flop`` (Omaha dealing rule 5)
    The flop turned before the betting is complete: the flop goes back into the
    stub to be reshuffled, the burn card (the first card reported) stays burned,
    and no new burn precedes the new flop.
``flop_too_many``
    The flop came with too many cards: all of them go back and are reshuffled
    into the stub, the burn card stays burned, and no new burn precedes the new
    flop (lines 1185-1186, 1666-1668). Once there has been action on the flop
    the seed has the cards stand as dealt; that case is refused here for the
    floor to rule on.
``premature_card``
    The turn (or river) turned up before the round of betting is complete: the
    card does not play and is set aside. For an early turn, the next card is
    burned and dealt as the turn after the betting; then the stub is reshuffled
    with the set-aside card and the river is dealt without a burn (lines
    1187-1190, 1674-1681). For an early river, the same reshuffle, then the river
    without a burn.
``boxed_card``
    A card face up in the deck is dead and goes to the discards; the next card
    replaces it (line 1654). A card that belongs to no deck of this game (a
    joker in a 52-card game) is treated the same (line 1655).
``exposed_hole_card``
    A hole card exposed by the dealer: the player may not keep it. After the
    deal, the next card from the deck replaces it, and the exposed card is the
    burn card before the flop (or the draw) (lines 1658-1661).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from controller.cards import Card
from controller.games.base import Irregularity, Remedy
from controller.poker.hand import PokerHand, Step

__all__ = ["remedy", "KINDS"]


def remedy(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    """Apply the remedy to ``hand`` and say what the round must do; ``ValueError`` when it does not apply."""
    try:
        handler = KINDS[irregularity.kind]
    except KeyError:
        raise ValueError(f"unknown irregularity {irregularity.kind!r}: expected one of {', '.join(KINDS)}") from None
    result = handler(hand, irregularity, deck)
    hand.notes.append(f"{irregularity.kind}: {result.reason}")
    return result


def _misdeal(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    if irregularity.spot not in hand.seats:
        raise ValueError(f"seat {irregularity.spot} is not dealt in")
    if hand.actions < 2:
        return Remedy("void", f"seat {irregularity.spot} dealt the wrong number of cards before two players acted: misdeal")
    hand.folded.add(irregularity.spot)
    return Remedy("continue", f"seat {irregularity.spot} dealt the wrong number of cards after two players acted: "
                  "the hand is dead and forfeits what it put in")


def _acted(hand: PokerHand, seat: int) -> bool:
    return hand.betting is not None and seat in hand.betting.acted_at


def _extra_card(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    seat = irregularity.spot
    if seat not in hand.seats or len(irregularity.cards) != 1:
        raise ValueError("name the seat and its one extra card")
    if _acted(hand, seat):
        hand.folded.add(seat)
        return Remedy("continue", f"seat {seat} acted on a hand with an extra card: the hand is dead, its blinds forfeit")
    card = irregularity.cards[0]
    if card in hand.holes[seat]:
        hand.holes[seat].remove(card)
    _burn_now(hand, card, "the burn card before the next round of cards")
    return Remedy("continue", f"seat {seat}'s extra card {card} is the burn card before the flop")


def _missing_card(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    seat = irregularity.spot
    if seat not in hand.seats or len(irregularity.cards) != 1 or irregularity.cards[0] not in hand.holes[seat]:
        raise ValueError("name the seat and the card the deal credited to it that it does not hold")
    if _acted(hand, seat):
        hand.folded.add(seat)
        return Remedy("continue", f"seat {seat} acted on a hand short a card: the hand is dead, its blinds forfeit")
    card = irregularity.cards[0]
    hand.holes[seat].remove(card)
    hand.discards.append(card)
    hand.script.insert(0, Step("card", target=f"hole:{seat}"))
    return Remedy("continue", f"seat {seat} never held {card} (dead, to the discards): it receives the missing card "
                  "from the top of the deck")


def _premature_flop(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    head = hand.script[0] if hand.script else None
    if head is None or head.kind != "bet" or head.street != 0 or len(irregularity.cards) < 2 or hand.board:
        raise ValueError("applies to a burn card and flop cards turned before the first betting round is complete")
    burn, *flop = irregularity.cards
    _burn_now(hand, burn, "stays burned")
    return Remedy("continue", f"flop {' '.join(map(str, flop))} turned early goes back to be reshuffled; the burn "
                  f"card {burn} stays, no new burn before the flop")


def _burn_now(hand: PokerHand, card: Card, why: str) -> None:
    """``card`` is burned now in place of the next burn the script would deal."""
    burn = next((i for i, step in enumerate(hand.script) if step.target.startswith("burn:")), None)
    if burn is None:
        raise ValueError("no burn card is still to come")
    del hand.script[burn]
    hand.burns.append(card)
    hand.seen.add(card)


def _flop_too_many(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    head = hand.script[0] if hand.script else None
    if len(hand.board) != 3 or head is None or head.kind != "bet" or head.street != 1:
        raise ValueError("applies only to a flop of three cards with more cards turned before the flop betting")
    if hand.betting is not None and hand.betting.street == 1 and hand.betting.acted_at:
        raise ValueError("there has been action on this flop: the cards stand as dealt (floor decision)")
    returned = [*hand.board, *irregularity.cards]
    hand.seen.difference_update(hand.board)
    hand.board.clear()
    hand.script[:0] = [Step("card", target="flop")] * 3
    hand.betting = None
    return Remedy("continue", f"flop {' '.join(map(str, returned))} taken back and reshuffled into the stub; "
                  "the burn card stays, no new burn before the new flop")


def _premature_card(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    head = hand.script[0] if hand.script else None
    if head is None or head.kind != "bet" or head.street not in (1, 2) or len(hand.board) < 3 or len(irregularity.cards) != 1:
        raise ValueError("applies to one card turned up during the betting on the flop (the turn) or the turn (the river)")
    card = irregularity.cards[0]
    hand.set_aside.append(card)
    river_burn = max(i for i, step in enumerate(hand.script) if step.target.startswith("burn:"))
    del hand.script[river_burn]
    which = "turn" if head.street == 1 else "river"
    return Remedy("continue", f"{card} turned up early as the {which} does not play; after the betting the stub is "
                  "reshuffled with it and the river is dealt without a burn")


def _boxed_card(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    if len(irregularity.cards) != 1:
        raise ValueError("name the one boxed card")
    card = irregularity.cards[0]
    if hand.last_card is not None and hand.last_card[1] is card:
        target, _ = hand.last_card
        _take_back(hand, target, card)
        hand.script.insert(0, Step("card", target=target))
        hand.last_card = None
    elif card in hand.seen:
        raise ValueError(f"{card} is not the card just dealt: a boxed card is caught as it comes off the deck")
    elif card in deck:
        hand.seen.add(card)
    hand.discards.append(card)
    return Remedy("continue", f"boxed card {card} is dead and goes to the discards; the next card replaces it")


def _take_back(hand: PokerHand, target: str, card: Card) -> None:
    kind, _, seat = target.partition(":")
    pile = hand.holes[int(seat)] if kind in ("hole", "draw") else hand.burns if kind == "burn" else hand.board
    pile.remove(card)


def _exposed_hole_card(hand: PokerHand, irregularity: Irregularity, deck: Sequence[Card]) -> Remedy:
    seat = irregularity.spot
    if len(irregularity.cards) != 1 or seat not in hand.holes or irregularity.cards[0] not in hand.holes[seat]:
        raise ValueError("name the seat and its one exposed hole card")
    if hand.exposed is not None:
        raise ValueError(f"{hand.exposed} is already waiting to be the burn card")
    deal_end = next((i for i, step in enumerate(hand.script) if not step.target.startswith("hole:")), len(hand.script))
    burn = next((i for i, step in enumerate(hand.script) if step.target.startswith("burn:")), None)
    if burn is None or any(step.kind == "bet" and step.street > 0 for step in hand.script[:burn]):
        raise ValueError("applies during the first round, before the first burn card")
    card = irregularity.cards[0]
    hand.holes[seat].remove(card)
    hand.exposed = card
    del hand.script[burn]
    hand.script.insert(deal_end, Step("card", target=f"hole:{seat}"))
    hand.burns.append(card)
    return Remedy("continue", f"seat {seat} may not keep exposed {card}: it is replaced by the next card after the deal "
                  "and is the burn card before the next round of cards")


KINDS: dict[str, Callable[[PokerHand, Irregularity, Sequence[Card]], Remedy]] = {
    "misdeal": _misdeal,
    "extra_card": _extra_card,
    "missing_card": _missing_card,
    "premature_flop": _premature_flop,
    "flop_too_many": _flop_too_many,
    "premature_card": _premature_card,
    "boxed_card": _boxed_card,
    "exposed_hole_card": _exposed_hole_card,
}
