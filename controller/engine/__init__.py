"""The engine: what runs a table from start to settlement.

=====================  ==========================================================
``round``              one round as a ``transitions`` state machine
``table``              the loop that feeds rounds cards and decisions
``feeds``              a shoe or shuffler with the table's procedure
``devices``            opening the configured devices as a feed
``camera``             the overhead camera as the second witness of each card
``players``            simulated players
``config``             the table configuration
``log``                the event log: journal first, then JSON and the terminal
``redact``             secrets never reach the log
``recovery``           re-enacting journaled rounds: restart recovery and replay
``session``            a table with its journal, log, devices and recovered rounds
=====================  ==========================================================
"""
