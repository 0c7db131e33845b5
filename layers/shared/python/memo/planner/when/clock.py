"""The time of day of a date/time expression: clock times ("at 5pm", "17:00", "ב-17:00"), hour words
("at five", "half past six", "בשמונה", "שלוש וחצי", "רבע לשבע"), noon and midnight, and parts of the
day ("in the morning", "בערב"); and times that do not exist ("at 25:00").

Rules a user would expect:
- a part of the day alone is its default time (morning 09:00, noon 12:00, afternoon 15:00, evening
  19:00, tonight 20:00, night 21:00);
- an hour from 1 to 7 without am/pm means the afternoon ("at 5" is 17:00);
- a part of the day or a meal beside a bare hour names its half ("8 in the evening", "dinner at 8").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memo.planner.when.days import MONTHS_HE
from memo.planner.when.offsets import EN_NUMBERS
from memo.planner.when.scan import FLAGS, Scan

_PART_DEFAULTS = {"morning": 9, "afternoon": 15, "evening": 19, "night": 21, "tonight": 20, "noon": 12}

_EN_AMPM = re.compile(
    r"\b(?:(?:at|by|around|@)\s*)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>a\.?m\.?|p\.?m\.?)(?=\W|$)",
    FLAGS,
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
    r"\b(?:at|by|around|to|@)\s*(?P<h>\d{1,2})\b(?![:/.]?\d|\s*(?:minutes?|hours?|days?))", FLAGS
)
_HE_AT_HOUR = re.compile(
    r"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-|[בל](?=\d)|בסביבות\s+)(?P<h>\d{1,2})(?![:/.]?\d)(?!\s+ב?(?:"
    + MONTHS_HE
    + "))"
)
_EN_NOON = re.compile(r"\b(?:at\s+)?(?P<w>noon|midday|midnight)\b", FLAGS)
_EN_PART = re.compile(
    r"\b(?:in\s+the\s+(?P<p1>morning|afternoon|evening)|at\s+(?P<p2>night)|this\s+(?P<p3>morning|afternoon|evening)|"
    r"(?P<p5>first\s+thing)(?:\s+in\s+the\s+morning)?|(?P<p4>morning|afternoon|evening|night))\b",
    FLAGS,
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
_BARE_HOUR_BEFORE = re.compile(r"(?:^|\s)(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*$")

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
    rf"\b(?:at|by|around)\s+(?P<h>{_EN_HOURS})(?:\s+(?P<m>o'?clock|fifteen|thirty|forty[- ]five))?\b", FLAGS
)
_EN_PAST_TO = re.compile(
    rf"\b(?:(?:at|by|around)\s+)?(?P<q>half|(?:a\s+)?quarter|\d{{1,2}}|five|ten|twenty)\s+(?P<rel>past|after|to|before)\s+"
    rf"(?P<h>\d{{1,2}}|{_EN_HOURS})\b",
    FLAGS,
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

_INVALID_TIME = re.compile(
    r"(?:(?:\b(?:at|by|around)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?))?"
    r"(?<![\d/.])(?:(?P<h>2[4-9]|[3-9]\d):(?P<m>\d{2})|(?P<h2>\d{1,2}):(?P<m2>[6-9]\d)"
    r"|(?P<h3>1[3-9]|2\d)\s*(?:a\.?m\.?|p\.?m\.?)(?=\W|$)|\b(?:at|by)\s+(?P<h4>2[5-9]|[3-9]\d)\b(?![:/.\d]|\s*(?:minutes?|hours?|days?)))",
    FLAGS,
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


@dataclass(frozen=True)
class SaidTime:
    """A time of day as said: its hour and minute, whether am/pm (or a 24-hour hour) says its half,
    and whether it was said as a clock ("17:00", "8.30")."""

    hour: int
    minute: int
    explicit_ampm: bool
    clock_form: bool


@dataclass(frozen=True)
class FoundPart:
    """A part of the day ("morning", "tonight", "noon"), whether it was "this morning" (today), and a
    bare hour said right before it ("8 בבוקר", "7 in the evening")."""

    part: str
    this_part: bool
    bare_hour: re.Match[str] | None


def take_invalid_time(scan: Scan) -> bool:
    """ "at 25:00", "13pm": a time that does not exist, taken out of `scan`."""
    match = _INVALID_TIME.search(scan.text)
    if match:
        scan.take(match)
    return match is not None


def take_part(scan: Scan, *, day_known: bool) -> FoundPart | None:
    """A part of the day, taken out of `scan`; a bare "morning" counts only with a day or a
    repetition (`day_known`: "tomorrow morning")."""
    for pattern in (_EN_PART, _HE_PART):
        match = pattern.search(scan.text)
        if match and pattern is _EN_PART and match.group("p4") and not day_known:
            match = None
        if not match:
            continue
        if pattern is _EN_PART:
            # "first thing tomorrow": the morning
            part = (
                match.group("p1")
                or match.group("p2")
                or match.group("p3")
                or match.group("p4")
                or ("morning" if match.group("p5") else "")
            ).lower()
        else:
            part = _HE_PART_MAP[match.group("p")]
        bare = _BARE_HOUR_BEFORE.search(scan.text, 0, match.start())
        scan.take(match)
        if bare is not None and not 0 <= int(bare.group("h")) <= 23:
            bare = None
        return FoundPart(part, pattern is _EN_PART and bool(match.group("p3")), bare)
    return None


def take_bare_hour(scan: Scan, bare: re.Match[str]) -> SaidTime:
    """The bare hour before a part of the day ("at 8 in the morning"), taken out of `scan`."""
    scan.take_span(bare.start("h"), bare.end())
    return SaidTime(int(bare.group("h")), int(bare.group("m") or 0), False, False)


def take_time(scan: Scan) -> SaidTime | None:
    """The time of day `scan` names, taken out of it; the most explicit forms are read first."""
    for read in _READERS:
        found = read(scan)
        if found is not None:
            return found
    return None


def in_its_half(said: SaidTime, *, part: str | None, text: str) -> int:
    """The hour of `said` (0-23) in the half of the day its words name: its part of the day, a meal
    beside it in `text`, or, for 1 to 7 without am/pm, the afternoon."""
    hour = said.hour
    if said.explicit_ampm:
        return hour
    meal = _MEAL.search(text) if part is None and not said.clock_form else None
    if part is not None:
        return _apply_part(hour, "evening" if part == "tonight" else part)
    if meal is not None:
        # "dinner at 8" is 20:00, "lunch at 1" 13:00, "breakfast at 7" 07:00: the meal says
        # which half of the day.
        eaten = _MEAL_PARTS[next(k for k, v in meal.groupdict().items() if v)]
        return hour if eaten == "morning" else _apply_part(hour, eaten)
    if 1 <= hour <= 7 and not said.clock_form:
        return hour + 12
    return hour


def part_default(part: str) -> int:
    """The hour a part of the day alone means ("in the morning": 9)."""
    return _PART_DEFAULTS[part]


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


def _ampm(scan: Scan) -> SaidTime | None:
    """ "5pm", "at 9:30 am"."""
    match = _EN_AMPM.search(scan.text)
    if not match or not 1 <= int(match.group("h")) <= 12:
        return None
    h = int(match.group("h"))
    ampm = match.group("ampm").lower()
    scan.take(match)
    return SaidTime((h % 12) + (12 if ampm.startswith("p") else 0), int(match.group("m") or 0), True, False)


def _noon(scan: Scan) -> SaidTime | None:
    match = _EN_NOON.search(scan.text)
    if not match:
        return None
    scan.take(match)
    return SaidTime(0 if match.group("w").lower() == "midnight" else 12, 0, True, False)


def _clock(scan: Scan) -> SaidTime | None:
    """ "17:00", "ב-17:00", "at 8.30"."""
    match = _CLOCK.search(scan.text)
    if not match:
        return None
    hour_text: str = match.group("h") or match.group("h2") or match.group("h3")
    hour, minute = int(hour_text), int(match.group("m") or match.group("m2") or match.group("m3"))
    scan.take(match)
    return SaidTime(hour, minute, hour == 0 or hour > 12 or hour_text.startswith("0"), True)


def _past_to(scan: Scan) -> SaidTime | None:
    """ "half past six", "a quarter to 5", "ten after three"."""
    match = _EN_PAST_TO.search(scan.text)
    if not match:
        return None
    q = match.group("q").lower()
    minutes = 30 if q == "half" else 15 if q.endswith("quarter") else EN_NUMBERS.get(q) or int(q)
    hour = _EN_HOUR_WORDS.get(match.group("h").lower()) or int(match.group("h"))
    if not 1 <= hour <= 12 or not 0 < minutes < 60:
        return None
    scan.take(match)
    if match.group("rel").lower() in ("past", "after"):
        return SaidTime(hour, minutes, False, False)
    return SaidTime(hour - 1 or 12, 60 - minutes, False, False)


def _en_word_time(scan: Scan) -> SaidTime | None:
    """ "at five", "at six thirty"."""
    match = _EN_WORD_TIME.search(scan.text)
    if not match:
        return None
    scan.take(match)
    minute_word = (match.group("m") or "o'clock").lower().replace("-", " ")
    return SaidTime(
        _EN_HOUR_WORDS[match.group("h").lower()], _EN_MINUTE_WORDS.get(minute_word, 0), False, False
    )


def _he_clock_fraction(scan: Scan) -> SaidTime | None:
    """ "ב-5 וחצי"."""
    match = _HE_CLOCK_FRACTION.search(scan.text)
    if not match or not 0 <= int(match.group("h")) <= 23:
        return None
    scan.take(match)
    hour = int(match.group("h"))
    return SaidTime(hour, _HE_FRACTIONS[match.group("f")], hour == 0 or hour > 12, False)


def _he_word_time(scan: Scan) -> SaidTime | None:
    """ "בשמונה", "שלוש וחצי", "רבע לשבע"."""
    match = _HE_WORD_TIME.search(scan.text)
    if not match:
        return None
    scan.take(match)
    if match.group("h3"):
        hour = _HE_HOUR_WORDS[match.group("h3")]
        return SaidTime(hour - 1 or 12, 45, False, False)
    word = match.group("h") or match.group("h2")
    fraction = match.group("f") or match.group("f2")
    return SaidTime(_HE_HOUR_WORDS[word], _HE_FRACTIONS[fraction] if fraction else 0, False, False)


def _at_hour(scan: Scan) -> SaidTime | None:
    """ "at 5", "ב-5", "בשעה 17"."""
    for pattern in (_EN_AT_HOUR, _HE_AT_HOUR):
        match = pattern.search(scan.text)
        if match and 0 <= int(match.group("h")) <= 23:
            hour = int(match.group("h"))
            scan.take(match)
            return SaidTime(hour, 0, hour == 0 or hour > 12, False)
    return None


_READERS: tuple[Callable[[Scan], SaidTime | None], ...] = (
    _ampm,
    _noon,
    _clock,
    _past_to,
    _en_word_time,
    _he_clock_fraction,
    _he_word_time,
    _at_hour,
)
