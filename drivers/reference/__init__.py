"""Drivers for devices speaking the reference protocol (docs/protocol.md)."""
