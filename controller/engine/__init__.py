"""The engine: what runs a table from start to settlement.

=====================  ==========================================================
``loop``               the one table loop: ``run``, ``serve`` and the console drive it
``commands``           what drives the loop: wagers, decisions, faults, the supervisor
``round``              one round as a ``transitions`` state machine
``table``              a table's game, devices, limits and meters, and its rounds
``feeds``              a shoe or shuffler with the table's procedure
``devices``            opening the configured devices as a feed
``holds``              resuming or voiding a held round (the console, ``tablectl hold``)
``camera``             the overhead camera as the second witness of each card
``shuffle/``           shuffle and deck assurance: each shoe's order tested as it is dealt
``players``            simulated players
``view``               what each page may show of the table, decided once
``visibility``         what each screen may see of a round's cards
``config``             the table configuration (``config_schema``: every key; ``config_edit``)
``log``                the event log: journal first, then JSON and the terminal
``redact``             secrets never reach the log
``recovery``           re-enacting journaled rounds: restart recovery and replay
``floor_link``         the floor's outbox started beside the table, as a program
``session``            a table with its journal, log, devices and recovered rounds
=====================  ==========================================================
"""
