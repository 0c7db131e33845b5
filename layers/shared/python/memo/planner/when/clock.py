"""The time of day of a date/time expression: clock times ("at 5pm", "17:00", "ב-17:00"), hour words
("at five", "half past six", "בשמונה", "שלוש וחצי", "רבע לשבע"), noon and midnight, and parts of the
day ("in the morning", "בערב"); and times that do not exist ("at 25:00").

Rules a user would expect:
- a part of the day alone is its default time (morning 09:00, noon 12:00, afternoon 15:00, evening
  19:00, tonight 20:00, night 21:00);
- an hour from 1 to 6 without am/pm means the afternoon ("at 5", "5:30" are 17:00, 17:30): waking
  hours start at 7; 7 to 11 are left for the day to decide, morning or evening (`timeparse`);
- "midnight" is the end of the day it is said with;
- a part of the day or a meal beside a bare hour names its half ("8 in the evening", "dinner at 8").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from memo.planner.when.days import MONTHS_HE
from memo.planner.when.scan import FLAGS, Scan

#: Waking hours start at 7: an hour from 1 to 6 said without am/pm is the afternoon's.
WAKING_FROM = 7
_PART_DEFAULTS = {"morning": 9, "afternoon": 15, "evening": 19, "night": 21, "tonight": 20, "noon": 12, "after lunch": 13}  # fmt: skip

_AMPM = r"(?P<ampm>a\.?m\.?|p\.?m\.?)(?=\W|$)"
#: "5pm", "6:15 pm", "6.15pm", "7.30 a.m.", "ב-5pm"
_BEFORE_AMPM = r"(?:\b(?:at|by|around)\s*|@\s*|(?:(?<=\s)|^)(?:בשעה\s+|בסביבות\s+|[בל]-?)|\b)"
_EN_AMPM = re.compile(rf"{_BEFORE_AMPM}(?<![\d:.])(?P<h>\d{{1,2}})(?:[:.](?P<m>[0-5]\d))?\s*{_AMPM}", FLAGS)
_CLOCK = re.compile(
    r"(?:(?:\b(?:at|by|around|to)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?|בסביבות\s+))?"
    r"(?<![\d/.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d/])"
    # "at 8.30", "בשעה 17.30": a dot between hour and minutes after a word that says a time, and
    # "17.30" on its own where it can be no date (no month 30): 8.12 alone stays a date.
    r"|(?:\b(?:at|by|around)\s+|@\s*|(?:(?<=\s)|^)בשעה\s+)(?<![\d/.])(?P<h2>[01]?\d|2[0-3])\.(?P<m2>[0-5]\d)(?![\d/.])"
    r"|(?:(?<=\s)|^)(?P<h3>[01]?\d|2[0-3])\.(?P<m3>1[3-9]|[2-5]\d)(?![\d/.])"
)
#: The word before a clock time written without a colon: "at 0730", "by 1930", "@0900", "ב-0730",
#: "בשעה 1930". Without one, four digits are a number (a year, an amount), never a time.
_AT = r"(?:\b(?:at|by|around|before|till|until)\s+|@\s*|(?:(?<=\s)|^)(?:בשעה\s+|בסביבות\s+|עד\s+|[בל]-?))"
#: What never follows four digits that are a time: more digits, an amount or an amount of time
#: ("at 1500 shekels", "by 2000 dollars", "ב-1500 ש״ח").
_NOT_AFTER_A_TIME = (
    r"(?![\d/.:,]\d|\d|\s*(?:minutes?|mins?|days?|weeks?|years?|%|dollars?|shekels?|euros?|nis|usd|ils|"
    r'שקל|שקלים|ש"ח|ש״ח|₪|דקות|ימים))'
)
#: A military or compact time: "at 0730", "at 1930", "1930hrs", "0700 hours", "at 730" (7:30), and the
#: European "at 7h30", "at 19h".
_COMPACT = re.compile(
    rf"{_AT}(?<![\d/.:])(?:(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)|(?P<h2>[1-9])(?P<m2>[0-5]\d))"
    r"(?:\s*(?:hrs?|hours)\b|h\b)?"
    rf"{_NOT_AFTER_A_TIME}"
    r"|(?<![\d/.:])(?P<h3>[01]\d|2[0-3])(?P<m3>[0-5]\d)\s*(?:hrs|hours)\b"
    rf"|{_AT}(?<![\d/.:])(?P<h4>[01]?\d|2[0-3])h(?P<m4>[0-5]\d)?\b",
    FLAGS,
)
#: "730pm", "at 1130 am": a 12-hour time written without a colon.
_EN_COMPACT_AMPM = re.compile(
    rf"\b(?:(?:at|by|around)\s*|@\s*)?(?<![\d:.])(?P<h>1[0-2]|0?[1-9])(?P<m>[0-5]\d)\s*{_AMPM}", FLAGS
)
_EN_AT_HOUR = re.compile(
    r"\b(?:at|by|around|to|@)\s*(?P<h>\d{1,2})\b(?![:/.]?\d|\s*(?:minutes?|hours?|days?))", FLAGS
)
_HE_AT_HOUR = re.compile(
    r"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-|[בל](?=\d)|בסביבות\s+)(?P<h>\d{1,2})(?![:/.]?\d)(?!\s+ב?(?:"
    + MONTHS_HE
    + "))"
)
_EN_NOON = re.compile(
    r"\b(?:(?:at|by|around)\s+)?(?:12\s+)?(?P<w>noon|midday|midnight)\b"
    r"|(?:(?<=\s)|^)(?:ב-?|עד\s+)?(?P<he>חצות)(?:\s+הלילה)?(?=\s|$|[,.!?])",
    FLAGS,
)
_EN_PART = re.compile(
    r"\b(?:in\s+the\s+(?P<p1>morning|afternoon|evening)|at\s+(?P<p2>night)|this\s+(?P<p3>morning|afternoon|evening)|"
    r"(?P<p5>first\s+thing)(?:\s+in\s+the\s+morning)?|(?P<p4>morning|afternoon|evening|night)|"
    r"(?:(?:at|around|by)\s+)?(?P<p6>lunch\s*-?\s*time)|(?P<p7>(?:right\s+|just\s+)?after\s+lunch)|"
    r"(?:at|around|during|over)\s+(?P<p8>lunch))\b",  # "lunch" alone ("lunch with mom") is no time
    FLAGS,
)
_HE_PART = re.compile(
    r"(?:(?<=\s)|^)(?P<p>(?:מיד\s+)?אחרי\s+(?:ה)?ארוחת\s+(?:ה)?צהריים|בבוקר|בצהריים|בצהרים|אחרי?\s+הצהריי?ם|אחה[\"״'׳]?צ|בערב|בלילה)(?=\s|$|[,.!?])"
)
#: The afternoon as people type it: "אחה"צ", "אחה״צ", "אחהצ", "אחה'צ", "אחרי הצהריים", "אחר הצהרים".
_HE_AFTERNOON = re.compile(r"^(?:אחרי?\s+הצהריי?ם|אחה[\"״'׳]?צ)$")
_HE_PART_MAP = {
    "בבוקר": "morning",
    "בצהריים": "noon",
    "בצהרים": "noon",
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
_EN_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_EN_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
             "eighteen", "nineteen")  # fmt: skip
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
#: The minutes of a clock said in words: "oh five", "fifteen", "forty-five" (1 to 59).
_EN_MINUTE_WORDS: dict[str, int] = {
    **{f"oh {unit}": n for n, unit in enumerate(_EN_UNITS, start=1)},
    **{teen: n for n, teen in enumerate(_EN_TEENS, start=10)},
    **_EN_TENS,
    **{f"{ten} {unit}": tens + n for ten, tens in _EN_TENS.items() for n, unit in enumerate(_EN_UNITS, 1)},
}
_EN_MINUTES = "|".join(
    sorted((word.replace(" ", r"[\s-]") for word in _EN_MINUTE_WORDS), key=len, reverse=True)
)
#: "quarter past six", "twenty-five to 7", "ten minutes past five": 1 to 29 minutes, a quarter, a half.
_EN_PAST_TO_MINUTES = {
    **{unit: n for n, unit in enumerate(_EN_UNITS, start=1)},
    **{teen: n for n, teen in enumerate(_EN_TEENS, start=10)},
    "twenty": 20,
    **{f"twenty {unit}": 20 + n for n, unit in enumerate(_EN_UNITS, start=1)},
}
_EN_ANY_MINUTES = "|".join(
    sorted((word.replace(" ", r"[\s-]") for word in _EN_PAST_TO_MINUTES), key=len, reverse=True)
)
#: Without "minutes", a single unit is only "five": "the one to 4pm" is no 15:59.
_EN_FEW_MINUTES = "|".join(
    sorted(
        (w.replace(" ", r"[\s-]") for w in _EN_PAST_TO_MINUTES if w == "five" or w not in _EN_UNITS),
        key=len,
        reverse=True,
    )
)
_EN_WORD_TIME = re.compile(
    rf"\b(?:at|by|around)\s+(?P<h>{_EN_HOURS})(?:\s+(?P<m>o'?clock|{_EN_MINUTES}))?\b"
    rf"(?:\s*{_AMPM})?",
    FLAGS,
)
_EN_PAST_TO = re.compile(
    rf"\b(?<!from\s)(?<!between\s)(?:(?:at|by|around)\s+)?(?:(?P<q>half|(?:a\s+)?quarter|\d{{1,2}}|{_EN_FEW_MINUTES})"
    rf"\s+(?P<rel>past|after|to|before)|(?P<qm>\d{{1,2}}|{_EN_ANY_MINUTES})\s+minutes?\s+(?P<rel2>past|after|to))\s+"
    rf"(?:(?P<h>\d{{1,2}}|{_EN_HOURS})(?![:.]?\d)(?:\s*{_AMPM}|\b)|(?P<w>noon|midday|midnight)\b)",
    FLAGS,
)
#: "half 7": half past seven (British), "at half 7 tmrw".
_EN_HALF_HOUR = re.compile(
    rf"\b(?:(?:at|by|around)\s+)?half\s+(?P<h>\d{{1,2}}|{_EN_HOURS})(?![:.]?\d)"
    r"(?!\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|an?\b|of\b|dozen|kilos?|kg|"
    r"liters?|litres?|pounds?|lbs?|cups?|%))"
    rf"(?:\s*{_AMPM}|\b)",
    FLAGS,
)
_HE_HOUR_WORDS = {
    "אחת עשרה": 11, "אחת-עשרה": 11, "שתים עשרה": 12, "שתיים עשרה": 12, "שתים-עשרה": 12,
    "אחת": 1, "שתיים": 2, "שתים": 2, "שלוש": 3, "ארבע": 4, "חמש": 5, "שש": 6, "שבע": 7,
    "שמונה": 8, "תשע": 9, "עשר": 10,
}  # fmt: skip
_HE_HOURS = "|".join(_HE_HOUR_WORDS)
_HE_FRACTIONS = {
    "וחצי": 30, "ורבע": 15, "ועשרה": 10, "ועשר": 10, "ועשרים": 20, "וחמישה": 5, "וחמש": 5,
    "ועשרים וחמישה": 25, "ועשרים וחמש": 25, "ושלושים": 30, "וארבעים": 40, "וחמישים": 50,
}  # fmt: skip
_HE_FRACTION = "|".join(sorted(_HE_FRACTIONS, key=len, reverse=True))
#: "רבע לשבע", "עשרים לשבע", "חמישה לשבע": so many minutes before the hour.
_HE_BEFORE_HOUR = {"רבע": 15, "עשרים": 20, "עשרה": 10, "עשר": 10, "חמישה": 5, "חמש": 5}
_HE_WORD_TIME = re.compile(
    rf"(?:(?<=\s)|^)(?:(?:בשעה\s+|ב-?|ל-?|בסביבות\s+)(?P<h>{_HE_HOURS})(?:\s+(?P<f>{_HE_FRACTION}))?"
    rf"|(?P<h2>{_HE_HOURS})\s+(?P<f2>{_HE_FRACTION})"
    rf"|(?:בשעה\s+|ב-?)?(?P<q>{'|'.join(_HE_BEFORE_HOUR)})\s+ל-?(?P<h3>{_HE_HOURS})"
    rf"|(?:בשעה\s+|ב-?)?(?P<half>חצי)\s+(?P<h4>{_HE_HOURS}))(?=\s|$|[,.!?])"  # "בחצי שבע": 6:30
)
_HE_CLOCK_FRACTION = re.compile(
    rf"(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?)(?P<h>\d{{1,2}})\s+(?P<f>{_HE_FRACTION})(?=\s|$|[,.!?])"
)

_INVALID_TIME = re.compile(
    r"(?:(?:\b(?:at|by|around)\s+|@\s*)|(?:(?<=\s)|^)(?:בשעה\s+|[בל]-?))?"
    r"(?<![\d/.:])(?:(?P<h>2[4-9]|[3-9]\d):(?P<m>\d{2})|(?P<h2>\d{1,2}):(?P<m2>[6-9]\d)"
    r"|(?P<h3>1[3-9]|2\d)\s*(?:a\.?m\.?|p\.?m\.?)(?=\W|$)|\b(?:at|by)\s+(?P<h4>2[5-9]|[3-9]\d)\b(?![:/.\d]|\s*(?:minutes?|hours?|days?)))"
    # "at 2400", "at 0775", "ב-2530": four digits said as a time that no clock shows.
    r"|(?:\b(?:at|by)\s+|@\s*|(?:(?<=\s)|^)(?:בשעה\s+|ב-))(?<![\d/.:])(?P<h5>(?:2[4-9]|[3-9]\d)\d\d|(?:[01]\d|2[0-3])[6-9]\d)"
    rf"{_NOT_AFTER_A_TIME}",
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
    whether it was said as a clock ("17:00", "8.30"), and whether it was the word "midnight" (the
    end of the day it is said with)."""

    hour: int
    minute: int
    explicit_ampm: bool
    clock_form: bool
    midnight: bool = False


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
                or ("after lunch" if match.group("p7") else "")
                or "noon"  # "at lunchtime"
            ).lower()
        else:
            said = match.group("p")
            part = "afternoon" if _HE_AFTERNOON.match(said) else _HE_PART_MAP.get(said, "after lunch")
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


