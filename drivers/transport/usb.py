"""USB transport: the reference protocol's bytes over a vendor interface's bulk endpoints.

The device is found by vendor id, product id and (when configured) serial
number, through pyusb's ``usb.core.find``; any pyusb backend works (libusb on
a real table, ``drivers.sim.usb_backend`` in tests). pyusb reports an
unplugged device as ``[Errno 19] No such device``: every ``USBError`` but a
timeout becomes ``DeviceLost``.
"""

from __future__ import annotations

from typing import Any

import usb.core
import usb.util

from drivers.errors import DeviceLost
from drivers.transport import Transport

READ_TIMEOUT_MS = 20
WRITE_TIMEOUT_MS = 1000


def serial_of(dev: usb.core.Device) -> str | None:
    try:
        return str(dev.serial_number) if dev.iSerialNumber else None
    except (usb.core.USBError, ValueError, NotImplementedError):
        return None


def find_device(vendor_id: int, product_id: int, serial: str | None = None, backend: Any = None) -> usb.core.Device | None:
    """The first matching device present now, or ``None``."""
    return usb.core.find(
        idVendor=vendor_id, idProduct=product_id, backend=backend,
        custom_match=lambda d: serial is None or serial_of(d) == serial,
    )


class UsbTransport(Transport):
    """Bulk IN and OUT endpoints of interface 0 of the matching device."""

    def __init__(self, vendor_id: int, product_id: int, serial: str | None = None, *, backend: Any = None) -> None:
        self.description = f"usb:{vendor_id:04x}:{product_id:04x}" + (f":{serial}" if serial else "")
        try:
            dev = find_device(vendor_id, product_id, serial, backend)
            if dev is None:
                raise DeviceLost(f"{self.description}: no such USB device is plugged in")
            self._dev = dev
            self._detach_kernel_driver()
            dev.set_configuration()
            intf = dev.get_active_configuration()[(0, 0)]
            self._ep_in = self._endpoint(intf, usb.util.ENDPOINT_IN)
            self._ep_out = self._endpoint(intf, usb.util.ENDPOINT_OUT)
        except usb.core.USBError as exc:
            raise DeviceLost(f"{self.description}: {exc}") from exc

    def _detach_kernel_driver(self) -> None:
        try:
            if self._dev.is_kernel_driver_active(0):
                self._dev.detach_kernel_driver(0)
        except (NotImplementedError, usb.core.USBError):
            pass

    def _endpoint(self, intf: Any, direction: int) -> Any:
        ep = usb.util.find_descriptor(
            intf, custom_match=lambda e: usb.util.endpoint_direction(e.bEndpointAddress) == direction
        )
        if ep is None:
            raise DeviceLost(f"{self.description}: interface 0 has no bulk endpoint in that direction")
        return ep

    def read(self) -> bytes:
        try:
            return bytes(self._ep_in.read(self._ep_in.wMaxPacketSize, timeout=READ_TIMEOUT_MS))
        except usb.core.USBTimeoutError:
            return b""
        except usb.core.USBError as exc:
            raise DeviceLost(f"{self.description}: {exc}") from exc

    def write(self, data: bytes) -> None:
        try:
            self._ep_out.write(data, timeout=WRITE_TIMEOUT_MS)
        except usb.core.USBError as exc:
            raise DeviceLost(f"{self.description}: {exc}") from exc

    def close(self) -> None:
        try:
            usb.util.dispose_resources(self._dev)
        except usb.core.USBError:
            pass
