"""Repeating reminders in entity resolution: "this one or the whole series?", and a skip's days."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from memo.capabilities.items import Reminder
from memo.resolution.recurring import coming_within, next_times, one_time, scope_question, with_scope
from memo.text.series import occurrences_on, series
from tests.unit.resolution.helpers import NOW, THREAD, step

TZ = "Asia/Jerusalem"
DUE = datetime(2026, 3, 11, 8, 0, tzinfo=ZoneInfo(TZ))
GYM = Reminder(
    reminder_id="r-gym",
    thread_id=THREAD,
    title="gym",
    due_at=DUE,
    timezone=TZ,
    created_at=NOW,
    recurrence=series("FREQ=DAILY", DUE, TZ),
)


def test_a_named_scope_travels_in_the_ids() -> None:
    assert with_scope({"scope": "series", "when": "x"}, ["r-gym"]) == ({"when": "x"}, ["r-gym~series"])
    assert with_scope({"title": "run"}, ["r-gym"]) == ({"title": "run"}, ["r-gym"])


def test_a_repeating_reminder_deleted_without_a_scope_asks_which_part() -> None:
    asked = scope_question(
        step("s1", "reminders", "delete"), {}, ["r-gym"], lambda: [GYM], language="en", timezone=TZ
    )
    assert asked is not None
    assert [c.id for c in asked] == ["r-gym~occurrence", "r-gym~series"]
    assert asked[1].description == "gym — every day at 08:00"


def test_nothing_is_asked_for_a_rename_or_a_named_scope_and_nothing_is_read() -> None:
    def unread() -> list[Reminder]:
        raise AssertionError("the reminders are read only when the question may be needed")

    rename = step("s1", "reminders", "update")
    assert scope_question(rename, {"title": "run"}, ["r-gym"], unread, language="en", timezone=TZ) is None
    delete = step("s1", "reminders", "delete")
    assert scope_question(delete, {"scope": "series"}, ["r-gym"], unread, language="en", timezone=TZ) is None


def test_a_skip_keeps_the_reminders_that_come_on_the_days_named() -> None:
    kept, said = coming_within(
        ["r-gym"], {"from": "2026-03-11", "until": "2026-03-12"}, lambda: [GYM], language="en", timezone=TZ
    )
    assert (kept, said) == (["r-gym"], None)
    # A later week: the series comes then too (it was refused: only the next time was skippable).
    kept, said = coming_within(
        ["r-gym"], {"from": "2026-03-16", "until": "2026-03-23"}, lambda: [GYM], language="en", timezone=TZ
    )
    assert (kept, said) == (["r-gym"], None)
    weekly = GYM.model_copy(update={"recurrence": series("FREQ=WEEKLY;BYDAY=WE", DUE, TZ)})
    kept, said = coming_within(
        ["r-gym"], {"from": "2026-03-12", "until": "2026-03-18"}, lambda: [weekly], language="en", timezone=TZ
    )
    assert kept == [] and said == (
        "“gym” doesn't come then, so there's nothing to skip: its next time is Wed 11 Mar, 08:00."
    )
    kept, said = coming_within(
        ["r-gone"],
        {"from": "2026-03-12", "until": "2026-03-18"},
        lambda: [weekly],
        language="he",
        timezone=TZ,
    )
    assert kept == [] and said == "לא מצאתי את זה יותר."


def test_a_one_time_reminder_carries_no_part_and_is_said_as_not_then() -> None:
    once = GYM.model_copy(update={"reminder_id": "r-once", "title": "dentist", "recurrence": None})
    assert one_time(lambda: [GYM, once], ["r-gym", "r-once"]) == frozenset({"r-once"})
    assert with_scope({"scope": "occurrence"}, ["r-gym", "r-once"], frozenset({"r-once"})) == (
        {},
        ["r-gym~occurrence", "r-once"],
    )
    kept, said = coming_within(
        ["r-once"], {"from": "2026-03-12", "until": "2026-03-13"}, lambda: [once], language="en", timezone=TZ
    )
    assert (
        kept == [] and said == "“dentist” is on Wed 11 Mar, 08:00, not then, so I haven't deleted anything."
    )


@pytest.mark.parametrize(
    "rule", ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=DAILY;INTERVAL=3"]
)
@pytest.mark.parametrize("times", range(2, 10))
def test_the_next_few_times_are_the_days_from_the_first_to_the_last(rule: str, times: int) -> None:
    # "skip the next two vitamins": the days those times come on, and no day of another time.
    text = series(rule, DUE, TZ)
    assert text is not None
    gym = GYM.model_copy(update={"recurrence": text})
    days, said = next_times([gym.reminder_id], times, lambda: [gym], language="en", timezone=TZ)
    assert days is not None and not said
    first, until = date.fromisoformat(days["from"]), date.fromisoformat(days["until"])
    upcoming = occurrences_on(text, TZ, DUE, DUE.date(), date.max, limit=times + 1)
    inside = [t for t in upcoming if first <= t.date() < until]
    assert inside == upcoming[:times]


@pytest.mark.parametrize("rule", ["FREQ=HOURLY;INTERVAL=2", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0"])
def test_a_series_that_comes_several_times_a_day_is_not_skipped_by_a_number(rule: str) -> None:
    text = series(rule, DUE, TZ)
    assert text is not None
    often = GYM.model_copy(update={"recurrence": text})
    days, said = next_times([often.reminder_id], 2, lambda: [often], language="en", timezone=TZ)
    assert days is None and "more than once a day" in said
    once = GYM.model_copy(update={"recurrence": None})
    assert next_times([once.reminder_id], 2, lambda: [once], language="he", timezone=TZ)[0] is None
