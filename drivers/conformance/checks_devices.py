"""Clauses of a device's work: commands (4.7-4.11), shoes (5), shufflers (6) and lasting faults (10)."""

from __future__ import annotations

import time

from drivers.conformance.kit import WAIT, Kit, Skip, allowance_used, cards_out, clause, expect, refused_during
from drivers.protocol import messages as m

# ---- shoes -------------------------------------------------------------------------------


@clause("4.7", "Shuffle starts a new shoe: OK with its cards, a SHUFFLED event, count 0", "shoe")
def shoe_shuffle(kit: Kit) -> None:
    mark = kit.probe.mark()
    result = kit.new_shoe()
    expect(result.value > 0, f"Shuffle answered {result.value} cards")
    expect(bool(kit.probe.wait_events(lambda e: e.type is m.EventType.SHUFFLED, 2.0, mark)), "no SHUFFLED event")
    st = kit.status()
    time.sleep(0.2)  # a burn reported just before the Status may still be on its way
    burned = len([e for e in kit.probe.events(mark) if e.type is m.EventType.CARD_BURNED])
    # 5.2: a shoe whose burn slot is before the gate burns at once, without the allowance: count 0, or its burns
    expect(st.count <= burned and st.remaining == result.value - st.count,
           f"after Shuffle Status says count {st.count}, remaining {st.remaining} (shoe of {result.value}, "
           f"{burned} burned by the shoe)")


@clause("4.8", "Deal sets the allowance (answered with it): Deal(2) lets exactly 2 cards out, Deal(0) none", "shoe")
def deal_allowance(kit: Kit) -> None:
    kit.new_shoe()
    mark = kit.shoe_start()
    result = kit.result(m.Deal(2), m.Code.OK)
    expect(result.value == 2, f"Deal(2) answered value {result.value}, not the allowance 2")
    kit.card_events(mark, 2)
    time.sleep(WAIT)
    cards = cards_out(kit.probe.events(mark))
    used = len(cards), allowance_used(cards)
    expect(2 in used, f"Deal(2) let {used[0]} card(s) out, {used[1]} of them not burned")
    counts = [e.count for e in cards]
    expect(counts == list(range(1, len(cards) + 1)), f"the first cards of a shoe are counted {counts}")
    mark = kit.probe.mark()
    zero = kit.result(m.Deal(0), m.Code.OK)
    expect(zero.value == 0, f"Deal(0) answered value {zero.value}")
    time.sleep(WAIT)
    expect(not cards_out(kit.probe.events(mark)), "a card came out after Deal(0)")


@clause("4.12", "Status counts the cards out and the cards left", "shoe")
def shoe_status_counts(kit: Kit) -> None:
    shoe = kit.new_shoe().value
    mark = kit.shoe_start()
    kit.result(m.Deal(3), m.Code.OK)
    kit.card_events(mark, 3)
    time.sleep(WAIT)
    seen = cards_out(kit.probe.events(mark))
    st = kit.status()
    expect(st.last_event >= max((e.number for e in seen), default=0), "Status's last_event is below the events sent")
    # the Status counts what was logged up to its last_event, whose events may still be on their way (4.12)
    kit.probe.wait_events(lambda e: e.number >= st.last_event, 5.0, mark)
    cards = [e for e in cards_out(kit.probe.events(mark)) if e.number <= st.last_event]
    expect(st.count == len(cards) and st.remaining == shoe - len(cards),
           f"after {len(cards)} cards Status says count {st.count}, remaining {st.remaining} (shoe of {shoe})")


@clause("4.13", "every card once: counts 1, 2, 3 ... and event numbers without a gap", "shoe")
def cards_once(kit: Kit) -> None:
    kit.new_shoe()
    mark = kit.shoe_start()
    kit.result(m.Deal(5), m.Code.OK)
    kit.card_events(mark, 5)
    time.sleep(WAIT)
    counts = [e.count for e in cards_out(kit.probe.events(mark))]
    expect(counts == list(range(1, len(counts) + 1)) and len(counts) >= 5, f"five cards are counted {counts}")
    numbers = [e.number for e in kit.probe.events(mark)]
    expect(numbers == list(range(numbers[0], numbers[0] + len(numbers))), f"event numbers {numbers} have a gap")


