"""The line of a reminders step that succeeded: set (once or repeating), snoozed or done, updated,
listed or deleted, with times in the user's timezone."""

from __future__ import annotations

import calendar
from datetime import date
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.deletion_lines import deleted_line, left_alone_line
from memo.reply.result_data import bullets, counted, first_value, result_when
from memo.text.dates import format_times, format_when
from memo.text.language import Language
from memo.text.months import MONTHS_EN, MONTHS_HE
from memo.text.wording import quote

_NOUNS = ("reminder", "reminders", "תזכורת אחת", "תזכורות")


def reminder_line(result: ExecutionResult, language: Language, timezone: str) -> str | None:
    """The reminders step's line; None when its data does not say enough (the summary is used)."""
    data, he = result.data, language == "he"
    title = first_value(data, "title")
    when = result_when(result, data, language, timezone)
    repeats = first_value(data, "repeats")
    if result.action == "create" and title and repeats:
        # A repeating reminder: how it repeats, then its first time.
        if he:
            return f"🔁 קבעתי תזכורת {quote(title, language)} {repeats}" + (
                f" (הראשונה: {when})." if when else "."
            )
        return f"🔁 Reminder set: {quote(title, language)} {repeats}" + (
            f" (first: {when})." if when else "."
        )
    if result.action in ("snooze", "done") or data.get("skipped"):
        summary = result.summary.strip()  # worded by the capability (memo.capabilities.reminders)
        mark = "⏰" if result.action == "snooze" else "✅"
        return f"{mark} {summary[:1].upper()}{summary[1:]}." if summary else None
    if result.action == "create" and title:
        if he:
            return f"⏰ קבעתי תזכורת {quote(title, language)}" + (f" ל{when}." if when else ".")
        return f"⏰ Reminder set: {quote(title, language)}" + (f" for {when}." if when else ".")
    if result.action == "update":
        return _updated(data, title, when, language)
    if result.action == "list":
        return _listed(data, language, timezone)
    if result.action in ("delete", "delete_all"):
        done = deleted_line(data, language, _NOUNS, "התזכורת")
        left = left_alone_line(data, language, timezone, _NOUNS)
        return f"{done} {left}" if done and left else done
    return None


def _updated(data: dict[str, Any], title: Any, when: str, language: Language) -> str | None:
    """An update: the one reminder by name (how it repeats now, or its new time), or how many."""
    he = language == "he"
    rows = data.get("reminders")
    if not title and isinstance(rows, list) and len(rows) == 1:
        title = first_value(rows[0], "title") if isinstance(rows[0], dict) else None
    repeats_now = (
        first_value(rows[0], "repeats")
        if isinstance(rows, list) and len(rows) == 1 and isinstance(rows[0], dict)
        else None
    )
    if title and repeats_now:
        if he:
            return f"🔁 עדכנתי את התזכורת {quote(title, language)} — עכשיו {repeats_now}" + (
                f" (הבאה: {when})." if when else "."
            )
        return f"🔁 Updated the reminder {quote(title, language)} — now {repeats_now}" + (
            f" (next: {when})." if when else "."
        )
    if title:
        if he:
            return f"עדכנתי את התזכורת {quote(title, language)}" + (f" — עכשיו ל{when}." if when else ".")
        return f"Updated the reminder {quote(title, language)}" + (f" — now for {when}." if when else ".")
    if isinstance(rows, list) and len(rows) > 1:
        what = counted(len(rows), language, *_NOUNS)
        if he:
            return f"עדכנתי {what}" + (f" — עכשיו ל{when}." if when else ".")
        return f"Updated {what}" + (f" — now for {when}." if when else ".")
    return None


