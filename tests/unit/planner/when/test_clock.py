"""Times of day: clock times, hour words, parts of the day, and which half of the day an hour is."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from memo.planner.lexicon import clean
from memo.planner.rules import RulePlanner
from memo.planner.timeparse import extract_when
from memo.planner.when.clock import (
    SaidTime,
    in_its_half,
    part_default,
    take_invalid_time,
    take_part,
    take_time,
)
from memo.planner.when.scan import Scan
from tests.unit.planner.conftest import pin


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("call at 5pm", SaidTime(17, 0, True, False)),
        ("call at noon", SaidTime(12, 0, True, False)),
        ("call at 17:30", SaidTime(17, 30, True, True)),
        ("call at 8.30", SaidTime(8, 30, False, True)),
        ("call at half past six", SaidTime(6, 30, False, False)),
        ("call at a quarter to 5", SaidTime(4, 45, False, False)),
        ("call at five", SaidTime(5, 0, False, False)),
        ("להתקשר ב-5 וחצי", SaidTime(5, 30, False, False)),
        ("להתקשר רבע לשבע", SaidTime(6, 45, False, False)),
        ("להתקשר בשעה 17", SaidTime(17, 0, True, False)),
    ],
)
def test_a_time_of_day_is_read_and_taken_out(text: str, said: SaidTime) -> None:
    scan = Scan(text)
    assert take_time(scan) == said
    assert scan.fragments


def test_no_time_of_day() -> None:
    assert take_time(Scan("buy 2 tickets")) is None


def test_an_hour_is_put_in_the_half_of_the_day_its_words_say() -> None:
    bare = SaidTime(5, 0, False, False)
    assert in_its_half(bare, part=None, text="call dad") == 17  # 1 to 6: the afternoon
    assert in_its_half(SaidTime(5, 30, False, True), part=None, text="") == 17  # "5:30" too
    assert in_its_half(SaidTime(7, 30, False, True), part=None, text="") == 7  # its day decides
    assert in_its_half(SaidTime(8, 0, False, False), part=None, text="dinner") == 20
    assert in_its_half(SaidTime(8, 30, False, True), part=None, text="dinner") == 20
    assert in_its_half(SaidTime(8, 0, False, False), part="morning", text="") == 8
    assert in_its_half(SaidTime(5, 0, True, False), part="evening", text="") == 5  # am said
    assert in_its_half(SaidTime(5, 0, True, True), part=None, text="") == 5  # "05:00"


def test_parts_of_the_day_and_their_default_hours() -> None:
    scan = Scan("run 8 in the evening")
    found = take_part(scan, day_known=False)
    assert found is not None and found.part == "evening" and found.bare_hour is not None
    assert part_default("morning") == 9 and part_default("tonight") == 20
    assert take_part(Scan("good morning"), day_known=False) is None  # a bare "morning" needs a day


def test_a_time_that_does_not_exist_is_taken_out() -> None:
    scan = Scan("call the bank at 25:00")
    assert take_invalid_time(scan)
    assert scan.text.strip() == "call the bank"


# A clock time written without a colon: every minute of the day, in every form it is written.
COMPACT_FORMS = [
    "run at {hh}{mm}",
    "run by {hh}{mm}",
    "run @{hh}{mm}",
    "run at {hh}{mm} hours",
    "run {hh}{mm}hrs",
    "לרוץ ב-{hh}{mm}",
    "לרוץ בשעה {hh}{mm}",
]
_BEFORE_DAWN = datetime(2031, 6, 11, 0, 0, tzinfo=ZoneInfo("Asia/Jerusalem"))


@pytest.mark.parametrize("form", COMPACT_FORMS)
def test_every_minute_of_the_day_written_without_a_colon_is_that_time(form: str) -> None:
    for hour in range(24):
        for minute in range(60):
            text = form.format(hh=f"{hour:02d}", mm=f"{minute:02d}")
            language = "he" if "ב" in form else "en"
            parsed = extract_when(text, now=_BEFORE_DAWN, timezone="Asia/Jerusalem", language=language)
            assert parsed.when is not None and parsed.problem is None, text
            expected = _BEFORE_DAWN.replace(hour=hour, minute=minute)
            if expected <= _BEFORE_DAWN:
                expected += timedelta(days=1)
            assert parsed.when == expected, text
            assert clean(parsed.remainder) in ("run", "לרוץ"), text


@given(hour=st.integers(0, 99), minute=st.integers(0, 99))
def test_four_digits_no_clock_shows_are_asked_never_set(hour: int, minute: int) -> None:
    assume(hour > 23 or minute > 59)
    for text in (f"run at {hour:02d}{minute:02d}", f"לרוץ ב-{hour:02d}{minute:02d}"):
        parsed = extract_when(text, now=_BEFORE_DAWN, timezone="Asia/Jerusalem", language="en")
        assert parsed.when is None and parsed.problem == "invalid_time", text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("run at 730", SaidTime(7, 30, False, True)),
        ("run at 7h30", SaidTime(7, 30, False, True)),
        ("run at 19h", SaidTime(19, 0, True, True)),
        ("run at 730pm", SaidTime(19, 30, True, False)),
        ("run at 1130 am", SaidTime(11, 30, True, False)),
        ("run @0900", SaidTime(9, 0, True, True)),
    ],
)
def test_compact_and_european_clock_times(text: str, said: SaidTime) -> None:
    assert take_time(Scan(text)) == said


@pytest.mark.parametrize(
    "text",
    [
        "pay 1500 shekels",  # an amount: no word before it says a time
        "in 2030",  # a year
        "the 2030 plan",
        "in 2h30",  # an amount of time (`offsets`), never a clock
        "buy 730 grams",
    ],
)
def test_four_digits_without_a_time_word_are_no_time(text: str) -> None:
    assert take_time(Scan(text)) is None


@pytest.mark.parametrize("text", ["pay at 1500 shekels", "transfer by 2000 dollars", "לשלם ב-1500 שקל"])
def test_an_amount_after_a_time_word_is_no_time(text: str) -> None:
    assert take_time(Scan(text)) is None
    assert not take_invalid_time(Scan(text))


@pytest.mark.parametrize(
    "qualifier", ["ish", "-ish", " sharp", " o'clock", " oclock", " o clock", " on the dot"]
)
@pytest.mark.parametrize("lead", ["at", "around", "by"])
def test_how_exact_a_time_is_goes_with_it_not_into_the_title(qualifier: str, lead: str) -> None:
    for hour in range(1, 13):
        scan = Scan(f"leave {lead} {hour}{qualifier}")
        said = take_time(scan)
        assert said is not None and (said.hour, said.minute) == (hour, 0), (hour, qualifier)
        assert clean(scan.text) == "leave", (hour, qualifier)
    scan = Scan("לצאת ב-6 בדיוק")
    assert take_time(scan) == SaidTime(6, 0, False, False) and clean(scan.text) == "לצאת"


TZ = ZoneInfo("Asia/Jerusalem")
NOON_MINUTES = {
    "five": 5,
    "ten": 10,
    "a quarter": 15,
    "quarter": 15,
    "twenty": 20,
    "twenty-five": 25,
    "half": 30,
}


@pytest.mark.parametrize("word", ["noon", "midday", "midnight"])
@pytest.mark.parametrize(
    ("minutes", "relation"),
    # ("half to noon" is no time anyone says)
    [(m, r) for m in sorted(NOON_MINUTES) for r in ("past", "after", "to") if (m, r) != ("half", "to")],
)
def test_minutes_past_or_to_noon_and_midnight(word: str, minutes: str, relation: str) -> None:
    # "half past noon" was noon, and "at half past" went into the title.
    n = NOON_MINUTES[minutes]
    now = datetime(2026, 11, 29, 8, 0, tzinfo=TZ)
    parsed = extract_when(
        f"remind me at {minutes} {relation} {word} tomorrow to eat", now=now, timezone=str(TZ)
    )
    assert parsed.when is not None and clean(parsed.remainder) == "remind me to eat"
    tomorrow = now.date() + timedelta(days=1)
    if word == "midnight":
        # midnight ends the day it is said with: "ten past" is just after it, "ten to" just before
        end = datetime.combine(tomorrow + timedelta(days=1), datetime.min.time(), tzinfo=TZ)
        expected = end - timedelta(minutes=n) if relation == "to" else end + timedelta(minutes=n)
    else:
        noon = datetime.combine(tomorrow, datetime.min.time(), tzinfo=TZ) + timedelta(hours=12)
        expected = noon - timedelta(minutes=n) if relation == "to" else noon + timedelta(minutes=n)
    assert parsed.when == expected


@pytest.mark.parametrize("exact", ["sharp", "on the dot"])
@pytest.mark.parametrize("half", ["am", "pm", "a.m.", "p.m.", " am", " pm", " a.m.", " p.m."])
def test_how_exact_a_time_is_goes_with_it_after_am_or_pm(half: str, exact: str) -> None:
    for hour in range(1, 13):
        for minute in (0, 5, 30, 59):
            clock_said = f"{hour}:{minute:02d}" if minute else str(hour)
            text = f"run at {clock_said}{half} {exact} tomorrow"
            parsed = extract_when(text, now=_BEFORE_DAWN, timezone="Asia/Jerusalem", language="en")
            expected_hour = hour % 12 + (12 if "p" in half else 0)
            expected = (_BEFORE_DAWN + timedelta(days=1)).replace(hour=expected_hour, minute=minute)
            assert parsed.when == expected, text
            assert clean(parsed.remainder) == "run", text


@pytest.mark.parametrize(
    "text",
    [
        "call mom after lunch",
        "call mom right after lunch",
        "להתקשר לאמא אחרי ארוחת צהריים",
        "להתקשר לאמא מיד אחרי ארוחת הצהריים",
    ],
)
def test_after_lunch_is_one_in_the_afternoon(text: str) -> None:
    language = "he" if "ל" in text else "en"
    parsed = extract_when(
        f"{text} tomorrow" if language == "en" else f"{text} מחר",
        now=_BEFORE_DAWN,
        timezone="Asia/Jerusalem",
        language=language,
    )
    assert parsed.when == (_BEFORE_DAWN + timedelta(days=1)).replace(hour=13)
    assert clean(parsed.remainder) in ("call mom", "להתקשר לאמא")


@pytest.mark.parametrize("said", ["at lunch", "during lunch", "at lunchtime", "around lunch", "over lunch"])
def test_at_lunch_is_noon(said: str) -> None:
    # "remind me at lunch to eat" asked the time, with "at lunch" in the title.
    parsed = extract_when(f"eat {said} tomorrow", now=_BEFORE_DAWN, timezone="Asia/Jerusalem", language="en")
    assert parsed.when == (_BEFORE_DAWN + timedelta(days=1)).replace(hour=12)
    assert clean(parsed.remainder) == "eat"


def test_lunch_alone_names_no_time() -> None:
    parsed = extract_when("have lunch with mom", now=_BEFORE_DAWN, timezone="Asia/Jerusalem", language="en")
    assert parsed.when is None and clean(parsed.remainder) == "have lunch with mom"


_HE_AFTERNOONS = ['אחה"צ', "אחה״צ", "אחהצ", "אחה'צ", "אחה׳צ", "אחר הצהריים", "אחרי הצהריים", "אחר הצהרים"]


@pytest.mark.parametrize("afternoon", _HE_AFTERNOONS)
@pytest.mark.parametrize("hour", range(1, 12))
def test_the_afternoon_as_people_type_it_is_the_afternoon_and_no_title(afternoon: str, hour: int) -> None:
    # "ב-4 אחהצ" was 16:00 titled "אחהצ לקנות חלב"; "ב-9 אחרי הצהריים" was 09:00.
    parsed = extract_when(
        f"מחר ב-{hour} {afternoon} לקנות חלב",
        now=datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo("Asia/Jerusalem")),
        timezone="Asia/Jerusalem",
        language="he",
    )
    assert parsed.when is not None and (parsed.when.day, parsed.when.hour) == (2, hour + 12)
    assert parsed.remainder == "לקנות חלב"


@pytest.mark.parametrize(
    ("said", "minutes"), [("quarter", 15), ("a quarter", 15), ("10", 10), ("twenty", 20), ("five", 5)]
)
@pytest.mark.parametrize("ampm", ["12am", "12 am", "12 a.m.", "midnight"])
def test_minutes_to_12am_are_before_midnight_and_leave_no_words(said: str, minutes: int, ampm: str) -> None:
    # "quarter to 12am" was 00:00 with "at quarter to" left in the title.
    message = f"remind me at {said} to {ampm} to sleep"
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert step.constraints["title"] == "sleep", message
    assert str(step.constraints["when"]).endswith(f"T23:{60 - minutes:02d}:00+03:00"), message
