"""A reminder said for several named weekdays at once: "remind me on monday, wednesday and friday at
10 to call mom", "on tues and thurs at 6", "תזכיר לי ביום שני ורביעי ב-10 להתקשר לאמא"; and a
monthly one said for several days of the month: "on the 1st and 15th of every month at 9" (one
monthly reminder on each day, `on_several_month_days`; a monthly series has one day).

Each day is one reminder, read as if the request named that day alone (this coming Monday, this
coming Wednesday, ...). A repetition says so ("every monday and wednesday", "on mondays and
wednesdays") and is read by `memo.text.recurrence`, never here. Each day's request must have its
title, and either its time or, on every day alike, only the time missing ("remind me on monday and
wednesday to call mom"): then the time is asked once and the answer sets every day
(`memo.hitl.plan_edits.fill_answer`). Anything else is not read here and the message goes on to the
other readers. Without this, the second day's name was read as the first reminder's title and the
days after it were lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.match import Match

Read = Callable[[str, PlannerInput], Match | PlannerResult | None]

# One weekday, not in the plural ("mondays" repeats): longer names first.
_EN = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tues|tue|weds|wed|thurs|thu|mon|fri|sat|sun)(?![\w'])"
)
_HE = r"(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)(?=\s|$|[,.!?])"
_EN_LIST = re.compile(
    rf"(?<!every\s)(?<!each\s)\bon\s+(?:the\s+)?(?P<days>{_EN}(?:(?:\s*,\s*|\s+){_EN})*\s*,?\s*(?:and|&)\s*{_EN})",
    re.I,
)
_HE_LIST = re.compile(
    rf"(?:(?<=\s)|^)(?<!כל\s)ב(?:יום|ימים)\s+(?P<days>{_HE}(?:(?:\s*,\s*|\s+)(?:ו?ב?(?:יום\s+)?){_HE})*"
    rf"\s*,?\s*וב?(?:יום\s+)?{_HE})"
)
_EN_DAY = re.compile(_EN, re.I)
_HE_DAY = re.compile(_HE)


def on_several_days(text: str, inp: PlannerInput, read: Read) -> list[Match]:
    """One reminder create for each weekday of a list `text` names, each complete or each missing
    only its time (asked once); else []."""
    found = _EN_LIST.search(text) or _HE_LIST.search(text)
    if found is None:
        return []
    hebrew = found.re is _HE_LIST
    days = (_HE_DAY if hebrew else _EN_DAY).findall(found.group("days"))
    if len(set(days)) < 2:
        return []
    head, tail = text[: found.start()], text[found.end() :]
    matches = [read(f"{head}{'ביום ' if hebrew else 'on '}{day}{tail}", inp) for day in dict.fromkeys(days)]
    if not (all(_one_time_create(m) for m in matches) or all(_time_asked_on_its_day(m) for m in matches)):
        return []
    return [m for m in matches if isinstance(m, Match)]


def _complete_create(found: Match) -> bool:
    return (found.capability, found.action) == ("reminders", "create") and not found.missing


#: The only question a day's request may leave: its time.
_TIME_ONLY = ("reminder_time_required",)


def _time_asked_on_its_day(found: Match | PlannerResult | None) -> bool:
    """A one-time reminder with its title and day, only the time missing ("on monday to call mom")."""
    return (
        isinstance(found, Match)
        and (found.capability, found.action) == ("reminders", "create")
        and found.missing == _TIME_ONLY
        and "recurrence" not in found.constraints
        and isinstance(found.constraints.get("day"), str)
        and bool(found.constraints.get("title"))
    )


def _series_time_asked(found: Match) -> bool:
    """A repeating reminder with its title and days, only the time missing."""
    return (
        (found.capability, found.action) == ("reminders", "create")
        and found.missing == _TIME_ONLY
        and bool(found.constraints.get("title"))
    )


def _repeats(found: Match) -> bool:
    return "recurrence" in found.constraints


def _one_time_create(found: Match | PlannerResult | None) -> bool:
    return (
        isinstance(found, Match)
        and (found.capability, found.action) == ("reminders", "create")
        and not found.missing
        and "recurrence" not in found.constraints
        and "when" in found.constraints
    )


_NTH = r"\d{1,2}(?:st|nd|rd|th)?"
_EN_MONTH_DAYS = re.compile(
    rf"\bon\s+the\s+(?P<days>{_NTH}(?:\s*,\s*(?:the\s+)?{_NTH})*\s*,?\s*(?:and|&)\s*(?:the\s+)?{_NTH})"
    r"(?P<every>\s+(?:of\s+)?(?:every|each)\s+month)\b",
    re.I,
)
_HE_MONTH_DAYS = re.compile(
    r"(?:(?<=\s)|^)ב-?(?P<days>\d{1,2}(?:\s*,\s*(?:ב-?)?\d{1,2})*\s*,?\s*ו(?:ב)?-?\d{1,2})"
    r"(?P<every>\s+(?:ל|ב|של\s+)כל\s+(?:ה)?חודש)(?=\s|$|[,.!?])"
)


def on_several_month_days(text: str, inp: PlannerInput, read: Read) -> list[Match]:
    """One monthly reminder create for each day of the month a list names, each complete or each
    missing only its time (asked once); else []."""
    found = _EN_MONTH_DAYS.search(text) or _HE_MONTH_DAYS.search(text)
    if found is None:
        return []
    hebrew = found.re is _HE_MONTH_DAYS
    days = list(dict.fromkeys(re.findall(r"\d{1,2}", found.group("days"))))
    if len(days) < 2:
        return []
    head, tail = text[: found.start()], found.group("every") + text[found.end() :]
    matches = [read(f"{head}{f'ב-{day}' if hebrew else f'on the {day}'}{tail}", inp) for day in days]
    said = [m for m in matches if isinstance(m, Match) and _repeats(m)]
    if len(said) < len(matches) or not (
        all(_complete_create(m) for m in said) or all(_series_time_asked(m) for m in said)
    ):
        return []
    return [m for m in matches if isinstance(m, Match)]
