"""User-facing HITL texts in English and Hebrew, and the machine-built option sets.

Everything a user reads about a pending question comes from here: the question for each reason,
the re-ask nudge, the Edit follow-up, expiry, cancellation and the stale-reply answer, and a plain
description of what a plan step would do (also the truthful "what I would do" reply while the
executor does not exist yet).

An LLM may word the question text only, through the `QuestionWriter` hook of `memo.hitl.gate`;
options (ids, labels, count, order) are always built here, in code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memo.capabilities.notes import revised_text
from memo.domain import (
    DisambiguationCandidate,
    HITLReason,
    PendingHITL,
    PendingHITLOption,
    PlannerOutput,
    PlanStep,
    RoutingSuggestion,
)
from memo.hitl.fastpath import interactive_reply_id
from memo.replies import Choice, Reply
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.wording import quote, shorten

#: WhatsApp limits: a list row title is at most 24 characters, a list row description 72, and a
#: list message at most 10 rows.
ROW_TITLE_MAX = 24
ROW_DESCRIPTION_MAX = 72
MAX_OPTIONS = 10

APPROVE_ID = "approve"
EDIT_ID = "edit"
REJECT_ID = "reject"
YES_ID = "yes"
NO_ID = "no"

_APPROVAL_LABELS: dict[Language, tuple[str, str, str]] = {
    "en": ("Approve", "Edit", "Reject"),
    "he": ("אישור", "עריכה", "דחייה"),
}
_YES_NO_LABELS: dict[Language, tuple[str, str]] = {"en": ("Yes", "No"), "he": ("כן", "לא")}


def approval_options(language: Language) -> list[PendingHITLOption]:
    """Approve / Edit / Reject, in that order, as WhatsApp reply buttons."""
    approve, edit, reject = _APPROVAL_LABELS[language]
    return [
        PendingHITLOption(id=APPROVE_ID, label=approve),
        PendingHITLOption(id=EDIT_ID, label=edit),
        PendingHITLOption(id=REJECT_ID, label=reject),
    ]


def yes_no_options(language: Language) -> list[PendingHITLOption]:
    yes, no = _YES_NO_LABELS[language]
    return [PendingHITLOption(id=YES_ID, label=yes), PendingHITLOption(id=NO_ID, label=no)]


def candidate_options(candidates: list[DisambiguationCandidate]) -> list[PendingHITLOption]:
    """One option per candidate (at most 10), id = the candidate's position ("1", "2", ...).

    Positions, not entity ids, go to WhatsApp; `context.candidates` keeps the mapping to entity ids.
    """
    options: list[PendingHITLOption] = []
    for index, candidate in enumerate(candidates[:MAX_OPTIONS], start=1):
        label = shorten(candidate.label, ROW_TITLE_MAX)
        detail = candidate.description or (candidate.label if label != candidate.label else None)
        options.append(
            PendingHITLOption(
                id=str(index),
                label=label,
                description=shorten(detail, ROW_DESCRIPTION_MAX) if detail else None,
            )
        )
    return options


# --- describing a plan -------------------------------------------------------------------------


def _duration(minutes: int) -> tuple[str, str]:
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

    from memo.text.recurrence import describe, series

    try:
        stored = series(rule, datetime.fromisoformat(first), timezone)
    except ValueError:
        return None
    return describe(stored, language) if stored else None


def describe_step(step: PlanStep, language: Language, timezone: str) -> str:
    """What the step would do, as a verb phrase ("delete all your reminders")."""
    c, ch = step.constraints, step.changes
    he = language == "he"
    target = c.get("target") or c.get("title") or ""
    when = format_when(ch.get("when") or c.get("when") or ch.get("day") or c.get("day"), language, timezone)
    key = (step.capability, step.action)
    if key == ("reminders", "create"):
        title = quote(c.get("title", ""), language)
        repeats = _repeats(c, language, timezone)
        if repeats:
            # A question about a repeating reminder says it repeats ("every day at 09:00").
            return f"לקבוע תזכורת {title} {repeats}" if he else f"set a reminder {title} {repeats}"
        if he:
            return f"לקבוע תזכורת {title}" + (f" ל{when}" if when else "")
        return f"set a reminder {title}" + (f" for {when}" if when else "")
    if key == ("reminders", "list"):
        return "להציג את התזכורות שלך" if he else "show your reminders"
    if key == ("reminders", "update"):
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
        shift = ch.get("shiftMinutes")
        if isinstance(shift, int) and shift:
            en, heb = _duration(abs(shift))
            parts_en.append(f"move it {en} {'later' if shift > 0 else 'earlier'}")
            parts_he.append(f"{'לדחות' if shift > 0 else 'להקדים'} אותה ב{heb}")
        if he:
            return f"לעדכן את התזכורת {quote(target, language)}" + (
                ": " + " ו".join(parts_he) if parts_he else ""
            )
        return f"update the reminder {quote(target, language)}" + (
            ": " + " and ".join(parts_en) if parts_en else ""
        )
    if key == ("reminders", "delete"):
        return (
            f"למחוק את התזכורת {quote(target, language)}"
            if he
            else f"delete the reminder {quote(target, language)}"
        )
    if key == ("reminders", "delete_all"):
        return "למחוק את כל התזכורות שלך" if he else "delete all your reminders"
    if key == ("notes", "save"):
        text = quote(shorten(str(ch.get("text", "")), 60), language)
        return f"לשמור את הפתק {text}" if he else f"save the note {text}"
    if key == ("notes", "search"):
        query = c.get("query") or ""
        if he:
            return f"לחפש בפתקים שלך {quote(query, language)}" if query else "להציג את הפתקים שלך"
        return f"search your notes for {quote(query, language)}" if query else "show your notes"
    if key == ("notes", "update"):
        said = str(ch.get("text") or ch.get("title") or "")
        new = quote(said if ch.get("whole") is True else revised_text(str(target), said), language)
        return (
            f"לעדכן את הפתק {quote(target, language)} ל{new}"
            if he
            else f"change the note {quote(target, language)} to {new}"
        )
    if key == ("notes", "delete"):
        return (
            f"למחוק את הפתק {quote(target, language)}" if he else f"delete the note {quote(target, language)}"
        )
    if key == ("notes", "delete_all"):
        return "למחוק את כל הפתקים שלך" if he else "delete all your notes"
    if step.capability == "lists":
        name = str(c.get("listName", ""))
        items = ", ".join(str(i) for i in ch.get("items", []))
        if step.action == "add":
            return f"להוסיף {items} לרשימת {name}" if he else f"add {items} to your {name} list"
        if step.action == "remove":
            return f"להוריד {items} מרשימת {name}" if he else f"remove {items} from your {name} list"
        if step.action == "show":
            return f"להציג את רשימת {name}" if he else f"show your {name} list"
        if step.action == "clear":
            return f"לנקות את כל רשימת {name}" if he else f"clear your whole {name} list"
    if step.capability == "calendar":
        return "להשתמש ביומן שלך" if he else "use your calendar"
    if step.capability == "email":
        return "להשתמש במייל שלך" if he else "use your email"
    if step.capability == "general":
        return "לענות לך" if he else "reply to you"
    return f"{step.capability}: {step.action}"


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


# --- questions ---------------------------------------------------------------------------------

_MISSING_FIELD_QUESTIONS: dict[str, dict[Language, str]] = {
    "reminder_time_required": {
        "en": "When should I remind you? (e.g. “tomorrow at 17:00”)",
        "he": "מתי להזכיר לך? (למשל „מחר ב-17:00”)",
    },
    "reminder_title_required": {"en": "What should I remind you about?", "he": "על מה להזכיר לך?"},
    "note_text_required": {"en": "What should the note say?", "he": "מה לרשום בפתק?"},
    "list_items_required": {"en": "What should I add to the list?", "he": "מה להוסיף לרשימה?"},
    "time_unclear": {"en": "What time do you mean?", "he": "לאיזו שעה התכוונת?"},
    # A time that does not exist ("at 25:00") or has passed ("yesterday"): asked, never guessed.
    "time_invalid": {
        "en": "That time doesn't exist — when should it be? (e.g. “tomorrow at 17:00”)",
        "he": "השעה הזאת לא קיימת — מתי לקבוע? (למשל „מחר ב-17:00”)",
    },
    "time_in_past": {
        "en": "That time has already passed — when should it be? (e.g. “tomorrow at 17:00”)",
        "he": "הזמן הזה כבר עבר — מתי לקבוע? (למשל „מחר ב-17:00”)",
    },
    "target_unclear": {"en": "Which one do you mean?", "he": "למה בדיוק התכוונת?"},
    "which_one": {"en": "Which one do you mean?", "he": "לאיזה מהם התכוונת?"},
}

_CAPABILITY_NAMES: dict[Language, dict[str, str]] = {
    "en": {
        "reminders": "set a reminder",
        "notes": "save or find a note",
        "lists": "update a list",
        "calendar": "use your calendar",
        "email": "use your email",
        "general": "chat",
    },
    "he": {
        "reminders": "לקבוע תזכורת",
        "notes": "לשמור או למצוא פתק",
        "lists": "לעדכן רשימה",
        "calendar": "להשתמש ביומן",
        "email": "להשתמש במייל",
        "general": "לדבר",
    },
}


def intent_unclear_question(language: Language, suggestions: list[RoutingSuggestion]) -> str:
    names = _CAPABILITY_NAMES[language]
    seen: list[str] = []
    for suggestion in sorted(suggestions, key=lambda s: -s.confidence):
        name = names.get(suggestion.capability)
        if name and name not in seen:
            seen.append(name)
    if language == "he":
        if seen:
            return f"לא בטוח שהבנתי — רצית {' או '.join(seen[:2])}? אפשר לנסח במילים אחרות?"
        return "לא בטוח שהבנתי — מה לעשות? למשל לקבוע תזכורת, לשמור פתק או להוסיף לרשימה."
    if seen:
        return f"I'm not sure I understood — did you want to {' or '.join(seen[:2])}? Tell me in other words."
    return (
        "I'm not sure I understood — what would you like me to do? "
        "For example: set a reminder, save a note or add to a list."
    )


def time_on_day_question(language: Language, day: str, timezone: str) -> str:
    """The time of a reminder whose day is known: "What time on Fri 27 Nov?"."""
    shown = format_when(day, language, timezone)
    if language == "he":
        return f"באיזו שעה ב{shown}? (למשל „ב-17:00”)"
    return f"What time on {shown}? (e.g. “at 17:00”)"


def time_of_series_question(language: Language) -> str:
    """The time of a repeating reminder whose days are known ("every Monday", "the 1st of every month")."""
    if language == "he":
        return "באיזו שעה, בכל פעם? (למשל „ב-9:00”)"
    return "At what time, each time? (e.g. “at 9:00”)"


def which_item_question(language: Language, step: PlanStep) -> str:
    """ "stop reminding me" / "delete it" with nothing to point at: what to name."""
    stops = step.constraints.get("scope") == "series"
    if language == "he":
        what = {"reminders": "איזו תזכורת", "notes": "איזה פתק", "lists": "איזה פריט"}.get(
            step.capability, "מה"
        )
        verb = "להפסיק" if stops else "למחוק" if step.action == "delete" else "לשנות"
        return f"{what} {verb}? אפשר לכתוב מילה מהשם."
    what = {"reminders": "reminder", "notes": "note", "lists": "item"}.get(step.capability, "one")
    verb = "stop" if stops else "delete" if step.action == "delete" else "change"
    return f"Which {what} should I {verb}? A word of its name is enough."


def missing_fields_question(language: Language, missing: list[str]) -> str:
    if "reminder_title_required" in missing and "reminder_time_required" in missing:
        if language == "he":
            return "על מה להזכיר לך, ומתי? (למשל „להתקשר לאמא מחר ב-17:00”)"
        return "What should I remind you about, and when? (e.g. “call mom tomorrow at 17:00”)"
    for field in missing:
        if field in _MISSING_FIELD_QUESTIONS:
            return _MISSING_FIELD_QUESTIONS[field][language]
    return "חסר לי פרט — אפשר להשלים?" if language == "he" else "I need one more detail — can you fill it in?"


def low_confidence_question(language: Language, summary: str) -> str:
    if language == "he":
        return f"רק מוודא — {summary}?"  # "רק מוודא — לשמור את הפתק „...”?"
    return f"Just to check — you want me to {summary}?"


def _approval_head(language: Language, reason: HITLReason) -> str:
    """How an approval opens: a review the policy asks for, or Memo's own "before I go ahead"."""
    review = reason in ("tool_requires_review", "policy_violation")
    if language == "he":
        return "הפעולה הזאת דורשת בדיקה" if review else "רגע לפני"
    return "This needs a check" if review else "Before I go ahead"


