"""Errors a device driver raises, one tree, each mixing in the builtin it resembles.

::

    DeviceError (RuntimeError)
    ├── DeviceTimeout (TimeoutError)        no answer in time
    ├── DeviceLost (ConnectionError)        port closed, USB unplugged, link dead
    ├── ProtocolError (ValueError)          a frame or message that breaks the protocol
    ├── IdentityMismatch (PermissionError)  model, serial or firmware differs from the configured one
    └── ShufflerError                       (drivers.shuffler) faults the shuffler reports
"""

from __future__ import annotations


class DeviceError(RuntimeError):
    """Something went wrong talking to a table device."""


class DeviceTimeout(DeviceError, TimeoutError):
    """The device did not answer (or no event came) within the allowed time."""


class DeviceLost(DeviceError, ConnectionError):
    """The device went away: its port closed, its USB cable was pulled, or it stopped answering."""


class ProtocolError(DeviceError, ValueError):
    """Bytes or a message that the reference protocol does not allow."""


class IdentityMismatch(DeviceError, PermissionError):
    """The device is not the one configured: refused rather than silently used."""
