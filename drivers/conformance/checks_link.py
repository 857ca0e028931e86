"""Clauses every device shares: frames (2), the link (3), messages (4.2-4.6), replay (7), sessions and restarts (8)."""

from __future__ import annotations

import time

from drivers.conformance.kit import WAIT, Kit, Skip, clause, drain_replies, expect
from drivers.conformance.probe import Received
from drivers.protocol import messages as m
from drivers.protocol.frame import SYNC_LINK, Frame, encode

#: How long a device must keep retransmitting an unacknowledged frame (docs/protocol.md 3.2: as long as the host
#: takes to call the link dead, 8 retransmissions, about 1.55 s).
RETRANSMITTING_FOR_S = 1.6


@clause("2.2", "garbage before a frame, and a frame with a bad CRC, are skipped")
def garbage_is_skipped(kit: Kit) -> None:
    seq = kit.probe.next_seq()
    bad = bytearray(encode(Frame(m.GetStatus.KIND, seq)))
    bad[-1] ^= 0xFF
    mark = kit.probe.mark()
    kit.probe.raw(b"\x00\x13\xa5\xffnoise" + bytes(bad))
    time.sleep(0.3)
    replies = [r for r in drain_replies(kit.probe, mark) if r.message.request == seq]  # type: ignore[union-attr]
    expect(not replies, f"a frame with a bad CRC was answered: {[r.message for r in replies]}")
    kit.status()


@clause("2.3", "a partial frame is dropped after 20 ms of silence")
def partial_frame_expires(kit: Kit) -> None:
    kit.probe.raw(bytes((0xA5, 0x10, 0x33, 0x11)))  # a header promising 16 payload bytes that never come
    time.sleep(0.1)
    kit.status()


@clause("2.5", "an unknown command kind is answered BAD_REQUEST or UNSUPPORTED")
def unknown_command(kit: Kit) -> None:
    seq, mark = kit.probe.send_marked(0x1E)
    reply = kit.probe.reply_to(seq, "command 0x1E", kit.reply_timeout, mark)
    expect(isinstance(reply, m.Result), f"answered with a {type(reply).__name__}, not a Result")
    assert isinstance(reply, m.Result)
    expect(reply.code in (m.Code.BAD_REQUEST, m.Code.UNSUPPORTED), f"answered {reply.code.name}")
    expect(reply.command == 0x1E, f"the Result names command 0x{reply.command:02x}, not 0x1e")


@clause("2.5", "a frame of a kind that is no command is acknowledged and not answered")
def not_a_command(kit: Kit) -> None:
    mark = kit.probe.mark()
    seqs = {kit.probe.send(0x05), kit.probe.send(0x90, bytes(4))}
    time.sleep(WAIT)
    replies = [r for r in drain_replies(kit.probe, mark) if r.message.request in seqs]  # type: ignore[union-attr]
    expect(not replies, f"answered a frame that is not a command: {[r.message for r in replies]}")


@clause("2.6", "a command with a malformed payload is answered BAD_REQUEST")
def malformed(kit: Kit) -> None:
    seq, mark = kit.probe.send_marked(m.Replay.KIND, b"\x00\x01")
    reply = kit.probe.reply_to(seq, "a Replay of 2 bytes", kit.reply_timeout, mark)
    expect(isinstance(reply, m.Result) and reply.code is m.Code.BAD_REQUEST,
           f"a Replay with a 2-byte payload was answered {reply}")


