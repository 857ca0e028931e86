"""What is plugged in: serial ports and USB devices with their ids, and which configured device each one is.

A configured device is named by its port (``/dev/serial/by-id/...`` is best:
``ttyUSB0`` moves between boots) or by USB vendor id, product id and serial
number; ``matches`` applies the same rule the drivers use when they connect.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import usb.core
from serial.tools.list_ports import comports

from drivers.transport.usb import serial_of

BY_ID = Path("/dev/serial/by-id")


@dataclass(frozen=True, slots=True)
class Found:
    """A serial port or USB device present now."""

    bus: str
    path: str
    description: str
    vendor_id: int | None = None
    product_id: int | None = None
    serial: str | None = None
    links: tuple[str, ...] = ()

    @property
    def ids(self) -> str:
        if self.vendor_id is None or self.product_id is None:
            return "-"
        return f"{self.vendor_id:04x}:{self.product_id:04x}"


@dataclass(frozen=True, slots=True)
class Wanted:
    """A device the configuration names (``name`` is ``shoe`` or ``shuffler``)."""

    name: str
    driver: str
    port: str | None = None
    vendor_id: int | None = None
    product_id: int | None = None
    serial: str | None = None

    def matches(self, found: Found) -> bool:
        if self.port:
            return os.path.realpath(self.port) == os.path.realpath(found.path) or self.port in found.links
        if self.vendor_id is None or self.product_id is None:
            return False
        same_ids = (found.vendor_id, found.product_id) == (self.vendor_id, self.product_id)
        return same_ids and (self.serial is None or found.serial == self.serial)


def _links_to(device: str) -> tuple[str, ...]:
    if not BY_ID.is_dir():
        return ()
    real = os.path.realpath(device)
    return tuple(sorted(str(p) for p in BY_ID.iterdir() if os.path.realpath(p) == real))


def serial_ports() -> list[Found]:
    return [
        Found("serial", p.device, p.description or "", p.vid, p.pid, p.serial_number, _links_to(p.device))
        for p in sorted(comports(), key=lambda p: p.device)
    ]


class NoUsbBackend(RuntimeError):
    """pyusb found no libusb to list USB devices with."""


def usb_devices(backend: Any = None) -> list[Found]:
    try:
        devices = list(usb.core.find(find_all=True, backend=backend))
    except usb.core.NoBackendError:
        raise NoUsbBackend("no libusb backend for pyusb: install the libusb-1.0-0 package") from None
    return [
        Found("usb", f"bus {d.bus} address {d.address}", _usb_description(d), d.idVendor, d.idProduct, serial_of(d))
        for d in devices
    ]


def _usb_description(dev: Any) -> str:
    try:
        return " ".join(filter(None, (dev.manufacturer, dev.product)))
    except (usb.core.USBError, ValueError, NotImplementedError):
        return ""
