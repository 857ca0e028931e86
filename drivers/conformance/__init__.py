"""The conformance kit: a device checked against docs/protocol.md, clause by clause (``tablectl conformance``)."""
