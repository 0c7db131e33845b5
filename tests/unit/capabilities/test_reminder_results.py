"""What reminder actions answer: a reminder's brief, and the failures in the user's language."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.items import Reminder
from memo.capabilities.reminder_results import (
    MOST_TIMES_COUNTED,
    brief,
    changed_failure,
    in_past,
    in_period,
    on_days,
    rejected,
)
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


def test_a_listing_of_days_has_a_series_on_each_of_its_days_from_its_next_time() -> None:
    once = Reminder(
        reminder_id="r-1", thread_id=THREAD, title="dentist", due_at=DUE, timezone=TZ, created_at=NOW
    )
    daily = once.model_copy(
        update={"reminder_id": "r-2", "title": "pills", "recurrence": series("FREQ=DAILY", DUE, TZ)}
    )
    # The series' next time is its second day: its first day was skipped.
    skipped = daily.model_copy(update={"reminder_id": "r-3", "due_at": DUE + timedelta(days=1)})
    first, last = DUE.date(), DUE.date() + timedelta(days=6)
    found = on_days([once, daily, skipped], first, last, TZ)
    assert found["r-1"] == [DUE]
    assert found["r-2"] == [DUE + timedelta(days=n) for n in range(7)]
    assert found["r-3"] == [DUE + timedelta(days=n) for n in range(1, 7)]
    assert on_days([once], first + timedelta(days=1), last, TZ) == {}
    row = in_period(brief(daily), found["r-2"])
    assert row["when"] == DUE.isoformat() and row["times"] == "7"
    assert row["last"] == (DUE + timedelta(days=6)).isoformat()
    assert in_period(brief(once), found["r-1"]) == brief(once)  # a one-time reminder: its time
    assert "last" not in in_period(brief(daily), [DUE])


def test_a_series_is_counted_up_to_a_bound_and_kept_by_the_users_days() -> None:
    hourly = Reminder(
        reminder_id="r-1",
        thread_id=THREAD,
        title="water",
        due_at=DUE,
        timezone=TZ,
        created_at=NOW,
        recurrence=series("FREQ=HOURLY", DUE, TZ),
    )
    found = on_days([hourly], DUE.date(), DUE.date() + timedelta(days=60), TZ)["r-1"]
    assert len(found) == MOST_TIMES_COUNTED + 1
    assert in_period(brief(hourly), found)["times"] == f"{MOST_TIMES_COUNTED}+"
    # Set at 08:00 in Jerusalem, listed for a user now in New York: 02:00 there, the same day;
    # the day before in New York has none of it.
    away = "America/New_York"
    daily = hourly.model_copy(update={"recurrence": series("FREQ=DAILY", DUE, TZ)})
    there = on_days([daily], DUE.date(), DUE.date(), away)["r-1"]
    assert [t.astimezone(ZoneInfo(away)).hour for t in there] == [2]
    assert on_days([daily], DUE.date() - timedelta(days=1), DUE.date() - timedelta(days=1), away) == {}
