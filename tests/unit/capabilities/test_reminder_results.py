"""What reminder actions answer: a reminder's brief, and the failures in the user's language."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from memo.capabilities.items import Reminder
from memo.capabilities.reminder_results import brief, changed_failure, in_past, rejected
from memo.text.series import series
from tests.unit.capabilities.support import NOW, THREAD, TZ, ctx

DUE = datetime(2026, 3, 11, 8, 0, tzinfo=ZoneInfo(TZ))


def test_a_brief_says_how_a_repeating_reminder_repeats() -> None:
    once = Reminder(reminder_id="r-1", thread_id=THREAD, title="gym", due_at=DUE, timezone=TZ, created_at=NOW)
    assert brief(once) == {"id": "r-1", "title": "gym", "when": DUE.isoformat()}
    daily = once.model_copy(update={"recurrence": series("FREQ=DAILY", DUE, TZ)})
    assert brief(daily)["repeats"] == "every day at 08:00"


def test_failures_are_worded_in_the_users_language() -> None:
    assert in_past("update", "he").error == "הזמן הזה כבר עבר."
    assert rejected("en", None) == "I couldn't schedule that reminder."
    assert "every Monday at 9" in rejected("en", "FREQ=SECONDLY")


def test_reminders_changed_after_the_approval_are_named() -> None:
    changed = [{"id": "r-1", "title": "gym", "when": DUE.isoformat()}]
    result = changed_failure("delete", changed, ctx())
    assert result.error_code == "CHANGED_SINCE_APPROVAL"
    assert result.error == "“gym” changed after you approved, so I left it as it is."
    assert result.data == {"changed": changed, "timezone": TZ}
