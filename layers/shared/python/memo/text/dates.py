"""Dates and times as a user reads them: "Mon 4 May, 17:00" / "יום ב׳ 4.5 בשעה 17:00", in their timezone."""

from __future__ import annotations

from datetime import date, datetime
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
