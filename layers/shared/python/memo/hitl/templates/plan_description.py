"""A plain description of what a plan would do, as verb phrases ("delete all your reminders"): the
summary inside every question about a step, and the truthful "what I would do" reply while execution
is not connected."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from memo.capabilities.lists import UNNAMED_LIST
from memo.capabilities.notes import revised_text
from memo.domain import PlannerOutput, PlanStep
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.series_words import days_words
from memo.text.wording import he_list_name, quote, shorten


def duration_words(minutes: int) -> tuple[str, str]:
    """ "1 hour" / "שעה", "30 minutes" / "30 דקות", "2 days" / "2 ימים"."""
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ("1 day", "יום") if days == 1 else (f"{days} days", f"{days} ימים")
    if minutes % 60 == 0:
        hours = minutes // 60
        return ("1 hour", "שעה") if hours == 1 else (f"{hours} hours", f"{hours} שעות")
    return ("1 minute", "דקה") if minutes == 1 else (f"{minutes} minutes", f"{minutes} דקות")


def _repeats(constraints: dict[str, Any], language: Language, timezone: str) -> str | None:
    """ "every day at 09:00" for a step that creates a repeating reminder with its first time; None
    otherwise."""
    rule, first = constraints.get("recurrence"), constraints.get("when")
    if not isinstance(rule, str) or not isinstance(first, str):
        return None
    from datetime import datetime

    from memo.text.series import series
    from memo.text.series_words import describe

    try:
        stored = series(rule, datetime.fromisoformat(first), timezone)
    except ValueError:
        return None
    return describe(stored, language) if stored else None


def describe_step(step: PlanStep, language: Language, timezone: str) -> str:
    """What the step would do, as a verb phrase ("delete all your reminders")."""
    phrase = _PHRASES.get(step.capability)
    described = phrase(step, language, timezone) if phrase is not None else None
    return described if described is not None else f"{step.capability}: {step.action}"


def _reminder_phrase(step: PlanStep, language: Language, timezone: str) -> str | None:
    c, ch = step.constraints, step.changes
    he = language == "he"
    target = c.get("target") or c.get("title") or ""
    when = format_when(ch.get("when") or c.get("when") or ch.get("day") or c.get("day"), language, timezone)
    if step.action == "create":
        title = quote(c.get("title", ""), language)
        repeats = _repeats(c, language, timezone)
        if repeats:
            # A question about a repeating reminder says it repeats ("every day at 09:00").
            return f"לקבוע תזכורת {title} {repeats}" if he else f"set a reminder {title} {repeats}"
        if he:
            return f"לקבוע תזכורת {title}" + (f" ל{when}" if when else "")
        return f"set a reminder {title}" + (f" for {when}" if when else "")
    if step.action == "list":
        return "להציג את התזכורות שלך" if he else "show your reminders"
    if step.action == "update":
        return _reminder_update_phrase(str(target), ch, when, language)
    # "skip it tomorrow", "delete it": the reminder just set or named, with no name said
    named = quote(target, language) if target else ("התזכורת" if he else "the reminder")
    if step.action == "delete" and c.get("scope") == "occurrence":
        return _skip_phrase(named, c.get("within"), language)
    if step.action == "delete":
        the = f" {quote(target, language)}" if target else ""
        return f"למחוק את התזכורת{the}" if he else f"delete the reminder{the}"
    if step.action == "delete_all":
        return _delete_all_phrase(c, language)
    return None


#: "for", "on", "of", "של" before a day; Hebrew "ב"/"ל" only where a day word follows ("ביום שישי",
#: "למחר"), never the first letter of a word of its own ("בדיקה").
_DAY_PREFIX = re.compile(r"^(?:(?:for|on|of|של)\s+|[בל]-?(?=יום|מחר|שבוע|שבת|ה?ערב|ה?בוקר))", re.I)


def day_said(only: str) -> str:
    """The day a request was limited to, as it is said back: "for tomorrow's" -> "tomorrow",
    "ביום שישי" -> "יום שישי" (the preposition and the possessive dropped)."""
    said = _DAY_PREFIX.sub("", only.strip())
    return re.sub(r"['’]s\b", "", said)


def _delete_all_phrase(c: dict[str, Any], language: Language) -> str:
    """ "delete all your reminders", limited as the request was: "delete your reminders for tomorrow",
    "delete all your reminders except “call mom”"."""
    he = language == "he"
    only, keep = c.get("only"), c.get("keep")
    if isinstance(keep, str) and keep:
        kept = quote(keep, language)
        return f"למחוק את כל התזכורות שלך חוץ מ{kept}" if he else f"delete all your reminders except {kept}"
    if isinstance(only, str) and only:
        said = day_said(only)
        return f"למחוק את התזכורות שלך של {said}" if he else f"delete your reminders for {said}"
    return "למחוק את כל התזכורות שלך" if he else "delete all your reminders"


def _skip_phrase(target: str, within: object, language: Language) -> str:
    """ "skip “gym” on Thu 2 May", "skip “gym” from Sun 5 May to Sat 11 May", "skip the next time of
    “gym”": a skip said as one, never as a delete (`within` ends on the day after its last)."""
    he = language == "he"
    days = within if isinstance(within, dict) else {}
    try:
        first, end = date.fromisoformat(str(days["from"])), date.fromisoformat(str(days["until"]))
    except (KeyError, ValueError):
        return f"לדלג על הפעם הבאה של {target}" if he else f"skip the next time of {target}"
    last = max(first, end - timedelta(days=1))
    start, stop = format_when(first, language, "UTC"), format_when(last, language, "UTC")
    if last == first:
        return f"לדלג על {target} ב{start}" if he else f"skip {target} on {start}"
    return f"לדלג על {target} מ{start} עד {stop}" if he else f"skip {target} from {start} to {stop}"


