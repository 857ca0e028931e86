"""The ``tablectl`` subcommands, one module each.

Each module defines ``register(subparsers)`` which adds its parser and sets
``func`` (called with the parsed arguments, returning the exit code).
``COMMANDS`` lists the modules in the order ``--help`` shows them.
"""

COMMANDS: tuple[str, ...] = (
    "controller.commands.run",
    "controller.commands.edge",
    "controller.commands.simulate",
    "controller.commands.devices",
    "controller.commands.conformance",
    "controller.commands.rounds",
    "controller.commands.hold",
    "controller.commands.replay",
    "controller.commands.meters",
    "controller.commands.journal",
    "controller.commands.audit",
    "controller.commands.floor",
    "controller.commands.serve",
    "controller.commands.staff",
    "controller.commands.odds",
    "controller.commands.vision",
    "controller.commands.config",
    "controller.commands.shuffle",
)
