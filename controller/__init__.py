"""tablectl's controller, in rooms (see ``docs/architecture.md``).

The modules at this level are the shared vocabulary every room speaks:
``cards`` and ``tiles`` (what is dealt), ``money`` (integer cents),
``odds`` (exact payouts), ``settlement`` (one settled wager as a record) and
``errors`` (the exception tree). The rooms are folders: ``rules`` (the games,
pure), ``records`` (journal, audit trail, meters), ``engine`` (the round, the
table, devices, camera, recovery), ``console`` (the dealer's and the pit's
screens) and ``commands`` (the ``tablectl`` command line).
"""
