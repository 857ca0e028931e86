"""The simulated dealing shoe: a seeded shoe, a gate, a dealer who draws what the gate allows.

The shoe deals nothing until shuffled. ``Deal n`` from the host opens the gate
for ``n`` cards and the simulated dealer draws them at once; ``auto PACE``
makes the dealer draw one card every PACE seconds regardless of the gate.
The order of shuffle number ``k`` (1, 2, ...) is ``shoe_order(cards, seed, k)``,
so a test can predict every card. Its ``Behaviour`` picks among the readings
``docs/protocol.md`` allows (burns it marks itself, how an unreadable card is
sent, a cut card it does not report, ...).

Control commands beyond the common ones (``drivers.sim.device``):

``order CODES...``  the next shuffle puts these cards on top, in this order.
``burn``            the next card drawn is burned.
``unreadable``      the next card drawn cannot be read (fault until ``clear``).
``auto [PACE]`` / ``gate``  draw continuously / only what the gate allows.
"""

from __future__ import annotations

import random
import threading

from controller.cards import Card, parse_cards, shoe as make_shoe
from drivers.protocol import messages as m
from drivers.protocol.link import ACK_TIMEOUT
from drivers.sim.behaviour import Behaviour
from drivers.sim.device import SimDevice, SimIdentity
from drivers.sim.endpoints import PtyEndpoint, SocketEndpoint


def shoe_order(cards: tuple[Card, ...], seed: int | None, shuffle_number: int, top: tuple[Card, ...] = ()) -> list[Card]:
    """The order the simulator deals after its ``shuffle_number``-th shuffle."""
    rest = list(cards)
    for card in top:
        rest.remove(card)
    random.Random(None if seed is None else f"{seed}:{shuffle_number}").shuffle(rest)
    return list(top) + rest