def approval_question(
    language: Language, summary: str, reason: HITLReason, *, along: Sequence[str] = ()
) -> str:
    also = f" {along_line(along, language).strip()}" if along else ""
    if language == "he":
        head = _approval_head(language, reason)
        return f"{head}: אני עומד {summary}.{also} לאשר, לערוך או לדחות?"
    head = _approval_head(language, reason)
    return f"{head}: I'm about to {summary}.{also} Approve, edit or reject?"


def ambiguous_scope_question(language: Language, summary: str) -> str:
    if language == "he":
        return f"לא ברור לי על מה בדיוק {summary} — תוכל לפרט?"
    return f"I'm not sure exactly what to include when I {summary} — can you say more precisely?"


def disambiguation_question(
    language: Language, options: list[PendingHITLOption], allow_multiple: bool, total: int | None = None
) -> str:
    """The picker's text: the listed options, and how many more matched when there were more than
    a list message holds ("all" still means every match)."""
    lines = [
        f"{option.id}. {option.label}" + (f" — {option.description}" if option.description else "")
        for option in options
    ]
    more = (total or len(options)) - len(options)
    if more > 0:
        lines.append(
            f"…ועוד {more}. „כולם” = כל {total} התוצאות."
            if language == "he"
            else f"…and {more} more. “all” means all {total} of them."
        )
    listing = "\n".join(lines)
    if language == "he":
        head = (
            "לאילו מהם התכוונת? אפשר לבחור כמה, למשל „1 3” או „כולם”."
            if allow_multiple
            else "לאיזה מהם התכוונת?"
        )
        return f"{head}\n{listing}\nאפשר לענות במספר."
    head = (
        'Which ones do you mean? You can pick several, e.g. "1 3" or "all".'
        if allow_multiple
        else "Which one do you mean?"
    )
    return f"{head}\n{listing}\nYou can reply with a number."


