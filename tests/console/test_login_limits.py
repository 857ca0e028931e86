"""Wrong PINs lock the name tried, and a screen only after many names: the refusal says which (two supervisors at one
screen read 'too many wrong tries' without knowing whose)."""

from __future__ import annotations

from controller.console.login import LoginLimits


def test_a_lock_names_the_name_tried_or_the_screen() -> None:
    now = [0.0]
    limits = LoginLimits(clock=lambda: now[0])
    for _ in range(3):
        limits.failed("dana", "127.0.0.1")
    assert limits.wait("dana", "127.0.0.1") > 0 and limits.locked("dana", "127.0.0.1") == "for dana"
    assert limits.wait("pat", "127.0.0.1") == 0  # the supervisor at the same screen is not locked out
    for n in range(7):
        limits.failed(f"name{n}", "127.0.0.1")
    assert limits.wait("pat", "127.0.0.1") > 0 and limits.locked("pat", "127.0.0.1") == "from this screen"
