"""The records: what happened at the table, kept so it cannot be quietly changed.

``journal`` (SQLite, every event before it takes effect), ``audit`` (the
hash-chained JSON event log and its check) and ``meters`` (what the table took
in and paid out). Records store and read back; they do not run rounds (the
engine's ``recovery`` re-enacts rounds from the journal).
"""