#: An approval lists at most this many items; the rest are counted ("…and 4 more").
APPROVAL_ITEMS_SHOWN = 10
_ITEM_NOUNS: dict[str, tuple[str, str, str, str]] = {
    # capability: (en singular, en plural, he singular "one", he plural)
    "reminders": ("reminder", "reminders", "תזכורת אחת", "תזכורות"),
    "notes": ("note", "notes", "פתק אחד", "פתקים"),
    "lists": ("item", "items", "פריט אחד", "פריטים"),
}


def count_items(capability: str, count: int, language: Language) -> str:
    """ "3 reminders" / "1 reminder" / "3 תזכורות" / "תזכורת אחת"."""
    en_one, en_many, he_one, he_many = _ITEM_NOUNS.get(capability, ("item", "items", "פריט אחד", "פריטים"))
    if language == "he":
        return he_one if count == 1 else f"{count} {he_many}"
    return f"1 {en_one}" if count == 1 else f"{count} {en_many}"


def _items_action(
    step: PlanStep, count: int, language: Language, timezone: str, *, everything: bool = True
) -> str:
    """What the step does to the listed items, as a verb phrase ("delete 3 reminders"). A "delete
    all" or "clear" narrowed to some of the items (`everything` False) says only what it touches."""
    he = language == "he"
    counted = count_items(step.capability, count, language)
    name = str(step.constraints.get("listName", ""))
    if step.action == "delete_all" and not everything:
        return f"למחוק {counted}" if he else f"delete {counted}"
    if step.action == "clear" and not everything:
        return f"להוריד {counted} מרשימת {name}" if he else f"remove {counted} from your {name} list"
    if step.action == "delete_all":
        _, en_many, _, he_many = _ITEM_NOUNS.get(step.capability, ("item", "items", "", "פריטים"))
        return f"למחוק את כל ה{he_many} שלך ({count})" if he else f"delete all your {en_many} ({count})"
    if step.action in ("delete",):
        return f"למחוק {counted}" if he else f"delete {counted}"
    if step.action == "remove":
        return f"להוריד {counted} מרשימת {name}" if he else f"remove {counted} from your {name} list"
    if step.action == "clear":
        return f"לנקות את רשימת {name} ({counted})" if he else f"clear your {name} list ({counted})"
    if step.action == "update":
        change = describe_step(step, language, timezone).split(": ", 1)
        tail = f": {change[1]}" if len(change) == 2 else ""
        return f"לעדכן {counted}{tail}" if he else f"update {counted}{tail}"
    return describe_step(step, language, timezone)


