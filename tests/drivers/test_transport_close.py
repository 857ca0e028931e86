"""Closing a port while another thread reads it: the reader must never reach the next port the process opens.

The kernel hands a closed descriptor's number to the next file opened. The conformance kit runs several
simulators in one process, each restarting and stopping while the others open ports: a simulator's reader
that went on reading its old number took another connection's bytes, and that host's read found its port
ready and empty ("device reports readiness to read but returned no data", a lost line, 9.3).
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import socket
import threading
import time
import tty
from typing import Any

import pytest

from drivers.errors import DeviceLost
from drivers.sim.endpoints import FdTransport, SocketTransport
from drivers.transport import InUse
from drivers.transport.serial import SerialTransport


def raw_pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


def read_until_closed(transport: FdTransport | SerialTransport | SocketTransport, got: list[bytes]) -> None:
    while True:
        try:
            data = transport.read()
        except DeviceLost:
            return
        if data:
            got.append(data)


def write_until_closed(transport: SocketTransport, data: bytes) -> None:
    with contextlib.suppress(DeviceLost):
        transport.write(data)


def read_for(transport: FdTransport | SerialTransport, seconds: float) -> bytes:
    data, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline:
        data += transport.read()
    return data


def test_a_simulator_port_closed_under_its_reader_never_reads_the_next_port_opened() -> None:
    stolen = []
    for _ in range(40):
        old = FdTransport(*raw_pty(), "old port")
        got: list[bytes] = []
        reader = threading.Thread(target=read_until_closed, args=(old, got))
        reader.start()
        time.sleep(0.005)  # the reader waits in select()
        old.close()
        master, slave = raw_pty()  # takes the lowest free numbers: the old port's, once they are closed
        os.write(slave, b"for the new port")
        reader.join(2.0)
        assert not reader.is_alive()
        new = FdTransport(master, slave, "new port")
        try:
            assert read_for(new, 0.05) == b"for the new port", f"the old port's reader took {got}"
        finally:
            new.close()
        stolen += got
    assert not stolen


class DescheduledSocket(socket.socket):
    """A socket whose ``recv`` and ``sendall`` do what CPython's do, with the pause a busy machine may put in the middle.

    CPython's ``recv`` and ``send`` take the descriptor number, release the GIL, then make the call on that
    number. A thread descheduled between the two (a few instructions: rare, but seen under load) reads or
    writes whatever was opened on the number meanwhile. The pause makes that happen every time.
    """

    def _number(self) -> int:
        fd = self.fileno()
        if fd < 0:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        time.sleep(0.02)  # descheduled, holding the number
        return fd

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        fd = self._number()
        ready, _, _ = select.select([fd], [], [], 0.02)
        if not ready:
            raise TimeoutError("timed out")
        return os.read(fd, bufsize)

    def sendall(self, data: Any, flags: int = 0) -> None:
        os.write(self._number(), data)


def connected(listener: socket.socket) -> tuple[socket.socket, socket.socket]:
    """A host's end and the device's end of a new connection (their numbers: the lowest free ones)."""
    host = socket.create_connection(listener.getsockname())
    return host, listener.accept()[0]


def test_a_simulator_socket_closed_under_its_reader_never_reads_the_next_socket_opened() -> None:
    stolen = []
    with socket.create_server(("127.0.0.1", 0)) as listener:
        for _ in range(20):
            host, accepted = connected(listener)
            old = SocketTransport(DescheduledSocket(fileno=accepted.detach()), "old socket")
            got: list[bytes] = []
            reader = threading.Thread(target=read_until_closed, args=(old, got))
            reader.start()
            time.sleep(0.01)  # the reader holds the number
            old.close()
            new_host, new_device = connected(listener)
            try:
                new_device.sendall(b"for the new host")
                reader.join(2.0)
                assert not reader.is_alive()
                new_host.settimeout(1.0)
                try:
                    came = new_host.recv(64)
                except TimeoutError:
                    came = b""
                assert came == b"for the new host", f"the old socket's reader took {got}"
            finally:
                for end in (host, new_host, new_device):
                    end.close()
            stolen += got
    assert not stolen


def test_a_simulator_socket_closed_under_its_writer_never_writes_into_the_next_socket_opened() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        for _ in range(20):
            host, accepted = connected(listener)
            old = SocketTransport(DescheduledSocket(fileno=accepted.detach()), "old socket")
            writer = threading.Thread(target=write_until_closed, args=(old, b"for the old host"))
            writer.start()
            time.sleep(0.01)  # the writer holds the number
            old.close()
            new_host, new_device = connected(listener)
            try:
                writer.join(2.0)
                assert not writer.is_alive()
                for end in (new_host, new_device):
                    end.setblocking(False)
                    try:
                        came = end.recv(64)
                    except BlockingIOError:  # loopback delivers within the write: nothing came
                        came = b""
                    assert came == b"", f"the old socket's writer wrote {came!r} into the next socket opened"
            finally:
                for end in (host, new_host, new_device):
                    end.close()


def test_a_simulator_socket_closed_under_its_reader_ends_the_read_tells_the_host_and_is_then_released() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.create_connection(listener.getsockname()) as host:
        accepted, _ = listener.accept()
        device = SocketTransport(accepted, "device socket")
        reading = threading.Event()
        lost: list[DeviceLost] = []

        def read() -> None:
            try:
                while True:
                    reading.set()
                    device.read()
            except DeviceLost as exc:
                lost.append(exc)

        reader = threading.Thread(target=read)
        reader.start()
        reading.wait()
        device.close()
        reader.join(2.0)
        assert not reader.is_alive(), "closing did not end the read in progress"
        assert [str(exc) for exc in lost] == ["device socket: closed"]
        assert host.recv(64) == b""  # the host sees the connection end
        assert accepted.fileno() == -1  # released once the read returned
        device.close()  # twice is fine


def test_a_host_port_closed_under_its_reader_is_released_once_the_read_returns() -> None:
    master, slave = raw_pty()
    host = SerialTransport(os.ttyname(slave))
    got: list[bytes] = []
    reader = threading.Thread(target=read_until_closed, args=(host, got))
    reader.start()
    time.sleep(0.005)
    host.close()
    reader.join(1.0)
    assert not reader.is_alive(), "closing did not end the read in progress"
    with pytest.raises(DeviceLost, match="closed"):
        host.read()
    os.close(master)
    os.close(slave)


def test_closing_during_a_read_releases_the_port_when_the_read_ends() -> None:
    released = []
    in_use = InUse("port", lambda: released.append(True))
    with in_use.use():
        in_use.close()
        assert not released, "released under a read in progress"
        with pytest.raises(DeviceLost, match="port: closed"):
            in_use.use().__enter__()
    assert released == [True]
    in_use.close()
    assert released == [True], "released twice"
