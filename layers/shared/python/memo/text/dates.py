"""Dates and times as a user reads them: "Mon 4 May, 17:00" / "יום ב׳ 4.5 בשעה 17:00", in their timezone."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from memo.text.language import Language

_HE_WEEKDAYS = ("יום ב׳", "יום ג׳", "יום ד׳", "יום ה׳", "יום ו׳", "שבת", "יום א׳")
_EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_when(value: datetime | date | str | None, language: Language, timezone: str) -> str:
    """A day, or a day and time of day in `timezone`; an ISO string is parsed first (returned as is
    when it is not ISO), None gives ""."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            parsed: datetime | date = (
                datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
            )
        except ValueError:
            return value
        value = parsed
    if isinstance(value, datetime):
        local = value.astimezone(ZoneInfo(timezone)) if value.tzinfo else value
        day = _format_day(local.date(), language)
        return f"{day}, {local:%H:%M}" if language == "en" else f"{day} בשעה {local:%H:%M}"
    return _format_day(value, language)


def _format_day(day: date, language: Language) -> str:
    if language == "he":
        return f"{_HE_WEEKDAYS[day.weekday()]} {day.day}.{day.month}"
    return f"{_EN_WEEKDAYS[day.weekday()]} {day.day} {_EN_MONTHS[day.month - 1]}"


def format_times(
    first: datetime | str, last: datetime | str | None, times: str, language: Language, timezone: str
) -> str:
    """A series' times in some days, `times` of them ("2", or "366+" past a count): "Tue 1 Dec, 19:00",
    "Tue 1 Dec, 19:00 and Thu 3 Dec, 19:00", or "7 times, Sun 29 Nov, 08:00 to Sat 5 Dec, 08:00"."""
    count = int(times.rstrip("+")) if times.rstrip("+").isdigit() else 1
    span = format_span(first, last, count, language, timezone)
    if count <= 2:
        return span
    return f"{times} פעמים, {span}" if language == "he" else f"{times} times, {span}"


def format_span(
    first: datetime | str, last: datetime | str | None, count: int, language: Language, timezone: str
) -> str:
    """The times of one series in some days, said in a line: "Tue 1 Dec, 19:00" (one), "Tue 1 Dec,
    19:00 and Thu 3 Dec, 19:00" (two), or from the first to the last ("Sun 29 Nov, 08:00 to Sat
    5 Dec, 08:00"); how many is the caller's to say."""
    shown = format_when(first, language, timezone)
    if count <= 1 or not last:
        return shown
    end = format_when(last, language, timezone)
    if count == 2:
        return f"{shown} ו{end}" if language == "he" else f"{shown} and {end}"
    return f"מ{shown} עד {end}" if language == "he" else f"{shown} to {end}"


def nearer_half(when: datetime, current: datetime | None, *, either_half: bool) -> datetime:
    """A morning hour said without am/pm to correct a time the step has ("no, at 8" for 19:45) is
    that hour or 12 hours later, whichever is nearer that time, as when a reminder is moved to a
    bare hour; a day named with it, a series, or an hour said with am/pm or as 24-hour time is
    taken as said."""
    if current is None or not either_half:
        return when
    later = when + timedelta(hours=12)
    return later if abs(later - current) < abs(when - current) else when


#: "8", "9:30", "11.15": an hour of the morning said alone, no am/pm (1 to 6 are afternoon hours).
BARE_MORNING_HOUR = re.compile(r"^(?:[7-9]|1[01])(?:[:.][0-5]\d)?$")