def item_lines(candidates: list[DisambiguationCandidate], language: Language) -> str:
    """ "1. “call mom” — Tue 5 May, 17:00" per item, at most APPROVAL_ITEMS_SHOWN, then how many more."""
    lines = [
        f"{index}. {quote(shorten(c.label, 60), language)}" + (f" — {c.description}" if c.description else "")
        for index, c in enumerate(candidates[:APPROVAL_ITEMS_SHOWN], start=1)
    ]
    more = len(candidates) - APPROVAL_ITEMS_SHOWN
    if more > 0:
        lines.append(f"…ועוד {more}" if language == "he" else f"…and {more} more")
    return "\n".join(lines)


def along_line(along: Sequence[str], language: Language) -> str:
    """The rest of the plan, which waits for the same answer ("yes" runs it, "no" runs none of it)."""
    if not along:
        return ""
    if language == "he":
        return "ויחד עם זה גם: " + "; ".join(along) + ".\n"
    return "Along with it: " + "; ".join(along) + ".\n"


def approval_items_question(
    language: Language,
    step: PlanStep,
    candidates: list[DisambiguationCandidate],
    reason: HITLReason,
    timezone: str,
    *,
    everything: bool = True,
    along: Sequence[str] = (),
) -> str:
    """The approval of a resolved step: the concrete items it touches, never the search words.
    `everything`: the candidates are all the items a "delete all" / "clear" would touch. `along`:
    the rest of the plan, said so that the answer is about all of what runs."""
    if not candidates:
        return approval_question(language, describe_step(step, language, timezone), reason, along=along)
    action = _items_action(step, len(candidates), language, timezone, everything=everything)
    listing = item_lines(candidates, language)
    # Keeping some is offered only when nothing else runs with them (`resume`: never guessed).
    several = len(candidates) > 1 and not along
    if language == "he":
        head = _approval_head(language, reason)
        tail = "לאשר, לערוך או לדחות?" + (
            " אפשר גם להשאיר רק חלק, למשל „רק 1 ו-3” או „חוץ מ-2”." if several else ""
        )
        return f"{head}: אני עומד {action}:\n{listing}\n{along_line(along, language)}{tail}"
    head = _approval_head(language, reason)
    tail = "Approve, edit or reject?" + (
        ' You can also keep only some, e.g. "only 1 and 3" or "not 2".' if several else ""
    )
    return f"{head}: I'm about to {action}:\n{listing}\n{along_line(along, language)}{tail}"


