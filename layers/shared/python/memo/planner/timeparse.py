"""Find and resolve the date/time expression inside a message, in the user's timezone.

`extract_when` finds the day part ("tomorrow", "on friday", "May 3", "מחר", "ביום שלישי", "3/5"),
the time-of-day part ("at 5pm", "17:00", "ב-17:00", "בשעה 5 בערב", "noon") and relative offsets
("in 2 hours", "בעוד שעתיים"), resolves them against `now` in the user's IANA timezone, and returns
the message with those fragments removed (the reminder's title). Calendar dates with month names
or numbers are resolved by `dateparser`; the rest is small, explicit arithmetic, because
dateparser alone drops parts of compound phrases such as "מחר ב-17:00".

Recurrence ("every day at 8am", "כל יום ראשון") is found first by `memo.text.recurrence` and
returned as an RRULE value with the first occurrence as `when`. A time that does not exist
("at 25:00") or a day in the past ("yesterday") is removed from the title and reported as
`problem`, so the reminder asks instead of guessing.

Rules a user would expect:
- a time with no day is today, or tomorrow if that time has already passed;
- a part of the day alone ("in the morning", "בערב") is its default time (morning 09:00, noon
  12:00, afternoon 15:00, evening 19:00, tonight 20:00, night 21:00), the next one to come;
- hour words count ("at five", "half past six", "בשמונה", "שלוש וחצי", "רבע לשבע");
- "on the 1st" is the next 1st of a month; 12/25 and 25/12 are read in the user's order
  (month first in the Americas, day first elsewhere), and the other order when only it is a date;
- an hour from 1 to 7 without am/pm means the afternoon ("at 5" is 17:00);
- a day with no time is reported as date-only (`has_time=False`), so a reminder can ask for it,
  except parts of the day that name a time ("tonight" 20:00, "tomorrow morning" 09:00).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from memo.text.recurrence import Recurrence, default_start, find_recurrence, series

TimeProblem = Literal["invalid_time", "past"]

_FLAGS = re.IGNORECASE

_EN_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
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

_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "ten": 10,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "a couple of": 2,
    "a few": 3,
}

_PART_DEFAULTS = {"morning": 9, "afternoon": 15, "evening": 19, "night": 21, "tonight": 20, "noon": 12}

_MONTHS_EN = (
    "jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|"
    "sep|sept|september|oct|october|nov|november|dec|december"
)
_MONTHS_HE = "ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר"

# Relative offsets.
_EN_REL_HALF = re.compile(r"\bin\s+(?:an|one)\s+hour\s+and\s+a\s+half\b", _FLAGS)
_EN_REL = re.compile(
    r"\bin\s+(?P<n>\d+(?:\.\d+)?|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|"
    r"a couple of|a few|half an)\s*(?P<unit>minutes?|mins?|hours?|hrs?|h|days?|weeks?)\b",
    _FLAGS,
)
_HE_REL = re.compile(
    r"(?:ב)?עוד\s+(?:(?P<n>\d+)\s*(?P<unit>דקות|דק'|דקה|שעות|שעה|ימים|יום|שבועות|שבוע)|"
    r"(?P<word>חצי שעה|רבע שעה|שעה וחצי|שעתיים|שעה|דקה|יומיים|יום|שבועיים|שבוע))",
)

# Days.
_EN_DAY = re.compile(
    r"\b(?:(?:on|for|to|until)\s+)?(?:(?P<after>the\s+day\s+after\s+tomorrow|day\s+after\s+tomorrow)|"
    r"(?P<tomorrow>tomm?orr?ow|tmrw|tmrow|tmr|2morrow|2moro)|(?P<today>today)|(?P<tonight>tonight)|"
    r"(?:(?:next|this|coming)\s+)?(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mon|tues|tue|wed|thurs|thu|fri|sat|sun)\b)",
    _FLAGS,
)
_HE_DAY = re.compile(
    r"(?:(?<=\s)|^)(?:[בל]?-?)(?:(?P<after>מחרתיים)|(?P<tomorrow>מחר)|(?P<today>היום)|(?P<tonight>הערב|הלילה)|"
    r"(?:יום\s+)?(?P<weekday>ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)(?:\s+(?:הקרוב|הבא))?)(?=\s|$|[,.!?])",
)
_HE_WEEKDAY_NEEDS_YOM = re.compile(
    r"(?:^|\s)[בל]?-?יום\s+(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)|(?:^|\s)[בל]?-?שבת"
)
_DATE_NAMED = re.compile(
    rf"\b(?:on\s+)?(?:(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS_EN})|"
    rf"(?:{_MONTHS_EN})\s+\d{{1,2}}(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?\b",
    _FLAGS,
)
_DATE_NAMED_HE = re.compile(rf"(?:^|(?<=\s))(?:[בלה])?-?\d{{1,2}}\s+ב?(?:{_MONTHS_HE})(?:\s+\d{{4}})?")
_DATE_NUMERIC = re.compile(
    r"(?:^|(?<=\s))(?<!\bat\s)(?<!\bby\s)(?<!@\s)(?<!בשעה\s)(?:on\s+|[בל]-?)?(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?(?=\s|$|[,!?])"
    # "3.5 shekels", "2.5 kg": an amount, not a date.
    r"(?!\s*(?:shekels?|nis|ils|dollars?|usd|euros?|eur|pounds?|kg|kilos?|g|grams?|km|miles?|liters?|litres?|l|"
    r"%|percent|ש\"ח|ש״ח|שקלים|שקל|דולר|יורו|ק\"ג|ק״ג|קילו|גרם|ליטר|אחוז))"
)


def _a_time_not_a_date(match: re.Match[str]) -> bool:
    """ "17.30", "8.45" with a dot and no year: an hour and its minutes where the month is impossible."""
    whole = match.group(0)
    if "/" in whole or match.group(3) is not None:
        return False
    hour, minute = int(match.group(1)), int(match.group(2))
    return hour <= 23 and 12 < minute <= 59


# Times of day.
_EN_AMPM = re.compile(
    r"\b(?:(?:at|by|around|@)\s*)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>a\.?m\.?|p\.?m\.?)(?=\W|$)",
    _FLAGS,
)
_CLOCK = re.compile(
    r"(?:(?:\b(?:at|by|around|to)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?|בסביבות\s+))?"
    r"(?<![\d/.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d/])"
    # "at 8.30", "בשעה 17.30": a dot between hour and minutes after a word that says a time, and
    # "17.30" on its own where it can be no date (no month 30): 8.12 alone stays a date.
    r"|(?:\b(?:at|by|around)\s+|@\s*|(?:(?<=\s)|^)בשעה\s+)(?<![\d/.])(?P<h2>[01]?\d|2[0-3])\.(?P<m2>[0-5]\d)(?![\d/.])"
    r"|(?:(?<=\s)|^)(?P<h3>[01]?\d|2[0-3])\.(?P<m3>1[3-9]|[2-5]\d)(?![\d/.])"
)
_EN_AT_HOUR = re.compile(
    r"\b(?:at|by|around|to|@)\s*(?P<h>\d{1,2})\b(?![:/.]?\d|\s*(?:minutes?|hours?|days?))", _FLAGS
)
_HE_AT_HOUR = re.compile(
    r"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-|[בל](?=\d)|בסביבות\s+)(?P<h>\d{1,2})(?![:/.]?\d)(?!\s+ב?(?:"
    + _MONTHS_HE
    + "))"
)
_EN_NOON = re.compile(r"\b(?:at\s+)?(?P<w>noon|midday|midnight)\b", _FLAGS)
_EN_PART = re.compile(
    r"\b(?:in\s+the\s+(?P<p1>morning|afternoon|evening)|at\s+(?P<p2>night)|this\s+(?P<p3>morning|afternoon|evening)|"
    r"(?P<p5>first\s+thing)(?:\s+in\s+the\s+morning)?|(?P<p4>morning|afternoon|evening|night))\b",
    _FLAGS,
)
_HE_PART = re.compile(r"(?:(?<=\s)|^)(?P<p>בבוקר|בצהריים|בצהרים|אחר הצהריים|אחה\"צ|אחה״צ|בערב|בלילה)")
_HE_PART_MAP = {
    "בבוקר": "morning",
    "בצהריים": "noon",
    "בצהרים": "noon",
    "אחר הצהריים": "afternoon",
    'אחה"צ': "afternoon",
    "אחה״צ": "afternoon",
    "בערב": "evening",
    "בלילה": "night",
}


# Hour words.
_EN_HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_EN_HOURS = "|".join(_EN_HOUR_WORDS)
_EN_MINUTE_WORDS = {
    "o'clock": 0,
    "oclock": 0,
    "fifteen": 15,
    "thirty": 30,
    "forty five": 45,
    "forty-five": 45,
}
_EN_WORD_TIME = re.compile(
    rf"\b(?:at|by|around)\s+(?P<h>{_EN_HOURS})(?:\s+(?P<m>o'?clock|fifteen|thirty|forty[- ]five))?\b", _FLAGS
)
_EN_PAST_TO = re.compile(
    rf"\b(?:(?:at|by|around)\s+)?(?P<q>half|(?:a\s+)?quarter|\d{{1,2}}|five|ten|twenty)\s+(?P<rel>past|after|to|before)\s+"
    rf"(?P<h>\d{{1,2}}|{_EN_HOURS})\b",
    _FLAGS,
)
_HE_HOUR_WORDS = {
    "אחת עשרה": 11, "אחת-עשרה": 11, "שתים עשרה": 12, "שתיים עשרה": 12, "שתים-עשרה": 12,
    "אחת": 1, "שתיים": 2, "שתים": 2, "שלוש": 3, "ארבע": 4, "חמש": 5, "שש": 6, "שבע": 7,
    "שמונה": 8, "תשע": 9, "עשר": 10,
}  # fmt: skip
_HE_HOURS = "|".join(_HE_HOUR_WORDS)
_HE_FRACTIONS = {"וחצי": 30, "ורבע": 15, "ועשרה": 10, "ועשרים": 20, "וחמישה": 5, "וחמש": 5, "ועשר": 10}
_HE_FRACTION = "|".join(_HE_FRACTIONS)
_HE_WORD_TIME = re.compile(
    rf"(?:(?<=\s)|^)(?:(?:בשעה\s+|ב-?|ל-?|בסביבות\s+)(?P<h>{_HE_HOURS})(?:\s+(?P<f>{_HE_FRACTION}))?"
    rf"|(?P<h2>{_HE_HOURS})\s+(?P<f2>{_HE_FRACTION})"
    rf"|(?:בשעה\s+|ב-?)?רבע\s+ל-?(?P<h3>{_HE_HOURS}))(?=\s|$|[,.!?])"
)
_HE_CLOCK_FRACTION = re.compile(
    rf"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?)(?P<h>\d{{1,2}})\s+(?P<f>{_HE_FRACTION})(?=\s|$|[,.!?])"
)

# Times that do not exist, and days that have passed.
_INVALID_TIME = re.compile(
    r"(?:(?:\b(?:at|by|around)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?))?"
    r"(?<![\d/.])(?:(?P<h>2[4-9]|[3-9]\d):(?P<m>\d{2})|(?P<h2>\d{1,2}):(?P<m2>[6-9]\d)"
    r"|(?P<h3>1[3-9]|2\d)\s*(?:a\.?m\.?|p\.?m\.?)(?=\W|$)|\b(?:at|by)\s+(?P<h4>2[5-9]|[3-9]\d)\b(?![:/.\d]|\s*(?:minutes?|hours?|days?)))",
    _FLAGS,
)
_PAST_DAY = re.compile(
    r"\b(?:yesterday|the\s+day\s+before\s+yesterday|last\s+(?:night|week|month|year|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|\d+\s+(?:minutes?|hours?|days?|weeks?)\s+ago)\b"
    r"|(?:(?<=\s)|^)(?:אתמול|שלשום|בשבוע\s+שעבר|"
    r"לפני\s+(?:\d+\s+(?:דקות|שעות|ימים|שבועות)|שעתיים|יומיים|שבועיים|שעה|יום|שבוע))(?=\s|$|[,.!?])",
    _FLAGS,
)
_ORDINAL_DAY = re.compile(
    r"\b(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\s+(?:every|each)\b)"
    r"|(?:(?<=\s)|^)[בל]-?(?P<d2>\d{1,2})\s+לחודש(?=\s|$|[,.!?])",
    _FLAGS,
)


@dataclass(frozen=True)
class ParsedWhen:
    """The resolved date/time of a message and the message without it.

    `when` is set when a full date and time is known (aware, in the user's timezone);
    `day` is set when only the day is known. `found` says whether any expression was seen.
    """

    when: datetime | None = None
    day: date | None = None
    remainder: str = ""
    fragments: tuple[str, ...] = field(default_factory=tuple)
    explicit_day: bool = False
    #: the RRULE value of a repeating time ("FREQ=WEEKLY;BYDAY=MO"); `when` is its first occurrence
    recurrence: str | None = None
    #: a time that does not exist ("at 25:00") or has passed ("yesterday"): ask, never guess
    problem: TimeProblem | None = None
    #: a time of day was named ("at 6pm"), and a day ("tomorrow", "on friday", "in 2 days")
    named_time: bool = False
    #: the time of day as said, before a passed morning hour became its evening ("HH:MM")
    said_time: str | None = None
    #: the hour was said without am/pm and is a morning hour ("at 9", "9:30"): 12 hours later is
    #: the same words ("move it to 9" at noon, for today's reminder, is 21:00)
    either_half: bool = False
    #: "15 minutes before my 3pm meeting": `when` is 14:45 and this is the time it is before ("15:00")
    lead_for: str | None = None
    #: "next tuesday" said a day or two before it: that Tuesday (the day), or the one a week later?
    #: People mean both; the day is the reading, and it is shown to be confirmed.
    near_next: bool = False

    @property
    def has_time(self) -> bool:
        return self.when is not None

    @property
    def found(self) -> bool:
        return (
            self.when is not None
            or self.day is not None
            or self.recurrence is not None
            or self.problem is not None
        )

    def change(self) -> dict[str, object]:
        """What a move changes: {"when"} for a day and a time, {"time": "HH:MM"} for a time alone
        (the reminder keeps its day), {"day"} for a day alone (it keeps its time of day), and
        {"when", "recurrence"} for a repeating time ("every sunday at 10": it repeats from then on)."""
        if self.when is not None and self.recurrence is not None:
            return {"when": self.when.isoformat(), "recurrence": self.recurrence}
        if self.when is not None:
            if self.named_time and not self.explicit_day:
                if self.either_half and self.said_time is not None:
                    # Which half is decided against the reminder's own day (`eitherHalf`), not today.
                    return {"time": self.said_time, "eitherHalf": True}
                return {"time": f"{self.when:%H:%M}"}
            return {"when": self.when.isoformat()}
        if self.day is not None:
            return {"day": self.day.isoformat()}
        return {}


@dataclass
class _Scan:
    text: str
    fragments: list[str] = field(default_factory=list)

    def take(self, match: re.Match[str]) -> None:
        self.take_span(*match.span())

    def take_span(self, start: int, end: int) -> None:
        self.fragments.append(self.text[start:end].strip())
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]


def _number(word: str) -> float:
    word = word.lower().strip()
    if word == "half an":
        return 0.5
    if word in _EN_NUMBERS:
        return float(_EN_NUMBERS[word])
    return float(word)


def _he_rel_delta(match: re.Match[str]) -> tuple[timedelta, bool]:
    word = match.group("word")
    words = {
        "חצי שעה": (timedelta(minutes=30), True),
        "רבע שעה": (timedelta(minutes=15), True),
        "שעה וחצי": (timedelta(minutes=90), True),
        "שעתיים": (timedelta(hours=2), True),
        "שעה": (timedelta(hours=1), True),
        "דקה": (timedelta(minutes=1), True),
        "יומיים": (timedelta(days=2), False),
        "יום": (timedelta(days=1), False),
        "שבועיים": (timedelta(weeks=2), False),
        "שבוע": (timedelta(weeks=1), False),
    }
    if word:
        return words[word]
    n = int(match.group("n"))
    unit = match.group("unit")
    if unit.startswith("דק"):
        return timedelta(minutes=n), True
    if unit.startswith("שע"):
        return timedelta(hours=n), True
    if unit in ("ימים", "יום"):
        return timedelta(days=n), False
    return timedelta(weeks=n), False


def _en_rel_delta(match: re.Match[str]) -> tuple[timedelta, bool]:
    n = _number(match.group("n"))
    unit = match.group("unit").lower()
    if unit.startswith("m"):
        return timedelta(minutes=n), True
    if unit.startswith("h"):
        return timedelta(hours=n), True
    if unit.startswith("d"):
        return timedelta(days=n), False
    return timedelta(weeks=n), False


def _next_weekday(today: date, weekday: int) -> date:
    ahead = (weekday - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def _parse_calendar_date(fragment: str, *, now_local: datetime, language: str, timezone: str) -> date | None:
    import dateparser

    cleaned = re.sub(r"^(?:on\s+|[בלה]-?)", "", fragment.strip(), flags=_FLAGS)
    cleaned = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", cleaned, flags=_FLAGS)
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


def _apply_part(hour: int, part: str | None) -> int:
    if part in ("afternoon", "evening") and hour < 12:
        return hour + 12
    if part == "night" and 6 <= hour < 12:
        return hour + 12
    if part == "morning" and hour == 12:
        return 0
    if part == "noon" and hour < 6:
        return hour + 12
    return hour


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


def _en_hour(word: str) -> int:
    return _EN_HOUR_WORDS.get(word.lower()) or int(word)


def _past_to(match: re.Match[str]) -> tuple[int, int] | None:
    q = match.group("q").lower()
    minutes = 30 if q == "half" else 15 if q.endswith("quarter") else _EN_NUMBERS.get(q) or int(q)
    hour = _en_hour(match.group("h"))
    if not 1 <= hour <= 12 or not 0 < minutes < 60:
        return None
    if match.group("rel").lower() in ("past", "after"):
        return hour, minutes
    return (hour - 1 or 12), 60 - minutes


_BARE_HOUR_BEFORE = re.compile(r"(?:^|\s)(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*$")


def _find_time(scan: _Scan) -> tuple[int, int, bool, bool] | None:
    """The time of day: (hour, minute, explicit am/pm or 24-hour, clock form)."""
    match = _EN_AMPM.search(scan.text)
    if match and 1 <= int(match.group("h")) <= 12:
        h = int(match.group("h"))
        ampm = match.group("ampm").lower()
        scan.take(match)
        return (h % 12) + (12 if ampm.startswith("p") else 0), int(match.group("m") or 0), True, False
    match = _EN_NOON.search(scan.text)
    if match:
        scan.take(match)
        return (0 if match.group("w").lower() == "midnight" else 12), 0, True, False
    match = _CLOCK.search(scan.text)
    if match:
        hour_text: str = match.group("h") or match.group("h2") or match.group("h3")
        hour, minute = int(hour_text), int(match.group("m") or match.group("m2") or match.group("m3"))
        scan.take(match)
        return hour, minute, hour == 0 or hour > 12 or hour_text.startswith("0"), True
    match = _EN_PAST_TO.search(scan.text)
    if match:
        found = _past_to(match)
        if found is not None:
            scan.take(match)
            return found[0], found[1], False, False
    match = _EN_WORD_TIME.search(scan.text)
    if match:
        scan.take(match)
        minute_word = (match.group("m") or "o'clock").lower().replace("-", " ")
        return _EN_HOUR_WORDS[match.group("h").lower()], _EN_MINUTE_WORDS.get(minute_word, 0), False, False
    match = _HE_CLOCK_FRACTION.search(scan.text)
    if match and 0 <= int(match.group("h")) <= 23:
        scan.take(match)
        hour = int(match.group("h"))
        return hour, _HE_FRACTIONS[match.group("f")], hour == 0 or hour > 12, False
    match = _HE_WORD_TIME.search(scan.text)
    if match:
        scan.take(match)
        if match.group("h3"):
            hour = _HE_HOUR_WORDS[match.group("h3")]
            return (hour - 1 or 12), 45, False, False
        word = match.group("h") or match.group("h2")
        fraction = match.group("f") or match.group("f2")
        return _HE_HOUR_WORDS[word], _HE_FRACTIONS[fraction] if fraction else 0, False, False
    for pattern in (_EN_AT_HOUR, _HE_AT_HOUR):
        match = pattern.search(scan.text)
        if match and 0 <= int(match.group("h")) <= 23:
            hour = int(match.group("h"))
            scan.take(match)
            return hour, 0, hour == 0 or hour > 12, False
    return None


_BEFORE = re.compile(
    r"\b(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|ten)\s+(?P<unit>days?|weeks?)\s+before\b"
    r"|(?:(?<=\s)|^)(?P<he>יום|יומיים|שבוע|שבועיים|(?P<hn>\d{1,2})\s+(?P<hu>ימים|שבועות))\s+לפני(?=\s)",
    re.I,
)
_BEFORE_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "ten": 10,
}
#: "15 minutes before my 3pm meeting", "רבע שעה לפני הפגישה בשלוש": a lead time before the time of day
#: said (the same durations as "in 15 minutes" / "בעוד רבע שעה"; `_en_rel_delta`, `_he_rel_delta`).
_EN_LEAD = re.compile(
    r"\b(?P<n>\d+|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|a couple of|a few|half an)"
    r"\s*(?P<unit>minutes?|mins?|hours?|hrs?|h)\s+(?:before|ahead\s+of|prior\s+to)\b",
    _FLAGS,
)
_HE_LEAD = re.compile(
    r"(?:(?<=\s)|^)(?:(?P<n>\d+)\s*(?P<unit>דקות|דק'|שעות)|(?P<word>חצי שעה|רבע שעה|שעה וחצי|שעתיים|שעה))"
    r"\s+(?:לפני|קודם)(?=\s)"
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
#: A meal names the half of the day of a bare hour beside it ("dinner at 8", "ארוחת צהריים באחת").
_MEAL = re.compile(
    r"\b(?:(?P<evening>dinner|supper)|(?P<noon>lunch)|(?P<morning>breakfast))\b"
    r"|ארוחת\s+(?:(?P<evening_he>ערב)|(?P<noon_he>צהריים|צהרים)|(?P<morning_he>בוקר))",
    re.I,
)
_MEAL_PARTS = {
    "evening": "evening",
    "noon": "noon",
    "morning": "morning",
    "evening_he": "evening",
    "noon_he": "noon",
    "morning_he": "morning",
}
_WEEKEND = re.compile(
    r"\b(?:this|the|over\s+the|on\s+the|next)?\s*week\s*-?\s*end\b|(?:(?<=\s)|^)(?:ב)?(?:סוף\s+השבוע|סופ\"?ש)(?=\s|$|[,.!?])",
    re.I,
)


def _before_delta(match: re.Match[str]) -> timedelta:
    if match.group("n"):
        raw = match.group("n").lower()
        n = _BEFORE_WORDS.get(raw) or int(raw)
        return timedelta(weeks=n) if match.group("unit").lower().startswith("week") else timedelta(days=n)
    word = match.group("he")
    fixed = {
        "יום": timedelta(days=1),
        "יומיים": timedelta(days=2),
        "שבוע": timedelta(weeks=1),
        "שבועיים": timedelta(weeks=2),
    }
    if word in fixed:
        return fixed[word]
    n = int(match.group("hn"))
    return timedelta(weeks=n) if match.group("hu") == "שבועות" else timedelta(days=n)


def extract_when(
    text: str, *, now: datetime, timezone: str, language: str = "en", default_day: date | None = None
) -> ParsedWhen:
    """Find the date/time in `text`, resolved in `timezone` relative to `now` (aware).

    `default_day` is the day a bare time belongs to (e.g. the reminder's day already known);
    without it a bare time is today, or the next occurrence if already past.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tz = ZoneInfo(timezone)
    now_local = now.astimezone(tz)
    today = now_local.date()
    scan = _Scan(text)
    problem: TimeProblem | None = None

    # 0. Repetition ("every day", "כל יום ראשון"), and what cannot be a reminder time.
    repeat: Recurrence | None = None
    found_repeat = find_recurrence(scan.text, timezone=timezone, now_local=now_local, language=language)
    if found_repeat is not None:
        repeat = found_repeat.recurrence
        for start, end in sorted(found_repeat.spans, reverse=True):
            scan.take_span(start, end)
    match = _INVALID_TIME.search(scan.text)
    if match:
        problem = "invalid_time"
        scan.take(match)
    match = _PAST_DAY.search(scan.text)
    if match:
        problem = problem or "past"
        scan.take(match)

    # 1. Relative offsets ("in 2 hours", "בעוד שעתיים").
    rel_delta: timedelta | None = None
    rel_has_time = False
    match = _EN_REL_HALF.search(scan.text)
    if match:
        rel_delta, rel_has_time = timedelta(minutes=90), True
        scan.take(match)
    for pattern, conv in ((_HE_REL, _he_rel_delta), (_EN_REL, _en_rel_delta)):
        if rel_delta is not None:
            break
        match = pattern.search(scan.text)
        if match:
            rel_delta, rel_has_time = conv(match)
            scan.take(match)

    # 1b. "a week before dec 20", "2 days before friday", "יומיים לפני ה-20": the day named, less that;
    # "15 minutes before 3pm": the time named, less that. Each taken only when what it counts from is found.
    before = _BEFORE.search(scan.text)
    lead = _EN_LEAD.search(scan.text) or _HE_LEAD.search(scan.text)

    # 2. The day.
    day: date | None = None
    near_next = False
    part: str | None = repeat.part if repeat is not None else None
    for pattern in (_DATE_NAMED, _DATE_NAMED_HE):
        match = pattern.search(scan.text)
        if match:
            resolved = _parse_calendar_date(
                match.group(0), now_local=now_local, language=language, timezone=timezone
            )
            if resolved is not None:
                day = resolved
                scan.take(match)
                break
    if day is None:
        match = _DATE_NUMERIC.search(scan.text)
        if match and _a_time_not_a_date(match):
            match = None  # "17.30": no month 30, so the time it reads as (`_CLOCK`)
        if match:
            day = _numeric_date(match, today=today, timezone=timezone)
            if day is None:
                problem = problem or "invalid_time"
            scan.take(match)
    if day is None:
        match = _ORDINAL_DAY.search(scan.text)
        if match:
            day = _ordinal_date(int(match.group("d") or match.group("d2")), today)
            scan.take(match)
    if day is None:
        for pattern in (_EN_DAY, _HE_DAY):
            match = pattern.search(scan.text)
            if not match:
                continue
            if (
                match.group("weekday")
                and pattern is _HE_DAY
                and not _HE_WEEKDAY_NEEDS_YOM.search(match.group(0))
            ):
                # A bare "שני"/"שלישי" is also "second"/"third"; only "יום שני" / "בשבת" are days.
                continue
            if match.group("after"):
                day = today + timedelta(days=2)
            elif match.group("tomorrow"):
                day = today + timedelta(days=1)
            elif match.group("today"):
                day = today
            elif match.group("tonight"):
                day = today
                part = "tonight"
            else:
                name = match.group("weekday").lower()
                weekday = _EN_WEEKDAYS.get(name, _HE_WEEKDAYS.get(name))
                if weekday is None:
                    continue
                day = _next_weekday(today, weekday)
                # "next tuesday" on a Monday: tomorrow, or the Tuesday of next week?
                near_next = bool(_SAID_NEXT.search(match.group(0))) and (day - today).days <= 2
            scan.take(match)
            break
    if day is None:
        match = _WEEKEND.search(scan.text)
        if match:
            # "this weekend", "בסוף השבוע": its Saturday (a weekend day in Israel and elsewhere); the
            # day is shown with the question or the confirmation, so it can be said otherwise.
            day = _next_weekday(today, 5) if today.weekday() != 5 else today
            scan.take(match)
    if day is None:
        match = _MONTH_END.search(scan.text)
        if match:
            day = date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
            scan.take(match)
    if day is None and repeat is None:
        match = _NEXT_MONTH.search(scan.text)
        if match:
            following = date(today.year + today.month // 12, today.month % 12 + 1, 1)
            last = calendar.monthrange(following.year, following.month)[1]
            day = following.replace(day=min(today.day, last))
            scan.take(match)
    if before is not None and day is not None:
        # ("a week before my birthday": no day to count from, the words stay in the title.)
        scan.take(before)
        day = day - _before_delta(before)
        if day < today:
            problem = problem or "past"
    named_day = day is not None

    # 3. Parts of the day; a bare number right before one is its hour ("8 בבוקר", "7 in the evening").
    part_hour: re.Match[str] | None = None
    for pattern in (_EN_PART, _HE_PART):
        match = pattern.search(scan.text)
        if match and pattern is _EN_PART and match.group("p4") and day is None and repeat is None:
            match = None  # a bare "morning" only counts after a day ("tomorrow morning")
        if match:
            if pattern is _EN_PART:
                # "first thing tomorrow": the morning
                part = (
                    match.group("p1")
                    or match.group("p2")
                    or match.group("p3")
                    or match.group("p4")
                    or ("morning" if match.group("p5") else "")
                ).lower()
                if match.group("p3") and day is None:
                    day = today
            else:
                part = _HE_PART_MAP[match.group("p")]
            bare = _BARE_HOUR_BEFORE.search(scan.text, 0, match.start())
            scan.take(match)
            if bare is not None and 0 <= int(bare.group("h")) <= 23:
                part_hour = bare  # used only when no other time is said ("at 8 in the morning")
            break

    # 4. The time of day.
    hour: int | None = None
    minute = 0
    explicit_ampm = False
    clock_form = False
    found_time = _find_time(scan)
    if found_time is None and part_hour is not None:
        found_time = (int(part_hour.group("h")), int(part_hour.group("m") or 0), False, False)
        scan.take_span(part_hour.start("h"), part_hour.end())
    if found_time is not None:
        hour, minute, explicit_ampm, clock_form = found_time
        if not 0 <= hour <= 23:
            hour, problem = None, problem or "invalid_time"
    named_time = hour is not None
    meal = _MEAL.search(scan.text) if part is None and not clock_form else None
    if hour is not None and not explicit_ampm:
        if part is not None:
            hour = _apply_part(hour, "evening" if part == "tonight" else part)
        elif meal is not None:
            # "dinner at 8" is 20:00, "lunch at 1" 13:00, "breakfast at 7" 07:00: the meal says
            # which half of the day.
            eaten = _MEAL_PARTS[next(k for k, v in meal.groupdict().items() if v)]
            hour = hour if eaten == "morning" else _apply_part(hour, eaten)
        elif 1 <= hour <= 7 and not clock_form:
            hour += 12
    if hour is None and part is not None:
        hour = _PART_DEFAULTS[part]
    either_half = named_time and not explicit_ampm and part is None and hour is not None and 1 <= hour < 12
    said_time = f"{hour:02d}:{minute:02d}" if hour is not None else None

    # 5. Compose.
    when: datetime | None = None
    explicit_day = named_day or rel_delta is not None
    if rel_delta is not None and rel_has_time:
        # An offset is an instant; a stray hour next to it ("in 2 hours at 5") is ignored.
        when = now_local + rel_delta
    else:
        if rel_delta is not None:
            day = (now_local + rel_delta).date()
        if hour is not None:
            base_day = day or default_day or today
            when = datetime.combine(base_day, time(hour, minute), tzinfo=tz)
            if day is None and default_day is None and when <= now_local and repeat is None:
                if (
                    not explicit_ampm
                    and part is None  # "8 in the morning" stays the morning: tomorrow, not tonight
                    and hour < 12
                    and when + timedelta(hours=12) > now_local
                ):
                    when = when + timedelta(hours=12)
                else:
                    when = when + timedelta(days=1)
            elif named_day and when <= now_local and repeat is None:
                problem = problem or "past"  # "today at 9am" at 10:00
            day = None
    lead_for: str | None = None
    if lead is not None and when is not None and named_time and rel_delta is None and repeat is None:
        scan.take(lead)
        lead_for = when.strftime("%H:%M")
        when = when - (_en_rel_delta(lead) if lead.re is _EN_LEAD else _he_rel_delta(lead))[0]
        if when <= now_local:
            problem = problem or "past"  # "10 minutes before 3pm" at 14:55

    # 6. A repetition starts at its first occurrence from now (or from the day named).
    rule: str | None = None
    if repeat is not None:
        rule = repeat.rule
        if when is None and not repeat.needs_time_of_day:
            when = default_start(repeat, now_local)
        if when is not None:
            first_from = when if when > now_local else when + timedelta(days=1)
            text_series = series(rule, first_from, timezone)
            if text_series is None:
                problem = problem or "past"  # "until" before its first occurrence
                when = None
            else:
                first = datetime.strptime(text_series.split("\n")[0][8:], "%Y%m%dT%H%M%S")
                when = first.replace(tzinfo=tz)
        day = None
    if problem is not None:
        when, day = None, None
    remainder = _tidy(scan.text)
    return ParsedWhen(
        when=when,
        day=day if when is None else None,
        remainder=remainder,
        fragments=tuple(scan.fragments),
        explicit_day=explicit_day,
        recurrence=rule,
        problem=problem,
        named_time=named_time,
        said_time=said_time if named_time else None,
        either_half=either_half,
        lead_for=lead_for,
        near_next=near_next and rule is None,
    )


#: "next tuesday", "ביום שלישי הבא": a weekday said with "next".
_SAID_NEXT = re.compile(r"\bnext\b|הבא", re.I)

_DANGLING_EN = re.compile(r"(?:\s+(?:at|on|by|for|to|in|from))+\s*$", _FLAGS)
_DANGLING_HE = re.compile(r"(?:\s+(?:ב|ל|ב-|ל-|בשעה))+\s*$")


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.!?])", r"\1", text)
    text = text.strip(" ,.;:-")
    for _ in range(2):
        text = _DANGLING_EN.sub("", text).strip(" ,.;:-")
        text = _DANGLING_HE.sub("", text).strip(" ,.;:-")
    return text


def parse_time_answer(
    text: str, *, now: datetime, timezone: str, language: str, day: date | None
) -> datetime | None:
    """Resolve a short answer ("5pm", "ב-17:00", "17", "tomorrow at 9") to an aware datetime.

    Used when a reminder's time was asked for: a bare time lands on `day` (the day already known)
    unless the answer names its own day.
    """
    parsed = extract_when(text, now=now, timezone=timezone, language=language, default_day=day)
    if parsed.when is not None:
        return parsed.when
    bare = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*", text)
    if not bare or not 0 <= int(bare.group(1)) <= 23:
        return None
    clock = f"{bare.group(1)}:{bare.group(2)}" if bare.group(2) else bare.group(1)
    return extract_when(f"at {clock}", now=now, timezone=timezone, language="en", default_day=day).when
