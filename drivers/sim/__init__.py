"""Device simulators speaking the device side of the reference protocol on real ports.

Run one as its own process (``python -m drivers.sim shoe`` or ``tablectl simulate shoe``);
``drivers.sim.process.SimulatorProcess`` starts one for tests and benchmarks.
"""
