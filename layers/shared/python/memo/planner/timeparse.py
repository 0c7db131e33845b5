"""Find and resolve the date/time expression inside a message, in the user's timezone.

`extract_when` finds the day part ("tomorrow", "on friday", "May 3", "מחר", "ביום שלישי", "3/5"),
the time-of-day part ("at 5pm", "17:00", "ב-17:00", "בשעה 5 בערב", "noon") and relative offsets
("in 2 hours", "בעוד שעתיים"), resolves them against `now` in the user's IANA timezone, and returns
the message with those fragments removed (the reminder's title). Calendar dates with month names
or numbers are resolved by `dateparser`; the rest is small, explicit arithmetic, because
dateparser alone drops parts of compound phrases such as "מחר ב-17:00".

Rules a user would expect:
- a time with no day is today, or tomorrow if that time has already passed;
- an hour from 1 to 7 without am/pm means the afternoon ("at 5" is 17:00);
- a day with no time is reported as date-only (`has_time=False`), so a reminder can ask for it,
  except parts of the day that name a time ("tonight" 20:00, "tomorrow morning" 09:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

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
    r"(?P<tomorrow>tomorrow|tmrw|tmr)|(?P<today>today)|(?P<tonight>tonight)|"
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
_DATE_NAMED_HE = re.compile(rf"(?:^|(?<=\s))[בל]?-?\d{{1,2}}\s+ב?(?:{_MONTHS_HE})(?:\s+\d{{4}})?")
_DATE_NUMERIC = re.compile(
    r"(?:^|(?<=\s))(?:on\s+|[בל]-?)?(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?(?=\s|$|[,!?])"
)

# Times of day.
_EN_AMPM = re.compile(
    r"\b(?:(?:at|by|around|@)\s*)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>a\.?m\.?|p\.?m\.?)(?=\W|$)",
    _FLAGS,
)
_CLOCK = re.compile(
    r"(?:(?:\b(?:at|by|around|to)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?|בסביבות\s+))?"
    r"(?<![\d/.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d/])"
)
_EN_AT_HOUR = re.compile(
    r"\b(?:at|by|around|to|@)\s*(?P<h>\d{1,2})\b(?![:/.\d]|\s*(?:minutes?|hours?|days?))", _FLAGS
)
_HE_AT_HOUR = re.compile(
    r"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-|[בל](?=\d)|בסביבות\s+)(?P<h>\d{1,2})(?![:/.\d])(?!\s+ב?(?:"
    + _MONTHS_HE
    + "))"
)
_EN_NOON = re.compile(r"\b(?:at\s+)?(?P<w>noon|midday|midnight)\b", _FLAGS)
_EN_PART = re.compile(
    r"\b(?:in\s+the\s+(?P<p1>morning|afternoon|evening)|at\s+(?P<p2>night)|this\s+(?P<p3>morning|afternoon|evening)|"
    r"(?P<p4>morning|afternoon|evening|night))\b",
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

    @property
    def has_time(self) -> bool:
        return self.when is not None

    @property
    def found(self) -> bool:
        return self.when is not None or self.day is not None


@dataclass
class _Scan:
    text: str
    fragments: list[str] = field(default_factory=list)

    def take(self, match: re.Match[str]) -> None:
        self.fragments.append(match.group(0).strip())
        start, end = match.span()
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

    cleaned = re.sub(r"^(?:on\s+|[בל]-?)", "", fragment.strip(), flags=_FLAGS)
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
    scan = _Scan(text)

    # 1. Relative offsets ("in 2 hours", "בעוד שעתיים").
    rel_delta: timedelta | None = None
    rel_has_time = False
    for pattern, conv in ((_HE_REL, _he_rel_delta), (_EN_REL, _en_rel_delta)):
        match = pattern.search(scan.text)
        if match:
            rel_delta, rel_has_time = conv(match)
            scan.take(match)
            break

    # 2. The day.
    day: date | None = None
    part: str | None = None
    for pattern in (_DATE_NAMED, _DATE_NAMED_HE, _DATE_NUMERIC):
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
            today = now_local.date()
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
            scan.take(match)
            break

    # 3. Parts of the day.
    for pattern in (_EN_PART, _HE_PART):
        match = pattern.search(scan.text)
        if match and pattern is _EN_PART and match.group("p4") and day is None:
            match = None  # a bare "morning" only counts after a day ("tomorrow morning")
        if match:
            if pattern is _EN_PART:
                part = (
                    match.group("p1") or match.group("p2") or match.group("p3") or match.group("p4")
                ).lower()
                if match.group("p3") and day is None:
                    day = now_local.date()
            else:
                part = _HE_PART_MAP[match.group("p")]
            scan.take(match)
            break

    # 4. The time of day.
    hour: int | None = None
    minute = 0
    explicit_ampm = False
    clock_form = False
    match = _EN_AMPM.search(scan.text)
    if match:
        h = int(match.group("h"))
        if 1 <= h <= 12:
            ampm = match.group("ampm").lower()
            hour = (h % 12) + (12 if ampm.startswith("p") else 0)
            minute = int(match.group("m") or 0)
            explicit_ampm = True
            scan.take(match)
    if hour is None:
        match = _EN_NOON.search(scan.text)
        if match:
            hour = 0 if match.group("w").lower() == "midnight" else 12
            explicit_ampm = True
            scan.take(match)
    if hour is None:
        match = _CLOCK.search(scan.text)
        if match:
            hour, minute = int(match.group("h")), int(match.group("m"))
            explicit_ampm = hour == 0 or hour > 12 or match.group("h").startswith("0")
            clock_form = True
            scan.take(match)
    if hour is None:
        for pattern in (_EN_AT_HOUR, _HE_AT_HOUR):
            match = pattern.search(scan.text)
            if match and 0 <= int(match.group("h")) <= 23:
                hour = int(match.group("h"))
                explicit_ampm = hour == 0 or hour > 12
                scan.take(match)
                break

    if hour is not None and not explicit_ampm:
        if part is not None:
            hour = _apply_part(hour, "evening" if part == "tonight" else part)
        elif 1 <= hour <= 7 and not clock_form:
            hour += 12
    if hour is None and part is not None:
        hour = _PART_DEFAULTS[part]
        if day is None:
            day = now_local.date()

    # 5. Compose.
    when: datetime | None = None
    explicit_day = day is not None or rel_delta is not None
    if rel_delta is not None and rel_has_time:
        # An offset is an instant; a stray hour next to it ("in 2 hours at 5") is ignored.
        when = now_local + rel_delta
    else:
        if rel_delta is not None:
            day = (now_local + rel_delta).date()
        if hour is not None:
            base_day = day or default_day or now_local.date()
            when = datetime.combine(base_day, time(hour, minute), tzinfo=tz)
            if day is None and default_day is None and when <= now_local:
                if not explicit_ampm and hour < 12 and when + timedelta(hours=12) > now_local:
                    when = when + timedelta(hours=12)
                else:
                    when = when + timedelta(days=1)
            day = None
    remainder = _tidy(scan.text)
    return ParsedWhen(
        when=when,
        day=day if when is None else None,
        remainder=remainder,
        fragments=tuple(scan.fragments),
        explicit_day=explicit_day,
    )


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