def approval_steps_question(
    language: Language,
    parts: Sequence[tuple[PlanStep, list[DisambiguationCandidate]]],
    reason: HITLReason,
    timezone: str,
    *,
    along: Sequence[str] = (),
) -> str:
    """One approval for a plan that deletes or removes in several steps ("delete the dentist
    reminder and delete the mom reminder"): every item of every step, since one answer runs them
    all, numbered across the steps so that an answer may keep only some ("only 1", "not 2") when
    nothing else runs with them."""
    he = language == "he"
    blocks = []
    number = 0
    for step, items in parts:
        action = _items_action(step, len(items), language, timezone)
        lines = []
        for c in items:
            number += 1
            described = f" — {c.description}" if c.description else ""
            lines.append(f"{number}. {quote(shorten(c.label, 60), language)}{described}")
        blocks.append(f"{action}:\n" + "\n".join(lines))
    body = "\n".join(blocks)
    head = _approval_head(language, reason)
    if he:
        ask = (
            "לאשר את הכול או לדחות?"
            if along
            else "לאשר את הכול, לדחות, או להשאיר רק חלק (למשל „רק 1” או „חוץ מ-2”)?"
        )
        return f"{head}: אני עומד:\n{body}\n{along_line(along, language)}{ask}"
    ask = (
        "Approve all of it, or reject?"
        if along
        else 'Approve all of it, reject, or keep only some (e.g. "only 1" or "not 2")?'
    )
    return f"{head}: I'm about to:\n{body}\n{along_line(along, language)}{ask}"


