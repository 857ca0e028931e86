
from collections.abc import Callable
from typing import Any

from usb.core import Device, Endpoint, Interface

ENDPOINT_IN: int
ENDPOINT_OUT: int

def endpoint_direction(address: int) -> int: ...
def find_descriptor(desc: Interface, find_all: bool = ..., custom_match: Callable[[Endpoint], bool] | None = ..., **args: Any) -> Endpoint | None: ...
def dispose_resources(device: Device) -> None: ...
