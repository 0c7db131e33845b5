"""A repetition within the hours of a day: "every hour from 9 to 5", "every 2 hours between 10am and
6pm", "כל שעה בין 9 ל-5". Generated over the hours, how they are said (am/pm, the 24-hour clock,
bare working hours), the words around them and the step; the rule keeps exactly the times from the
first to the last, and nothing at night."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text.recurrence import find_recurrence
from memo.text.recurrence_units import Window, find_window, unit_freq
from memo.text.series import parse_series, series
from memo.text.series_words import describe

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZONE)  # Wednesday


def _said(hour: int, form: str) -> str:
    """An hour of the day as people write it: "5pm", "5 pm", "17:00", "17", or bare "5"."""
    twelve = hour % 12 or 12
    half = "pm" if hour >= 12 else "am"
    return {
        "ampm": f"{twelve}{half}",
        "spaced": f"{twelve} {half.upper()}",
        "clock": f"{hour:02d}:00",
        "bare24": str(hour),
        "bare": str(twelve),
    }[form]


def _times(rule: str) -> list[time]:
    """The times of one day of a rule."""
    text = series(rule, datetime(2024, 5, 6, 0, 0, tzinfo=ZONE), TZ)  # a Monday
    assert text is not None
    day = parse_series(text)
    first = next(iter(day))
    return [t.time() for t in day.between(first.replace(hour=0), first.replace(hour=23, minute=59), inc=True)]


_EN_FORMS = ["between {a} and {b}", "from {a} to {b}", "from {a} until {b}", "from {a}-{b}"]
_HE_FORMS = ["בין {a} ל-{b}", "בין השעות {a} ל{b}", "מ-{a} עד {b}", "משעה {a} עד השעה {b}"]


@given(
    start=st.integers(7, 12),
    length=st.integers(2, 11),
    every=st.integers(1, 4),
    form=st.sampled_from(_EN_FORMS + _HE_FORMS),
    written=st.sampled_from(["ampm", "spaced", "clock", "bare24"]),
)
def test_every_n_hours_within_a_window_keeps_exactly_its_hours(
    start: int, length: int, every: int, form: str, written: str
) -> None:
    end = min(start + length, 23)
    hebrew = form[0] > "z"
    if hebrew and written in ("ampm", "spaced"):
        written = "clock"
    window = form.format(a=_said(start, written), b=_said(end, written))
    unit = ("כל שעה" if every == 1 else f"כל {every} שעות") if hebrew else f"every {every} hours"
    text = f"לשתות מים {unit} {window}" if hebrew else f"drink water {unit} {window}"
    found = find_recurrence(text, timezone=TZ, now_local=NOW, language="he" if hebrew else "en")
    assert found is not None
    assert _times(found.recurrence.rule) == [time(h) for h in range(start, end + 1, every)]
    left = text
    for a, b in found.spans:
        left = left[:a] + " " * (b - a) + left[b:]
    assert " ".join(left.split()) == ("לשתות מים" if hebrew else "drink water")


@pytest.mark.parametrize(
    ("said", "first", "last"),
    [
        ("from 9 to 5", 9, 17),  # working hours: the end before the start is its afternoon
        ("between 10 and 2", 10, 14),
        ("from 8 to 8", 8, 20),
        ("from 1 to 5", 13, 17),  # 1 to 6 are afternoon hours
        ("between 7 and 11", 7, 11),
        ("from 9am to 12", 9, 12),
        ("from noon to 6", 12, 18),
        ("בין 9 ל-5", 9, 17),
        ("בין 8 בבוקר ל-8 בערב", 8, 20),
        ("מ-9 עד 17", 9, 17),
    ],
)
def test_hours_said_without_am_or_pm_read_as_working_hours(said: str, first: int, last: int) -> None:
    found = find_window(f"every hour {said}", "HOURLY", 1)
    assert found is not None and found[0] == Window(time(first), time(last))


@pytest.mark.parametrize("said", ["between 25 and 26", "between 9 and 9am", "from 10pm to 10pm"])
def test_hours_that_do_not_exist_or_no_stretch_are_no_window(said: str) -> None:
    assert find_window(f"every hour {said}", "HOURLY", 1) is None


@pytest.mark.parametrize("start", range(13, 24))
@pytest.mark.parametrize("end", range(0, 9))
@pytest.mark.parametrize("form", ["from {a} to {b}", "between {a} and {b}", "מ-{a} עד {b}"])
def test_hours_over_midnight_keep_their_stretch(start: int, end: int, form: str) -> None:
    # "every hour from 10pm to 2am" was every hour of the day, titled "check the baby from to 2am".
    said = form.format(a=f"{start}:00", b=f"{end}:00")
    found = find_recurrence(f"check the baby every hour {said}", timezone=TZ, now_local=NOW)
    assert found is not None
    expected = [time(h % 24) for h in range(start, end + 25)]
    assert sorted(_times(found.recurrence.rule)) == sorted(expected)
    text = series(found.recurrence.rule, NOW, TZ)
    assert text is not None and describe(text, "en") == f"every hour from {start:02d}:00 to {end:02d}:00"


@pytest.mark.parametrize(
    ("said", "minutes"), [("from 9 to 5", 7), ("from 9 to 5", 45), ("from 9:30 to 5", 30)]
)
def test_minutes_one_cron_cannot_say_within_hours_are_no_window(said: str, minutes: int) -> None:
    # Every 7 or 45 minutes does not divide the hour; from a half hour the minutes are not each hour's.
    assert find_window(f"every {minutes} minutes {said}", "MINUTELY", minutes) is None
    assert find_window(f"every 30 minutes {said}", "MINUTELY", 30) is not None or ":" in said


@pytest.mark.parametrize("minutes", [5, 10, 15, 20, 30])
def test_every_few_minutes_within_hours_fills_each_hour_before_the_end(minutes: int) -> None:
    found = find_recurrence(f"stand up every {minutes} minutes from 9 to 5", timezone=TZ, now_local=NOW)
    assert found is not None
    times = _times(found.recurrence.rule)
    assert times[0] == time(9) and times[-1] == time(16, 60 - minutes)
    assert len(times) == 8 * 60 // minutes


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("every hour between 9 and 5 on weekdays", "BYDAY=MO,TU,WE,TH,SU"),
        ("on mondays and wednesdays every 2 hours from 10am to 6pm", "BYDAY=MO,WE"),
        ("כל שעה בין 9 ל-5 בימי חול", "BYDAY=MO,TU,WE,TH,SU"),
    ],
)
def test_the_days_said_beside_it_are_its_days(text: str, days: str) -> None:
    found = find_recurrence(text, timezone=TZ, now_local=NOW, language="he" if text[0] > "z" else "en")
    assert found is not None
    rule = found.recurrence.rule
    assert rule.startswith("FREQ=WEEKLY;") and days in rule and "BYHOUR=" in rule


def test_a_repetition_without_a_window_is_as_before() -> None:
    found = find_recurrence("drink water every 3 hours until 8pm", timezone=TZ, now_local=NOW)
    assert found is not None and found.recurrence.rule == "FREQ=HOURLY;INTERVAL=3;UNTIL=20240501T200000"
    assert unit_freq("hours") == "HOURLY" and unit_freq("דקות") == "MINUTELY"