@clause("5.3", "an unreadable card is one card (`--` + FAULT, or FAULT alone), a lasting fault", "shoe")
def shoe_unreadable(kit: Kit) -> None:
    kit.need("unreadable")
    kit.need("clear")
    kit.new_shoe()
    mark = kit.shoe_start()
    for _ in range(5):  # past the burns a shoe may make itself (5.2: as many as the table's procedure says)
        kit.result(m.Deal(1), m.Code.OK)
        kit.card_events(mark, len(cards_out(kit.probe.events(mark))) + 1)
        time.sleep(0.3)
        if any(e.type is m.EventType.CARD_DRAWN for e in kit.probe.events(mark)):
            break
    before = cards_out(kit.probe.events(mark))[-1].count
    kit.act("unreadable")
    mark = kit.probe.mark()
    kit.result(m.Deal(1), m.Code.OK)
    faults = kit.probe.wait_events(lambda e: e.type is m.EventType.FAULT, 10.0, mark)
    time.sleep(0.3)
    cards = cards_out(kit.probe.events(mark))
    expect(bool(faults) and faults[0].code is m.Code.UNRECOGNISED_CARD, f"no FAULT UNRECOGNISED_CARD ({faults})")
    expect(len(cards) == 1 and cards[0].count == before + 1,
           f"the unreadable card came as {cards}: one card, count {before + 1}")
    expect(cards[0].card is None, "the unreadable card carries a card code")
    st = kit.status()
    expect(st.state is m.State.FAULT and st.fault is m.Code.UNRECOGNISED_CARD, f"Status says {st.state.name}")
    mark = kit.probe.mark()
    during = kit.result(m.Deal(1), m.Code.OK, m.Code.UNRECOGNISED_CARD)
    time.sleep(WAIT)
    expect(not cards_out(kit.probe.events(mark)), "a card passed the gate while the fault was open")
    kit.act("clear")
    cleared = kit.probe.mark_after(lambda e: e.type is m.EventType.FAULT_CLEARED, 10.0, mark)
    expect(cleared is not None, "no FAULT_CLEARED")
    assert cleared is not None
    mark = cleared
    # 4.8: a Deal accepted during the fault set the allowance, which may let the card out as soon as it is cleared
    # (its event may come before the kit has seen the FAULT_CLEARED: hence the mark at that event)
    if during.code is not m.Code.OK or not kit.probe.wait_events(lambda e: e in cards_out([e]), 2 * WAIT, mark):
        kit.result(m.Deal(1), m.Code.OK)
    after = kit.card_events(mark, 1)
    expect(len(after) == 1 and after[0].count == before + 2,
           f"after the fault the next card came as {after}, count {before + 2}")


@clause("5.6", "the cut card after its card, SHOE_EMPTY after the last, each card once", "shoe")
def whole_shoe(kit: Kit) -> None:
    if not kit.operator.can("draw") or not kit.operator.can("restart"):
        raise Skip("dealing a whole shoe by hand is left to the table tests")
    shoe = kit.new_shoe().value
    mark = kit.shoe_start()
    kit.result(m.Deal(shoe + 5), m.Code.OK)
    empty = kit.probe.wait_events(lambda e: e.type is m.EventType.SHOE_EMPTY, 30.0, mark)
    expect(bool(empty), "no SHOE_EMPTY after the whole shoe")
    time.sleep(0.2)
    events = kit.probe.events(mark)
    cards = cards_out(events)
    expect([e.count for e in cards] == list(range(1, shoe + 1)), f"{len(cards)} cards out of a shoe of {shoe}")
    expect(events[-1].type is m.EventType.SHOE_EMPTY and events[-1].count == shoe, f"SHOE_EMPTY is {events[-1]}")
    cuts = [i for i, e in enumerate(events) if e.type is m.EventType.CUT_CARD]
    for i in cuts:
        previous = [e for e in events[:i] if e in cards]
        expect(previous[-1].count == events[i].count, f"CUT_CARD count {events[i].count} follows card {previous[-1].count}")


@clause("4.9", "a shoe answers Verify UNSUPPORTED (or the cards left), Dispense and Alternate UNSUPPORTED", "shoe")
def shoe_refuses_shuffler_commands(kit: Kit) -> None:
    kit.result(m.Verify(), m.Code.UNSUPPORTED, m.Code.OK, m.Code.BAD_REQUEST)
    kit.result(m.Dispense(3), m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)
    kit.result(m.Alternate(), m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)


@clause("10.1", "a lasting fault: FAULT, Status 2, Shuffle refused, no card through, cleared at the machine", "shoe")
def shoe_lasting_fault(kit: Kit) -> None:
    kit.new_shoe()
    with kit.faulted("door-open") as fault:
        expect(fault.code is m.Code.DOOR_OPEN, f"the FAULT event carries {fault.code.name}")
        st = kit.status()
        expect(st.state is m.State.FAULT and st.fault is m.Code.DOOR_OPEN, f"Status says {st.state.name} {st.fault.name}")
        kit.result(m.Shuffle(), m.Code.DOOR_OPEN)
        mark = kit.probe.mark()
        kit.result(m.Deal(1), m.Code.OK, m.Code.DOOR_OPEN)  # 4.8: either
        if kit.operator.can("draw"):
            kit.operator.do("draw")
        time.sleep(WAIT)
        expect(not cards_out(kit.probe.events(mark)), "a card passed the gate while the door was open")
        expect(isinstance(kit.ask(m.Hello()), m.Identity), "Hello was not answered during a fault")
        last = kit.status().last_event
        mark = kit.probe.mark()
        kit.result(m.Replay(last), m.Code.OK)
        expect(bool(kit.probe.wait_events(lambda e: e.number == last, 5.0, mark)), "Replay was refused during a fault")
    mark = kit.probe.mark()
    kit.result(m.Deal(1), m.Code.OK)
    expect(len(kit.card_events(mark, 1)) >= 1, "no card came after the fault was cleared and Deal(1) was sent")


