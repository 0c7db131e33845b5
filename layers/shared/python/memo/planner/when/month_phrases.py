"""Days counted in months and years, and days a month names by its weeks.

Read with the other phrases of several words (`memo.planner.when.day_phrases`), before the plain day
words, which would take only a part of them (each of these was set for the next time of the hour
said, "tomorrow at 9", with the rest left in the title):
- "in 3 months", "in six months", "in a year", "two months from now", "a year from today",
  "בעוד חודשיים", "בעוד 3 חודשים", "בעוד שנה", "בעוד שנתיים": that day, months or years on (a day
  the month lacks is its last: a month after January 31 is February's last day);
- "the first monday of next month", "the last friday of the month", "the second tuesday of
  december", "ביום שישי האחרון של החודש", "ביום שני הראשון של החודש הבא": that weekday of that
  month ("the month" is this one, or the next once this one's has passed; a named month is the
  next one to come; a fifth weekday a month lacks is no day);
- "the end of the year", "the last day of next year", "בסוף השנה": December 31;
- "the beginning of next month", "the start of next year", "בתחילת החודש הבא": its first day;
- "march 1 next year", "next year on march 1": that date in the next year.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from memo.planner.when.day_phrases import DayPhrase
from memo.planner.when.scan import FLAGS, Scan
from memo.text.months import MONTH_NUMBERS, month_names

_END = r"(?=\s|$|[,.!?])"
_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18,
}  # fmt: skip
_COUNT = rf"(?P<n>\d{{1,2}}|{'|'.join(sorted(_COUNTS, key=len, reverse=True))})"
_IN_MONTHS = re.compile(
    rf"\b(?:in\s+{_COUNT}\s+(?P<unit>months?|years?)"
    rf"|{_COUNT.replace('<n>', '<n2>')}\s+(?P<unit2>months?|years?)\s+(?:from\s+(?:now|today)|later))\b",
    FLAGS,
)
_HE_COUNTS = {"שלושה": 3, "ארבעה": 4, "חמישה": 5, "שישה": 6, "שבעה": 7, "שמונה": 8, "תשעה": 9,
              "עשרה": 10, "שלוש": 3, "ארבע": 4, "חמש": 5, "שש": 6}  # fmt: skip
_HE_IN_MONTHS = re.compile(
    r"(?:(?<=\s)|^)(?:בעוד|עוד|תוך)\s+(?:(?P<one>חודשיים|שנתיים|שנה)"
    rf"|(?P<hn>\d{{1,2}}|{'|'.join(_HE_COUNTS)})\s+(?P<hunit>חודשים|שנים))" + _END
)
_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
        "fifth": 5, "5th": 5, "last": -1}  # fmt: skip
_MONTH_NAMES = month_names(hebrew=False)
_NTH_WEEKDAY = re.compile(
    rf"\b(?:(?:on|by)\s+)?(?:the\s+)?(?P<nth>{'|'.join(_NTH)})\s+"
    rf"(?P<wd>{'|'.join(sorted(_WEEKDAYS, key=len, reverse=True))})\s+(?:of|in)\s+"
    rf"(?:(?P<which>the|this|next|the\s+next)\s+month|(?P<month>{_MONTH_NAMES}))\b",
    FLAGS,
)
_HE_WEEKDAYS = {"ראשון": 6, "שני": 0, "שלישי": 1, "רביעי": 2, "חמישי": 3, "שישי": 4}
_HE_NTH = {"הראשון": 1, "השני": 2, "השלישי": 3, "הרביעי": 4, "האחרון": -1}
_HE_NTH_WEEKDAY = re.compile(
    rf"(?:(?<=\s)|^)[בל]?-?יום\s+(?P<hw>{'|'.join(_HE_WEEKDAYS)})\s+(?P<hnth>{'|'.join(_HE_NTH)})\s+"
    r"(?:של|ב)\s*ה?חודש(?P<next>\s+הבא)?" + _END
)
_YEAR_END = re.compile(
    r"\b(?:(?:on|by|at|until|for)\s+)?(?:the\s+)?(?:last\s+day|end)\s+of\s+(?P<which>the|this|next)\s+year\b"
    r"|(?:(?<=\s)|^)(?:ב|עד\s+)?(?:יום\s+ה?אחרון\s+של\s+ה?שנה|סוף\s+ה?שנה)(?P<next>\s+הבאה)?" + _END,
    FLAGS,
)
_STARTS = re.compile(
    r"\b(?:(?:at|on|by)\s+)?(?:the\s+)?(?:beginning|start)\s+of\s+(?:the\s+)?next\s+(?P<unit>month|year)\b"
    r"|(?:(?<=\s)|^)ב?תחילת\s+ה?(?P<hunit>חודש|שנה)\s+(?:הבא|הבאה)" + _END,
    FLAGS,
)
_NEXT_YEAR_DATE = re.compile(
    rf"\b(?:on\s+)?(?:(?P<m1>{_MONTH_NAMES})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?:the\s+)?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH_NAMES}))\s+next\s+year\b"
    rf"|\bnext\s+year\s+on\s+(?:(?P<m3>{_MONTH_NAMES})\s+(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?:the\s+)?(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m4>{_MONTH_NAMES}))\b",
    FLAGS,
)


def take_month_phrase(scan: Scan, today: date) -> DayPhrase | None:
    """The day one of the phrases above names, taken out of `scan`; None when there is none."""
    for read in (_in_months, _nth_weekday, _year_end, _start_of_next, _next_year_date):
        found = read(scan, today)
        if found is not None:
            return found
    return None


def months_after(day: date, months: int) -> date:
    """`day`, `months` on; a day the month lacks is its last ("a month after January 31")."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> date | None:
    """The `nth` `weekday` of the month (-1: the last); None for a fifth one the month lacks."""
    days = [d for d in calendar.Calendar().itermonthdates(year, month) if d.month == month]
    matching = [d for d in days if d.weekday() == weekday]
    if nth == -1:
        return matching[-1]
    return matching[nth - 1] if nth <= len(matching) else None


