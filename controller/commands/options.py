"""Options several subcommands share."""

from __future__ import annotations

import argparse
import shlex

CONFIG_HELP = ("table config: a TOML file, or a game's name (pai-gow-tiles) looked for in /etc/tablectl/ and then "
               "among the shipped configs; default: /etc/tablectl/table.toml, else the shipped top-card")


def config_argument(parser: argparse.ArgumentParser, help: str = CONFIG_HELP) -> None:
    """``--config FILE|GAME`` (``controller.engine.config.config_path`` says where each is found)."""
    parser.add_argument("--config", default=None, metavar="FILE|GAME", help=help)


def config_option(config: str | None) -> str:
    """`` --config FILE`` as a shell reads it back (quoted), for a command a message tells the user to run; nothing
    for the default config, which that command reads without ``--config`` too."""
    return "" if config is None else f" --config {shlex.quote(config)}"
