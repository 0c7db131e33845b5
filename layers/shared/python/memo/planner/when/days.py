"""The day of a date/time expression: calendar dates ("May 3", "3/5", "on the 1st", "3 במאי"), day
words ("tomorrow", "on friday", "מחר", "ביום שלישי"), and the weekend or a month's end; and days
that have passed ("yesterday", "אתמול"), which are no reminder's day.

Calendar dates with month names are resolved by `dateparser`; numeric ones are read in the user's
order (month first in the Americas, day first elsewhere), and the other order when only it is a date.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from memo.planner.when.scan import FLAGS, Scan

_EN_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "weds": 2,
    "thursday": 3,
    "thu": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_HE_WEEKDAYS = {"ראשון": 6, "שני": 0, "שלישי": 1, "רביעי": 2, "חמישי": 3, "שישי": 4, "שבת": 5}

_MONTHS_EN = (
    "jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|"
    "sep|sept|september|oct|october|nov|november|dec|december"
)
MONTHS_HE = "ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר"

_EN_DAY = re.compile(
    r"\b(?:(?:on|for|to|until)\s+)?(?:(?P<after>the\s+day\s+after\s+tomorrow|day\s+after\s+tomorrow)|"
    r"(?P<tomorrow>tomm?orr?ow|tmrw|tmrow|tmr|2morrow|2moro)|(?P<today>today)|(?P<tonight>tonight)|"
    r"(?:(?:this\s+coming|this\s+upcoming|the\s+coming|next|this|coming|upcoming)\s+)?(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mon|tues|tue|weds|wed|thurs|thu|fri|sat|sun)\b)",
    FLAGS,
)
_HE_DAY = re.compile(
    r"(?:(?<=\s)|^)(?:[בל]?-?)(?:(?P<after>מחרתיים)|(?P<tomorrow>מחר)|(?P<today>היום)|(?P<tonight>הערב|הלילה)|"
    r"(?:יום\s+)?(?P<weekday>ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)(?:\s+(?:הקרוב|הבא|הזה|הזאת))?)(?=\s|$|[,.!?])",
)
#: "ב-19.05", "ל-7.30", "בשעה 8.10": a Hebrew time of day written with a dot, or a date (19 May).
_HE_DOTTED = re.compile(
    r"(?:(?<=\s)|^)(?P<lead>[בל]-?|בשעה\s+)(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)(?![\d/.])"
)


def hebrew_dotted_times(text: str) -> str:
    """`text` with each Hebrew dotted time written with a colon ("ב-19.05" -> "ב-19:05") where it is
    a time: no date has such a month ("ב-7.30", "ב-21.15"), or a day is named in words beside it
    ("היום ב-19.05", "מחר ב-8.10"). Otherwise it stays a day and a month, as written."""
    named_day = _HE_DAY.search(_HE_DOTTED.sub(" ", text)) is not None

    def colon(found: re.Match[str]) -> str:
        month = int(found.group("m"))
        if named_day or not 1 <= month <= 12 or found.group("lead").startswith("בשעה"):
            return f"{found.group('lead')}{found.group('h')}:{found.group('m')}"
        return found.group()

    return _HE_DOTTED.sub(colon, text)


#: A weekday's name is also an ordinal ("שני" is "second", "שישי" "sixth"): it is a day when said as
#: one: "יום שני", "בשבת", "בשישי" ("on Friday"; not "בראשון לחודש", the 1st), "שישי הזה", "שני הבא".
_HE_WEEKDAY_NEEDS_YOM = re.compile(
    r"(?:^|\s)[בל]?-?יום\s+(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)|(?:^|\s)[בל]?-?שבת"
    r"|(?:^|\s)ב-?(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)(?=\s|$|[,.!?])(?!\s+(?:ל|ב|של\s+)ה?חודש)"
    r"|(?:^|\s)[בל]?-?(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)\s+(?:הזה|הקרוב|הבא)"
)
#: "next tuesday", "ביום שלישי הבא": a weekday said with "next".
_SAID_NEXT = re.compile(r"\bnext\b|הבא", re.I)
_DATE_NAMED = re.compile(
    rf"\b(?:on\s+)?(?:(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS_EN})|"
    rf"(?:{_MONTHS_EN})\s+\d{{1,2}}(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?\b",
    FLAGS,
)
_DATE_NAMED_HE = re.compile(rf"(?:^|(?<=\s))(?:[בלה])?-?\d{{1,2}}\s+ב?(?:{MONTHS_HE})(?:\s+\d{{4}})?")
_DATE_NUMERIC = re.compile(
    r"(?:^|(?<=\s))(?<!\bat\s)(?<!\bby\s)(?<!@\s)(?<!בשעה\s)(?:on\s+|[בל]-?)?(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?(?=\s|$|[,!?])"
    # "3.5 shekels", "2.5 kg": an amount, not a date.
    r"(?!\s*(?:[ap]\.?m\b|shekels?|nis|ils|dollars?|usd|euros?|eur|pounds?|kg|kilos?|g|grams?|km|miles?|liters?|litres?|l|"
    r"%|percent|ש\"ח|ש״ח|שקלים|שקל|דולר|יורו|ק\"ג|ק״ג|קילו|גרם|ליטר|אחוז))"
)
#: "בראשון לחודש", "באחד בחודש": a day of the month said as a Hebrew ordinal.
_HE_ORDINAL_DAYS = {
    "אחד": 1, "ראשון": 1, "שני": 2, "שלישי": 3, "רביעי": 4, "חמישי": 5, "שישי": 6, "שביעי": 7, "שמיני": 8,
    "תשיעי": 9, "עשירי": 10,
}  # fmt: skip
_ORDINAL_DAY = re.compile(
    r"\b(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\s+(?:every|each)\b)"
    rf"|(?:(?<=\s)|^)[בל]-?(?P<d2>\d{{1,2}}|{'|'.join(_HE_ORDINAL_DAYS)})\s+(?:ל|ב)ה?חודש(?=\s|$|[,.!?])(?!\s+(?:הבא|שעבר))",
    FLAGS,
)
_PAST_DAY = re.compile(
    r"\b(?:yesterday|the\s+day\s+before\s+yesterday|last\s+(?:night|week|month|year|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|\d+\s+(?:minutes?|hours?|days?|weeks?)\s+ago)\b"
    r"|(?:(?<=\s)|^)(?:אתמול|שלשום|בשבוע\s+שעבר|"
    r"לפני\s+(?:\d+\s+(?:דקות|שעות|ימים|שבועות)|שעתיים|יומיים|שבועיים|שעה|יום|שבוע))(?=\s|$|[,.!?])",
    FLAGS,
)
#: "at the end of the month", "בסוף החודש": its last day; "next month", "בחודש הבא": the same day of
#: next month (as "in a week" is the same weekday); the day is shown with the question, to be changed.
_MONTH_END = re.compile(
    r"\b(?:(?:at|by|on)\s+)?(?:the\s+)?end\s+of\s+(?:the|this)\s+month\b"
    r"|(?:(?<=\s)|^)(?:ב|עד\s+)?סוף\s+החודש(?=\s|$|[,.!?])",
    re.I,
)
_NEXT_MONTH = re.compile(
    r"\b(?:in\s+a\s+month|next\s+month)\b|(?:(?<=\s)|^)(?:ב)?(?:חודש\s+הבא|החודש\s+הבא|עוד\s+חודש)(?=\s|$|[,.!?])",
    re.I,
)
_WEEKEND = re.compile(
    r"\b(?:this|the|over\s+the|on\s+the|next)?\s*week\s*-?\s*end\b|(?:(?<=\s)|^)(?:[בל])?(?:סוף\s+השבוע|סופ\"?ש)(?P<he_next>\s+הבא)?(?=\s|$|[,.!?])",
    re.I,
)


@dataclass(frozen=True)
class FoundDay:
    """The day named (None: none), and what its words said besides."""

    day: date | None = None
    #: "tonight", "הערב": today, and its evening
    tonight: bool = False
    #: "next tuesday" said a day or two before it (`ParsedWhen.near_next`)
    near_next: bool = False
    #: a numeric date that is no date ("31/31")
    invalid: bool = False
    #: a weekday named on that weekday ("on saturday" said on a Saturday): the day is a week ahead
    same_weekday: bool = False


def take_past_day(scan: Scan) -> bool:
    """ "yesterday", "last week", "אתמול": a day that has passed, taken out of `scan`."""
    match = _PAST_DAY.search(scan.text)
    if match:
        scan.take(match)
    return match is not None


def take_day(scan: Scan, *, now_local: datetime, language: str, timezone: str, repeating: bool) -> FoundDay:
    """The day `scan` names, taken out of it: a calendar date first, then a day word, the weekend,
    the month's end, and (for no repetition) "next month"."""
    today = now_local.date()
    day, no_such_day = _take_calendar_date(scan, now_local=now_local, language=language, timezone=timezone)
    if day is not None:
        return _with_its_weekday(scan, day, today)
    numeric, invalid = _take_numeric_date(scan, today=today, timezone=timezone)
    invalid = invalid or no_such_day
    if numeric is not None:
        return _with_its_weekday(scan, numeric, today)
    day = _take_ordinal_date(scan, today) or _take_he_the_nth(scan, today)
    if day is not None:
        dated = _with_its_weekday(scan, day, today)
        return replace(dated, invalid=dated.invalid or invalid)
    found = _take_day_word(scan, today)
    if found is not None:
        return replace(found, invalid=invalid)
    # (With a repetition, "next month" is not read as its day.)
    spans = (
        (_take_weekend, _take_month_end) if repeating else (_take_weekend, _take_month_end, _take_next_month)
    )
    for take in spans:
        day = take(scan, today)
        if day is not None:
            break
    return FoundDay(day, invalid=invalid)