#: Words after a clock's digits that say how exact it is: "6 sharp", "6ish", "6-ish", "6 o'clock",
#: "6 on the dot", "ב-6 בדיוק". They go with the time, not into the title.
_QUALIFIER = re.compile(
    r"(?<=\d)(?:\s*-?ish\b|\s*o['’]?\s?clock\b|\s+sharp\b|\s+on\s+the\s+dot\b|\s+בדיוק(?=\s|$|[,.!?]))"
    # "9am sharp", "9 p.m. on the dot"
    r"|(?:(?<=\d[ap]m)|(?<=\d [ap]m)|(?<=\d[ap]\.m\.)|(?<=\d [ap]\.m\.))(?:\s+sharp\b|\s+on\s+the\s+dot\b)",
    FLAGS,
)


def take_time(scan: Scan) -> SaidTime | None:
    """The time of day `scan` names, taken out of it; the most explicit forms are read first."""
    for qualifier in list(_QUALIFIER.finditer(scan.text)):
        scan.take_span(*qualifier.span())
    for read in _READERS:
        found = read(scan)
        if found is not None:
            return found
    return None


def in_its_half(said: SaidTime, *, part: str | None, text: str) -> int:
    """The hour of `said` (0-23) in the half of the day its words name: its part of the day, a meal
    beside it in `text`, or, for 1 to 6 without am/pm, the afternoon (1 to 6 in the morning are no
    waking hours); 7 to 11 stay morning hours, for the day's next one to decide (`timeparse`)."""
    hour = said.hour
    if said.explicit_ampm:
        return hour
    if part is not None:
        return _apply_part(hour, "evening" if part == "tonight" else part)
    meal = _MEAL.search(text)
    if meal is not None:
        # "dinner at 8" is 20:00, "lunch at 1" 13:00, "breakfast at 7" 07:00: the meal says
        # which half of the day.
        eaten = _MEAL_PARTS[next(k for k, v in meal.groupdict().items() if v)]
        return hour if eaten == "morning" else _apply_part(hour, eaten)
    if 1 <= hour < WAKING_FROM:
        return hour + 12
    return hour


