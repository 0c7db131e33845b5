"""Clock times as people write them, each with the local time it means, worked out from its parts.

Used by the grid of the time parser (tests/unit/planner/test_timeparse_grid.py) and its sample
through the webhook (tests/integration/reminders/test_every_clock_time.py). Nothing here calls the
parser: the expected time is computed from the hour, the minute and the day with `zoneinfo`, by the
rules of docs/times-and-recurrence.md:

- a time said with am/pm, as a 24-hour clock ("18:15", "08:15") or a part of the day is that time;
- an hour from 1 to 6 without am/pm is the afternoon's (1 to 6 in the morning are no waking
  hours), 7 to 11 are the next of the morning and the evening to come on the day, 12 is noon;
- with no day, the next time to come (today, else tomorrow); with a day, that day ("today at 9am"
  after 9 has passed); "midnight" is the end of the day named, or the next midnight;
- a weekday is the next one, a week ahead on that day, but for "saturday night" said on a Saturday
  before the night;
- a wall-clock time the change to summer time skips does not exist; of the hour repeated when the
  clocks go back, the first (summer time) is meant.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from tests.support.clock import TEST_NOW

ZONES = ("Asia/Jerusalem", "America/New_York")
#: Waking hours start at 07:00: an hour from 1 to 6 said without am/pm is the afternoon's.
WAKING_FROM = 7
TITLES = {"en": "call bob", "he": "להתקשר לבוב"}

_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_HE_WEEKDAYS = ("ביום שני", "ביום שלישי", "ביום רביעי", "ביום חמישי", "ביום שישי", "בשבת", "ביום ראשון")
_EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December")  # fmt: skip
_HE_MONTHS = ("ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
              "נובמבר", "דצמבר")  # fmt: skip
_EN_HOURS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
             "twelve")  # fmt: skip
_HE_HOURS = ("אחת", "שתיים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע", "עשר", "אחת עשרה",
             "שתים עשרה")  # fmt: skip


@dataclass(frozen=True)
class Said:
    """A time of day as written: `hour` 0-23 when its half is said (`explicit`), else 1-12."""

    words: str
    hour: int
    minute: int
    explicit: bool
    midnight: bool = False
    #: said with a part of the day ("בשש וחצי בערב", "lunchtime")
    part: bool = False


@dataclass(frozen=True)
class Day:
    """A day as written ("" for none), and the date it names from `today` (None: no day)."""

    words: str
    on: date | None
    #: "saturday night": its evening, and tonight when said on a Saturday before then
    night: bool = False
    #: a weekday: with a part of the day, said on that weekday before then, it is today
    weekday: int | None = None
    #: a month by name ("on May 3", "3 במאי"): read by dateparser, a few milliseconds each
    named: bool = False


@dataclass(frozen=True)
class Case:
    text: str
    language: str
    zone: str
    now: datetime
    #: the local time meant, or the problem reported: "past", "invalid_time"
    expected: datetime | str
    #: the words of the time alone, without the title ("tomorrow at 6:15pm")
    words: str

    @property
    def title(self) -> str:
        return TITLES[self.language]


# --- times of day ---------------------------------------------------------------------------------


def english_clocks(hour: int, minute: int) -> list[Said]:
    """`hour`:`minute` (0-23) with am/pm or as a 24-hour clock: "6:15pm", "6:15 pm", "6.15pm", "18:15"."""
    h12, half = hour % 12 or 12, "am" if hour < 12 else "pm"
    forms = [f"{h12}:{minute:02d}{half}", f"{h12}:{minute:02d} {half.upper()}", f"{h12}.{minute:02d}{half}"]
    if minute == 0:
        forms += [f"{h12}{half}", f"{h12} {half[0]}.m."]
    said = [Said(words, hour, minute, True) for words in forms]
    return [*said, twenty_four_hours(hour, minute)]


def twenty_four_hours(hour: int, minute: int, prefix: str = "") -> Said:
    """ "18:15", "08:15"; "10:15" to "12:59" are also a morning or noon hour said without am/pm."""
    words = f"{prefix}{hour:02d}:{minute:02d}"
    return Said(words, hour, minute, explicit=not 10 <= hour <= 12)


def english_words(hour: int) -> list[Said]:
    """The forms said in words for `hour` (1-12, no am/pm): "quarter past six", "half 7", "twenty to
    seven", "at six fifteen"; and some with am/pm ("quarter past 5 pm")."""
    word, prior = _EN_HOURS[hour - 1], hour - 1 or 12
    forms = [
        Said(f"quarter past {word}", hour, 15, False),
        Said(f"a quarter past {hour}", hour, 15, False),
        Said(f"half past {hour}", hour, 30, False),
        Said(f"at half past {word}", hour, 30, False),
        Said(f"at half {hour}", hour, 30, False),
        Said(f"ten past {word}", hour, 10, False),
        Said(f"twenty-five past {word}", hour, 25, False),
        Said(f"quarter to {word}", prior, 45, False),
        Said(f"twenty to {word}", prior, 40, False),
        Said(f"five to {hour}", prior, 55, False),
        Said(f"at {word}", hour, 0, False),
        Said(f"at {word} o'clock", hour, 0, False),
        Said(f"at {word} fifteen", hour, 15, False),
        Said(f"at {word} forty-five", hour, 45, False),
        Said(f"at {hour}", hour, 0, False),
    ]
    for half, offset in (("am", 0), ("pm", 12)):
        h24 = hour % 12 + offset
        forms.append(Said(f"quarter past {hour} {half}", h24, 15, True))
        forms.append(Said(f"half past {word} {half}", h24, 30, True))
        if h24 not in (0, 12):  # ("twenty to 12am" is the day before's)
            forms.append(Said(f"twenty to {hour}{half}", h24 - 1, 40, True))
    return forms