def _take_calendar_date(
    scan: Scan, *, now_local: datetime, language: str, timezone: str
) -> tuple[date | None, bool]:
    """ "May 3", "the 3rd of May", "3 במאי" (resolved by dateparser); and whether the words name a
    day no month has ("April 31st", "30 בפברואר", "Feb 29 2027"), taken out too: asked, never read
    as some other day."""
    for pattern in (_DATE_NAMED, _DATE_NAMED_HE):
        match = pattern.search(scan.text)
        if match:
            resolved = _parse_calendar_date(
                match.group(0), now_local=now_local, language=language, timezone=timezone
            )
            if resolved is not None:
                scan.take(match)
                return resolved, False
            if _no_such_day(match.group(0)):
                scan.take(match)
                return None, True
    return None, False


#: The first letters of each month's name, English and Hebrew, in the year's order.
_MONTH_STARTS = (
    ("jan", "ינו"), ("feb", "פבר"), ("mar", "מר"), ("apr", "אפר"), ("may", "מאי"), ("jun", "יונ"),
    ("jul", "יול"), ("aug", "אוג"), ("sep", "ספט"), ("oct", "אוק"), ("nov", "נוב"), ("dec", "דצ"),
)  # fmt: skip


def _no_such_day(words: str) -> bool:
    """Whether a named date's day is past its month's last ("april 31", "feb 30"; Feb 29 of a year
    that has none) or is 0."""
    day = re.search(r"(?<!\d)(\d{1,2})(?!\d)", words)
    year = re.search(r"\d{4}", words)
    folded = re.sub(r"[^a-zא-ת]", " ", words.lower())
    month = next(
        (
            number
            for number, (en, he) in enumerate(_MONTH_STARTS, start=1)
            if re.search(rf"(?:^|\s)(?:{en}|ב?{he})", folded)
        ),
        None,
    )
    if day is None or month is None:
        return False
    last = (
        calendar.monthrange(int(year.group(0)), month)[1]
        if year
        else (29 if month == 2 else calendar.monthrange(2023, month)[1])
    )
    return not 1 <= int(day.group(1)) <= last