def part_default(part: str) -> int:
    """The hour a part of the day alone means ("in the morning": 9)."""
    return _PART_DEFAULTS[part]


def _apply_part(hour: int, part: str | None) -> int:
    if part in ("afternoon", "evening", "after lunch") and hour < 12:
        return hour + 12
    if part == "night" and 6 <= hour < 12:
        return hour + 12
    if part == "morning" and hour == 12:
        return 0
    if part == "noon" and hour < 6:
        return hour + 12
    return hour


def _with_ampm(hour: int, minute: int, ampm: str | None) -> SaidTime:
    """An hour of a 12-hour clock (1-12) and its minutes, with am/pm when said."""
    if ampm is None:
        return SaidTime(hour, minute, False, False)
    return SaidTime(hour % 12 + (12 if ampm.lower().startswith("p") else 0), minute, True, False)


def _ampm(scan: Scan) -> SaidTime | None:
    """ "5pm", "at 9:30 am", "6.15pm", "ב-5pm"."""
    match = _EN_AMPM.search(scan.text)
    if not match or not 1 <= int(match.group("h")) <= 12:
        return None
    scan.take(match)
    return _with_ampm(int(match.group("h")), int(match.group("m") or 0), match.group("ampm"))


def _noon(scan: Scan) -> SaidTime | None:
    """ "noon", "midnight", "בחצות"."""
    match = _EN_NOON.search(scan.text)
    if not match:
        return None
    scan.take(match)
    if match.group("he") or match.group("w").lower() == "midnight":
        return SaidTime(0, 0, True, False, midnight=True)
    return SaidTime(12, 0, True, False)