def hebrew_clocks(hour: int, minute: int) -> list[Said]:
    """ "ב-18:15", "בשעה 18:15", "ב18:15" (as 24-hour clocks), "ב-18.45" (with a dot, where it can be
    no date), and with am/pm as people mix them in ("ב-6:15pm", "בשעה 6:15 PM", "ב-6pm": the "ב-" is no
    word of the title)."""
    h12, half = hour % 12 or 12, "am" if hour < 12 else "pm"
    mixed = [Said(f"ב-{h12}:{minute:02d}{half}", hour, minute, True)]
    mixed.append(
        Said(f"ב-{h12}{half}", hour, minute, True)
        if minute == 0
        else Said(f"בשעה {h12}:{minute:02d} {half.upper()}", hour, minute, True)
    )
    if minute > 12:
        # "ב-19.45": written with a dot, a time where no month is that number (else it is a date)
        mixed.append(replace(twenty_four_hours(hour, minute, "ב-"), words=f"ב-{hour:02d}.{minute:02d}"))
    return [*(twenty_four_hours(hour, minute, prefix) for prefix in ("ב-", "בשעה ", "ב")), *mixed]


def hebrew_words(hour: int) -> list[Said]:
    """ "שש ורבע", "בשש וחצי", "בשמונה ועשרים", "רבע לשבע", "עשרים לשבע", "בחצי שבע" for `hour` (1-12), and
    some with the part of the day ("בשש וחצי בערב")."""
    word, prior = _HE_HOURS[hour - 1], hour - 1 or 12
    forms = [
        Said(f"{word} ורבע", hour, 15, False),
        Said(f"ב{word} ורבע", hour, 15, False),
        Said(f"ב{word} וחצי", hour, 30, False),
        Said(f"{word} וחצי", hour, 30, False),
        Said(f"ב{word} ועשרים", hour, 20, False),
        Said(f"ב{word} ועשרה", hour, 10, False),
        Said(f"ב{word} וחמישה", hour, 5, False),
        Said(f"רבע ל{word}", prior, 45, False),
        Said(f"ברבע ל{word}", prior, 45, False),
        Said(f"עשרים ל{word}", prior, 40, False),
        Said(f"עשרה ל{word}", prior, 50, False),
        Said(f"בחצי {word}", prior, 30, False),  # "half seven": 6:30
        Said(f"ב{word}", hour, 0, False),
        Said(f"בשעה {word}", hour, 0, False),
        Said(f"ב-{hour} ורבע", hour, 15, False),
        Said(f"ב-{hour}:{30:02d}", hour, 30, False),
    ]
    if hour != 12:
        forms.append(Said(f"ב{word} וחצי בערב", hour + 12, 30, True, part=True))
    if 5 <= hour <= 11:
        forms.append(Said(f"ב{word} ועשרים בבוקר", hour, 20, True, part=True))
    return forms


