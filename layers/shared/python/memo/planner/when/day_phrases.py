"""Days said in more words than a date, and days Memo cannot place.

Read before the plain day words (`memo.planner.when.days`), because those would take only a part:
- "the 1st of next month", "the first of the month", "the 15th of this month", "ב-1 לחודש הבא",
  "בראשון לחודש הבא": that day of that month ("of next month" was left in the title, and the day
  was the next 15th, this month's when it had not passed);
- "on the first", "on the twenty-third": the next such day of a month;
- "the last day of the month", "the end of next month", "ביום האחרון של החודש", "בסוף החודש הבא";
- "2027-01-05", "2027/1/5": a date written year first;
- "a week from friday", "a week from today", "two weeks from tomorrow", "monday week", "a week on
  monday", "the friday after next": that day, a week (or two) on;
- "in a fortnight", "a fortnight from now": two weeks from today.

A day said with a preposition that no calendar places ("on christmas", "before mom's birthday",
"בחנוכה"), or a month with no day ("in january", "בינואר"), is `unplaced`: its words come out of the title and the day is asked, never guessed (it
was set for the next time of the hour said, with "on christmas" in the title).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memo.planner.when.scan import FLAGS, Scan

_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_TEENS = ("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
          "seventeenth", "eighteenth", "nineteenth")  # fmt: skip
#: "first" to "thirty-first": the day of a month said as an ordinal word.
ORDINAL_WORDS: dict[str, int] = {
    **{word: n for n, word in enumerate(_UNITS, start=1)},
    **{word: n for n, word in enumerate(_TEENS, start=10)},
    "twentieth": 20,
    **{f"twenty {word}": 20 + n for n, word in enumerate(_UNITS, start=1)},
    "thirtieth": 30,
    "thirty first": 31,
}
_ORDINALS = "|".join(sorted((word.replace(" ", r"[\s-]") for word in ORDINAL_WORDS), key=len, reverse=True))
_DAY_OF_MONTH = rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?|(?P<w>{_ORDINALS})"
_END = r"(?=\s|$|[,.!?])"

_OF_MONTH = re.compile(
    rf"\b(?:(?:on|by|until|for)\s+)?the\s+(?:{_DAY_OF_MONTH})\s+(?:of\s+(?=the\b)|(?:of\s+)?(?!the\b))"
    r"(?P<which>next|this|the\s+next|the\s+coming|the|this\s+coming)\s+month\b"
    # "next month on the 5th"
    rf"|\b(?P<which2>next|this)\s+month\s+(?:on\s+)?the\s+(?:{_DAY_OF_MONTH.replace('<d>', '<d2>').replace('<w>', '<w2>')})\b",
    FLAGS,
)
_ON_THE_ORDINAL = re.compile(
    rf"\b(?:on|by|until)\s+the\s+(?P<w>{_ORDINALS})\b"
    r"(?!\s+(?:one|ones|time|times|reminder|item|note|floor|of\b|thing|list|try|attempt))",
    FLAGS,
)
_HE_DAYS = {"אחד": 1, "ראשון": 1, "שני": 2, "שלישי": 3, "רביעי": 4, "חמישי": 5, "שישי": 6,
            "שביעי": 7, "שמיני": 8, "תשיעי": 9, "עשירי": 10}  # fmt: skip
_HE_OF_NEXT_MONTH = re.compile(
    rf"(?:(?<=\s)|^)[בל]-?(?P<d>\d{{1,2}}|{'|'.join(_HE_DAYS)})\s+(?:ל|ב)-?ה?חודש\s+(?:הבא|הקרוב){_END}"
)
_LAST_DAY = re.compile(
    r"\b(?:(?:on|by|at|until|for)\s+)?(?:the\s+)?(?:last\s+day|end)\s+of\s+"
    r"(?P<which>next|the\s+next|this|the|this\s+coming)\s+month\b",
    FLAGS,
)
_HE_LAST_DAY = re.compile(
    r"(?:(?<=\s)|^)(?:ב|עד\s+)?(?:יום\s+ה?אחרון\s+(?:של\s+|ב)ה?חודש|סוף\s+ה?חודש)(?P<next>\s+(?:הבא|הקרוב))?"
    + _END
)
_YEAR_FIRST = re.compile(
    r"(?:\bon\s+|(?:(?<=\s)|^)[בל]-?)?(?<![\d/.-])(?P<y>20\d\d)[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})(?![\d/-])",
    FLAGS,
)
_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2, "weds": 2, "thursday": 3,
    "thurs": 3, "thu": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
_BASE = rf"(?P<base>today|now|tomorrow|tmrw|{'|'.join(sorted(_WEEKDAYS, key=len, reverse=True))})"
_WEEKS = {"a": 1, "one": 1, "1": 1, "two": 2, "2": 2, "three": 3, "3": 3}
_WEEK_FROM = re.compile(
    rf"\b(?:(?:on|by)\s+)?(?P<n>a|one|two|three|[123])\s+weeks?\s+(?:from|after)\s+(?:this\s+|next\s+)?{_BASE}\b"
    rf"|\b(?:(?:on|by)\s+)?(?:a\s+)?week\s+on\s+{_BASE.replace('base', 'base2')}\b"
    rf"|\b(?:(?:on|by)\s+)?{_BASE.replace('base', 'base3')}\s+week\b(?!\s*(?:end|day|night))"
    rf"|\b(?:(?:on|by)\s+)?(?:the\s+)?(?P<base4>{'|'.join(sorted(_WEEKDAYS, key=len, reverse=True))})\s+after\s+next\b",
    FLAGS,
)
_HE_WEEKDAYS = {"ראשון": 6, "שני": 0, "שלישי": 1, "רביעי": 2, "חמישי": 3, "שישי": 4, "שבת": 5}
_HE_WEEKDAY = r"(?:[בל]?-?יום\s+(?P<hw>ראשון|שני|שלישי|רביעי|חמישי|שישי)|[בל]?-?(?P<hw_sat>שבת))"
_HE_BASE = r"(?P<hbase>היום|מחר|יום\s+(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)|שבת)"
#: "שבוע מהיום", "שבועיים ממחר", "שבוע מיום שישי"
_HE_WEEK_FROM = re.compile(rf"(?:(?<=\s)|^)(?:בעוד\s+)?(?P<n>שבוע|שבועיים)\s+מ-?{_HE_BASE}{_END}")
#: "next week on wednesday", "on wednesday next week", "wednesday of next week", "ביום רביעי בשבוע הבא"
_EN_WEEKDAY = rf"(?:on\s+)?(?P<wd>{'|'.join(sorted(_WEEKDAYS, key=len, reverse=True))})"
_NEXT_WEEK_ON = re.compile(
    rf"\bnext\s+week\s+{_EN_WEEKDAY}\b|\b{_EN_WEEKDAY.replace('<wd>', '<wd2>')}\s+(?:of\s+)?next\s+week\b",
    FLAGS,
)
_HE_NEXT_WEEK_ON = re.compile(
    rf"(?:(?<=\s)|^)(?:בשבוע\s+הבא\s+{_HE_WEEKDAY}|{_HE_WEEKDAY.replace('<hw>', '<hw2>').replace('<hw_sat>', '<hw2_sat>')}"
    rf"\s+(?:בשבוע\s+הבא|של\s+השבוע\s+הבא)){_END}"
)
#: "monday in two weeks", "in 3 weeks on friday", "ביום שני בעוד שבועיים"
_IN_WEEKS_ON = re.compile(
    rf"\b{_EN_WEEKDAY}\s+in\s+(?P<n>two|three|2|3)\s+weeks\b"
    rf"|\bin\s+(?P<n2>two|three|2|3)\s+weeks\s+{_EN_WEEKDAY.replace('<wd>', '<wd2>')}\b",
    FLAGS,
)
_HE_IN_WEEKS_ON = re.compile(
    rf"(?:(?<=\s)|^)(?:{_HE_WEEKDAY}\s+בעוד\s+(?P<n>שבועיים)|בעוד\s+(?P<n2>שבועיים)\s+"
    rf"{_HE_WEEKDAY.replace('<hw>', '<hw2>').replace('<hw_sat>', '<hw2_sat>')}){_END}"
)
_NEXT_WEEK_ALONE = re.compile(
    r"\b(?:(?:on|by|for|until)\s+)?next\s+week\b(?!\s*(?:end|day))|(?:(?<=\s)|^)(?:ב|עד\s+|ל)?שבוע\s+הבא"
    + _END,
    FLAGS,
)
_FORTNIGHT = re.compile(
    r"\b(?:in\s+(?:a|one)\s+fortnight|(?:a|one)\s+fortnight\s+(?:from\s+(?:now|today)|today))\b"
    r"|\bin\s+(?P<n>two|2)\s+fortnights\b",
    FLAGS,
)
#: Days only a calendar of the person's own, or of a holiday, places.
_UNPLACED = re.compile(
    r"\b(?:on|by|until|till|before)\s+(?:the\s+)?(?:"
    r"new\s+year'?s?(?:\s+(?:eve|day))?|christmas(?:\s+(?:eve|day))?|xmas|easter|thanksgiving|halloween|"
    r"hanukk?ah|chanukk?ah|passover|pesach|rosh\s+hashanah?|yom\s+kippur|sukkot|purim|"
    r"valentine'?s?(?:\s+day)?|mother'?s\s+day|father'?s\s+day|"
    r"(?:my|his|her|their|our|your|\w+'s)\s+(?:birthday|bday|anniversary|wedding))\b"
    r"|(?:(?<=\s)|^)(?:ב|עד|לפני)\s*(?:חנוכה|פסח|ראש\s+השנה|יום\s+כיפור|יום\s+הכיפורים|סוכות|פורים|"
    r"שבועות|ליל\s+הסדר|ערב\s+החג|יום\s+ההולדת\s+של\s*\S+|יום\s+ההולדת\s+שלי|יום\s+הנישואין)"
    + _END
    # A month with no day ("in january", "in early march", "בינואר"): which day of it is asked.
    + r"|\bin\s+(?:(?:early|mid|late)[\s-]+)?(?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b(?:\s+20\d\d\b)?(?!\s*\d)"
    r"|(?:(?<=\s)|^)ב(?:חודש\s+|תחילת\s+|אמצע\s+|סוף\s+)?(?:ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|"
    r"אוקטובר|נובמבר|דצמבר)(?!\s*\d)" + _END,
    FLAGS,
)


#: An amount of time right before the day ("a week before", "יומיים לפני").
_COUNTED_BACK = re.compile(
    r"\b(?:minutes?|hours?|days?|weeks?|months?)\s*$|(?:דקות|שעות|שעה|ימים|יום|יומיים|שבוע|שבועיים|חודש)\s*$",
    FLAGS,
)


@dataclass(frozen=True)
class DayPhrase:
    """The day a phrase names (None: none found), or that it names no day there is (`invalid`)."""

    day: date | None = None
    invalid: bool = False


def take_day_phrase(scan: Scan, today: date, first: int = 0) -> DayPhrase:
    """The day one of the phrases above names, taken out of `scan` (`first`: the weekday a week
    starts on, `first_weekday`, for "wednesday next week")."""
    for in_weeks in (_next_week_on, _in_weeks_on):
        found = in_weeks(scan, today, first)
        if found is not None:
            return found
    for read in (_of_month, _last_day, _year_first, _week_from, _fortnight, _on_the_ordinal, _he_week_from):
        found = read(scan, today)
        if found is not None:
            return found
    alone = _NEXT_WEEK_ALONE.search(scan.text)
    if alone is not None:
        scan.take(alone)  # "next week", "בשבוע הבא": the same weekday a week on (as "next month")
        return DayPhrase(today + timedelta(weeks=1))
    return DayPhrase()


def first_weekday(timezone: str, *, hebrew: bool) -> int:
    """The weekday a week starts on: Sunday in Israel and in Hebrew, Monday elsewhere."""
    return 6 if hebrew or timezone == "Asia/Jerusalem" else 0


def next_week_start(today: date, first: int) -> date:
    """The first day of the week after today's (`first`: `first_weekday`)."""
    return today + timedelta(days=(first - today.weekday() - 1) % 7 + 1)


