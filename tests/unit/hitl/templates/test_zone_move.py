"""The offer to move one-time reminders after a change of timezone, in English and Hebrew."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from memo.hitl.templates.zone_move import MoveOffer, zone_move_question
from tests.support.clock import days_ahead

ISRAEL = ZoneInfo("Asia/Jerusalem")


def _offer(title: str, hour: int) -> MoveOffer:
    due = days_ahead(1, hour, 15, ISRAEL)
    return MoveOffer(title=title, due_at=due, moved_to=due + timedelta(hours=7))


def test_one_reminder_is_named_with_both_times_and_the_time_it_would_move_to() -> None:
    text = zone_move_question("en", "America/New_York", "Asia/Jerusalem", [_offer("call bob", 18)], 0)
    assert "“call bob” is at" in text
    assert "11:15 in New York (18:15 in Israel). Move it to 18:15 New York time?" in text


def test_several_are_numbered_and_the_ones_not_named_are_counted() -> None:
    offers = [_offer("a", 9), _offer("b", 10)]
    text = zone_move_question("en", "America/New_York", "Asia/Jerusalem", offers, 3)
    assert text.splitlines()[1].startswith("1. “a” — ") and text.splitlines()[2].startswith("2. “b” — ")
    assert "…and 3 more, which keep their time." in text
    assert '"only 1"' in text


def test_hebrew() -> None:
    one = zone_move_question("he", "America/New_York", "Asia/Jerusalem", [_offer("לבוב", 18)], 0)
    assert "לפי השעה בניו יורק (18:15 בישראל)" in one and "להעביר אותה ל-18:15 בשעון ניו יורק?" in one
    assert " ב-יום" not in one and " ב-שבת" not in one  # "ביום א׳ ...", "בשבת ...": the day takes ב
    assert "„לבוב” ביום " in one or "„לבוב” בשבת " in one
    many = zone_move_question("he", "Europe/London", "Asia/Jerusalem", [_offer("א", 9), _offer("ב", 10)], 2)
    assert "ועוד 2 שנשארות בזמן שנקבע להן." in many and "„רק 1”" in many
