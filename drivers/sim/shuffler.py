"""The simulated card shuffler: one deck, or two decks dealt alternately.

With two decks, ``Shuffle`` shuffles the deck not being dealt and
``Alternate`` swaps them; with one, ``Shuffle`` reshuffles the only deck.
At power-on no deck is shuffled and deck 0 is the one dealt (6.2).
``Verify`` counts the deck shuffled last. ``Dispense n`` deals a stack from
the deck being dealt. A fault (``fault jam``, ``fault door-open``, or one the
commands below provoke) makes every command fail with its code until ``clear``.
Its ``Behaviour`` picks the readings ``docs/protocol.md`` allows (two decks,
an unreadable card in the stack or a refused Dispense, per-card events, how a
wrong count is answered, ...).

Control commands beyond the common ones (``drivers.sim.device``):

``miscount N``        the next ``Verify`` counts N cards.
``duplicate``         the next stack repeats a card; the machine notices (fault).
``duplicate silent``  the next stack repeats a card and the machine does not notice.
``unreadable``        the next stack holds a card the reader cannot identify (fault).
``order CODES...``    the next shuffle puts these cards on top, in this order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.cards import Card, deck_by_name, parse_cards
from drivers.protocol import messages as m
from drivers.protocol.link import ACK_TIMEOUT
from drivers.sim.behaviour import Behaviour
from drivers.sim.device import SimDevice, SimIdentity
from drivers.sim.endpoints import PtyEndpoint, SocketEndpoint
from drivers.sim.shoe import shoe_order


@dataclass
class DeckState:
    order: list[Card] = field(default_factory=list)
    dealt: int = 0

    @property
    def shuffled(self) -> bool:
        return bool(self.order)


class ShufflerSim(SimDevice):
    """See module doc."""

    KIND = m.DeviceKind.SHUFFLER

    def __init__(
        self,
        endpoint: PtyEndpoint | SocketEndpoint,
        *,
        deck: str = "standard",
        decks: int | None = None,
        seed: int | None = None,
        identity: SimIdentity | None = None,
        ack_timeout: float = ACK_TIMEOUT,
        behaviour: Behaviour | None = None,
    ) -> None:
        behaviour = behaviour or Behaviour()
        decks = decks or behaviour.decks
        if decks not in (1, 2):
            raise ValueError(f"a shuffler holds one or two decks, not {decks}")
        super().__init__(endpoint, identity or SimIdentity("TCS-SHUF-1"), seed, ack_timeout, behaviour)
        self.cards = deck_by_name(deck)
        self.seed = seed
        self.decks = [DeckState() for _ in range(decks)]
        self.active = 0
        self.last_shuffled = 0
        self.shuffles = 0
        self._miscount: int | None = None
        self._duplicate: str | None = None
        self._unreadable = False
        self._top: tuple[Card, ...] = ()

    @property
    def idle(self) -> int:
        return (self.active + 1) % len(self.decks)

    def power_on(self) -> None:
        super().power_on()
        self.decks = [DeckState() for _ in self.decks]
        self.active = self.last_shuffled = 0

    def status(self, request: int) -> m.Status:
        deck = self.decks[self.active]
        state = m.State.FAULT if self.fault else m.State.BUSY if self.starting else m.State.READY
        remaining = len(deck.order) - deck.dealt
        return m.Status(request, state, self.fault or m.Code.OK, deck.dealt, remaining, self.forgotten + len(self.log),
                        self.active)

    def handle(self, request: int, command: m.Message) -> None:
        kind = getattr(command, "KIND", 0)
        if isinstance(command, m.Shuffle | m.Verify | m.Dispense | m.Alternate | m.Deal):
            if self.fault:
                self.reply(m.Result(request, kind, self.fault))
                return
            if self.starting:
                self.reply(m.Result(request, kind, m.Code.NOT_READY))
                return
        match command:
            case m.Shuffle():
                self.shuffles += 1
                target = self.idle
                self.decks[target] = DeckState(shoe_order(self.cards, self.seed, self.shuffles, self._top))
                self._top, self.last_shuffled = (), target
                self.emit(m.EventType.SHUFFLED, 0)
                self.reply(m.Result(request, kind, m.Code.OK, len(self.cards)))
            case m.Verify():
                self._verify(request)
            case m.Dispense(n):
                self._dispense(request, n)
            case m.Alternate() if len(self.decks) == 1:
                self.reply(m.Result(request, kind, m.Code.UNSUPPORTED))
            case m.Alternate() if not self.decks[self.idle].shuffled:
                self.reply(m.Result(request, kind, m.Code.NOT_READY))
            case m.Alternate():
                self.decks[self.active] = DeckState()
                self.active = self.idle
                self.reply(m.Result(request, kind, m.Code.OK, self.active))
            case m.Deal():
                self.reply(m.Result(request, kind, m.Code.UNSUPPORTED))
            case _:
                super().handle(request, command)

    def _verify(self, request: int) -> None:
        """4.9: the count of the deck shuffled last; a wrong one answered as the reading says."""
        counted = len(self.decks[self.last_shuffled].order)
        if self._miscount is not None:
            counted, self._miscount = self._miscount, None
        code = m.Code.OK
        if counted != len(self.cards) and self.behaviour.verify_wrong != "ok":
            code = m.Code.COUNT_MISMATCH
            if self.behaviour.verify_wrong == "mismatch+fault":
                self.raise_fault(m.Code.COUNT_MISMATCH, 0)
        self.reply(m.Result(request, m.Verify.KIND, code, counted))

    def _dispense(self, request: int, n: int) -> None:
        deck = self.decks[self.active]
        if not deck.shuffled:
            self.reply(m.Result(request, m.Dispense.KIND, m.Code.NOT_READY))
            return
        if n < 1 or deck.dealt + n > len(deck.order):
            code = m.Code.BAD_REQUEST if n < 1 else m.Code.EMPTY
            self.reply(m.Result(request, m.Dispense.KIND, code, len(deck.order) - deck.dealt))
            return
        stack: list[Card | None] = list(deck.order[deck.dealt : deck.dealt + n])
        if self._duplicate is not None:
            silent, self._duplicate = self._duplicate == "silent", None
            if not silent:
                self._fail(request, m.Code.DUPLICATE_CARD, deck.dealt)  # 6.4: the stack stays in the machine
                return
            stack[-1] = stack[0] if n > 1 else deck.order[0]
        if self._unreadable:
            self._unreadable = False
            if self.behaviour.unreadable in ("refuse", "fault"):  # "fault" is a shoe's reading: here, refuse
                self._fail(request, m.Code.UNRECOGNISED_CARD, deck.dealt)
                return
            self.unread.append(stack[len(stack) // 2])  # type: ignore[arg-type]
            stack[len(stack) // 2] = None
        deck.dealt += n
        self.out.extend(("stack", c) if c is not None else ("unreadable", None) for c in stack)
        if self.behaviour.per_card_events:
            for i, card in enumerate(stack):
                self.emit(m.EventType.CARD_DRAWN, deck.dealt - n + i + 1, card)
        self.reply(m.Stack(request, tuple(stack)))
        if None in stack and self.behaviour.unreadable == "stack+fault":
            self.raise_fault(m.Code.UNRECOGNISED_CARD, deck.dealt - n + stack.index(None) + 1)

    def _fail(self, request: int, code: m.Code, count: int) -> None:
        self.raise_fault(code, count)
        self.reply(m.Result(request, m.Dispense.KIND, code))

    def ctl_miscount(self, n: str) -> str:
        self._miscount = int(n)
        return ""

    def ctl_duplicate(self, how: str = "") -> str:
        self._duplicate = how or "flagged"
        return ""

    def ctl_unreadable(self) -> str:
        self._unreadable = True
        return ""

    def ctl_order(self, *codes: str) -> str:
        top = tuple(parse_cards(list(codes)))
        if sorted(top) != sorted(set(top)) or not set(top) <= set(self.cards):
            raise ValueError("the order must name distinct cards of the deck")
        self._top = top
        return ""