def _take_numeric_date(scan: Scan, *, today: date, timezone: str) -> tuple[date | None, bool]:
    """ "3/5", "25.12.2026": the date, and whether the numbers were no date (both orders impossible)."""
    match = _DATE_NUMERIC.search(scan.text)
    if match is None or _a_time_not_a_date(match):
        return None, False  # "17.30": no month 30, so the time it reads as (`clock`)
    day = _numeric_date(match, today=today, timezone=timezone)
    scan.take(match)
    return day, day is None


def _with_its_weekday(scan: Scan, day: date, today: date) -> FoundDay:
    """A date named with a weekday beside it ("on tuesday the 24th", "ביום שלישי ה-24"): the weekday
    is the date's own and is taken out of the words with it; a weekday that is another day's
    ("tuesday the 25th" when the 25th is a Wednesday) makes the day unknown: asked, never guessed."""
    if not _a_weekday(scan.text):
        return FoundDay(day)
    probe = Scan(scan.text)
    said = _take_day_word(probe, today)
    # Either way the weekday is a time word, not the title's ("send the report on tuesday").
    scan.text = probe.text
    scan.fragments += probe.fragments
    agrees = said is not None and said.day is not None and said.day.weekday() == day.weekday()
    return FoundDay(day, invalid=not agrees)