SPECIAL = {
    "en": (
        Said("at noon", 12, 0, True),
        Said("12 noon", 12, 0, True),
        Said("at midday", 12, 0, True),
        Said("at lunchtime", 12, 0, True, part=True),
        Said("at midnight", 0, 0, True, midnight=True),
    ),
    "he": (Said("בצהריים", 12, 0, True, part=True), Said("בחצות", 0, 0, True, midnight=True)),
}


# --- days -----------------------------------------------------------------------------------------


def next_weekday(today: date, weekday: int) -> date:
    """The next such weekday; a week ahead on that weekday."""
    return today + timedelta(days=(weekday - today.weekday()) % 7 or 7)


def days(language: str, zone: str, today: date) -> list[Day]:
    """The days a time is said with: none, today, tomorrow, every weekday, "saturday night", dates."""
    month_first = zone.startswith("America/")
    later = [today + timedelta(days=n) for n in (3, 17, 45, 200)]
    tomorrow = today + timedelta(days=1)
    if language == "en":
        found = [Day("", None), Day("today", today), Day("tomorrow", tomorrow), Day("tmrw", tomorrow)]
        found += [Day(f"on {name}", next_weekday(today, n), weekday=n) for n, name in enumerate(_EN_WEEKDAYS)]
        found.append(Day("saturday night", next_weekday(today, 5), night=True, weekday=5))
        found += [Day(f"on {_EN_MONTHS[d.month - 1]} {d.day}", d, named=True) for d in later[:2]]
        third = later[2]
        found.append(Day(f"the {_ordinal(third.day)} of {_EN_MONTHS[third.month - 1]}", third, named=True))
        found += [Day(f"on {_numeric(d, month_first)}", d) for d in later]
        return found
    found = [Day("", None), Day("היום", today), Day("מחר", tomorrow)]
    found += [Day(name, next_weekday(today, n), weekday=n) for n, name in enumerate(_HE_WEEKDAYS)]
    found.append(Day(f"{later[1].day} ב{_HE_MONTHS[later[1].month - 1]}", later[1], named=True))
    found += [Day(f"ב-{_numeric(d, month_first)}", d) for d in later]
    return found


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _numeric(day: date, month_first: bool) -> str:
    """ "12/25" in the Americas, "25/12" elsewhere."""
    return f"{day.month}/{day.day}" if month_first else f"{day.day}/{day.month}"


# --- what it means --------------------------------------------------------------------------------