def edit_not_applicable(step: PlanStep, fields: list[str], language: Language) -> str:
    """An edit that makes no sense for the action (a new time for a delete): explained, never run."""
    timely = any(f in ("when", "day", "time", "date", "recurrence", "duration") for f in fields)
    deleting = step.action in ("delete", "delete_all")
    if language == "he":
        what = "מחיקה" if deleting else "ניקוי" if step.action == "clear" else "הסרה"
        reason = f"ל{what} אין שעה לשנות." if timely else f"את זה אי אפשר לשנות ב{what}."
        return f"{reason} לא שיניתי ולא מחקתי כלום. אפשר לאשר, לדחות, או להשאיר רק חלק (למשל „רק 1” או „חוץ מ-2”)."
    what = "a delete" if deleting else "clearing a list" if step.action == "clear" else "a removal"
    reason = f"There's no time to change on {what}." if timely else f"That can't be changed on {what}."
    return (
        f"{reason} Nothing was changed or deleted. You can approve, reject, "
        'or keep only some (e.g. "only 1" or "not 2").'
    )


def narrowing_unclear(language: Language) -> str:
    if language == "he":
        return "לא הבנתי אילו מהם להשאיר, אז לא עשיתי כלום. אפשר לענות במספרים, למשל „רק 1 ו-3”."
    return "I couldn't tell which of them you mean, so I haven't done anything. You can answer with numbers, e.g. \"only 1 and 3\"."


def narrowing_with_the_rest(language: Language) -> str:
    """An answer that keeps some items of an approval whose plan does more ("Along with it: ..."):
    whether the rest still runs is not said, so nothing is guessed."""
    if language == "he":
        return (
            "לא ברור לי אם שאר הבקשה עדיין בתוקף, אז לא עשיתי כלום. "
            "אפשר לאשר את הכול, או לדחות ולשלוח כל בקשה בנפרד."
        )
    return (
        "I can't tell whether the rest of the request still stands, so I haven't done anything. "
        "You can approve all of it, or reject and send each request on its own."
    )


def one_at_a_time(language: Language) -> str:
    """A yes with a new request after it: neither is run, so the request is not lost."""
    if language == "he":
        return (
            "דבר אחד בכל פעם 🙂 קודם תענו על השאלה הזאת, ואז תשלחו לי את הבקשה החדשה. לא עשיתי כלום בינתיים."
        )
    return "One thing at a time 🙂 Please answer this question first, then send me the new request. I haven't done anything yet."


def limit_unclear(words: str, language: Language) -> str:
    """ "Delete all my reminders except the blue one": the limit picks none of the items."""
    if language == "he":
        return f"לא מצאתי אילו מהם „{words}”, אז לא עשיתי כלום. אפשר לבקש לראות אותם ולבחור."
    return f"I couldn't tell which of them “{words}” means, so I haven't done anything. You can ask to see them and pick."


def narrowing_empty(language: Language) -> str:
    if language == "he":
        return "זה לא משאיר אף פריט, אז לא עשיתי כלום."
    return "That leaves nothing, so I haven't done anything."


