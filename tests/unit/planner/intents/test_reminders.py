"""Creating a reminder: the title, the time wherever it is said, and the questions a time problem asks."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.intents import reminders
from tests.unit.planner.conftest import NOW, pin


@pytest.mark.parametrize(
    ("message", "title", "when"),
    [
        ("in 20 minutes remind me to check the oven", "check the oven", "2024-05-01T10:20:00+03:00"),
        ("tomorrow at 8 remind me to call the school", "call the school", "2024-05-02T08:00:00+03:00"),
        ("בעוד 20 דקות תזכיר לי לכבות את הגז", "לכבות את הגז", "2024-05-01T10:20:00+03:00"),
    ],
)
def test_the_time_may_come_first(message: str, title: str, when: str) -> None:
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints == {"title": title, "when": when}


def test_create_asks_about_an_impossible_time_and_keeps_the_title() -> None:
    found = reminders.create(
        "remind me to call the bank at 25:00", pin("remind me to call the bank at 25:00")
    )
    assert found is not None
    assert found.constraints == {"title": "call the bank"}
    assert found.missing == ("time_invalid", "reminder_time_required")
    past = reminders.create("remind me yesterday to pay rent", pin("remind me yesterday to pay rent"))
    assert past is not None and past.missing == ("time_in_past", "reminder_time_required")


def test_create_carries_the_repetition() -> None:
    message = "remind me to take vitamins every day at 8am"
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints == {
        "title": "take vitamins",
        "recurrence": "FREQ=DAILY",
        "when": "2024-05-02T08:00:00+03:00",
    }


@pytest.mark.parametrize(
    ("message", "title", "when"),
    [
        ("ping me at 5:30 about the laundry", "the laundry", "2024-05-01T17:30:00+03:00"),
        ("nudge me tomorrow at 9 to water the plants", "water the plants", "2024-05-02T09:00:00+03:00"),
        ("buzz me in 20 minutes to check the oven", "check the oven", "2024-05-01T10:20:00+03:00"),
    ],
)
def test_other_words_for_remind_me(message: str, title: str, when: str) -> None:
    found = reminders.create(message, pin(message))
    assert found is not None and found.constraints == {"title": title, "when": when}


@pytest.mark.parametrize(
    ("message", "title", "rule", "when"),
    [
        ("daily reminder at 10pm to take pills", "take pills", "FREQ=DAILY", "2024-05-01T22:00:00+03:00"),
        ("set a weekly reminder on sunday at 9 to water plants", "water plants", "FREQ=WEEKLY;BYDAY=SU",
         "2024-05-05T09:00:00+03:00"),
        ("monthly reminder to pay rent on the 1st at 9am", "pay rent", "FREQ=MONTHLY;BYMONTHDAY=1",
         "2024-06-01T09:00:00+03:00"),
        ("תזכורת יומית ב-22 לקחת כדורים", "לקחת כדורים", "FREQ=DAILY", "2024-05-01T22:00:00+03:00"),
    ],
)  # fmt: skip
def test_the_repetition_said_before_the_word_reminder(message: str, title: str, rule: str, when: str) -> None:
    found = reminders.create(message, pin(message))
    assert found is not None and found.missing == ()
    assert found.constraints == {"title": title, "recurrence": rule, "when": when}


def test_the_first_of_every_month_in_hebrew_is_asked_its_time() -> None:
    message = "תזכיר לי בראשון לכל חודש לשלם ארנונה"
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints == {"title": "לשלם ארנונה", "recurrence": "FREQ=MONTHLY;BYMONTHDAY=1"}
    assert found.missing == ("reminder_time_required",)


@given(
    day=st.integers(1, 31),
    hyphen=st.booleans(),
    time=st.sampled_from([None, ("ב-18:00", 18, 0), ("בשעה 8:30", 8, 30), ("ב-7pm", 19, 0)]),
)
def test_hebrew_every_month_then_a_number_is_its_day(
    day: int, hyphen: bool, time: tuple[str, int, int] | None
) -> None:
    # "כל חודש ב-15" is the 15th of every month (it was 15:00 on today's day of the month).
    message = f"תזכיר לי כל חודש ב{'-' if hyphen else ''}{day}{f' {time[0]}' if time else ''} לשלם ארנונה"
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints["title"] == "לשלם ארנונה"
    assert found.constraints["recurrence"] == f"FREQ=MONTHLY;BYMONTHDAY={day}"
    if time is None:
        assert found.missing == ("reminder_time_required",)
        return
    first = datetime.fromisoformat(str(found.constraints["when"]))
    assert (first.day, first.hour, first.minute) == (day, time[1], time[2]) and found.missing == ()


@pytest.mark.parametrize(
    ("said", "hour"),
    [("ב-15:00", 15), ("ב-9 בבוקר", 9), ("ב-9 בערב", 21), ("ב-9pm", 21), ("בשעה 9", 9)],
)
def test_hebrew_every_month_then_a_clock_time_is_its_time(said: str, hour: int) -> None:
    message = f"תזכיר לי כל חודש {said} לשלם ארנונה"
    found = reminders.create(message, pin(message))
    assert found is not None and found.missing == ()
    assert found.constraints["recurrence"] == "FREQ=MONTHLY" and found.constraints["title"] == "לשלם ארנונה"
    assert datetime.fromisoformat(str(found.constraints["when"])).hour == hour


@pytest.mark.parametrize(
    ("message", "when"),
    [
        ("remind me in a few minutes to call the bank", "2024-05-01T10:03:00+03:00"),
        ("remind me in a few hours to call the bank", "2024-05-01T13:00:00+03:00"),
        ("remind me to call the bank in a few hours", "2024-05-01T13:00:00+03:00"),
    ],
)
def test_a_few_is_an_amount_before_a_unit(message: str, when: str) -> None:
    found = reminders.create(message, pin(message))
    assert found is not None and found.constraints == {"title": "call the bank", "when": when}


@pytest.mark.parametrize("vague", ["in a few", "in a sec", "in a second", "in a moment", "in a bit"])
def test_a_vague_time_asks_the_time_and_stays_out_of_the_title(vague: str) -> None:
    message = f"remind me {vague} to call the bank"
    found = reminders.create(message, pin(message))
    assert found is not None and found.constraints == {"title": "call the bank"}
    assert "reminder_time_required" in found.missing


def test_later_today_asks_the_time_of_today() -> None:
    message = "remind me to call the bank later today"
    found = reminders.create(message, pin(message))
    assert found is not None and found.constraints == {"title": "call the bank", "day": "2024-05-01"}
    assert found.missing == ("reminder_time_required",)


_OPENERS = [
    "don't forget to",
    "dont forget to",
    "please don't forget to",
    "do not forget to",
    "don't forget to remind me to",
    "remember to",
    "remember to remind me to",
    "i need to remember to",
    "i have to remember to",
]


@pytest.mark.parametrize("opener", _OPENERS)
@pytest.mark.parametrize(
    ("body", "title"), [("call bob tomorrow at 10", "call bob"), ("buy milk at 5pm", "buy milk")]
)
def test_said_to_memo_dont_forget_is_remind_me(opener: str, body: str, title: str) -> None:
    # "don't forget to buy milk tomorrow at 9" was a guess titled "don't forget to buy milk".
    text = f"{opener} {body}"
    found = reminders.create(text, pin(text))
    assert found is not None and found.constraints["title"] == title and found.confidence >= 0.9
    assert "when" in found.constraints


@pytest.mark.parametrize(
    "text", ["remember that the gate code is 1234", "don't forget the milk", "remember this: parking B2"]
)
def test_remember_that_is_no_reminder(text: str) -> None:
    assert reminders.create(text, pin(text)) is None


def test_hebrew_dont_forget_to_remind_me() -> None:
    text = "אל תשכח להזכיר לי לקנות חלב מחר ב-9"
    found = reminders.create(text, pin(text))
    assert found is not None and found.constraints["title"] == "לקנות חלב"


_END_OF_DAY = [
    "end of day",
    "eod",
    "by eod",
    "by end of day",
    "at the end of the day",
    "by the end of the workday",
]


@pytest.mark.parametrize("said", _END_OF_DAY)
@pytest.mark.parametrize("day", ["", "tomorrow ", "on friday "])
@pytest.mark.parametrize("task", ["send the report", "call dana", "submit timesheet"])
def test_the_end_of_the_day_is_asked_and_never_in_the_title(said: str, day: str, task: str) -> None:
    # "remind me eod to send report" was titled "eod to send report"; after a day, "end of day to ...".
    for message in (f"remind me {day}{said} to {task}", f"remind me to {task} {day}{said}"):
        match = reminders.create(message, pin(message))
        assert match is not None, message
        assert match.constraints.get("title") == task, message
        assert "when" not in match.constraints and "reminder_time_required" in match.missing, message
        assert ("day" in match.constraints) == bool(day), message


@pytest.mark.parametrize("said", ["בסוף היום", "עד סוף היום", "לקראת סוף היום"])
@pytest.mark.parametrize("day", ["", "מחר "])
def test_hebrew_the_end_of_the_day_is_asked(said: str, day: str) -> None:
    message = f"תזכיר לי {day}{said} לשלוח דוח"
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints.get("title") == "לשלוח דוח", message
    assert "when" not in match.constraints and ("day" in match.constraints) == bool(day), message


def test_the_end_of_the_day_inside_a_title_stays() -> None:
    match = reminders.create("remind me at 5 to read the end of the day chapter", pin("x"))
    assert match is not None and match.constraints["title"] == "read the end of the day chapter"


_MOMENTS = [
    "before bed",
    "right before bed",
    "before i go to sleep",
    "at bedtime",
    "after work",
    "after school",
    "when i get home",
    "when i get back",
    "when i wake up",
]


@pytest.mark.parametrize("said", _MOMENTS)
@pytest.mark.parametrize("day", ["", "tomorrow "])
@pytest.mark.parametrize("task", ["take my pills", "call grandma", "buy milk"])
def test_a_moment_of_the_day_is_asked_and_never_in_the_title(said: str, day: str, task: str) -> None:
    # "remind me before bed to take my pills" was titled "before bed to take my pills".
    for message in (f"remind me {day}{said} to {task}", f"remind me to {task} {said} {day}".strip()):
        match = reminders.create(message, pin(message))
        assert match is not None, message
        assert match.constraints.get("title") == task, message
        assert "when" not in match.constraints and "reminder_time_required" in match.missing, message
        assert ("day" in match.constraints) == bool(day), message


@pytest.mark.parametrize("said", _MOMENTS[:4])
def test_a_moment_of_the_day_with_a_time_said_keeps_the_time(said: str) -> None:
    message = f"remind me at 10pm {said} to take my pills"
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints["title"] == "take my pills"
    assert match.constraints["when"] == "2024-05-01T22:00:00+03:00"


@pytest.mark.parametrize(
    "said",
    ["לפני השינה", "לפני שאני הולך לישון", "אחרי העבודה", "כשאגיע הביתה", "כשאני חוזר הביתה", "כשאתעורר"],
)
@pytest.mark.parametrize("first", [True, False])
def test_hebrew_a_moment_of_the_day_is_asked(said: str, first: bool) -> None:
    message = f"תזכיר לי {said} לקחת כדורים" if first else f"תזכיר לי לקחת כדורים {said}"
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints.get("title") == "לקחת כדורים", message
    assert "when" not in match.constraints, message


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remind me at 5 to finish the after school project", "finish the after school project"),
        ("remind me at 9 to read before bed stories to the kids", "read before bed stories to the kids"),
    ],
)
def test_a_moment_inside_a_title_stays(message: str, title: str) -> None:
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints["title"] == title


@pytest.mark.parametrize(
    "message",
    [
        "make sure i remember to call mom at 5",
        "can you make sure i remember to call mom at 5",
        "tell me at 5 to call mom",
        "tell me in 10 minutes to call mom",
    ],
)
def test_more_ways_to_ask_for_a_reminder_keep_the_title_clean(message: str) -> None:
    # The title was "remember to call mom" / "tell me to call mom".
    from memo.planner.rules import RulePlanner

    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.action, step.constraints["title"]) == ("create", "call mom"), message


@pytest.mark.parametrize(
    "message", ["tell me my reminders", "tell me a joke", "tell me what i have tomorrow"]
)
def test_tell_me_without_a_time_and_a_task_is_no_reminder(message: str) -> None:
    assert reminders.create(message, pin(message)) is None


@pytest.mark.parametrize(
    "message",
    [
        "תדאג שאזכור להתקשר לאמא בחמש",
        "תדאגי שלא אשכח להתקשר לאמא בחמש",
        "תזכיר לי שאני צריך להתקשר לאמא בחמש",
        "תזכיר לי שאני חייבת להתקשר לאמא בחמש",
        "תרשום לי להתקשר לאמא היום בחמש",
        "תגיד לי היום בחמש להתקשר לאמא",
    ],
)
def test_hebrew_more_ways_to_ask_keep_the_title_clean(message: str) -> None:
    # The title held "תדאג שאזכור", "אני צריך", "תרשום לי", "תגיד לי".
    from memo.planner.rules import RulePlanner

    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.action, step.constraints["title"]) == ("create", "להתקשר לאמא"), message
    assert step.constraints["when"] == NOW.replace(hour=17).isoformat(), message


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remind me that i need to call mom at 5", "call mom"),
        ("remind me i have to pick up the kids at 4", "pick up the kids"),
        ("remind me i gotta pay rent at 5", "pay rent"),
        ("remind me to tell my boss i need to leave early at 5", "tell my boss i need to leave early"),
    ],
)
def test_the_need_is_no_part_of_the_task(message: str, title: str) -> None:
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints["title"] == title, message


def test_write_down_without_a_time_is_no_reminder() -> None:
    assert reminders.create("תרשום לי לקנות חלב", pin("תרשום לי לקנות חלב")) is None


@pytest.mark.parametrize("day", [("tomorrow", 1), ("tmrw", 1), ("on friday", 2), ("מחר", 1)])
@pytest.mark.parametrize("hour", [9, 10, 11])
def test_a_bare_hour_right_after_its_day_is_its_time(day: tuple[str, int], hour: int) -> None:
    # "remind me tomorrow 9 to call mom" was titled "9 to call mom", and its time asked.
    said, days = day
    message = (
        f"תזכיר לי {said} {hour} להתקשר לאמא" if said == "מחר" else f"remind me {said} {hour} to call mom"
    )
    match = reminders.create(message, pin(message))
    assert match is not None and match.constraints["title"] in ("call mom", "להתקשר לאמא"), message
    on = NOW.replace(hour=hour) + timedelta(days=days)
    assert match.constraints["when"] == on.isoformat(), message


def test_a_count_after_a_day_is_no_hour() -> None:
    match = reminders.create("remind me tomorrow 2 eggs", pin("remind me tomorrow 2 eggs"))
    assert match is not None and "when" not in match.constraints


@pytest.mark.parametrize(
    "message", ["remind me tomorrow 1", "remind me to call mom tomorrow 9", "תזכיר לי מחר 1"]
)
def test_a_bare_number_at_the_end_after_a_day_is_no_hour(message: str) -> None:
    # "remind me tomorrow" -> "1" (meant for another question) must set no time.
    match = reminders.create(message, pin(message))
    assert match is None or "when" not in match.constraints, message
