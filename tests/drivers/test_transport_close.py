"""Closing a port while another thread reads it: the reader must never reach the next port the process opens.

The kernel hands a closed descriptor's number to the next file opened. The conformance kit runs several
simulators in one process, each restarting and stopping while the others open ports: a simulator's reader
that went on reading its old number took another connection's bytes, and that host's read found its port
ready and empty ("device reports readiness to read but returned no data", a lost line, 9.3).
"""

from __future__ import annotations

import os
import threading
import time
import tty

import pytest

from drivers.errors import DeviceLost
from drivers.sim.endpoints import FdTransport
from drivers.transport import InUse
from drivers.transport.serial import SerialTransport


def raw_pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


def read_until_closed(transport: FdTransport | SerialTransport, got: list[bytes]) -> None:
    while True:
        try:
            data = transport.read()
        except DeviceLost:
            return
        if data:
            got.append(data)


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
