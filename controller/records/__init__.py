"""The records: what happened at the table, kept so that it cannot be lost or changed quietly.

``journal`` (SQLite, every event before it takes effect, each record chained to
the one before), ``anchor`` (the journal's head kept outside it), ``lock`` (one
writer per table), ``audit`` (the signed JSON event log, one per table) and
``verify`` (its check), ``keys`` (the table's Ed25519 key), ``checkpoints``
(signed heads for the floor), ``integrity`` and ``witnesses`` (what opening
checks), ``backup`` and ``migrate``, ``meters`` (what the table took in and paid
out), ``errors`` (what can go wrong, with exit codes). Records store and read
back; they do not run rounds (the engine's ``recovery`` re-enacts rounds from
the journal).
"""
