"""New hours for a reminder that repeats within the hours of each day: "make it from 10 to 6",
"change it to between 10am and 6pm", "change the hours to 10 to 6", "תעשה את זה בין 10 ל-18".

Said without a repetition, the words are the series' hours (how often it comes is kept:
`memo.capabilities.reminder_changes`), not a move of the reminder to the first of them, which is
how they were read. With a repetition ("make it every hour between 10 and 6") they are a new
repetition (`memo.planner.intents.followups`).
"""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_changes import moved_reminder
from memo.planner.lexicon import REMINDER_EN, REMINDER_HE, as_title, clean, has_hebrew
from memo.planner.match import Match, is_ref, parse_when
from memo.text.recurrence_units import find_window

#: "make it from 10 to 6", "set it between 10 and 6", "change it to between 10 and 6", "change it to
#: be from 10 to 6" ("change it from 3pm to 4pm" is a move: `memo.planner.intents.reminder_from_to`).
_CHANGE = re.compile(
    r"^(?:(?:make|set)\s+(?P<which>.*?)\s*(?:to\s+)?|(?:change|move|switch|update|shift)\s+(?P<which2>.*?)\s*to\s+)"
    r"(?:be\s+)?(?:only\s+)?(?P<hours>(?:between|from)\s+\S.*)$",
    re.I,
)
_CHANGE_HE = re.compile(
    r"^(?:תעשה|תעשי|תשנה|תשני|שנה|תזיז|תזיזי|תעביר|תעבירי)\s+(?P<which>.*?)\s*(?P<hours>בין\s+\S.*)$"
)
#: "change the hours to 10 to 6", "תשנה את השעות ל-10 עד 18": after "the hours", from X to Y.
_THE_HOURS = re.compile(
    r"^(?:make|change|set|move|switch|update|shift|תעשה|תעשי|תשנה|תשני|שנה)\s+(?P<which>.*?(?:\bhours|\btimes|השעות).*?)\s+"
    r"(?:to\s+|ל-?)(?P<a>\d\S*)\s+(?:to|-|–|until|till|עד)\s+(?P<b>\S+)$",
    re.I,
)
_HOURS_WORDS = re.compile(
    rf"\b(?:the|its|their)\s+(?:hours|times)(?:\s+of)?\b|\b(?:{REMINDER_EN}|one)\b"
    rf"|(?<!\S)(?:את\s+)?(?:השעות(?:\s+של)?|{REMINDER_HE}|זה)(?!\S)",
    re.I,
)


def hours_changed(text: str, inp: PlannerInput) -> Match | None:
    said = _said(text)
    if said is None:
        return None
    which, hours = said
    if parse_when(text, inp).recurrence is not None:
        return None  # "make it every hour between 10 and 6": a new repetition
    window = find_window(hours, "HOURLY", 1)
    if window is None or clean(hours[: window[1][0]] + hours[window[1][1] :]):
        return None  # more than the hours ("from 10 to 6 on friday")
    name = as_title(clean(_HOURS_WORDS.sub(" ", which)))
    target = name if name and not is_ref(name) else "it"
    start, end = window[0].start, window[0].end
    return moved_reminder(text, target, {"hours": f"{start:%H:%M}-{end:%H:%M}"}, inp, "reminders:update")


def _said(text: str) -> tuple[str, str] | None:
    """The words naming the reminder, and the words of its new hours."""
    the_hours = _THE_HOURS.match(text)
    if the_hours is not None:
        a, b = the_hours.group("a"), the_hours.group("b")
        return the_hours.group("which"), (f"מ-{a} עד {b}" if has_hebrew(text) else f"from {a} to {b}")
    change = _CHANGE.match(text) or _CHANGE_HE.match(text)
    if change is None:
        return None
    return change.group("which") or change.groupdict().get("which2") or "", change.group("hours")
