"""A pyusb backend whose one device is a simulator: pyusb's real API, bytes to a simulator's port.

``usb.core.find(backend=SimulatedUsbBackend(port))`` finds a device with the
configured ids and strings while the simulator's port exists (a simulator
``unplug`` removes it), and its bulk endpoints ``0x01`` (OUT) and ``0x81`` (IN)
carry bytes to and from the simulator through ``serial.serial_for_url``. When
the simulator vanishes, transfers fail the way libusb's do: ``USBError`` with
errno 19, "No such device".
"""

from __future__ import annotations

import errno
import os
from array import array
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import serial
import usb.backend
import usb.core

EP_OUT, EP_IN = 0x01, 0x81
MAX_PACKET = 64
GET_DESCRIPTOR, STRING_DESCRIPTOR = 0x06, 0x03
LANG_EN_US = 0x0409


@dataclass(frozen=True)
class SimulatedUsbDevice:
    port: str
    vendor_id: int = 0x1209
    product_id: int = 0x7AB1
    serial: str = "SIM-0001"
    manufacturer: str = "tablectl"
    product: str = "TCS-SHOE-1"

    def string(self, index: int) -> str:
        return {1: self.manufacturer, 2: self.product, 3: self.serial}[index]


def _no_device(what: str) -> usb.core.USBError:
    return usb.core.USBError(f"No such device ({what})", errno=errno.ENODEV)


class SimulatedUsbBackend(usb.backend.IBackend):
    """See module doc."""

    def __init__(self, device: SimulatedUsbDevice) -> None:
        super().__init__()
        self.device = device

    def _present(self) -> bool:
        port = self.device.port
        return "://" in port or os.path.exists(port)

    def enumerate_devices(self) -> Any:
        if self._present():
            yield self.device

    def get_device_descriptor(self, dev: SimulatedUsbDevice) -> Any:
        return SimpleNamespace(
            bLength=18, bDescriptorType=1, bcdUSB=0x0200, bDeviceClass=0, bDeviceSubClass=0, bDeviceProtocol=0,
            bMaxPacketSize0=MAX_PACKET, idVendor=dev.vendor_id, idProduct=dev.product_id, bcdDevice=0x0100,
            iManufacturer=1, iProduct=2, iSerialNumber=3, bNumConfigurations=1,
            address=7, bus=1, port_number=1, port_numbers=(1,), speed=3,
        )

    def get_configuration_descriptor(self, dev: SimulatedUsbDevice, config: int) -> Any:
        return SimpleNamespace(
            bLength=9, bDescriptorType=2, wTotalLength=32, bNumInterfaces=1, bConfigurationValue=1,
            iConfiguration=0, bmAttributes=0x80, bMaxPower=50, extra_descriptors=[],
        )

    def get_interface_descriptor(self, dev: SimulatedUsbDevice, intf: int, alt: int, config: int) -> Any:
        return SimpleNamespace(
            bLength=9, bDescriptorType=4, bInterfaceNumber=0, bAlternateSetting=0, bNumEndpoints=2,
            bInterfaceClass=0xFF, bInterfaceSubClass=0, bInterfaceProtocol=0, iInterface=0, extra_descriptors=[],
        )

    def get_endpoint_descriptor(self, dev: SimulatedUsbDevice, ep: int, intf: int, alt: int, config: int) -> Any:
        return SimpleNamespace(
            bLength=7, bDescriptorType=5, bEndpointAddress=(EP_OUT, EP_IN)[ep], bmAttributes=0x02,
            wMaxPacketSize=MAX_PACKET, bInterval=0, bRefresh=0, bSynchAddress=0, extra_descriptors=[],
        )

    def open_device(self, dev: SimulatedUsbDevice) -> Any:
        if not self._present():
            raise _no_device("unplugged")
        try:
            return serial.serial_for_url(dev.port, timeout=0.02)
        except (serial.SerialException, OSError) as exc:
            raise _no_device(str(exc)) from exc

    def close_device(self, dev_handle: Any) -> None:
        dev_handle.close()

    def set_configuration(self, dev_handle: Any, config_value: int) -> None:
        pass

    def get_configuration(self, dev_handle: Any) -> int:
        return 1

    def claim_interface(self, dev_handle: Any, intf: int) -> None:
        pass

    def release_interface(self, dev_handle: Any, intf: int) -> None:
        pass

    def is_kernel_driver_active(self, dev_handle: Any, intf: int) -> bool:
        return False

    def bulk_write(self, dev_handle: Any, ep: int, intf: int, data: array[int], timeout: int) -> int:
        try:
            return int(dev_handle.write(data.tobytes()))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            raise _no_device(str(exc)) from exc

    def bulk_read(self, dev_handle: Any, ep: int, intf: int, buff: array[int], timeout: int) -> int:
        try:
            data = dev_handle.read(len(buff))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial read while another thread closes the handle.
            raise _no_device(str(exc)) from exc
        if not data:
            raise usb.core.USBTimeoutError("Operation timed out", errno=errno.ETIMEDOUT)
        buff[: len(data)] = array("B", data)
        return len(data)

    def ctrl_transfer(
        self, dev_handle: Any, bmRequestType: int, bRequest: int, wValue: int, wIndex: int, data: Any, timeout: int
    ) -> int:
        if bRequest != GET_DESCRIPTOR or wValue >> 8 != STRING_DESCRIPTOR:
            raise usb.core.USBError("Pipe error (request not supported)", errno=errno.EPIPE)
        index = wValue & 0xFF
        body = LANG_EN_US.to_bytes(2, "little") if index == 0 else self.device.string(index).encode("utf-16-le")
        desc = bytes((len(body) + 2, STRING_DESCRIPTOR)) + body
        n = min(len(desc), len(data))
        data[:n] = array("B", desc[:n])
        return n
