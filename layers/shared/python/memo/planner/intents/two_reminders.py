"""Two reminders said in one message, one of them short of a day or a time the other names.

- "on friday at 5 to call grandma and on sunday to call mom": the second at the first one's time
  (`at_the_same_time`, a guess the person confirms);
- "tomorrow to call mom and at 6 to call dad": the time on the day named (`on_the_day_of`);
- "tomorrow at 6 to call mom and to call dad at 7": the second on the first one's day, and an hour
  without am/pm in the half of the day nearer the first one's time (`on_the_same_day`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.match import Match, iso, parse_when


def at_the_same_time(right: Match | PlannerResult | None, left: Match, inp: PlannerInput) -> Match | None:
    """A second reminder with a day and no time of its own, after one with a time ("on friday at 5
    to call grandma and on sunday to call mom"): at the first one's time, a guess the person
    confirms (read alone, the second would be asked its time and the two run together as one title)."""
    if not isinstance(right, Match) or right.capability != "reminders" or right.action != "create":
        return None
    first, day = left.constraints.get("when"), right.constraints.get("day")
    if left.capability != "reminders" or not isinstance(first, str) or not isinstance(day, str):
        return None
    if right.missing != ("reminder_time_required",) or right.constraints.get("recurrence") is not None:
        return None
    zone = ZoneInfo(inp.timezone)
    at = datetime.fromisoformat(first).astimezone(zone).time()
    when = datetime.combine(date.fromisoformat(day), at, tzinfo=zone)
    if when <= inp.now:
        return None
    constraints = {k: v for k, v in right.constraints.items() if k != "day"}
    return replace(right, constraints={**constraints, "when": iso(when)}, missing=())


def on_the_day_of(right: Match, left: Match, text: str, inp: PlannerInput) -> Match:
    """ "tomorrow to call mom and at 6 to call dad": a time with no day of its own is on the day named."""
    day, parsed = left.constraints.get("day"), parse_when(text, inp)
    if not isinstance(day, str) or parsed.explicit_day or parsed.recurrence is not None:
        return right
    when = parse_when(text, inp, day=date.fromisoformat(day)).when
    return replace(right, constraints={**right.constraints, "when": iso(when)}) if when else right


def on_the_same_day(right: Match, left: Match, text: str, inp: PlannerInput) -> Match:
    """A second reminder with a time of day and no day of its own is on the first one's day
    ("tomorrow at 6 ... and to call dad at 7": tomorrow 19:00), unless that time has passed; with a
    day of its own, an hour said without am/pm is in the half of the day nearer the first one's time
    ("tomorrow at 6 ... and on friday at 7": Friday 19:00)."""
    if right.capability != "reminders" or right.action != "create" or left.capability != "reminders":
        return right
    first, second = left.constraints.get("when"), right.constraints.get("when")
    if not isinstance(first, str) or not isinstance(second, str):
        return right
    parsed = parse_when(text, inp)
    if not parsed.named_time or parsed.recurrence is not None:
        return right
    zone = ZoneInfo(inp.timezone)
    anchor = datetime.fromisoformat(first).astimezone(zone)
    if not parsed.explicit_day:
        # Read on that day: "tomorrow at 9 ... and at 10" is 10 tomorrow (today's 10 may have
        # passed, which alone would make it 22:00).
        parsed = parse_when(text, inp, day=anchor.date())
    when = parsed.when
    if when is not None and parsed.either_half and parsed.said_time is not None:
        # "tomorrow at 9pm ... and at 10" is 22:00
        near = datetime.combine(when.date(), anchor.time(), tzinfo=zone)
        morning = datetime.combine(when.date(), time.fromisoformat(parsed.said_time), tzinfo=zone)
        halves = [at for at in (morning, morning + timedelta(hours=12)) if at > inp.now]
        when = min(halves, key=lambda at: abs(at - near), default=when)
    if when is None or when <= inp.now or when == datetime.fromisoformat(second):
        return right
    return replace(right, constraints={**right.constraints, "when": iso(when)})


#: A word of a title pointing back at the things just named ("buy them", "pick them up", "לקנות אותם").
#: ("make it count" has no such word: "it" / "אותו" only as the title's last word.)
_POINTS_BACK = re.compile(r"(?<=\s)(?:them|those|these|אותם|אותן)(?=\s|$)|(?<=\s)(?:it|אותו|אותה)$", re.I)


def them_named(matches: list[Match]) -> list[Match]:
    """ "add eggs to my list and remind me tomorrow at 9 to buy them": the reminder's "them" is the
    things the same message put on a list ("buy eggs"), not a title of its own ("buy them")."""
    named: list[Match] = []
    for found in matches:
        title = (
            found.constraints.get("title")
            if (found.capability, found.action) == ("reminders", "create")
            else None
        )
        added = next(
            (m for m in reversed(named) if (m.capability, m.action) == ("lists", "add") and m.changes), None
        )
        said = (added.changes or {}).get("items") if added is not None else None
        items = [str(i) for i in said] if isinstance(said, list) else []
        if isinstance(title, str) and items and _POINTS_BACK.search(f" {title}"):
            joiner = " ו" if any("\u05d0" <= ch <= "\u05ea" for ch in title) else " and "
            things = ", ".join(items[:-1]) + joiner + items[-1] if len(items) > 1 else items[0]
            retitled = _POINTS_BACK.sub(things, f" {title}", count=1).strip()
            found = replace(found, constraints={**found.constraints, "title": retitled})
        named.append(found)
    return named
