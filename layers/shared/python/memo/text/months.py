"""The months' names in English and Hebrew, and the month each name (or abbreviation) says."""

from __future__ import annotations

import calendar
import re
from datetime import date

MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
             "October", "November", "December")  # fmt: skip
MONTHS_HE = ("ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
             "נובמבר", "דצמבר")  # fmt: skip
_ABBREVIATIONS = {"sept": 9, **{name[:3].lower(): n for n, name in enumerate(MONTHS_EN, start=1)}}

#: Every way a month is written -> its number: "january", "jan", "sept", "ינואר", "מרס" (lower case).
MONTH_NUMBERS: dict[str, int] = {
    **{name.lower(): n for n, name in enumerate(MONTHS_EN, start=1)},
    **_ABBREVIATIONS,
    **{name: n for n, name in enumerate(MONTHS_HE, start=1)},
    "מרס": 3,
}


def month_names(*, hebrew: bool) -> str:
    """A regex alternation of the month names of one language, longest first."""
    names = [n for n in MONTH_NUMBERS if n.isascii() != hebrew]
    return "|".join(sorted(names, key=len, reverse=True))


_YEAR_END = re.compile(r"^(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year$|^(?:ב?)?סוף\s+השנה$", re.I)
_MONTH_END = re.compile(r"^(?:(?:the\s+)?end\s+of\s+|(?:ב?)?סוף\s+)?(?P<month>\S+)$", re.I)


def last_day_said(words: str, today: date) -> date | None:
    """The last day a series' end names without a day of its own: "december", "the end of
    december", "סוף דצמבר" (that month's last day, this year unless it has passed), "the end of the
    year", "סוף השנה" (31 December). None for anything else."""
    said = " ".join(words.split()).strip(" .!")
    if _YEAR_END.match(said):
        return date(today.year, 12, 31)
    found = _MONTH_END.match(said)
    name = found.group("month").lower() if found else ""
    month = MONTH_NUMBERS.get(name) or MONTH_NUMBERS.get(name.removeprefix("ב"))  # "בדצמבר"
    if month is None:
        return None
    year = today.year if month >= today.month else today.year + 1
    return date(year, month, calendar.monthrange(year, month)[1])