def _clock(scan: Scan) -> SaidTime | None:
    """ "17:00", "ב-17:00", "at 8.30"."""
    match = _CLOCK.search(scan.text)
    if not match:
        return None
    hour_text: str = match.group("h") or match.group("h2") or match.group("h3")
    hour, minute = int(hour_text), int(match.group("m") or match.group("m2") or match.group("m3"))
    scan.take(match)
    return SaidTime(hour, minute, hour == 0 or hour > 12 or hour_text.startswith("0"), True)


def _compact(scan: Scan) -> SaidTime | None:
    """ "at 0730", "1930hrs", "ב-0730", "at 730", "at 7h30", "at 19h": a clock time without a colon.
    A leading zero or an hour past 12 says the half of the day, as "07:30" does."""
    match = _COMPACT.search(scan.text)
    if not match:
        return None
    for h, m in (("h", "m"), ("h2", "m2"), ("h3", "m3"), ("h4", "m4")):
        if match.group(h) is not None:
            hour_text, minute = match.group(h), int(match.group(m) or 0)
            break
    hour = int(hour_text)
    scan.take(match)
    return SaidTime(hour, minute, hour == 0 or hour > 12 or hour_text.startswith("0"), True)


def _compact_ampm(scan: Scan) -> SaidTime | None:
    """ "730pm", "at 1130 am"."""
    match = _EN_COMPACT_AMPM.search(scan.text)
    if not match:
        return None
    scan.take(match)
    return _with_ampm(int(match.group("h")), int(match.group("m")), match.group("ampm"))