def items_changed(gone: list[str], renamed: list[tuple[str, str]], language: Language) -> str:
    """What changed since the question was asked: said before the question is asked again."""
    parts: list[str] = []
    for label in gone:
        parts.append(
            f"{quote(label, language)} נמחק בינתיים"
            if language == "he"
            else f"{quote(label, language)} was deleted meanwhile"
        )
    for old, new in renamed:
        parts.append(
            f"{quote(old, language)} נקרא עכשיו {quote(new, language)}"
            if language == "he"
            else f"{quote(old, language)} is now called {quote(new, language)}"
        )
    joined = "; ".join(parts)
    if language == "he":
        return f"משהו השתנה מאז ששאלתי ({joined}), אז לא עשיתי כלום ובדקתי שוב."
    return f"Something changed since I asked ({joined}), so I haven't done anything and looked again."


def rejected_with_reason(language: Language) -> str:
    if language == "he":
        return "בסדר, ביטלתי. לא שיניתי כלום. תודה שהסברת — רשמתי את זה."
    return "OK, cancelled. Nothing was changed. Thanks for telling me why — I've noted it."


def edit_prompt(language: Language, *, removal: bool = False) -> str:
    """What Edit asks next; for a delete (`removal`), which of the shown items to keep."""
    if removal:
        if language == "he":
            return "מה לשנות? אפשר להשאיר חלק: למשל „תשאיר את 2” או „אל תמחק את אבא”, או „רק 1” כדי למחוק רק אותה."
        return (
            'What should I change? You can keep some: for example "keep 2" or "don\'t delete dad", '
            'or "only 1" to delete just that one.'
        )
    if language == "he":
        return "מה לשנות? למשל „תשנה את השעה ל-18:00” או „תשנה את השם ל...”."
    return 'What should I change? For example "change the time to 6pm" or "change the title to ...".'


def nudge(pending: PendingHITL, language: Language) -> str:
    """The re-ask text: a short hint of what answer fits, then the same question."""
    count = len(pending.options or [])
    if pending.context is not None and pending.context.awaiting == "edit_details":
        hint = "לא הבנתי מה לשנות." if language == "he" else "I couldn't tell what to change."
    elif pending.kind == "approval" and not any(o.id == EDIT_ID for o in pending.options or []):
        # One approval of several steps: approve or reject (`gate.build_plan_approval_hitl`).
        hint = (
            "לא הבנתי — אפשר לענות „אישור” או „דחייה”."
            if language == "he"
            else 'Sorry, I didn\'t catch that — you can answer "approve" or "reject".'
        )
    elif pending.kind == "approval":
        hint = (
            "לא הבנתי — אפשר לענות „אישור”, „עריכה” או „דחייה”."
            if language == "he"
            else 'Sorry, I didn\'t catch that — you can answer "approve", "edit" or "reject".'
        )
    elif pending.expected_input == "yes_no":
        hint = (
            "לא הבנתי — אפשר לענות כן או לא."
            if language == "he"
            else "Sorry, I didn't catch that — please answer yes or no."
        )
    elif pending.expected_input in ("single_choice", "multi_choice"):
        hint = (
            f"לא הבנתי — אפשר לענות במספר בין 1 ל-{count}."
            if language == "he"
            else f"Sorry, I didn't catch that — please reply with a number from 1 to {count}."
        )
    else:
        hint = "לא הבנתי את התשובה." if language == "he" else "Sorry, I didn't catch that."
    return f"{hint}\n{pending.question}"


def expired(language: Language) -> str:
    return (
        "הבקשה הקודמת פגה — רוצה לנסות שוב?"
        if language == "he"
        else "That request expired — want to try again?"
    )


RETRY_ID = "retry"
_RETRY_LABEL: dict[Language, str] = {"en": "Try again", "he": "לנסות שוב"}


def retry_options(language: Language) -> list[PendingHITLOption]:
    """The one "Try again" button of the expiry message: it re-plans the original request."""
    return [PendingHITLOption(id=RETRY_ID, label=_RETRY_LABEL[language])]


def retry_declined(language: Language) -> str:
    return "בסדר, השארתי את זה ככה." if language == "he" else "OK, I'll leave it."


def existing_question(language: Language, question: str) -> str:
    """The multi-HITL guard: one question at a time, so the open one is asked again."""
    if language == "he":
        return f"יש עוד שאלה פתוחה, נסיים אותה קודם:\n{question}"
    return f"There's still an open question — let's finish it first:\n{question}"


def cancelled(language: Language) -> str:
    return "בסדר, ביטלתי. לא שיניתי כלום." if language == "he" else "OK, cancelled. Nothing was changed."