def _a_weekday(text: str) -> bool:
    """Whether the words name a day of the week (not "today" or "tomorrow")."""
    return any(
        m.group("weekday") and (p is _EN_DAY or _HE_WEEKDAY_NEEDS_YOM.search(m.group(0)))
        for p in (_EN_DAY, _HE_DAY)
        for m in p.finditer(text)
    )


#: "ביום שלישי ה-25": a day of the month said with "ה" after its weekday.
_HE_THE_NTH = re.compile(
    r"(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)\s+(?P<nth>ה-?(?P<d>[12]?\d|3[01]))(?=\s|$|[,.!?])"
)


def _take_he_the_nth(scan: Scan, today: date) -> date | None:
    match = _HE_THE_NTH.search(scan.text)
    if match is None:
        return None
    scan.take_span(match.start("nth"), match.end("nth"))
    return _ordinal_date(int(match.group("d")), today)


def _take_ordinal_date(scan: Scan, today: date) -> date | None:
    """ "on the 1st", "ב-1 לחודש": the next such day of a month."""
    match = _ORDINAL_DAY.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    said = match.group("d") or match.group("d2")
    return _ordinal_date(_HE_ORDINAL_DAYS.get(said) or int(said), today)


def _take_day_word(scan: Scan, today: date) -> FoundDay | None:
    """ "tomorrow", "tonight", "on friday", "מחר", "ביום שלישי"."""
    for pattern in (_EN_DAY, _HE_DAY):
        for match in pattern.finditer(scan.text):
            if (
                match.group("weekday")
                and pattern is _HE_DAY
                and not _HE_WEEKDAY_NEEDS_YOM.search(match.group(0))
            ):
                # A bare "שני"/"שלישי" is also "second"/"third" ("לקנות שני לחמים מחר"): no day,
                # and the words after it are still read.
                continue
            found = _day_of_word(match, today)
            if found is None:
                break
            scan.take(match)
            return found
    return None