def _weekday_in_week_of(day: date, weekday: int, first: int) -> date:
    start = day - timedelta(days=(day.weekday() - first) % 7)
    return start + timedelta(days=(weekday - start.weekday()) % 7)


def _said_weekday(match: re.Match[str]) -> int:
    groups = {k: v for k, v in match.groupdict().items() if v}
    for key in ("wd", "wd2"):
        if key in groups:
            return _WEEKDAYS[groups[key].lower()]
    for key in ("hw", "hw2"):
        if key in groups:
            return _HE_WEEKDAYS[groups[key]]
    return 5  # "שבת"


def _next_week_on(scan: Scan, today: date, first: int) -> DayPhrase | None:
    match = _NEXT_WEEK_ON.search(scan.text) or _HE_NEXT_WEEK_ON.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    return DayPhrase(_weekday_in_week_of(next_week_start(today, first), _said_weekday(match), first))


def _in_weeks_on(scan: Scan, today: date, first: int) -> DayPhrase | None:
    match = _IN_WEEKS_ON.search(scan.text) or _HE_IN_WEEKS_ON.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    said = (match.group("n") or match.group("n2")).lower()
    weeks = {"two": 2, "2": 2, "שבועיים": 2, "three": 3, "3": 3}[said]
    return DayPhrase(_weekday_in_week_of(today + timedelta(weeks=weeks), _said_weekday(match), first))