# ---- shufflers ---------------------------------------------------------------------------


@clause("4.7", "Shuffle is answered OK with the cards in the deck shuffled, and logs SHUFFLED", "shuffler")
def shuffler_shuffle(kit: Kit) -> None:
    kit.wait_ready()
    mark = kit.probe.mark()
    result = kit.result(m.Shuffle(), m.Code.OK, timeout=60.0)
    expect(result.value > 0, f"Shuffle answered {result.value} cards")
    expect(bool(kit.probe.wait_events(lambda e: e.type is m.EventType.SHUFFLED, 2.0, mark)), "no SHUFFLED event")


@clause("4.9", "Verify counts the deck shuffled last", "shuffler")
def verify(kit: Kit) -> None:
    kit.wait_ready()
    size = kit.result(m.Shuffle(), m.Code.OK, timeout=60.0).value
    counted = kit.result(m.Verify(), m.Code.OK)
    expect(counted.value == size, f"Verify counted {counted.value}, Shuffle said {size}")


@clause("6.1", "Alternate: OK with the deck now dealt (two decks), UNSUPPORTED or BAD_REQUEST (one)", "shuffler")
def alternate(kit: Kit) -> None:
    kit.new_shoe()
    reply = kit.result(m.Alternate(), m.Code.OK, m.Code.UNSUPPORTED, m.Code.BAD_REQUEST, m.Code.NOT_READY)
    if reply.code is m.Code.NOT_READY:
        raise AssertionError("Alternate answered NOT_READY although the other deck was shuffled (6.3)")
    if reply.code is m.Code.OK:
        expect(reply.value in (0, 1), f"Alternate answered deck {reply.value}")
        expect(kit.status().active_deck == reply.value, "Status's active_deck is not the deck Alternate named")


@clause("4.10", "Dispense answers a Stack of that many cards, none twice; 0 cards is BAD_REQUEST", "shuffler")
def dispense(kit: Kit) -> None:
    kit.new_shoe()
    stack = kit.ask(m.Dispense(3))
    expect(isinstance(stack, m.Stack), f"Dispense(3) was answered {stack}")
    assert isinstance(stack, m.Stack)
    expect(len(stack.cards) == 3 and None not in stack.cards, f"Dispense(3) gave {stack.cards}")
    expect(len(set(stack.cards)) == 3, f"a stack repeats a card: {stack.cards}")
    seq, mark = kit.probe.send_marked(m.Dispense.KIND, b"\x00")
    reply = kit.probe.reply_to(seq, "Dispense(0)", kit.reply_timeout, mark)
    expect(isinstance(reply, m.Result) and reply.code is m.Code.BAD_REQUEST, f"Dispense(0) was answered {reply}")


@clause("6.7", "Status counts the cards dispensed from the deck being dealt; past the end is EMPTY", "shuffler")
def shuffler_counts(kit: Kit) -> None:
    kit.new_shoe()
    kit.ask(m.Dispense(3))
    st = kit.status()
    expect(st.count == 3, f"after a stack of 3 Status counts {st.count}")
    left = st.remaining
    empty = kit.result(m.Dispense(min(99, left + 1)), m.Code.EMPTY) if left < 99 else None
    if empty is not None:
        expect(empty.value == left, f"EMPTY says {empty.value} cards left, Status said {left}")


@clause("6.2", "after power-on nothing is shuffled: Dispense is NOT_READY", "shuffler")
def power_on(kit: Kit) -> None:
    kit.need("restart")
    kit.act("restart")
    time.sleep(0.5)
    kit.reconnected()
    kit.wait_ready()
    kit.result(m.Dispense(3), m.Code.NOT_READY)
    kit.result(m.Alternate(), m.Code.NOT_READY, m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)


