"""Typing what a delivered reminder's buttons do: "done", "snooze 15 min", "בוצע", "תזכיר לי שוב בעוד שעה"."""

from __future__ import annotations

import pytest

from memo.reminders.buttons import HOW_MUCH_LATER, ReminderButton, typed_button


@pytest.mark.parametrize(
    ("text", "action", "minutes"),
    [
        ("done", "done", 0),
        ("Done!", "done", 0),
        ("ok done ✅", "done", 0),
        ("did it", "done", 0),
        ("בוצע", "done", 0),
        ("עשיתי את זה", "done", 0),
        ("snooze", "snooze", 10),
        ("snooze 15 min", "snooze", 15),
        ("snooze it for 2 hours", "snooze", 120),
        ("remind me again in an hour", "snooze", 60),
        ("again in 20 minutes", "snooze", 20),
        ("נודניק 10 דקות", "snooze", 10),
        ("תזכיר לי שוב בעוד חצי שעה", "snooze", 30),
        ("תזכיר לי שוב בעוד שעתיים", "snooze", 120),
    ],
)
def test_typed_done_and_snooze(text: str, action: str, minutes: int) -> None:
    button = typed_button(text, "r1")
    assert isinstance(button, ReminderButton)
    assert (button.action, button.reminder_id, button.minutes) == (action, "r1", minutes)


@pytest.mark.parametrize("text", ["later", "remind me later", "תזכיר לי אחר כך"])
def test_later_without_an_amount_asks_how_much(text: str) -> None:
    assert typed_button(text, "r1") == HOW_MUCH_LATER


@pytest.mark.parametrize(
    "text",
    ["remind me to call mom in an hour", "done with the report, remind me at 5", "ok", "snooze 3 days"],
)
def test_anything_else_is_no_typed_button(text: str) -> None:
    assert typed_button(text, "r1") is None