def _he_week_from(scan: Scan, today: date) -> DayPhrase | None:
    match = _HE_WEEK_FROM.search(scan.text)
    if match is None:
        return None
    base = match.group("hbase")
    if base == "היום":
        start = today
    elif base == "מחר":
        start = today + timedelta(days=1)
    else:
        weekday = _HE_WEEKDAYS[base.split()[-1]]
        start = today + timedelta(days=(weekday - today.weekday()) % 7)
    scan.take(match)
    return DayPhrase(start + timedelta(weeks=2 if match.group("n") == "שבועיים" else 1))


def take_unplaced(scan: Scan) -> bool:
    """ "on christmas", "before mom's birthday", "בחנוכה": taken out of `scan` (asked, never guessed)."""
    match = _UNPLACED.search(scan.text)
    if match is None or _COUNTED_BACK.search(scan.text[: match.start()]):
        return False  # "a week before my birthday": an amount before a day, asked as a whole
    scan.take(match)
    return True


def _month_after(today: date, months: int) -> tuple[int, int]:
    index = today.month - 1 + months
    return today.year + index // 12, index % 12 + 1


def _that_day(year: int, month: int, day: int) -> DayPhrase:
    try:
        return DayPhrase(date(year, month, day))
    except ValueError:
        return DayPhrase(invalid=True)  # "the 31st of next month" in a month of 30 days


