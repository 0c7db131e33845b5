"""A reminder ahead of the one just set: "remind me an hour before", "and 15 minutes before too",
"תזכיר לי שעה לפני": a second reminder with its title, that long before its time."""

from __future__ import annotations

import re
from datetime import timedelta

from memo.planner.base import PlannerInput
from memo.planner.lexicon import named_in
from memo.planner.match import REFERENTIAL, Match, iso, latest_action
from memo.text.amounts import amount_digits

_AHEAD = re.compile(
    r"^(?:(?:and|also|then|oh|ok)\s+)*(?:can\s+you\s+)?(?:please\s+)?(?:also\s+)?(?:remind\s+me\s+)?"
    r"(?:(?:about\s+|of\s+)?(?:it|that)\s+)?(?:also\s+)?(?P<n>an?|one|half\s+an|\d{1,3})\s*"
    r"(?P<unit>minutes?|mins?|hours?|hrs?|days?)\s+(?:before(?:hand)?|earlier|ahead)"
    r"(?:\s+(?:it|that|then))?(?:\s+(?:too|also|as\s+well))?\s*[.!]*$"
    r"|^ו?(?:(?:תזכיר|תזכירי)\s+לי\s+)(?:גם\s+)?(?:(?P<hn>\d{1,3}|חצי|רבע)\s*)?"
    r"(?P<hunit>דקות|דקה|שעה|שעות|שעתיים|יום|יומיים|ימים)\s+(?:לפני|קודם)(?:\s+(?:זה|כן))?(?:\s+גם)?\s*[.!]*$",
    re.I,
)
_MINUTES = {
    "minute": 1, "minutes": 1, "min": 1, "mins": 1, "hour": 60, "hours": 60, "hr": 60, "hrs": 60,
    "day": 1440, "days": 1440, "דקה": 1, "דקות": 1, "שעה": 60, "שעות": 60, "שעתיים": 120, "יום": 1440,
    "יומיים": 2880, "ימים": 1440,
}  # fmt: skip
_COUNT = {"a": 1.0, "an": 1.0, "one": 1.0, "half an": 0.5, "חצי": 0.5, "רבע": 0.25}


def ahead_of_it(text: str, inp: PlannerInput) -> Match | None:
    """ "remind me an hour before" right after "dentist on thursday at 4" was set: "dentist" on
    Thursday at 3. Only after a reminder with a time was set; a time already past is asked."""
    found = _AHEAD.match(amount_digits(" ".join(text.split())))
    latest = latest_action(inp)
    if found is None or latest is None or latest.capability != "reminders" or latest.when is None:
        return None
    if latest.action != "create":
        return None
    said, unit = found.group("n") or found.group("hn"), found.group("unit") or found.group("hunit")
    count = _COUNT.get((said or "1").lower()) or float(said or 1)
    minutes = int(count * _MINUTES[unit.lower()])
    title = named_in(latest.summary)
    when = latest.when - timedelta(minutes=minutes)
    if not minutes or not title:
        return None
    return Match(
        capability="reminders",
        action="create",
        confidence=REFERENTIAL,
        risk="low",
        constraints={"title": title, "when": iso(when)} if when > inp.now else {"title": title},
        missing=() if when > inp.now else ("time_in_past", "reminder_time_required"),
        pattern="reminders:ahead_of_it",
    )
