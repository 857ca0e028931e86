"""The line a screen shows for an event (the pit view's event list): its fields in words, money in dollars."""

from __future__ import annotations

from controller.engine.view import event_text


def test_money_in_dollars_lists_as_words_and_the_exact_amount_left_to_the_audit() -> None:
    settled = {"spot": 7, "wager": "tie", "stake": 1925, "returned": 0, "exact_returned": "0", "house_win": 1925,
               "outcome": "lose", "rounded": False}
    assert event_text(settled) == "spot 7  wager tie  stake $19.25  returned $0.00  house win $19.25  outcome lose  rounded False"
    assert event_text({"target": "home", "card": "5C", "source": "shoe"}) == "target home  card 5C  source shoe"
    assert event_text({"cards": None, "cards_count": 3}) == "cards count 3"  # a hidden card's field, blanked
    assert event_text({"order": ["7D", "5C"], "roles": {}}) == "order 7D 5C"
