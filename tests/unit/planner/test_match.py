"""The helpers matchers share: moving a time by an amount (the minutes and their direction, or
nothing when either is unsaid), and "it"/"that" targets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from memo.capabilities.reminder_args import UpdateReminderArgs
from memo.planner.match import CONFIDENT, REFERENTIAL, is_ref, shift_of, target_constraints, unsigned_shift
from tests.unit.planner.conftest import latest, pin


@pytest.mark.parametrize(
    ("verb", "rest", "expected"),
    [
        ("push", "it by an hour", (60, "it")),
        ("move", "it 30 minutes earlier", (-30, "it")),
        ("delay", "call mom by half an hour", (30, "call mom")),
        ("push", "it back 2 hours", (120, "it")),
        ("bring", "it forward by an hour", (-60, "it")),
        ("move", "the dentist 15 min later", (15, "the dentist")),
        ("postpone", "it a day", (1440, "it")),
        ("תדחה", "את זה בשעה", (60, "את זה")),
        ("תדחה", "את זה בחצי שעה", (30, "את זה")),
        ("תקדים", "את זה ב-10 דקות", (-10, "את זה")),
        ("תדחה", "את הפגישה ביומיים", (2880, "את הפגישה")),
        ("תדחה", "את התזכורת ברבע שעה", (15, "את התזכורת")),
        ("תדחה", "את זה בשלושה רבעי שעה", (45, "את זה")),
        ("תדחה", "את זה בשעה וחצי", (90, "את זה")),
    ],
)
def test_an_amount_and_a_direction(verb: str, rest: str, expected: tuple[int, str]) -> None:
    assert shift_of(verb, rest) == expected


@pytest.mark.parametrize(
    ("verb", "rest"),
    [
        ("move", "it an hour"),  # earlier or later?
        ("move", "it forward an hour"),  # "forward" is read both ways
        ("push", "it to 5pm"),  # a time, not an amount
        ("תדחה", "את זה בשעה 5"),  # "at 5 o'clock", not "by an hour"
        ("push", "it by 9 days"),  # over a week: not a nudge
    ],
)
def test_no_amount_or_no_direction_is_no_shift(verb: str, rest: str) -> None:
    assert shift_of(verb, rest) is None


def test_a_shift_moves_the_reminders_own_time_and_nothing_else() -> None:
    assert UpdateReminderArgs(reminder_ids=["r1"], shift_minutes=-30).shift_minutes == -30
    with pytest.raises(ValidationError, match="a shift moves the reminder's own time"):
        UpdateReminderArgs(reminder_ids=["r1"], shift_minutes=60, time="10:00")
    with pytest.raises(ValidationError, match="a shift of no time changes nothing"):
        UpdateReminderArgs(reminder_ids=["r1"], shift_minutes=0)


def test_it_and_that_point_back() -> None:
    assert is_ref("it") and is_ref("את זה") and is_ref("the last one") and is_ref("")
    assert not is_ref("call mom")


def test_target_constraints_name_the_target_or_the_latest_action() -> None:
    assert target_constraints("call mom", pin("x"), "reminders") == ({"target": "call mom"}, (), CONFIDENT)
    found = target_constraints("it", pin("x", actions=(latest(),)), "reminders")
    assert found == ({"targetRef": "latest_action", "target": "call mom"}, (), REFERENTIAL)
    assert target_constraints("it", pin("x"), "reminders") == ({}, ("target_unclear",), CONFIDENT)


@pytest.mark.parametrize("verb", ["move", "push", "bring", "change", "תעביר", "תזיז", "תדחה"])
@pytest.mark.parametrize(
    "said",
    [
        "it to the day after",
        "it to the next day",
        "it to the following day",
        "את זה ליום שאחרי",
        "את זה למחרת",
    ],
)
def test_the_day_after_is_a_day_later_whatever_the_verb(verb: str, said: str) -> None:
    assert shift_of(verb, said) == (24 * 60, said.split()[0] if said.startswith("it") else "את זה")


_UNITS_EN = {"minutes": 1, "hours": 60, "days": 24 * 60}


@given(
    n=st.integers(min_value=1, max_value=99),
    unit=st.sampled_from(sorted(_UNITS_EN)),
    verb=st.sampled_from(["move", "shift", "change", "reschedule"]),
    direction=st.sampled_from(["", " later", " earlier", " forward"]),
)
def test_an_amount_with_no_direction_is_asked_which_way(n: int, unit: str, verb: str, direction: str) -> None:
    # "move it 2 hours": earlier or later is asked (`unsigned_shift`), never guessed (`shift_of`).
    rest = f"it {n} {unit}{direction}"
    minutes = n * _UNITS_EN[unit]
    if minutes > 7 * 24 * 60:
        assert shift_of(verb, rest) is None and unsigned_shift(verb, rest) is None
    elif direction in ("", " forward"):
        assert shift_of(verb, rest) is None
        assert unsigned_shift(verb, rest) == (minutes, "it")
    else:
        assert unsigned_shift(verb, rest) is None
        assert shift_of(verb, rest) == (minutes if direction == " later" else -minutes, "it")


@pytest.mark.parametrize(
    ("verb", "rest", "minutes"),
    [("תזיז", "את זה בשעה", 60), ("תזיז", "את זה בחצי שעה", 30), ("move", "the dentist an hour", 60)],
)
def test_unsigned_shifts_in_hebrew_and_of_a_named_reminder(verb: str, rest: str, minutes: int) -> None:
    found = unsigned_shift(verb, rest)
    assert found is not None and found[0] == minutes


@pytest.mark.parametrize(
    ("verb", "rest"),
    [("push", "it an hour"), ("bring", "it forward 30 minutes"), ("move", "it to the day after")],
)
def test_a_verb_or_word_that_says_the_way_is_no_unsigned_shift(verb: str, rest: str) -> None:
    assert unsigned_shift(verb, rest) is None