def _reminder_update_phrase(target: str, ch: dict[str, Any], when: str, language: Language) -> str:
    """ "update the reminder “gym”: rename it to … and move it to …"."""
    parts_en, parts_he = [], []
    if "title" in ch:
        parts_en.append(f"rename it to {quote(ch['title'], language)}")
        parts_he.append(f"לשנות את השם ל{quote(ch['title'], language)}")
    if when:
        parts_en.append(f"move it to {when}")
        parts_he.append(f"להזיז אותה ל{when}")
    elif isinstance(ch.get("time"), str):
        # "make it 8": a time of day, on the reminder's own day(s)
        parts_en.append(f"move it to {ch['time']}")
        parts_he.append(f"להזיז אותה ל-{ch['time']}")
    days = days_words(ch["recurrence"], language) if isinstance(ch.get("recurrence"), str) else None
    if days:
        # "move the gym to mondays": the series' days change, each at its own time of day
        parts_en.append(f"move it to {days}")
        parts_he.append(f"להזיז אותה ל{days}")
    hours = ch.get("hours")
    if isinstance(hours, str) and "-" in hours:
        first, last = hours.split("-", 1)
        parts_en.append(f"make its hours {first} to {last}")
        parts_he.append(f"לשנות את השעות שלה ל-{first} עד {last}")
    shift = ch.get("shiftMinutes")
    if isinstance(shift, int) and shift:
        en, heb = duration_words(abs(shift))
        parts_en.append(f"move it {en} {'later' if shift > 0 else 'earlier'}")
        parts_he.append(f"{'לדחות' if shift > 0 else 'להקדים'} אותה ב{heb}")
    named = f" {quote(target, language)}" if target else ""  # "snooze it": the reminder just set
    if language == "he":
        return f"לעדכן את התזכורת{named}" + (": " + " ו".join(parts_he) if parts_he else "")
    return f"update the reminder{named}" + (": " + " and ".join(parts_en) if parts_en else "")


def note_change(old: str, new: str, language: Language) -> str:
    """ "change the note “gate code is 1234” to “gate code is 5678”": a note's text before and after."""
    if language == "he":
        return f"לעדכן את הפתק {quote(old, language)} ל{quote(new, language)}"
    return f"change the note {quote(old, language)} to {quote(new, language)}"


