"""The ``tablectl`` subcommands, one module each.

Each module defines ``register(subparsers)`` which adds its parser and sets
``func`` (called with the parsed arguments, returning the exit code).
``COMMANDS`` maps the modules, in the order ``--help`` shows them, to the commands each registers, so that
``tablectl NAME`` imports only the module of ``NAME``.
"""

COMMANDS: dict[str, tuple[str, ...]] = {
    "controller.commands.run": ("run",),
    "controller.commands.edge": ("edge",),
    "controller.commands.simulate": ("simulate",),
    "controller.commands.devices": ("devices",),
    "controller.commands.conformance": ("conformance",),
    "controller.commands.rounds": ("rounds", "round"),
    "controller.commands.hold": ("hold",),
    "controller.commands.replay": ("replay",),
    "controller.commands.meters": ("meters",),
    "controller.commands.journal": ("journal",),
    "controller.commands.audit": ("audit",),
    "controller.commands.floor": ("floor",),
    "controller.commands.serve": ("serve",),
    "controller.commands.staff": ("staff",),
    "controller.commands.odds": ("odds",),
    "controller.commands.vision": ("vision",),
    "controller.commands.config": ("config",),
    "controller.commands.shuffle": ("shuffle",),
}
