"""One time resolver for both planners (`memo.planner.time_phrases`): the words of a time that the
LLM planner copies resolve to exactly what the rule planner reads from the same words in a message,
over a grid of the ways people write times, in English and Hebrew."""

from __future__ import annotations

import itertools

import pytest

from memo.planner.rules import RulePlanner
from memo.planner.time_phrases import resolve_phrases
from tests.unit.planner.conftest import pin

_HOURS = [
    f"{h}{m}{half}" for h in range(1, 13) for m in ("", ":15", ":30", ":45") for half in ("", "am", " pm")
]
_DAYS = ("", "tomorrow ", "on friday ", "today ", "next monday ")
_EN = [f"{day}at {hour}".strip() for day, hour in itertools.product(_DAYS, _HOURS)]
_EN += ["in 20 minutes", "in 2 hours", "tomorrow", "every day at 8am", "every weekday at 7", "at noon"]
_EN += ["every sunday at 10", "every 2 hours until friday", "saturday night", "on the 21st at 9am"]
_HE = [
    f"{day}ב{hour}"
    for day, hour in itertools.product(
        ("", "מחר ", "ביום שישי "), ("שש", "שש וחצי", "שמונה ועשרים", "רבע לשבע")
    )
]
_HE += ["מחר ב-18:15", "בעוד חצי שעה", "כל יום ראשון בעשר", "מחרתיים בשש בערב"]
RULES = RulePlanner()


def _rule_reading(message: str) -> tuple[dict[str, object], list[str]]:
    output = RULES.plan(pin(message)).output
    (step,) = output.plan
    timing = {k: v for k, v in step.constraints.items() if k in ("when", "day", "recurrence")}
    return timing, sorted(output.missing_fields)


@pytest.mark.parametrize(
    ("request_words", "said"),
    [("remind me to call mom", said) for said in _EN] + [("תזכיר לי להתקשר לאמא", said) for said in _HE],
)
def test_a_time_resolves_as_the_rules_read_it(request_words: str, said: str) -> None:
    message = f"{request_words} {said}"
    constraints, _, missing = resolve_phrases("reminders", "create", {"whenText": said}, {}, pin(message))
    # the same words in a message, where the rule planner reads them
    assert (constraints, sorted(missing)) == _rule_reading(message)


def test_computed_keys_a_model_writes_are_dropped_and_other_capabilities_keep_theirs() -> None:
    inp = pin("x")
    constraints, changes, missing = resolve_phrases(
        "reminders", "create", {"title": "t", "when": "2030-01-01T00:00:00+00:00"}, {"day": "2030-01-01"}, inp
    )
    assert (constraints, changes, missing) == ({"title": "t"}, {}, ["reminder_time_required"])
    assert resolve_phrases("notes", "save", {}, {"text": "at 5pm"}, inp) == ({}, {"text": "at 5pm"}, [])