def _past_to(scan: Scan) -> SaidTime | None:
    """ "half past six", "a quarter to 5", "twenty-five after three", "quarter past 5 pm"."""
    match = _EN_PAST_TO.search(scan.text)
    if not match:
        return None
    q = re.sub(r"[\s-]+", " ", (match.group("q") or match.group("qm")).lower())
    minutes = 30 if q == "half" else 15 if q.endswith("quarter") else _EN_PAST_TO_MINUTES.get(q) or int(q)
    before = (match.group("rel") or match.group("rel2")).lower() not in ("past", "after")
    if match.group("w") is not None:
        return _around_noon(scan, match, minutes, before=before)
    hour = _EN_HOUR_WORDS.get(match.group("h").lower()) or int(match.group("h"))
    said = _with_ampm(hour, 0, match.group("ampm"))
    if not 1 <= hour <= 12 or not 0 < minutes < 60:
        return None
    scan.take(match)
    if before and said.explicit_ampm and said.hour == 0:
        return SaidTime(23, 60 - minutes, True, False)  # "quarter to 12am": to midnight, as said
    if not before:
        return replace(said, minute=minutes)
    if said.explicit_ampm:
        return replace(said, hour=said.hour - 1, minute=60 - minutes)  # "quarter to 7pm": 18:45
    return replace(said, hour=hour - 1 or 12, minute=60 - minutes)