def local(day: date, hour: int, minute: int, zone: ZoneInfo) -> datetime:
    """The wall-clock time on `day` (the first one, in the hour the clocks go back)."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone, fold=0)


def exists(when: datetime) -> bool:
    return when.astimezone(UTC).astimezone(when.tzinfo).replace(tzinfo=None) == when.replace(tzinfo=None)


def hours_meant(said: Said, night: bool) -> list[int]:
    """The hours (0-23) the words can mean, in the order a day meets them."""
    if said.explicit:
        return [said.hour]
    if night:  # "saturday night at 9": the evening
        return [said.hour % 12 + 12]
    return [h for h in (said.hour % 12, said.hour % 12 + 12) if h >= WAKING_FROM]


def expected(said: Said, day: Day, now: datetime) -> datetime | str:
    """The local time `said` on `day` means, from `now` (aware, in the user's zone), or the problem."""
    zone = now.tzinfo
    assert isinstance(zone, ZoneInfo)
    today = now.date()
    on = day.on
    if on is not None and day.weekday == today.weekday() and (day.night or said.part):
        # "saturday night" said on a Saturday: tonight, while it is to come
        first = _first_to_come(said, day, today, now)
        on = today if isinstance(first, datetime) else on
    if on is None:
        first = _first_to_come(said, day, today, now)
        return first if first != "past" else _first_to_come(said, day, today + timedelta(days=1), now)
    return _first_to_come(said, day, on, now)


def _first_to_come(said: Said, day: Day, on: date, now: datetime) -> datetime | str:
    """The first time on `on` the words can mean that is after `now`, or "past"."""
    zone = now.tzinfo
    assert isinstance(zone, ZoneInfo)
    if said.midnight:  # the end of the day
        return _checked(local(on + timedelta(days=1), 0, 0, zone))
    for hour in hours_meant(said, day.night):
        when = local(on, hour, said.minute, zone)
        if when.astimezone(UTC) > now.astimezone(UTC):
            return _checked(when)
    return "past"


def _checked(when: datetime) -> datetime | str:
    return when if exists(when) else "invalid_time"


def fits(said: Said, day: Day) -> bool:
    """Whether the words go together: "saturday night" with an evening time only."""
    if not day.night:
        return True
    if said.midnight:
        return True
    return (said.explicit and said.hour >= 18) or (not said.explicit and 6 <= said.hour <= 11)


# --- sentences --------------------------------------------------------------------------------------


def sentence(title: str, day: str, time: str, layout: int) -> str:
    """The title, the day and the time in one of four orders."""
    parts = {
        0: (title, day, time),
        1: (day, time, title),
        2: (title, time, day),
        3: (time, day, title),
    }[layout % 4]
    return " ".join(p for p in parts if p)


def with_at(said: Said, language: str, n: int) -> str:
    """ "at 6:15pm" or "6:15pm" (an hour said bare needs its "at")."""
    if language == "he" or said.words.startswith(("at ", "a ", "quarter", "half", "ten ", "twenty", "five")):
        return said.words
    if said.explicit and n % 2:
        return said.words
    return f"at {said.words}"


def nows(zone: str) -> tuple[datetime, datetime]:
    """`TEST_NOW` in `zone`, and the coming Saturday at 09:30 there ("saturday night" said on it)."""
    tz = ZoneInfo(zone)
    now = TEST_NOW.astimezone(tz)
    saturday = now.date() + timedelta(days=(5 - now.weekday()) % 7 or 7)
    return now, local(saturday, 9, 30, tz)


def cases(
    said_forms: Sequence[tuple[str, Said]], zone: str, *, days_each: int, named: bool = False
) -> Iterator[Case]:
    """Each time with `days_each` days in turn (`named`: the days with a month's name, else the others),
    said at each of `nows` in turn, in each of four orders in turn."""
    rotation = itertools.count()
    times = nows(zone)
    by_now = [
        {lang: [d for d in days(lang, zone, now.date()) if d.named == named] for lang in TITLES}
        for now in times
    ]
    for index, (language, said) in enumerate(said_forms):
        now, choices = times[index % 2], by_now[index % 2][language]
        choices = [d for d in choices if fits(said, d)]
        for _ in range(min(days_each, len(choices))):
            n = next(rotation)
            day = choices[n % len(choices)]
            time, layout = with_at(said, language, n), n // len(choices)
            text = sentence(TITLES[language], day.words, time, layout)
            words = sentence("", day.words, time, layout)
            yield Case(text, language, zone, now, expected(said, day, now), words)


def minute_grid(zone: str) -> Iterator[Case]:
    """Every hour and minute as a clock in both languages ("6:15pm", "6:15 PM", "6.15pm", "18:15",
    "ב-18:15", "בשעה 18:15", "ב-6:15pm"), and every minute of the 12 hours said without am/pm ("6:15",
    "ב-6:15"), a day in turn."""
    forms: list[tuple[str, Said]] = []
    for n, (hour, minute) in enumerate(itertools.product(range(24), range(60))):
        english, hebrew = english_clocks(hour, minute), hebrew_clocks(hour, minute)
        forms += [("en", english[n % len(english)]), ("he", hebrew[n % len(hebrew)])]
    for n, (hour, minute) in enumerate(itertools.product(range(1, 13), range(60))):
        bare = Said(f"{hour}:{minute:02d}", hour, minute, False)
        forms.append(("en", bare) if n % 2 else ("he", replace(bare, words=f"ב-{bare.words}")))
    yield from cases(forms, zone, days_each=1)


def word_grid(zone: str) -> Iterator[Case]:
    """Every hour in words in both languages ("quarter past six", "half 7", "twenty to seven",
    "שש ורבע", "רבע לשבע"), noon, midnight and lunchtime, each with three days in turn."""
    yield from cases(_word_forms(), zone, days_each=3)


def named_date_grid(zone: str) -> Iterator[Case]:
    """A sample of the times with a date by its month's name ("on May 3", "3 במאי")."""
    yield from cases(_word_forms()[::5], zone, days_each=1, named=True)


def _word_forms() -> list[tuple[str, Said]]:
    forms: list[tuple[str, Said]] = []
    for hour in range(1, 13):
        forms += [("en", said) for said in english_words(hour)]
        forms += [("he", said) for said in hebrew_words(hour)]
    forms += [(language, said) for language, specials in SPECIAL.items() for said in specials]
    return forms


def offset_grid(zone: str) -> Iterator[Case]:
    """ "in N minutes" / "בעוד N דקות", before and after the title: now plus that much real time."""
    for n in range(1, 241):
        now = nows(zone)[n % 2]
        when = (now.astimezone(UTC) + timedelta(minutes=n)).astimezone(now.tzinfo)
        language, said = (("en", f"in {n} minutes"), ("en", f"in {n} min"), ("he", f"בעוד {n} דקות"))[n % 3]
        yield Case(sentence(TITLES[language], "", said, n % 4), language, zone, now, when, said)


def dst_changes(zone: str) -> tuple[datetime, datetime]:
    """The next instants after `TEST_NOW` at which `zone`'s clocks go forward, and back."""
    tz = ZoneInfo(zone)
    at = TEST_NOW.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    found: dict[bool, datetime] = {}
    offset = at.astimezone(tz).utcoffset()
    while len(found) < 2:
        at += timedelta(hours=1)
        new = at.astimezone(tz).utcoffset()
        if new != offset:
            assert new is not None and offset is not None
            found.setdefault(new > offset, at)
            offset = new
    return found[True], found[False]


def dst_grid(zone: str) -> Iterator[Case]:
    """The days the clocks change: every minute from an hour before the change to two after, as a
    clock with am/pm and a 24-hour one (the skipped hour does not exist; the repeated one is its
    first time); and "in N minutes" said 45 minutes before each change (real minutes)."""
    tz = ZoneInfo(zone)
    now = TEST_NOW.astimezone(tz)
    for change in dst_changes(zone):
        wall = (change - timedelta(hours=1)).astimezone(tz)
        day = Day(f"on {_numeric(wall.date(), zone.startswith('America/'))}", wall.date())
        for n in range(4 * 60):
            hour, minute = divmod(wall.hour * 60 + n, 60)
            if hour > 23:
                break
            for said in (english_clocks(hour, minute)[0], english_clocks(hour, minute)[-1]):
                words = sentence("", day.words, f"at {said.words}", n)
                text = sentence(TITLES["en"], day.words, f"at {said.words}", n)
                yield Case(text, "en", zone, now, expected(said, day, now), words)
        before = (change - timedelta(minutes=45)).astimezone(tz)
        for n in range(1, 181):
            when = (before.astimezone(UTC) + timedelta(minutes=n)).astimezone(tz)
            yield Case(f"call bob in {n} minutes", "en", zone, before, when, f"in {n} minutes")


GRIDS = (minute_grid, word_grid, named_date_grid, offset_grid, dst_grid)


def every_case() -> list[Case]:
    """The whole grid, in both zones."""
    return [case for zone in ZONES for grid in GRIDS for case in grid(zone)]
