"""The link over a real pseudo-terminal: every frame delivered once, in order, through line noise."""

from __future__ import annotations

import os
import random
import threading
import tty
from collections.abc import Iterator

import pytest

from drivers.errors import DeviceLost, DeviceTimeout
from drivers.protocol.frame import Frame
from drivers.protocol.link import Link
from drivers.sim.endpoints import FaultyTransport, FdTransport, LineFaults
from drivers.transport.serial import SerialTransport


@pytest.fixture
def pty_pair() -> Iterator[tuple[FdTransport, SerialTransport]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    device = FdTransport(master, slave, "pty master")
    host = SerialTransport(os.ttyname(slave))
    yield device, host
    host.close()
    device.close()


def test_a_frame_is_delivered_before_it_is_acknowledged(pty_pair: tuple[FdTransport, SerialTransport]) -> None:
    """Once ``send`` returns, the peer has handed the frame over: closing right after loses nothing."""
    device_end, host_end = pty_pair
    got: list[bytes] = []

    def slow_handler(frame: Frame) -> None:
        threading.Event().wait(0.03)
        got.append(frame.payload)

    host = Link(host_end, slow_handler).start()
    device = Link(device_end, lambda f: None).start()
    try:
        for i in range(5):
            device.send(0x84, bytes([i]))
            assert got[-1:] == [bytes([i])]
    finally:
        host.close()
        device.close()


def test_both_directions_deliver_every_frame_exactly_once_in_order_through_noise(
    pty_pair: tuple[FdTransport, SerialTransport],
) -> None:
    device_end, host_end = pty_pair
    noisy = FaultyTransport(device_end, LineFaults(drop=0.003, duplicate=0.003, corrupt=0.003), random.Random(5))
    got_by_host: list[bytes] = []
    got_by_device: list[bytes] = []
    host = Link(host_end, lambda f: got_by_host.append(f.payload), ack_timeout=0.05, retries=20).start()
    device = Link(noisy, lambda f: got_by_device.append(f.payload), ack_timeout=0.05, retries=20).start()
    sent = [i.to_bytes(2, "big") * 3 for i in range(300)]
    talker = threading.Thread(target=lambda: [device.send(0x84, p) for p in sent])
    talker.start()
    for p in sent:
        host.send(0x10, p)
    talker.join()
    host.close()
    device.close()
    assert got_by_device == sent
    assert got_by_host == sent
    assert host.stats.retransmits + device.stats.retransmits > 0, "the noise should have cost retransmissions"


def test_an_unanswered_frame_times_out_naming_the_tries(pty_pair: tuple[FdTransport, SerialTransport]) -> None:
    _, host_end = pty_pair
    host = Link(host_end, lambda f: None, ack_timeout=0.01, retries=2, name="shoe").start()
    with pytest.raises(DeviceTimeout, match="not acknowledged after 3 tries"):
        host.send(0x10)
    host.close()


def test_closing_the_device_end_is_seen_at_once(pty_pair: tuple[FdTransport, SerialTransport]) -> None:
    device_end, host_end = pty_pair
    lost = threading.Event()
    host = Link(host_end, lambda f: None, lambda exc: lost.set()).start()
    device_end.close()
    assert lost.wait(1.0)
    with pytest.raises(DeviceLost):
        host.send(0x10)
    host.close()


def test_a_socket_port_closed_under_a_read_is_a_lost_device_not_a_crash() -> None:
    """close() from another thread can close the socket while the reader waits on it."""
    import socket

    server = socket.create_server(("127.0.0.1", 0))
    host = SerialTransport(f"socket://127.0.0.1:{server.getsockname()[1]}")
    peer, _ = server.accept()
    try:
        host._port._socket.close()
        with pytest.raises(DeviceLost):
            host.read()
    finally:
        host.close()
        peer.close()
        server.close()


def test_a_sync_makes_the_receiver_accept_a_repeated_sequence_number(
    pty_pair: tuple[FdTransport, SerialTransport],
) -> None:
    device_end, host_end = pty_pair
    got: list[Frame] = []
    device = Link(device_end, got.append).start()
    host = Link(host_end, lambda f: None).start()
    host._tx_seq = 9
    host.send(0x10, b"a")
    host.sync()
    host._tx_seq = 9
    host.send(0x10, b"b")
    host.close()
    device.close()
    assert [f.payload for f in got] == [b"a", b"b"]
