"""Changing a reminder: its title, its time, and which part of a repeating one."""

from __future__ import annotations

import pytest

from memo.domain import LatestAction
from memo.planner.intents import reminder_changes
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin


def test_rename_names_the_old_title_and_the_new_one() -> None:
    found = reminder_changes.rename("rename the call mom reminder to call dad", pin("x"))
    assert found is not None and found.action == "update"
    assert found.changes == {"title": "call dad"}


def test_a_time_alone_keeps_the_reminders_day() -> None:
    found = reminder_changes.move("move the call mom reminder to 6pm", pin("x"))
    assert found is not None
    assert found.changes == {"time": "18:00"}
    assert found.pattern == "reminders:update"


def test_moving_a_thing_in_time_without_saying_reminder() -> None:
    found = reminder_changes.move_named("push the dentist by an hour", pin("x"))
    assert found is not None and found.changes == {"shiftMinutes": 60}
    assert reminder_changes.move_named("move it to 6pm", pin("x")) is None  # "it": a follow-up


def test_scope_words() -> None:
    assert reminder_changes.scope_of("just this one") == {"scope": "occurrence"}
    assert reminder_changes.scope_of("את כל הסדרה") == {"scope": "series"}
    assert reminder_changes.scope_of("call mom") == {}
    assert reminder_changes.strip_scope("vitamins just this one") == "vitamins"


def test_snooze_moves_the_latest_reminder_by_the_amount_said() -> None:
    just_set = (latest(),)
    for message, minutes in (
        ("snooze that for 10 min", 10),
        ("snooze it in 5 mins", 5),
        ("snooze for 20 minutes", 20),
        ("snooze it", 10),  # no amount: the first snooze button's 10 minutes
        ("נודניק ל-10 דקות", 10),
    ):
        found = reminder_changes.snooze(message, pin(message, actions=just_set))
        assert found is not None, message
        assert (found.action, found.changes) == ("update", {"shiftMinutes": minutes}), message
        assert found.constraints == {"targetRef": "latest_action", "target": "call mom"}, message


def test_snooze_a_named_reminder_and_nothing_else() -> None:
    found = reminder_changes.snooze("snooze the dentist reminder by an hour", pin("x"))
    assert found is not None and (found.constraints, found.changes) == (
        {"target": "dentist"},
        {"shiftMinutes": 60},
    )
    he = reminder_changes.snooze("נודניק לתזכורת של הרופא לעשר דקות", pin("x"))
    assert he is not None and (he.constraints, he.changes) == ({"target": "הרופא"}, {"shiftMinutes": 10})
    assert reminder_changes.snooze("snooze button is broken", pin("x")) is None
    alone = reminder_changes.snooze("snooze it", pin("x"))  # no reminder set: which one is asked
    assert alone is not None and alone.missing == ("target_unclear",)


def test_an_amount_said_in_hebrew_words_is_a_shift_not_an_hour() -> None:
    for message, target, minutes in (
        ("תדחה את התזכורת של הרופא בעשר דקות", "הרופא", 10),
        ("תדחה את הרופא בחמש דקות", "הרופא", 5),
        ("תקדים את התזכורת של הגז בעשרים דקות", "הגז", -20),
    ):
        found = reminder_changes.move(message, pin(message)) or reminder_changes.move_named(
            message, pin(message)
        )
        assert found is not None, message
        assert (found.constraints, found.changes) == ({"target": target}, {"shiftMinutes": minutes}), message


def test_once_words_with_no_name_move_that_time_of_the_reminder_just_named() -> None:
    just_set = (latest(),)
    for once in ("only this time", "just this once", "this time only", "just for today", "only once"):
        for message in (f"move {once} to 9pm", f"push it to 9pm {once}", f"move {once} to 21:00"):
            found = reminder_changes.move_named(message, pin(message, actions=just_set))
            if "it" in message.split():
                continue  # "it": a follow-up (`followups.referential`), scoped there
            assert found is not None, message
            assert found.constraints == {"targetRef": "latest_action", "scope": "occurrence"}, message
            assert found.changes == {"time": "21:00"}, message
        assert reminder_changes.scope_of(f"move the stretch to 9pm {once}") == {"scope": "occurrence"}, once
        assert reminder_changes.strip_scope(f"stretch {once}") == "stretch", once
    # Nothing was set or named: no reminder to take "this time" of.
    assert reminder_changes.move_named("move only this time to 9pm", pin("x")) is None