@clause("3.2", "a frame the host does not acknowledge is sent again, same SEQ, same bytes")
def retransmits(kit: Kit) -> None:
    probe = kit.probe
    mark = probe.mark()
    probe.withhold_acks = True
    try:
        seq = probe.send(m.GetStatus.KIND)

        def status(r: Received) -> bool:
            return isinstance(r.message, m.Status) and r.message.request == seq

        copies = probe.wait_for(status, kit.reply_timeout, mark)  # the first copy comes when the device answers (4.3)
        # A device retransmits at waits of its own choosing (3.2: at least 20 ms, no most), for at least as long as the
        # host takes to call the link dead: the second copy is waited for that long after the first, and as long as
        # the host waits for a reply (a device whose first wait is 2 s keeps retransmitting for 6 s and more), not a
        # fixed half second (a loaded machine delayed a simulator's 50 ms retransmission past it once).
        deadline = time.monotonic() + max(RETRANSMITTING_FOR_S, kit.reply_timeout)
        while len(copies) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
            copies = [r for r in probe.since(mark) if status(r)]
    finally:
        probe.withhold_acks = False
    expect(len(copies) >= 2, f"the Status was sent {len(copies)} time(s) without an ACK: expected it again")
    expect(len({(r.frame.seq, r.frame.payload) for r in copies}) == 1, "a retransmission differs from the first copy")
    time.sleep(2.0)  # let the device finish (the next copy is acknowledged, or it gives up, 3.7)
    kit.status()


@clause("3.4", "after a SYNC the next SEQ is delivered, whatever came before")
def sync_resets(kit: Kit) -> None:
    probe = kit.probe
    seq, mark = probe.send_marked(m.GetStatus.KIND)
    probe.reply_to(seq, "GetStatus", kit.reply_timeout, mark)
    probe.send(SYNC_LINK, seq=(seq - 1) & 0xFF)
    again, mark = probe.send_marked(m.GetStatus.KIND, seq=seq)  # the SEQ of the last frame delivered before the SYNC
    probe.reply_to(again, "GetStatus sent after a SYNC", kit.reply_timeout, mark)
    probe.seq = seq


@clause("3.5", "a frame received twice is acknowledged twice and delivered once")
def duplicates(kit: Kit) -> None:
    probe = kit.probe
    mark = probe.mark()
    seq = probe.send(m.GetStatus.KIND)
    acks_before = probe.acks.count(seq)
    probe.raw(encode(Frame(m.GetStatus.KIND, seq)))
    probe.reply_to(seq, "GetStatus sent twice with the same SEQ", kit.reply_timeout, mark)  # within 4.3's time, not WAIT
    time.sleep(WAIT)  # then a second answer, which must not come
    replies = [r for r in drain_replies(probe, mark) if r.message.request == seq]  # type: ignore[union-attr]
    expect(len(replies) == 1, f"GetStatus sent twice with the same SEQ was answered {len(replies)} times")
    expect(probe.acks.count(seq) > acks_before, "the repeated frame was not acknowledged again")


@clause("3.6", "after the host reconnects (SYNC first), the device answers; its SEQ may go on or start anew")
def new_connection(kit: Kit) -> None:
    kit.probe.reconnect()
    kit.probe.sync()
    seq, mark = kit.probe.send_marked(m.Hello.KIND, m.encode(m.Hello()))
    reply = kit.probe.reply_to(seq, "Hello on a new connection", kit.reply_timeout, mark)
    expect(isinstance(reply, m.Identity), f"Hello on a new connection was answered {reply}")


@clause("4.2", "each command gets exactly one reply, whose request byte is the command's SEQ")
def one_reply(kit: Kit) -> None:
    mark = kit.probe.mark()
    seqs = [kit.probe.send(m.GetStatus.KIND) for _ in range(3)]
    kit.probe.wait_for(lambda r: isinstance(r.message, m.Status) and r.message.request == seqs[-1],
                       3 * kit.reply_timeout, mark)
    time.sleep(WAIT)
    replies = [r for r in drain_replies(kit.probe, mark) if r.message.request in seqs]  # type: ignore[union-attr]
    got = sorted(r.message.request for r in replies)  # type: ignore[union-attr]
    expect(got == sorted(seqs), f"three GetStatus (requests {seqs}) were answered with requests {got}")


@clause("4.4", "Hello is answered with Identity: version 1, the right kind of device, its strings")
def identity(kit: Kit) -> None:
    ident = kit.session()
    expect(ident.version == m.PROTOCOL_VERSION, f"Identity reports version {ident.version}")
    expect(ident.device is kit.kind, f"Identity reports a {ident.device.name.lower()}, not a {kit.device}")
    expect(all((ident.model, ident.serial, ident.firmware)), "model, serial or firmware is empty")


