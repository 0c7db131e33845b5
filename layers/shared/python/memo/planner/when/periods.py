"""The month a question about reminders asks about: "what do I have in january?", "reminders for
next month", "מה יש לי בדצמבר?", "התזכורות של החודש".

A month named without a year is its next occurrence: the current month from today on, a month already
past this year is next year's. A period is the days from its first to its last, both included, which
is what a reminders listing takes (`day`, `until`).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memo.planner.when.scan import FLAGS
from memo.text.months import MONTH_NUMBERS, month_names

_END = r"(?=\s|$|[,.!?])"
_EN_NAMES = month_names(hebrew=False)
_HE_NAMES = month_names(hebrew=True)

#: "in january", "for the month of march", "during may 2027", "this month", "next month"; never a
#: date ("january 5", "in january 5th"), which is a day.
_EN_PERIOD = re.compile(
    rf"\b(?:in|for|during|of|on|over)\s+(?:the\s+month\s+of\s+)?(?P<month>{_EN_NAMES})(?:\s+(?P<year>20\d\d))?"
    r"(?!\s*\d)(?!\s+the\s+\d)\b"
    r"|\b(?:(?:in|for|during|of|over)\s+)?(?:the\s+)?(?:(?P<which>this|next|coming)\s+month|rest\s+of\s+(?:the|this)\s+month)\b",
    FLAGS,
)
#: "בינואר", "בחודש מרץ", "לדצמבר", "של ינואר", "החודש", "בחודש הבא", "לחודש הזה".
_HE_PERIOD = re.compile(
    r"(?:(?<=\s)|^)(?:"
    rf"(?:של\s+|[בל]-?)?(?:חודש\s+)?(?P<month>{_HE_NAMES})(?:\s+(?P<year>20\d\d))?(?!\s*\d)"
    r"|(?P<next>(?:של\s+|[בל])?ה?חודש\s+הבא)"
    r"|(?:של\s+)?החודש(?:\s+הזה|\s+הנוכחי)?|[בל]ה?חודש\s+(?:הזה|הנוכחי)"
    r")" + _END
)

_DAY_BEFORE = re.compile(r"\d(?:st|nd|rd|th)?\s*$", re.I)


@dataclass(frozen=True)
class Period:
    """The days a phrase names, `first` to `last` both included, and the text without the phrase."""

    first: date
    last: date
    rest: str


def month_period(text: str, today: date) -> Period | None:
    """The month `text` names as a period (see the module's doc); None when it names none."""
    for pattern in (_EN_PERIOD, _HE_PERIOD):
        found = pattern.search(text)
        if found is None or _DAY_BEFORE.search(text, 0, found.start()):
            # "the 3rd of march", "5 בינואר": a date, which is a day
            continue
        first, last = _days_of(found, today)
        rest = " ".join((text[: found.start()] + " " + text[found.end() :]).split())
        return Period(first=first, last=last, rest=rest)
    return None


def _days_of(found: re.Match[str], today: date) -> tuple[date, date]:
    groups = found.groupdict()
    if groups.get("month"):
        month = MONTH_NUMBERS[groups["month"].lower()]
        if groups.get("year"):
            year = int(groups["year"])
        else:
            year = today.year if month >= today.month else today.year + 1
        return _clipped(year, month, today)
    if groups.get("next") or (groups.get("which") or "").lower() in ("next", "coming"):
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return _clipped(year, month, today)
    return _clipped(today.year, today.month, today)


def _clipped(year: int, month: int, today: date) -> tuple[date, date]:
    """The days of a month from today on (a month that is past has none left: its own days)."""
    first = date(year, month, 1)
    last = date(year, month, calendar.monthrange(year, month)[1])
    return (today if first <= today <= last else first), last


_WEEKEND_WORD = re.compile(
    r"\bweek\s*-?\s*end\b|(?:(?<=\s)|^)(?:[בל])?(?:סוף\s+השבוע|סופ\"?ש)(?=\s|$|[,.!?])", FLAGS
)


def weekend_period(text: str, saturday: date, timezone: str) -> tuple[date, date] | None:
    """The weekend `text` names, around the Saturday its day was read as: Friday and Saturday in
    Israel, Saturday and Sunday elsewhere. None when `text` names no weekend."""
    if saturday.weekday() != 5 or _WEEKEND_WORD.search(text) is None:
        return None
    if timezone == "Asia/Jerusalem":
        return saturday - timedelta(days=1), saturday
    return saturday, saturday + timedelta(days=1)