@pytest.mark.parametrize(
    ("said", "time"),
    [
        ("change the time to 3:15", "15:15"),
        ("set its time to 9am", "09:00"),
        ("change the time of it to 10pm", "22:00"),
    ],
)
def test_the_time_is_the_reminder_just_set_s_time(said: str, time: str) -> None:
    found = reminder_changes.move_named(said, pin(said, actions=(latest(),)))
    assert (
        found is not None
        and found.constraints == {"targetRef": "latest_action"}
        and found.changes == {"time": time}
    )
    assert (
        reminder_changes.move_named(said, pin(said)) is None
    )  # nothing was just set: no reminder is "the time"


_PLANNER = RulePlanner()
_EN_TIMES = {"11:30": "11:30", "4pm": "16:00", "quarter past 7": "07:15"}
_HE_TIMES = {"ל-11:30": "11:30", "לשעה 9": "09:00", "לחמש": "17:00"}


def _the_change(said: str, *actions: LatestAction) -> tuple[dict[str, object], object]:
    steps = _PLANNER.plan(pin(said, actions=actions)).output.plan
    assert len(steps) == 1 and (steps[0].capability, steps[0].action) == ("reminders", "update"), said
    return steps[0].constraints, steps[0].changes.get("time")


@pytest.mark.parametrize("verb", ["change", "move", "set", "update"])
@pytest.mark.parametrize(
    "named",
    [
        "the time of the dentist",
        "the time for the dentist",
        "the dentist's time",
        "the dentist time",
        "the time of my dentist",
        "the time of the dentist reminder",
        "the dentist reminder's time",
        "the hour of the dentist",
    ],
)
def test_the_time_of_a_named_reminder_is_that_reminder(verb: str, named: str) -> None:
    for said, time in _EN_TIMES.items():
        assert _the_change(f"{verb} {named} to {said}") == ({"target": "dentist"}, time)


@pytest.mark.parametrize("verb", ["תשנה", "שנה", "תזיז", "תעביר"])
@pytest.mark.parametrize(
    ("named", "target"),
    [
        ("את השעה של רופא השיניים", "רופא השיניים"),
        ("את השעה של התזכורת לרופא שיניים", "רופא שיניים"),
        ("את השעה לרופא השיניים", "רופא השיניים"),
        ("את רופא השיניים", "רופא השיניים"),
    ],
)
def test_the_time_of_a_named_reminder_in_hebrew(verb: str, named: str, target: str) -> None:
    for said, time in _HE_TIMES.items():
        assert _the_change(f"{verb} {named} {said}") == ({"target": target}, time)


@pytest.mark.parametrize("verb", ["change", "move", "set", "update"])
@pytest.mark.parametrize(
    "time_of_it", ["the time", "its time", "the hour", "the time of it", "the time of the reminder"]
)
def test_the_time_alone_is_the_reminder_just_set(verb: str, time_of_it: str) -> None:
    constraints, time = _the_change(f"{verb} {time_of_it} to 4pm", latest())
    assert constraints.get("targetRef") == "latest_action" and time == "16:00"


_SAY_FORMS = [
    "{verb} the {old} reminder to say {new}",
    "{verb} the {old} reminder so it says {new}",
    "{verb} my reminder about the {old} to read {new}",
    "{verb} the reminder {old} so that it reads {new}",
]


@pytest.mark.parametrize("form", _SAY_FORMS)
@pytest.mark.parametrize("verb", ["change", "update", "edit", "make", "set"])
@pytest.mark.parametrize(("old", "new"), [("bank", "call the insurance"), ("plants", "feed the cat at noon")])
def test_a_new_text_said_as_what_it_says_renames_it(form: str, verb: str, old: str, new: str) -> None:
    # "change the bank reminder to say call the insurance" asked for a time and changed nothing.
    step = RulePlanner().plan(pin(form.format(verb=verb, old=old, new=new))).output.plan[0]
    assert (step.action, step.changes) == ("update", {"title": new})
    assert old in str(step.constraints["target"])


@pytest.mark.parametrize("said", ["שיהיה כתוב", "שייכתב", "שתגיד"])
def test_hebrew_a_new_text_said_as_what_it_says_renames_it(said: str) -> None:
    step = RulePlanner().plan(pin(f"תשנה את התזכורת של הבנק {said} להתקשר לביטוח")).output.plan[0]
    assert (step.action, step.changes, step.constraints["target"]) == (
        "update",
        {"title": "להתקשר לביטוח"},
        "הבנק",
    )