def _day_of_word(match: re.Match[str], today: date) -> FoundDay | None:
    if match.group("after"):
        return FoundDay(today + timedelta(days=2))
    if match.group("tomorrow"):
        return FoundDay(today + timedelta(days=1))
    if match.group("today"):
        return FoundDay(today)
    if match.group("tonight"):
        return FoundDay(today, tonight=True)
    name = match.group("weekday").lower()
    weekday = _EN_WEEKDAYS.get(name, _HE_WEEKDAYS.get(name))
    if weekday is None:
        return None
    day = _next_weekday(today, weekday)
    # "next tuesday" on a Monday: tomorrow, or the Tuesday of next week?
    said_next = bool(_SAID_NEXT.search(match.group(0)))
    near_next = said_next and (day - today).days <= 2
    return FoundDay(day, near_next=near_next, same_weekday=weekday == today.weekday() and not said_next)


def _take_weekend(scan: Scan, today: date) -> date | None:
    """ "this weekend", "בסוף השבוע": its Saturday (a weekend day in Israel and elsewhere); the day is
    shown with the question or the confirmation, so it can be said otherwise."""
    match = _WEEKEND.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    saturday = _next_weekday(today, 5) if today.weekday() != 5 else today
    if (re.match(r"\s*next\b", match.group(0), re.I) or match.group("he_next")) and saturday == today:
        saturday += timedelta(weeks=1)  # "next weekend" said on a Saturday: the one after it
    return saturday


def _take_month_end(scan: Scan, today: date) -> date | None:
    match = _MONTH_END.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    return date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])


def _take_next_month(scan: Scan, today: date) -> date | None:
    match = _NEXT_MONTH.search(scan.text)
    if match is None:
        return None
    scan.take(match)
    following = date(today.year + today.month // 12, today.month % 12 + 1, 1)
    last = calendar.monthrange(following.year, following.month)[1]
    return following.replace(day=min(today.day, last))


def _a_time_not_a_date(match: re.Match[str]) -> bool:
    """ "17.30", "8.45" with a dot and no year: an hour and its minutes where the month is impossible."""
    whole = match.group(0)
    if "/" in whole or match.group(3) is not None:
        return False
    hour, minute = int(match.group(1)), int(match.group(2))
    return hour <= 23 and 12 < minute <= 59


def _next_weekday(today: date, weekday: int) -> date:
    ahead = (weekday - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def _parse_calendar_date(fragment: str, *, now_local: datetime, language: str, timezone: str) -> date | None:
    import dateparser

    cleaned = re.sub(r"^(?:on\s+|[בלה]-?)", "", fragment.strip(), flags=FLAGS)
    cleaned = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", cleaned, flags=FLAGS)
    order = "MDY" if timezone.startswith("America/") else "DMY"
    parsed = dateparser.parse(
        cleaned,
        languages=[language, "en"] if language != "en" else ["en"],
        settings={
            "RELATIVE_BASE": now_local.replace(tzinfo=None),
            "PREFER_DATES_FROM": "future",
            "DATE_ORDER": order,
            "REQUIRE_PARTS": ["day", "month"],
        },
    )
    return parsed.date() if parsed else None


def _numeric_date(match: re.Match[str], *, today: date, timezone: str) -> date | None:
    """12/25 or 25/12: the user's order first (month first in the Americas), then the other."""
    a, b = int(match.group(1)), int(match.group(2))
    raw_year = match.group(3)
    year = (int(raw_year) + (2000 if len(raw_year) == 2 else 0)) if raw_year else today.year
    orders = ((a, b), (b, a)) if timezone.startswith("America/") else ((b, a), (a, b))
    for month, day in orders:
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if raw_year is None and found < today:
            try:
                found = date(year + 1, month, day)
            except ValueError:
                continue
        return found
    return None


def _ordinal_date(day_of_month: int, today: date) -> date | None:
    """The next date with this day of the month, today included."""
    year, month = today.year, today.month
    for _ in range(13):
        try:
            found = date(year, month, day_of_month)
        except ValueError:
            found = None
        if found is not None and found >= today:
            return found
        month += 1
        if month > 12:
            year, month = year + 1, 1
    return None