@clause("6.4", "a Dispense refused for a fault delivers nothing; after clearing the stack comes", "shuffler")
def refused_dispense(kit: Kit) -> None:
    kit.new_shoe()
    before = kit.status().count
    with kit.faulted("jam"):
        kit.result(m.Dispense(3), m.Code.JAM)
        st = kit.status()
        expect(st.count == before, f"a refused Dispense moved the count from {before} to {st.count}")
        for command in (m.Shuffle(), m.Verify(), m.Alternate()):
            refused_during(kit, command, m.Code.JAM)
    stack = kit.ask(m.Dispense(3))
    expect(isinstance(stack, m.Stack) and len(stack.cards) == 3, f"after clearing, Dispense(3) gave {stack}")


@clause("6.5", "an unreadable card: `--` in the Stack, or the Dispense refused with a lasting fault", "shuffler")
def shuffler_unreadable(kit: Kit) -> None:
    kit.need("unreadable")
    kit.need("clear")
    kit.new_shoe()
    kit.act("unreadable")
    mark = kit.probe.mark()
    reply = kit.ask(m.Dispense(3))
    time.sleep(0.3)
    faults = [e for e in kit.probe.events(mark) if e.type is m.EventType.FAULT]
    if isinstance(reply, m.Result):
        expect(reply.code is m.Code.UNRECOGNISED_CARD, f"the Dispense was refused {reply.code.name}")
        expect(bool(faults), "a Dispense refused UNRECOGNISED_CARD without a lasting FAULT")
    else:
        expect(isinstance(reply, m.Stack) and len(reply.cards) == 3 and None in reply.cards,
               f"the stack with an unreadable card came as {reply}")
    if faults or kit.status().state is m.State.FAULT:
        mark = kit.probe.mark()
        kit.act("clear")
        expect(bool(kit.probe.wait_events(lambda e: e.type is m.EventType.FAULT_CLEARED, 10.0, mark)),
               "no FAULT_CLEARED")


@clause("6.6", "per-card events, if any, count the cards of the deck being dealt", "shuffler")
def per_card_events(kit: Kit) -> None:
    kit.new_shoe()
    mark = kit.probe.mark()
    stack = kit.ask(m.Dispense(3))
    time.sleep(0.3)
    drawn = [e for e in kit.probe.events(mark) if e.type is m.EventType.CARD_DRAWN]
    if not drawn:
        raise Skip("the shuffler sends no per-card events (allowed)")
    assert isinstance(stack, m.Stack)
    expect([e.count for e in drawn] == [1, 2, 3], f"per-card events count {[e.count for e in drawn]}")
    expect([e.card for e in drawn] == list(stack.cards), "per-card events name other cards than the Stack")


@clause("4.9", "a wrong count: OK with the count, or COUNT_MISMATCH with it in `value`", "shuffler")
def wrong_count(kit: Kit) -> None:
    kit.need("miscount")
    kit.wait_ready()
    size = kit.result(m.Shuffle(), m.Code.OK, timeout=60.0).value  # the whole deck
    kit.act("miscount")  # a card taken out of the deck to be shuffled next
    kit.result(m.Shuffle(), m.Code.OK, timeout=60.0)
    mark = kit.probe.mark()
    counted = kit.result(m.Verify(), m.Code.OK, m.Code.COUNT_MISMATCH)
    expect(counted.value != size, f"Verify answered {counted.code.name} with the full count {counted.value}")
    time.sleep(0.3)
    if kit.status().state is m.State.FAULT:
        kit.act("clear")
        expect(bool(kit.probe.wait_events(lambda e: e.type is m.EventType.FAULT_CLEARED, 10.0, mark)),
               "no FAULT_CLEARED after the count fault was cleared")


@clause("4.8", "a shuffler answers Deal UNSUPPORTED", "shuffler")
def shuffler_deal(kit: Kit) -> None:
    kit.result(m.Deal(1), m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)


@clause("10.1", "a lasting fault: FAULT, Status 2, Shuffle/Verify/Dispense/Alternate refused, cleared", "shuffler")
def shuffler_lasting_fault(kit: Kit) -> None:
    kit.new_shoe()
    with kit.faulted("door-open") as fault:
        expect(fault.code is m.Code.DOOR_OPEN, f"the FAULT event carries {fault.code.name}")
        st = kit.status()
        expect(st.state is m.State.FAULT and st.fault is m.Code.DOOR_OPEN, f"Status says {st.state.name}")
        for command in (m.Shuffle(), m.Verify(), m.Dispense(3), m.Alternate()):
            refused_during(kit, command, m.Code.DOOR_OPEN)
        last = kit.status().last_event
        mark = kit.probe.mark()
        kit.result(m.Replay(last), m.Code.OK)
        expect(bool(kit.probe.wait_events(lambda e: e.number == last, 5.0, mark)), "Replay was refused during a fault")
    stack = kit.ask(m.Dispense(3))
    expect(isinstance(stack, m.Stack), f"after clearing, Dispense(3) gave {stack}")