def _around_noon(scan: Scan, match: re.Match[str], minutes: int, *, before: bool) -> SaidTime | None:
    """ "half past noon" (12:30), "a quarter to noon" (11:45), "quarter to midnight" (23:45), "ten
    past midnight" (00:10 at the end of the day said, as "midnight" is)."""
    if not 0 < minutes < 60:
        return None
    scan.take(match)
    if match.group("w").lower() != "midnight":
        return SaidTime(11, 60 - minutes, True, False) if before else SaidTime(12, minutes, True, False)
    return (
        SaidTime(23, 60 - minutes, True, False)
        if before
        else SaidTime(0, minutes, True, False, midnight=True)
    )


def _half_hour(scan: Scan) -> SaidTime | None:
    """ "half 7": half past seven."""
    match = _EN_HALF_HOUR.search(scan.text)
    if not match:
        return None
    hour = _EN_HOUR_WORDS.get(match.group("h").lower()) or int(match.group("h"))
    if not 1 <= hour <= 12:
        return None
    scan.take(match)
    return _with_ampm(hour, 30, match.group("ampm"))


def _en_word_time(scan: Scan) -> SaidTime | None:
    """ "at five", "at six thirty", "at seven forty-five pm"."""
    match = _EN_WORD_TIME.search(scan.text)
    if not match:
        return None
    scan.take(match)
    minute_word = re.sub(r"[\s-]+", " ", (match.group("m") or "o'clock").lower())
    minute = _EN_MINUTE_WORDS.get(minute_word, 0)
    return _with_ampm(_EN_HOUR_WORDS[match.group("h").lower()], minute, match.group("ampm"))


def _he_clock_fraction(scan: Scan) -> SaidTime | None:
    """ "ב-5 וחצי"."""
    match = _HE_CLOCK_FRACTION.search(scan.text)
    if not match or not 0 <= int(match.group("h")) <= 23:
        return None
    scan.take(match)
    hour = int(match.group("h"))
    return SaidTime(hour, _HE_FRACTIONS[match.group("f")], hour == 0 or hour > 12, False)


def _he_word_time(scan: Scan) -> SaidTime | None:
    """ "בשמונה", "שלוש וחצי", "רבע לשבע", "בחצי שבע"."""
    match = _HE_WORD_TIME.search(scan.text)
    if not match:
        return None
    scan.take(match)
    if match.group("h3") or match.group("h4"):  # "רבע לשבע": 6:45, "חצי שבע": 6:30
        hour = _HE_HOUR_WORDS[match.group("h3") or match.group("h4")]
        return SaidTime(hour - 1 or 12, 60 - _HE_BEFORE_HOUR.get(match.group("q"), 30), False, False)
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
    _past_to,  # before "5 pm", so "quarter past 5 pm" is read whole
    _half_hour,
    _compact_ampm,
    _ampm,
    _noon,
    _clock,
    _compact,
    _en_word_time,
    _he_clock_fraction,
    _he_word_time,
    _at_hour,
)
