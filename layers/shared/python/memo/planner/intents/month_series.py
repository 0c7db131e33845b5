"""A yearly reminder said by its month and no day: "remind me every march at 9 to renew insurance",
"every year in march", "in march every year", "כל מרץ ב-9", "בכל מרץ", "כל שנה במרץ".

No schedule repeats on "march": which day of it is asked (`MONTH_DAY_REQUIRED`), with the time when
that is not said either, and the answer ("the 5th", "5", "ב-5") completes a yearly series on that
day of that month (`memo.hitl.plan_edits`; the month waits in the step's `SAID_MONTH`). Before,
"every march" stayed in the title of a one-time reminder set for the next 9 o'clock. A day said
with the month elsewhere in the request ("every march on the 5th") is that yearly date, read as
"every march 5" is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo.text.months import MONTH_NUMBERS, MONTHS_EN, MONTHS_HE, month_names

#: The missing field: which day of the month said.
MONTH_DAY_REQUIRED = "month_day_required"
#: The step's constraint holding that month (1-12) while the question is open.
SAID_MONTH = "saidMonth"

_END = r"(?=\s|$|[,.!?])"
_EN_MONTH = rf"(?P<month>{month_names(hebrew=False)})"
_HE_MONTH = rf"(?P<hmonth>{month_names(hebrew=True)})"
#: A day of the month right after the month is the yearly date itself ("every march 5"), not this.
_NO_DAY_AFTER = r"(?!\s*\d)"
_EN_SAID = re.compile(
    rf"\b(?:(?:every|each)\s+(?:year\s+(?:in|during)\s+)?{_EN_MONTH}\b{_NO_DAY_AFTER}"
    rf"|(?:in|during)\s+{_EN_MONTH.replace('<month>', '<month2>')}\s+(?:every|each)\s+year\b)",
    re.I,
)
_HE_SAID = re.compile(
    rf"(?:(?<=\s)|^)(?:(?:ב)?כל\s+(?:שנה\s+ב)?{_HE_MONTH}"
    rf"|ב{_HE_MONTH.replace('<hmonth>', '<hmonth2>')}\s+(?:ב)?כל\s+שנה){_END}"
)
#: "every march on the 5th", "every march, the 5th": the day said apart from the month (English).
_EN_DAY = re.compile(r"(?:,\s*|\s+)(?:on\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b", re.I)


@dataclass(frozen=True)
class MonthSaid:
    """The month of a yearly reminder with no day, and the request without its words."""

    month: int
    rest: str


def month_without_day(text: str) -> MonthSaid | str | None:
    """For "every march ...": the month and the rest (`MonthSaid`); for "every march on the 5th
    ...": the request said as "every march 5 ..." (a yearly date, read as usual); else None."""
    found = _EN_SAID.search(text) or _HE_SAID.search(text)
    if found is None:
        return None
    name = next(g for g in (found.groupdict().values()) if g is not None)
    month = MONTH_NUMBERS[name.lower()]
    head, tail = text[: found.start()], text[found.end() :]
    day = _EN_DAY.match(tail) if found.re is _EN_SAID else None
    if day is not None and 1 <= int(day.group("day")) <= 31:
        return f"{head}every {MONTHS_EN[month - 1]} {int(day.group('day'))}{tail[day.end() :]}"
    return MonthSaid(month=month, rest=re.sub(r"\s+", " ", f"{head} {tail}").strip())


#: An answer naming only the day ("5", "the 5th", "on the 5th at 10", "ב-5", "ה-5 בשעה 9").
_EN_ANSWER_DAY = re.compile(
    r"^\s*(?:on\s+)?(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?(?![\d:.]|\s*(?:am|pm)\b)", re.I
)
_HE_ANSWER_DAY = re.compile(r"^\s*(?:ב|ה)?-?(?P<day>\d{1,2})(?![\d:.])")
_ANY_MONTH = re.compile(
    rf"\b(?:{month_names(hebrew=False)})\b|(?:(?<=\s)|^)[בל]?-?(?:{month_names(hebrew=True)}){_END}", re.I
)


def day_in_month(answer: str, month: int, hebrew: bool) -> str:
    """The answer to "Which day of March?" said with the month: "the 5th at 10" -> "March 5 at 10",
    "ב-5" -> "5 במרץ"; an answer that does not start with a day, or names a month, is left as it is."""
    found = (_HE_ANSWER_DAY if hebrew else _EN_ANSWER_DAY).match(answer)
    if found is None or _ANY_MONTH.search(answer):
        return answer  # "april 5", "ב-5 באפריל": the month said is checked, never replaced
    day, rest = int(found.group("day")), answer[found.end() :]
    return f"{day} ב{MONTHS_HE[month - 1]}{rest}" if hebrew else f"{MONTHS_EN[month - 1]} {day}{rest}"
