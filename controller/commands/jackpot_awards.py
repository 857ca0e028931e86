"""The table's link to the floor's linked jackpot: where its held rounds' awards come from (``[floor] jackpot``).

The engine does not import the floor (``docs/architecture.md``); the command
that opens a table builds the source from the table's config and hands it in.
"""

from __future__ import annotations

from controller.engine.config import TableConfig
from controller.engine.jackpot import AwardSource


def award_source(config: TableConfig) -> AwardSource | None:
    """The floor's bucket for a table linked to a jackpot; None for a table that is not."""
    floor = config.settings.floor if config.settings is not None else None
    if floor is None or not floor.jackpot:
        return None
    from controller.floor.jackpot_client import JackpotClient  # NATS only: a table needs no database driver

    return JackpotClient(floor.servers, floor.site, floor.jackpot).source(config.table_id)