def quoted_elsewhere(language: Language) -> str:
    """A typed answer that quoted one of Memo's messages while a question is open."""
    if language == "he":
        return "לא ברור לי על איזו הודעה שלי ענית, אז לא עשיתי כלום. השאלה הפתוחה:"
    return "I can't tell which of my messages you answered, so I didn't act on it. The open question is:"


def stale_reply(language: Language) -> str:
    if language == "he":
        return "אני לא מחכה לתשובה כרגע — במה אפשר לעזור?"
    return "I'm not waiting on a question right now — what would you like to do?"


# --- an operator's question, relayed through WhatsApp (memo.operator_review.clarify) -----------------------


def operator_question(language: Language, question: str) -> str:
    """The question an operator reviewing the user's request asks them."""
    if language == "he":
        return f"🕵️ המפעיל שבודק את הבקשה שלך שואל:\n{question}\nאפשר לענות כאן, ואעביר את התשובה."
    return f"🕵️ The operator reviewing your request asks:\n{question}\nJust reply here and I'll pass it on."


def operator_answer_passed_on(language: Language) -> str:
    if language == "he":
        return "העברתי את זה למפעיל. אעדכן אותך ברגע שתתקבל החלטה."
    return "I've passed that on to the reviewer. I'll message you as soon as it's decided."


def operator_question_declined(language: Language) -> str:
    """A cancel word in answer to an operator's question: nothing is sent, the request still waits."""
    if language == "he":
        return "בסדר, לא העברתי תשובה. השאלה של המפעיל עדיין פתוחה והבקשה שלך ממתינה להחלטה שלו."
    return (
        "OK, I didn't pass anything on. The operator's question is still open on their side, "
        "and your request is still waiting for their decision."
    )


def operator_answer_too_late(language: Language) -> str:
    """The case moved on (decided, or the wait ended) before the user's answer reached it."""
    if language == "he":
        return "המפעיל כבר לא ממתין לתשובה הזו, אז לא העברתי אותה."
    return "The operator is no longer waiting for that answer, so I didn't pass it on."


# --- the turn's own answers and the WhatsApp form of a question (memo.turn.control) ---------------

_LIST_BUTTON: dict[Language, str] = {"en": "Choose", "he": "בחירה"}
_CONNECT_ACCOUNT = {
    "en": "To use your {what} I need access to your account, and it isn't connected yet. "
    "For now I can help with reminders, notes and lists.",
    "he": "כדי לעבוד עם {what} אני צריך גישה לחשבון שלך, והוא עדיין לא מחובר. "
    "בינתיים אני יכול לעזור עם תזכורות, פתקים ורשימות.",
}
_CAPABILITY_NAMES = {
    "en": {"calendar": "calendar", "email": "email"},
    "he": {"calendar": "היומן", "email": "המייל"},
}


def question_reply(pending: PendingHITL, language: Language, text: str | None = None) -> Reply:
    """The WhatsApp form of a pending question: buttons or a list when it has options."""
    body = text or pending.question
    if not pending.options:
        return Reply.plain(body)
    choices = [
        Choice(id=interactive_reply_id(pending, option), title=option.label, description=option.description)
        for option in pending.options
    ]
    return Reply.with_choices(body, choices, list_button=_LIST_BUTTON[language])


def connect_account(capabilities: set[str], language: Language) -> str:
    """The plan needs a capability whose account is not connected (calendar, email)."""
    names = _CAPABILITY_NAMES[language]
    what = (" / " if language == "he" else " and ").join(names[c] for c in sorted(capabilities))
    return _CONNECT_ACCOUNT[language].format(what=what)


def sent_to_review(language: Language) -> str:
    """A step of the plan waits for an operator's decision; the reply Lambda answers after it."""
    if language == "he":
        return "🕵️ הבקשה צריכה בדיקה קצרה של אחד המפעילים שלנו לפני שאבצע אותה. אעדכן אותך ברגע שתתקבל החלטה."
    return (
        "🕵️ This needs a quick check by one of our operators before I do it. "
        "I'll message you as soon as it's decided."
    )