def _in_months(scan: Scan, today: date) -> DayPhrase | None:
    match = _IN_MONTHS.search(scan.text)
    if match is not None:
        said = (match.group("n") or match.group("n2")).lower()
        count = _COUNTS[said] if said in _COUNTS else int(said)
        unit = (match.group("unit") or match.group("unit2")).lower()
    else:
        match = _HE_IN_MONTHS.search(scan.text)
        if match is None:
            return None
        one = match.group("one")
        if one is not None:
            count, unit = {"חודשיים": (2, "month"), "שנתיים": (2, "year"), "שנה": (1, "year")}[one]
        else:
            said = match.group("hn")
            count = _HE_COUNTS.get(said) or int(said)
            unit = "month" if match.group("hunit") == "חודשים" else "year"
    if count == 0:
        return None
    scan.take(match)
    return DayPhrase(months_after(today, count * (12 if unit.startswith("year") else 1)))


def _nth_weekday(scan: Scan, today: date) -> DayPhrase | None:
    match = _NTH_WEEKDAY.search(scan.text)
    if match is not None:
        nth, weekday = _NTH[match.group("nth").lower()], _WEEKDAYS[match.group("wd").lower()]
        which, named = match.group("which"), match.group("month")
        following = which is not None and which.lower().split()[-1] == "next"
        rolls = which is not None and which.lower() == "the"
        month = MONTH_NUMBERS[named.lower()] if named else None
    else:
        match = _HE_NTH_WEEKDAY.search(scan.text)
        if match is None:
            return None
        nth, weekday = _HE_NTH[match.group("hnth")], _HE_WEEKDAYS[match.group("hw")]
        following, rolls, month = match.group("next") is not None, match.group("next") is None, None
    scan.take(match)
    if month is not None:  # the next such month to come: this year's, unless its day has passed
        for year in (today.year, today.year + 1):
            found = nth_weekday(year, month, weekday, nth)
            if found is None or found >= today:
                return DayPhrase(found) if found else DayPhrase(invalid=True)
        return DayPhrase(invalid=True)
    first = months_after(today.replace(day=1), 1 if following else 0)
    found = nth_weekday(first.year, first.month, weekday, nth)
    if rolls and found is not None and found < today:  # "the last friday of the month": the next one
        first = months_after(first, 1)
        found = nth_weekday(first.year, first.month, weekday, nth)
    return DayPhrase(found) if found else DayPhrase(invalid=True)


def _year_end(scan: Scan, today: date) -> DayPhrase | None:
    match = _YEAR_END.search(scan.text)
    if match is None:
        return None
    following = (match.group("which") or "").lower() == "next" or match.group("next") is not None
    scan.take(match)
    return DayPhrase(date(today.year + following, 12, 31))


def _start_of_next(scan: Scan, today: date) -> DayPhrase | None:
    match = _STARTS.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    if (match.group("unit") or "").lower() == "year" or match.group("hunit") == "שנה":
        return DayPhrase(date(today.year + 1, 1, 1))
    return DayPhrase(months_after(today.replace(day=1), 1))


def _next_year_date(scan: Scan, today: date) -> DayPhrase | None:
    match = _NEXT_YEAR_DATE.search(scan.text)
    if match is None:
        return None
    groups = {k: v for k, v in match.groupdict().items() if v}
    month = MONTH_NUMBERS[next(v for k, v in groups.items() if k.startswith("m")).lower()]
    day = int(next(v for k, v in groups.items() if k.startswith("d")))
    scan.take(match)
    try:
        return DayPhrase(date(today.year + 1, month, day))
    except ValueError:
        return DayPhrase(invalid=True)