def _listed(data: dict[str, Any], language: Language, timezone: str) -> str | None:
    """A listing: the reminders of a day, a period, a name, or all upcoming ones; or that there are none."""
    rows = data.get("reminders")
    if not isinstance(rows, list):
        return None
    he = language == "he"
    day, until = first_value(data, "day"), first_value(data, "until")
    first = format_when(day, language, timezone) if day else ""
    last = format_when(until, language, timezone) if until else ""
    month = _whole_month(day, until, language)
    if month:
        # "what do I have in january?": the month, not its first and last days
        first, last = month, ""
    about = first_value(data, "about")
    if about and not first:
        # "when is the rent reminder?": the ones named so, or that there is none.
        named = quote(str(about), language)
        notes = data.get("notes")
        if not rows and isinstance(notes, list) and notes:
            # "when is my flight?" with only a note about it: what the note says
            said = bullets([str(n) for n in notes])
            if he:
                return f"אין לך תזכורת על {named}, אבל יש פתק:\n{said}"
            return f"You have no reminder about {named}, but a note of yours says:\n{said}"
        if not rows:
            return f"אין לך תזכורת על {named}." if he else f"You have no reminder about {named}."
        head_about = f"התזכורות שלך על {named}:" if he else f"Your reminders about {named}:"
        return f"{head_about}\n{bullets(reminder_rows(rows, language, timezone))}"
    if not rows:
        return _none_listed(first, last, language)
    shown = reminder_rows(rows, language, timezone)
    if isinstance(data.get("first"), int) and not first:
        # "what's my next reminder?": the next one (or the next few), said so.
        if len(rows) == 1:
            return f"התזכורת הבאה שלך: {shown[0]}" if he else f"Your next reminder: {shown[0]}"
        return f"{'התזכורות הבאות שלך' if he else 'Your next reminders'}:\n{bullets(shown)}"
    head = _listing_head(len(rows), first, last, data.get("howMany") is True, language)
    return f"{head}\n{bullets(shown)}"


def _none_listed(first: str, last: str, language: Language) -> str:
    he = language == "he"
    if first and last:
        return (
            f"אין לך תזכורות מ{first} עד {last}." if he else f"You have no reminders from {first} to {last}."
        )
    if first in MONTHS_EN or first in MONTHS_HE:
        return f"אין לך תזכורות ב{first}." if he else f"You have no reminders in {first}."
    if first:
        return f"אין לך תזכורות ב{first}." if he else f"You have no reminders on {first}."
    return "אין לך תזכורות קרובות." if he else "You have no upcoming reminders."


def _listing_head(count: int, first: str, last: str, how_many: bool, language: Language) -> str:
    """ "Your reminders on Thu 4 Jun:"; for "how many reminders do I have?", the number first."""
    he = language == "he"
    if how_many:
        many = counted(count, language, *_NOUNS)
        period = (f"מ{first} עד {last}" if he else f" from {first} to {last}") if first and last else ""
        period = period or ((f"ב{first}" if he else f" {_on_or_in(first)} {first}") if first else "")
        return f"יש לך {many} {period}".rstrip() + ":" if he else f"You have {many}{period}:"
    if first and last:
        return f"התזכורות שלך מ{first} עד {last}:" if he else f"Your reminders from {first} to {last}:"
    if first:
        return f"התזכורות שלך ב{first}:" if he else f"Your reminders {_on_or_in(first)} {first}:"
    return "התזכורות שלך:" if he else "Your reminders:"


def _whole_month(day: object, until: object, language: Language) -> str:
    """The month's name when a listing's days are one whole month ("January"); else ""."""
    try:
        first, last = date.fromisoformat(str(day)), date.fromisoformat(str(until))
    except ValueError:
        return ""
    if first.day != 1 or (first.year, first.month) != (last.year, last.month):
        return ""
    if last.day != calendar.monthrange(last.year, last.month)[1]:
        return ""
    return (MONTHS_HE if language == "he" else MONTHS_EN)[first.month - 1]


def _on_or_in(first: str) -> str:
    return "in" if first in MONTHS_EN else "on"


def reminder_rows(rows: list[Any], language: Language, timezone: str) -> list[str]:
    """Listed reminders, one line each: title — when (a repeating one: how, and its next time)."""
    shown = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        row_when = format_when(first_value(row, "due_at", "dueAt", "when"), language, timezone)
        row_title = quote(first_value(row, "title") or "", language)
        row_repeats = first_value(row, "repeats")
        times = first_value(row, "times")
        if row_repeats and times:  # a series in a listing of days: when it comes in them
            last = first_value(row, "last")
            row_when = f"{row_repeats} ({format_times(first_value(row, 'when'), last, str(times), language, timezone)})"
        elif row_repeats:  # a repeating reminder: how it repeats, and its next time
            row_when = f"{row_repeats} ({'הבאה: ' if language == 'he' else 'next: '}{row_when})"
        shown.append(f"{row_title} — {row_when}" if row_when else row_title)
    return shown
