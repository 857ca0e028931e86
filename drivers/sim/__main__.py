"""``python -m drivers.sim shoe|shuffler [options]``: see ``drivers.sim.cli``."""

import sys

from drivers.sim.cli import main

if __name__ == "__main__":
    sys.exit(main())