def _note_phrase(step: PlanStep, language: Language, timezone: str) -> str | None:
    c, ch = step.constraints, step.changes
    he = language == "he"
    target = c.get("target") or c.get("title") or ""
    if step.action == "save":
        text = quote(shorten(str(ch.get("text", "")), 60), language)
        return f"לשמור את הפתק {text}" if he else f"save the note {text}"
    if step.action == "search":
        query = c.get("query") or ""
        if he:
            return f"לחפש בפתקים שלך {quote(query, language)}" if query else "להציג את הפתקים שלך"
        return f"search your notes for {quote(query, language)}" if query else "show your notes"
    if step.action == "update":
        said = str(ch.get("text") or ch.get("title") or "")
        if ch.get("append") is True:
            added, note = quote(said, language), quote(target, language)
            return f"להוסיף {added} לפתק {note}" if he else f"add {added} to the note {note}"
        return note_change(
            str(target), said if ch.get("whole") is True else revised_text(str(target), said), language
        )
    if step.action == "delete":
        return (
            f"למחוק את הפתק {quote(target, language)}" if he else f"delete the note {quote(target, language)}"
        )
    if step.action == "delete_all":
        return "למחוק את כל הפתקים שלך" if he else "delete all your notes"
    return None


def _list_phrase(step: PlanStep, language: Language, timezone: str) -> str | None:
    he = language == "he"
    name = str(step.constraints.get("listName", ""))
    items = ", ".join(str(i) for i in step.changes.get("items", [])) or ("פריטים" if he else "items")
    unnamed = name == UNNAMED_LIST  # the list the thing is on, found when it runs: never "default"
    if step.action == "add":
        if unnamed:
            return f"להוסיף {items} לרשימה" if he else f"add {items} to your list"
        return f"להוסיף {items} לרשימת {he_list_name(name)}" if he else f"add {items} to your {name} list"
    if step.action == "remove":
        if unnamed:
            return f"להוריד {items} מהרשימה" if he else f"remove {items} from your list"
        return (
            f"להוריד {items} מרשימת {he_list_name(name)}" if he else f"remove {items} from your {name} list"
        )
    if step.action == "update":
        # "change eggs to 12 eggs": one thing on the list said again
        old, new = (
            quote(str(step.constraints.get("target", "")), language),
            quote(str(step.changes.get("text", "")), language),
        )
        if he:
            where = "ברשימה" if unnamed else f"ברשימת {he_list_name(name)}"
            return f"לשנות את {old} ל{new} {where}"
        where = "on your list" if unnamed else f"on your {name} list"
        return f"change {old} to {new} {where}"
    if step.action == "show":
        return f"להציג את רשימת {he_list_name(name)}" if he else f"show your {name} list"
    if step.action == "clear":
        return f"לנקות את כל רשימת {he_list_name(name)}" if he else f"clear your whole {name} list"
    return None


#: Capabilities Memo only talks about: one phrase whatever the action.
_WHOLE_CAPABILITY: dict[str, tuple[str, str]] = {
    "calendar": ("use your calendar", "להשתמש ביומן שלך"),
    "email": ("use your email", "להשתמש במייל שלך"),
    "general": ("reply to you", "לענות לך"),
}


def _whole_capability_phrase(step: PlanStep, language: Language, timezone: str) -> str | None:
    en, he = _WHOLE_CAPABILITY[step.capability]
    return he if language == "he" else en


_PHRASES: dict[str, Callable[[PlanStep, Language, str], str | None]] = {
    "reminders": _reminder_phrase,
    "notes": _note_phrase,
    "lists": _list_phrase,
    **dict.fromkeys(_WHOLE_CAPABILITY, _whole_capability_phrase),
}


def describe_plan(output: PlannerOutput, language: Language, timezone: str) -> str:
    steps = [describe_step(step, language, timezone) for step in output.plan]
    joiner = " ואז " if language == "he" else ", then "
    return joiner.join(steps)


def would_do(output: PlannerOutput, language: Language, timezone: str) -> str:
    """A truthful reply while execution is not wired: what would be done, nothing claimed done."""
    plan = describe_plan(output, language, timezone)
    if language == "he":
        return f"הייתי {plan} — אבל הביצוע עוד לא מחובר, אז לא שיניתי כלום."
    return f"I would {plan} — but execution isn't connected yet, so nothing was changed."