class ShoeSim(SimDevice):
    """See module doc."""

    KIND = m.DeviceKind.SHOE

    def __init__(
        self,
        endpoint: PtyEndpoint | SocketEndpoint,
        *,
        decks: int = 8,
        kind: str = "standard",
        jokers_per_deck: int = 0,
        seed: int | None = None,
        cut_from_end: int | None = None,
        identity: SimIdentity | None = None,
        ack_timeout: float = ACK_TIMEOUT,
        behaviour: Behaviour | None = None,
    ) -> None:
        super().__init__(endpoint, identity or SimIdentity("TCS-SHOE-1"), seed, ack_timeout, behaviour)
        self.cards = make_shoe(decks, jokers_per_deck=jokers_per_deck, kind=kind)
        if cut_from_end is None:
            cut_from_end = len(self.cards) // 8
        if not 0 <= cut_from_end < len(self.cards):
            raise ValueError(f"cut card position {cut_from_end} is outside a shoe of {len(self.cards)} cards")
        self.seed = seed
        self.cut_at = len(self.cards) - cut_from_end
        self.order: list[Card] = []
        self.drawn = 0
        self.shuffles = 0
        self.credit = 0
        self.burns_left = 0
        self.pace: float | None = None
        self._top: tuple[Card, ...] = ()
        self._burn_next = False
        self._unreadable_next = False
        self._dealer_wake = threading.Condition(self.lock)

    def start(self) -> ShoeSim:
        threading.Thread(target=self._dealer, name="sim-dealer", daemon=True).start()
        super().start()
        return self

    def stop(self) -> None:
        super().stop()
        with self.lock:
            self._dealer_wake.notify_all()

    def power_on(self) -> None:
        super().power_on()
        self.order, self.drawn, self.credit, self.burns_left, self.pace = [], 0, 0, 0, None

    def status(self, request: int) -> m.Status:
        state = m.State.FAULT if self.fault else m.State.BUSY if self.starting else m.State.READY
        return m.Status(request, state, self.fault or m.Code.OK, self.drawn, len(self.order) - self.drawn,
                        self.forgotten + len(self.log), 0)

    def handle(self, request: int, command: m.Message) -> None:
        kind = getattr(command, "KIND", 0)
        b = self.behaviour
        match command:
            case m.Shuffle() | m.Deal() | m.Verify() if self.starting:
                self.reply(m.Result(request, kind, m.Code.NOT_READY))
            case m.Shuffle() if self.fault:
                self.reply(m.Result(request, kind, self.fault))
            case m.Shuffle():
                self.shuffles += 1
                self.order = shoe_order(self.cards, self.seed, self.shuffles, self._top)
                self._top = ()
                self.drawn, self.credit, self.burns_left = 0, 0, b.burns
                self.emit(m.EventType.SHUFFLED, 0)
                self.reply(m.Result(request, kind, m.Code.OK, len(self.order)))
            case m.Deal() if not self.order and b.deal_before_shuffle == "not-ready":
                self.reply(m.Result(request, kind, m.Code.NOT_READY))
            case m.Deal() if self.fault and b.deal_during_fault == "refuse":
                self.reply(m.Result(request, kind, self.fault))
            case m.Deal(cards):
                self.credit = cards
                self.reply(m.Result(request, kind, m.Code.OK, cards))
                self._dealer_wake.notify_all()
            case m.Verify() if b.shoe_verify == "count":
                self.reply(m.Result(request, kind, m.Code.OK, len(self.order) - self.drawn))
            case m.Verify() | m.Dispense() | m.Alternate():
                self.reply(m.Result(request, kind, m.Code.UNSUPPORTED))
            case _:
                super().handle(request, command)

    def raise_fault(self, code: m.Code, count: int = 0) -> None:
        super().raise_fault(code, count)
        if self.behaviour.fault_drops_allowance:
            self.credit = 0

    def _can_draw(self) -> bool:
        ready = bool(self.order) and not self.fault and not self._restart_pending
        return ready and (self.credit > 0 or self.pace is not None)

    def _dealer(self) -> None:
        with self.lock:
            while not self._stop.is_set():
                if not self._can_draw():
                    self._dealer_wake.wait(0.1)
                    continue
                self._draw_one()
                if self.pace:
                    self._dealer_wake.wait(self.pace)

    def _draw_one(self) -> None:
        if self.drawn >= len(self.order):
            self.credit, self.pace = 0, None
            return
        self._fire_triggers("card", self.drawn + 1)
        if not self._can_draw():  # the trigger faulted the shoe or restarted it: this card stays in
            return
        card = self.order[self.drawn]
        self.drawn += 1
        if self._unreadable_next:
            self._unreadable_next = False
            self.unread.append(card)
            self.credit = max(0, self.credit - 1)
            if self.behaviour.unreadable == "drawn+fault":
                self.emit(m.EventType.CARD_DRAWN, self.drawn, None, out="unreadable")
                self.raise_fault(m.Code.UNRECOGNISED_CARD, self.drawn)
            else:
                self.fault = m.Code.UNRECOGNISED_CARD
                self.emit(m.EventType.FAULT, self.drawn, code=m.Code.UNRECOGNISED_CARD, out="unreadable")
                if self.behaviour.fault_drops_allowance:
                    self.credit = 0
        elif self._burn_next or self.burns_left:
            if self.burns_left:
                self.burns_left -= 1
            else:
                self._burn_next = False
            if self.behaviour.burn_uses_allowance or self.pace is not None:
                self.credit = max(0, self.credit - 1)
            self.emit(m.EventType.CARD_BURNED, self.drawn, card, out="burned")
        else:
            self.credit = max(0, self.credit - 1)
            self.emit(m.EventType.CARD_DRAWN, self.drawn, card, out="drawn")
        if self.drawn == self.cut_at and self.behaviour.cut_card_reported:
            self.emit(m.EventType.CUT_CARD, self.drawn)
        if self.drawn == len(self.order):
            self.emit(m.EventType.SHOE_EMPTY, self.drawn)

    def ctl_order(self, *codes: str) -> str:
        top = tuple(parse_cards(list(codes)))
        for card in set(top):
            if top.count(card) > self.cards.count(card):
                raise ValueError(f"the shoe holds {self.cards.count(card)} of {card}, the order asks for {top.count(card)}")
        self._top = top
        return ""

    def ctl_burn(self) -> str:
        self._burn_next = True
        return ""

    def ctl_unreadable(self) -> str:
        self._unreadable_next = True
        return ""

    def ctl_auto(self, pace: str = "0") -> str:
        with self.lock:
            self.pace = float(pace)
            self._dealer_wake.notify_all()
        return ""

    def ctl_gate(self) -> str:
        self.pace = None
        return ""

    def ctl_clear(self) -> str:
        super().ctl_clear()
        with self.lock:
            self._dealer_wake.notify_all()
        return ""