@clause("4.4", "a Hello of another version is answered with Identity all the same")
def other_version(kit: Kit) -> None:
    reply = kit.ask(m.Hello(2))
    expect(isinstance(reply, m.Identity), f"Hello(2) was answered {reply}")


@clause("4.5", "GetStatus is answered with a Status whose fields agree")
def status_fields(kit: Kit) -> None:
    st = kit.status()
    expect((st.fault is m.Code.OK) == (st.state is not m.State.FAULT), f"state {st.state.name} with fault {st.fault.name}")
    if kit.kind is m.DeviceKind.SHOE:
        expect(st.active_deck == 0, f"a shoe reports active deck {st.active_deck}")


@clause("7.3", "Replay: 0 means from the first kept, past the last sends nothing, else from `first` in order")
def replay_bounds(kit: Kit) -> None:
    kit.new_shoe()  # at least one event logged (SHUFFLED)
    last = kit.status().last_event
    expect(last > 0, "no event logged after a Shuffle")
    mark = kit.probe.mark()
    result = kit.result(m.Replay(last + 10), m.Code.OK)
    expect(result.value == last, f"Replay answered last event {result.value}, Status said {last}")
    time.sleep(WAIT)
    expect(not kit.probe.events(mark), "Replay past the last event sent events")
    mark = kit.probe.mark()
    kit.result(m.Replay(last), m.Code.OK)
    got = [e.number for e in kit.probe.wait_events(lambda e: True, 2.0, mark)]
    expect(got[:1] == [last], f"Replay({last}) sent events {got}")
    mark = kit.probe.mark()
    kit.result(m.Replay(0), m.Code.OK)
    kit.probe.wait_events(lambda e: e.number == last, 10.0, mark)
    numbers = [e.number for e in kit.probe.events(mark)]
    expect(bool(numbers) and numbers == list(range(numbers[0], last + 1)),
           f"Replay(0) sent events {numbers[:5]}...{numbers[-3:]}, not in order up to {last}")


@clause("8.4", "a restart: new boot or events from 1, and no card before a new shuffle")
def restart(kit: Kit) -> None:
    kit.need("restart")
    before = kit.session()
    last = kit.status().last_event
    kit.act("restart")
    time.sleep(0.5)
    after = kit.reconnected()
    st = kit.status()
    expect(after.boot != before.boot or st.last_event < last,
           f"same boot {after.boot} and last event {st.last_event} (was {last}): the restart does not show")
    if kit.kind is m.DeviceKind.SHOE:
        mark = kit.probe.mark()
        deal = kit.result(m.Deal(1), m.Code.NOT_READY, m.Code.OK)
        if deal.code is m.Code.OK:
            time.sleep(WAIT)
            expect(not kit.card_events(mark, 1, 0.0), "a restarted shoe let a card out before any Shuffle")
    else:
        kit.result(m.Dispense(1), m.Code.NOT_READY)  # 6.2: nothing shuffled after power-on


@clause("8.5", "while starting, GetStatus answers (busy) and work is NOT_READY")
def starting(kit: Kit) -> None:
    kit.need("restart")
    kit.act("restart")
    time.sleep(0.3)
    kit.reconnected()
    st = kit.status()
    if st.state is not m.State.BUSY:
        raise Skip("the device was ready at once after its restart (nothing to check)")
    shuffle = kit.result(m.Shuffle(), m.Code.NOT_READY, m.Code.OK, timeout=30.0)
    if shuffle.code is m.Code.OK:
        # it may have finished starting between its Status and the Shuffle: only a device still busy is wrong
        expect(kit.status().state is not m.State.BUSY, "a Shuffle was answered OK while the device was starting (8.5)")
        raise Skip("the device was ready by the time the Shuffle came (nothing to check)")
    kit.wait_ready()


@clause("10.2", "a lasting fault survives a restart")
def fault_survives_restart(kit: Kit) -> None:
    kit.need("restart")
    with kit.faulted("door-open"):
        kit.act("restart")
        time.sleep(0.5)
        kit.reconnected()
        st = kit.wait_ready()
        expect(st.state is m.State.FAULT and st.fault is m.Code.DOOR_OPEN,
               f"after a restart the device reports {st.state.name} {st.fault.name}, not the open door")
