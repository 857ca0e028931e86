"""Shuffle and deck assurance: every shoe tested for randomness as it is dealt, every deck counted.

``kernels`` holds the arithmetic (numba), ``policy`` the alarm rates read from
config, ``monitor`` the per-device monitor, ``inventory`` the deck count and
``docs/shuffle.md`` the tests, their calibration and what each catches.
"""