@pytest.mark.parametrize(
    ("n", "unit", "rule"),
    [
        (3, "days", "FREQ=DAILY;INTERVAL=3"),
        (2, "hours", "FREQ=HOURLY;INTERVAL=2"),
        (10, "minutes", "FREQ=MINUTELY;INTERVAL=10"),
    ],
)
def test_every_n_units_said_for_a_reminder_is_how_it_repeats_not_a_move(n: int, unit: str, rule: str) -> None:
    # "change the plants reminder to every 3 days" asked "3 days earlier or later?".
    for text in (
        f"change the plants reminder to every {n} {unit}",
        f"make the plants reminder every {n} {unit}",
    ):
        step = RulePlanner().plan(pin(text)).output.plan[0]
        assert step.changes.get("recurrence") == rule, text
        assert step.constraints["target"] == "plants", text


@pytest.mark.parametrize(
    ("said", "last"),
    [
        ("stop the vitamins after friday", "2024-05-03"),
        ("end the vitamins reminder on friday", "2024-05-03"),
        ("make the vitamins stop after friday", "2024-05-03"),
        ("stop the vitamins from monday", "2024-05-05"),  # monday is the first day without them
        ("תפסיק את הויטמינים אחרי יום שישי", "2024-05-03"),
        ("תעצור את התזכורת של הויטמינים מיום ראשון", "2024-05-04"),
        # A month, or the year, with no day of its own: its last day (was not understood, and
        # "stop reminding me about the vitamins after december" deleted the whole series).
        ("stop the vitamins reminder after december", "2024-12-31"),
        ("stop the vitamins at the end of december", "2024-12-31"),
        ("stop the vitamins at the end of the year", "2024-12-31"),
        ("stop the vitamins from january", "2024-12-31"),
        ("stop the vitamins after february", "2025-02-28"),  # NOW is May 2024: next February
        ("stop reminding me about the vitamins after december", "2024-12-31"),
        ("stop reminding me to take the vitamins after friday", "2024-05-03"),
        ("תפסיק את התזכורת של הויטמינים אחרי דצמבר", "2024-12-31"),
        ("תפסיק להזכיר לי על הויטמינים אחרי סוף השנה", "2024-12-31"),
    ],
)
def test_a_series_stopped_after_a_day_ends_on_it(said: str, last: str) -> None:
    # "stop the vitamins after friday" was not understood.
    step = RulePlanner().plan(pin(said)).output.plan[0]
    assert (step.action, step.changes) == ("update", {"endsOn": last})
    assert step.constraints["target"] in ("vitamins", "הויטמינים", "take the vitamins")


@pytest.mark.parametrize(
    "said", ["stop the gym after work", "stop the vitamins", "stop reminding me about the vitamins"]
)
def test_no_day_said_is_no_end(said: str) -> None:
    plan = RulePlanner().plan(pin(said)).output.plan
    assert not plan or "endsOn" not in plan[0].changes


@pytest.mark.parametrize("same", ["at the same time", "same time", ", same time", "at same time"])
@pytest.mark.parametrize("day", ["tomorrow", "friday", "on friday"])
def test_a_new_day_at_the_same_time_keeps_the_time_and_the_name(same: str, day: str) -> None:
    # "move the dentist to tomorrow at the same time" looked for a reminder "dentist at the same".
    for message in (
        f"move the dentist to {day} {same}",
        f"reschedule the dentist reminder to {day}{' ' if not same.startswith(',') else ''}{same}",
    ):
        (step,) = RulePlanner().plan(pin(message)).output.plan
        assert step.constraints == {"target": "dentist"} and set(step.changes or {}) == {"day"}, message


@pytest.mark.parametrize("same", ["באותה שעה", "באותה השעה", "באותו זמן"])
@pytest.mark.parametrize("day", ["למחר", "ליום שישי"])
def test_hebrew_a_new_day_at_the_same_time(same: str, day: str) -> None:
    message = f"תזיז את הרופא {day} {same}"
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert step.constraints == {"target": "הרופא"} and set(step.changes or {}) == {"day"}, message


@pytest.mark.parametrize("message", ["move it to tomorrow same time", "תעביר את זה למחר באותה שעה"])
def test_it_to_a_new_day_at_the_same_time(message: str) -> None:
    (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
    assert step.constraints["targetRef"] == "latest_action" and "when" in (step.changes or {}), message
