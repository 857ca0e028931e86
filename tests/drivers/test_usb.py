"""The reference protocol over USB, through pyusb's real API with a backend routed to a simulator."""

from __future__ import annotations

import pytest
import usb.core

from controller.cards import shoe as make_shoe
from drivers.errors import DeviceLost
from drivers.registry import open_shoe, open_shuffler
from drivers.shoe import CardDrawn, DeviceFault, DeviceRecovered, ShoeEmpty
from drivers.sim.process import SimulatorProcess
from drivers.sim.shoe import shoe_order
from drivers.sim.usb_backend import SimulatedUsbBackend, SimulatedUsbDevice
from drivers.transport.usb import find_device

from .conftest import FAST

VID, PID = 0x1209, 0x7AB1


def test_pyusb_finds_the_simulated_device_by_ids_and_serial(shoe_sim: SimulatorProcess) -> None:
    backend = SimulatedUsbBackend(SimulatedUsbDevice(shoe_sim.port))
    dev = find_device(VID, PID, "SIM-0001", backend)
    assert dev is not None and dev.manufacturer == "tablectl" and dev.product == "TCS-SHOE-1"
    assert find_device(VID, PID, "OTHER", backend) is None
    assert usb.core.find(idVendor=0xDEAD, backend=backend) is None


def test_a_usb_shoe_deals_and_survives_being_unplugged(shoe_sim: SimulatorProcess) -> None:
    backend = SimulatedUsbBackend(SimulatedUsbDevice(shoe_sim.port))
    shoe = open_shoe("reference-usb", vendor_id=VID, product_id=PID, serial="SIM-0001", backend=backend, **FAST)
    shoe.shuffle()
    events = [shoe.next_event(5.0) for _ in range(4)]
    shoe_sim.command("unplug 0.3")
    events.append(shoe.next_event(2.0))
    assert events[-1] == DeviceFault("communication-lost", "the shoe stopped answering: check its cable and power (reconnecting)")
    while not isinstance(events[-1], ShoeEmpty):
        events.append(shoe.next_event(5.0))
    shoe.close()
    assert sum(isinstance(e, DeviceRecovered) for e in events) == 1
    cards = [e.card for e in events if isinstance(e, CardDrawn)]
    assert cards == shoe_order(make_shoe(1), 7, 1)


def test_a_usb_shuffler_dispenses_stacks(shuffler_sim: SimulatorProcess) -> None:
    backend = SimulatedUsbBackend(SimulatedUsbDevice(shuffler_sim.port, product="TCS-SHUF-1"))
    shuffler = open_shuffler("reference-usb", vendor_id=VID, product_id=PID, serial="SIM-0001", backend=backend, decks=2)
    shuffler.shuffle()
    shuffler.alternate()
    assert len(set(shuffler.dispense(3) + shuffler.dispense(3))) == 6
    shuffler.close()


def test_a_usb_device_that_is_not_plugged_in_is_named(shoe_sim: SimulatorProcess) -> None:
    backend = SimulatedUsbBackend(SimulatedUsbDevice(shoe_sim.port))
    with pytest.raises(DeviceLost, match="usb:1209:7ab1:NOPE: no such USB device is plugged in"):
        open_shoe("reference-usb", vendor_id=VID, product_id=PID, serial="NOPE", backend=backend)
