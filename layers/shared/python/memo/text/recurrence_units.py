"""How often a repetition comes: the words of its unit ("every 2 hours", "כל שעתיים", "daily"),
and, for one within a day, the hours of the day it keeps ("every hour from 9 to 5", "כל שעה בין 9
ל-5"): a `Window`, stored as the hours and minutes of each day it comes (BYHOUR, BYMINUTE), so the
reminder is quiet at night and one cron says it.

A clock time said without am/pm in a window reads as working hours do: 7 to 11 and 12 are as said,
1 to 6 are afternoon hours, and an end not after the start is its afternoon ("from 9 to 5" is
09:00 to 17:00, "between 10 and 2" 10:00 to 14:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time
from typing import Literal

Frequency = Literal["MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]

UNIT_FREQ: dict[str, Frequency] = {
    "minute": "MINUTELY", "min": "MINUTELY", "hour": "HOURLY", "hr": "HOURLY", "day": "DAILY",
    "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY", "hourly": "HOURLY", "daily": "DAILY",
    "weekly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY", "annually": "YEARLY",
    "דקות": "MINUTELY", "שעה": "HOURLY", "שעות": "HOURLY", "יום": "DAILY", "ימים": "DAILY",
    "שבוע": "WEEKLY", "שבועות": "WEEKLY", "חודש": "MONTHLY", "חודשים": "MONTHLY", "שנה": "YEARLY",
    "שנים": "YEARLY",
}  # fmt: skip
HE_DUALS: dict[str, tuple[Frequency, int]] = {
    "רבע שעה": ("MINUTELY", 15),
    "חצי שעה": ("MINUTELY", 30),
    "שעתיים": ("HOURLY", 2),
    "יומיים": ("DAILY", 2),
    "שבועיים": ("WEEKLY", 2),
    "חודשיים": ("MONTHLY", 2),
    "שנתיים": ("YEARLY", 2),
}
PART_WORDS = {"בוקר": "morning", "ערב": "evening", "לילה": "night", "צהריים": "noon"}


def unit_freq(unit: str) -> Frequency:
    word = unit.lower()
    if word in UNIT_FREQ:
        return UNIT_FREQ[word]
    return UNIT_FREQ[word.rstrip("s")]


@dataclass(frozen=True)
class Window:
    """The hours of each day a repetition within a day keeps, its first and its last time included
    when the step reaches it."""

    start: time
    end: time

    def by_parts(self, freq: Frequency, interval: int) -> list[str]:
        """BYHOUR and BYMINUTE of its times, every `interval` hours (or minutes) from `start` on:
        hours step from the start's minute to the end; minutes (a divisor of an hour) fill each
        hour from the start's to the one before the end ("every 30 minutes from 9 to 5": 09:00 to
        16:30)."""
        first, last = self.start.hour, self.end.hour
        if last < first or (last == first and self.end < self.start):
            last += 24  # over midnight ("from 10pm to 2am"): its hours after midnight
        if freq == "HOURLY":
            if self.end.minute < self.start.minute:
                last -= 1
            return [_by("BYHOUR", range(first, last + 1, interval)), f"BYMINUTE={self.start.minute}"]
        return [_by("BYHOUR", range(first, last)), _by("BYMINUTE", range(0, 60, interval))]


def _by(name: str, values: range) -> str:
    return f"{name}={','.join(str(v) for v in sorted(v % 24 if name == 'BYHOUR' else v for v in values))}"


def in_window_order(hours: list[int], minutes: list[int]) -> list[int]:
    """The times of a day of BYHOUR and BYMINUTE (minutes of the day) in the window's order: from
    the one after the longest quiet stretch ("from 10pm to 2am": 22:00, 23:00, 00:00 … 02:00)."""
    times = sorted(h * 60 + m for h in hours for m in minutes)
    gaps = [(times[i] - times[i - 1]) % (24 * 60) or 24 * 60 for i in range(len(times))]
    start = max(range(len(times)), key=lambda i: gaps[i])
    return times[start:] + times[:start]


_EN_CLOCK = r"\d{1,2}(?:[:.][0-5]\d)?(?:\s*(?:a\.?m\.?|p\.?m\.?|o'?clock))?|noon|midnight"
_HE_CLOCK = (
    r"\d{1,2}(?::[0-5]\d)?(?:\s+(?:בבוקר|בערב|בלילה|בצהריים|אחה\"?צ|אחר\s+הצהריים))?|הצהריים|צהריים|חצות"
)
_WINDOW = re.compile(
    rf"(?:(?<=\s)|^)(?:(?:between\s+)(?P<a>{_EN_CLOCK})\s+and\s+(?P<b>{_EN_CLOCK})"
    rf"|from\s+(?P<c>{_EN_CLOCK})\s*(?:to|until|till|-|–)\s*(?P<d>{_EN_CLOCK}))\b"
    rf"|(?:(?<=\s)|^)(?:בין\s+(?:השעות\s+)?(?P<e>{_HE_CLOCK})\s+(?:ל-?|לבין\s+|עד\s+)(?P<f>{_HE_CLOCK})"
    rf"|(?:מ-?|מה-?|משעה\s+|מהשעה\s+)(?P<g>{_HE_CLOCK})\s+(?:עד|ועד)\s+(?:ה-?|השעה\s+|ל-?)?(?P<h>{_HE_CLOCK}))"
    r"(?=\s|$|[,.!?])",
    re.I,
)
_PM = re.compile(r"p\.?m|בערב|בלילה|אחה|אחר|צהריים", re.I)
_AM = re.compile(r"a\.?m|בבוקר", re.I)


def find_window(text: str, freq: Frequency, interval: int) -> tuple[Window, tuple[int, int]] | None:
    """The hours of the day said beside a repetition within a day ("every hour between 9am and
    5pm"), with the span of their words; None when none are said, or when one cron cannot say them
    (minutes that do not divide an hour, or a window of minutes not on the hour)."""
    found = _WINDOW.search(text)
    if found is None:
        return None
    said = [g for g in found.groups() if g is not None]
    start = _clock(said[0], after=None)
    # "from 13:00 to 2:00": a start said on the 24-hour clock says the end on it too
    written = re.match(r"\d+", said[0])
    twenty_four = written is not None and int(written.group()) > 12
    end = _clock(said[1], after=None if twenty_four else start, as_said=twenty_four)
    if start is None or end is None or end == start:
        return None
    if freq == "MINUTELY" and (60 % interval or start.minute or end.minute):
        return None
    return Window(start, end), found.span()


def _clock(said: str, *, after: time | None, as_said: bool = False) -> time | None:
    """A window's clock time: as said with am/pm or as a 24-hour time, else by working hours (the
    module's note); None for a time that does not exist."""
    if "noon" in said.lower() or ("צהריים" in said and not re.search(r"\d", said)):
        return time(12)
    if "midnight" in said.lower() or "חצות" in said:
        return time(0)
    digits = re.match(r"(\d{1,2})(?:[:.](\d{2}))?", said)
    assert digits is not None  # the pattern's clock starts with its hour
    hour, minute = int(digits.group(1)), int(digits.group(2) or 0)
    if hour > 23 or (hour > 12 and (_AM.search(said) or _PM.search(said))):
        return None
    if ("בלילה" in said and hour < 6) or (as_said and not (_AM.search(said) or _PM.search(said))):
        return time(hour, minute)  # "2 בלילה": two at night; "2:00" after "13:00"
    if _PM.search(said) and hour < 12:
        hour += 12
    elif _AM.search(said):
        hour %= 12
    elif (
        (1 <= hour <= 6)
        if after is None
        else (hour < 12 and time(hour, minute) <= after < time(hour + 12, minute))
    ):
        hour += 12  # the afternoon of working hours; an end before its start then is after midnight
    return time(hour, minute)