def _ordinal(match: re.Match[str]) -> int:
    groups = match.groupdict()
    said = groups.get("d") or groups.get("d2")
    if said is not None:
        return _HE_DAYS.get(said) or int(said)
    return ORDINAL_WORDS[re.sub(r"[\s-]+", " ", (groups.get("w") or groups["w2"]).lower())]


def _of_month(scan: Scan, today: date) -> DayPhrase | None:
    match = _OF_MONTH.search(scan.text)
    if match is not None:
        scan.take(match)
        day = _ordinal(match)
        which = re.sub(r"\s+", " ", (match.group("which") or match.group("which2")).lower())
        if which in ("next", "the next", "the coming", "this coming"):
            return _that_day(*_month_after(today, 1), day)
        if which == "this":
            return _that_day(today.year, today.month, day)
        return _next_day_of_month(day, today)  # "the 1st of the month": the next one
    hebrew = _HE_OF_NEXT_MONTH.search(scan.text)
    if hebrew is None:
        return None
    scan.take(hebrew)
    return _that_day(*_month_after(today, 1), _ordinal(hebrew))


def _on_the_ordinal(scan: Scan, today: date) -> DayPhrase | None:
    match = _ON_THE_ORDINAL.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    return _next_day_of_month(ORDINAL_WORDS[re.sub(r"[\s-]+", " ", match.group("w").lower())], today)


def _next_day_of_month(day: int, today: date) -> DayPhrase:
    """The next date with this day of the month, today included (a month without it is skipped)."""
    for months in range(13):
        year, month = _month_after(today, months)
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return DayPhrase(date(year, month, day))
    return DayPhrase(invalid=True)


def _last_day(scan: Scan, today: date) -> DayPhrase | None:
    match = _LAST_DAY.search(scan.text)
    following = match is not None and match.group("which").lower().split()[-1] == "next"
    if match is None:
        match = _HE_LAST_DAY.search(scan.text)
        if match is None:
            return None
        following = match.group("next") is not None
    scan.take(match)
    year, month = _month_after(today, 1 if following else 0)
    return DayPhrase(date(year, month, calendar.monthrange(year, month)[1]))


def _year_first(scan: Scan, today: date) -> DayPhrase | None:
    del today  # the year is said
    match = _YEAR_FIRST.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    return _that_day(int(match.group("y")), int(match.group("m")), int(match.group("d")))


def _week_from(scan: Scan, today: date) -> DayPhrase | None:
    match = _WEEK_FROM.search(scan.text)
    if match is None:
        return None
    base = next(match.group(g) for g in ("base", "base2", "base3", "base4") if match.group(g)).lower()
    weeks = _WEEKS[match.group("n").lower()] if match.group("n") else 1
    if base in ("today", "now"):
        start = today
    elif base in ("tomorrow", "tmrw"):
        start = today + timedelta(days=1)
    elif match.group("base4"):  # "the wednesday after next" said on a Wednesday: not next week's
        start = today + timedelta(days=(_WEEKDAYS[base] - today.weekday() - 1) % 7 + 1)
    else:
        start = today + timedelta(days=(_WEEKDAYS[base] - today.weekday()) % 7)
    scan.take(match)
    return DayPhrase(start + timedelta(weeks=weeks))


def _fortnight(scan: Scan, today: date) -> DayPhrase | None:
    match = _FORTNIGHT.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    return DayPhrase(today + timedelta(weeks=4 if match.group("n") else 2))
