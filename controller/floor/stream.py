"""The site's stream on the broker: its settings and how it is created or brought up to date.

One stream per site holds every table's records (``tablectl.<site>.>``),
replicated on ``replicas`` nodes of the RAFT cluster, keeping a re-published
record once within ``duplicate_window_s`` and every record for
``max_age_days``. With leaf nodes, the site's stream also gathers each leaf's
own stream (``sources``): a pit's or a table's small server keeps taking
records while the floor's network is down, and the site's stream catches up
when it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nats.js.api import (
    ExternalStream,
    RetentionPolicy,
    StorageType,
    StreamConfig,
    StreamSource,
)
from nats.js.errors import NotFoundError

from controller.floor import wire
from controller.floor.config import FloorConfig


@dataclass
class StreamSettings:
    """How the site's stream is kept: replicas (3 on a RAFT cluster), duplicate window, how long records stay."""

    replicas: int = 3
    duplicate_window_s: float = 2 * 3600
    max_age_days: float = 30
    sources: Sequence[tuple[str, str]] = ()
    """(stream, JetStream domain) of each leaf node's stream this stream gathers from."""


async def ensure_stream(js: Any, site: str, settings: StreamSettings, *, name: str | None = None) -> None:
    """Create the site's stream (or the stream ``name`` for the site's records), or bring its settings up to date."""
    config = StreamConfig(
        name=name or wire.stream_name(site),
        subjects=[wire.site_subjects(site)],
        retention=RetentionPolicy.LIMITS,
        storage=StorageType.FILE,
        num_replicas=settings.replicas,
        duplicate_window=settings.duplicate_window_s,
        max_age=settings.max_age_days * 86400,
        sources=[
            StreamSource(name=name, external=ExternalStream(api=f"$JS.{domain}.API")) for name, domain in settings.sources
        ]
        or None,
    )
    try:
        await js.stream_info(config.name)
    except NotFoundError:
        await js.add_stream(config)
    else:
        await js.update_stream(config)



def leaf_stream_name(site: str, leaf: str) -> str:
    """The stream a leaf node keeps for ``site``'s records while it is cut off."""
    return wire.stream_name(site) + "_" + wire.token(leaf, "leaf").upper().replace("-", "_")


def stream_settings(config: FloorConfig) -> StreamSettings:
    broker = config.broker
    return StreamSettings(
        replicas=broker.replicas,
        duplicate_window_s=broker.duplicate_window_hours * 3600,
        max_age_days=broker.max_age_days,
        sources=[(leaf_stream_name(config.floor.site, leaf), domain) for leaf, domain in broker.leaves.items()],
    )
