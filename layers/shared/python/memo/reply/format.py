"""Format: one user-facing line per step outcome, in the user's language, dates in their timezone.

Success lines are worded per capability and action from the result's `data` (falling back to its
`summary`); failure lines are worded per error code, and say only what is known:
- NOT_FOUND: nothing matched, so the step was not performed (true: there was no target).
- APPROVAL_*: the executor refused the step (expired, or its args changed after approval), so it
  was not performed.
- REVIEW_REJECTED: an operator rejected the step (it was not performed); the operator's reason is
  passed on. REVIEW_EXPIRED: no operator decided in time (it was not performed).
- NOTHING_TO_UNDO: the undo step's own user-facing error (an "Undo" with nothing left to restore).
- REVIEW_WITHDRAWN: the user withdrew the request while it waited for an operator (not performed).
- IDEMPOTENCY_MISSING_RESULT: the step may have run before; we cannot confirm either way, and say so.
- CHANGED_SINCE_APPROVAL: every item the delete was approved for was edited after the question was
  asked, so none was deleted; the items are named (`changed`). A delete that did part of it says
  which it left alone (`changed`) and how many were already gone (`gone`).
- anything else (STEP_FAILED from the state machine's Catch, a timeout): something went wrong and
  we cannot confirm the step went through; we claim neither that it did nor that nothing changed.

`data` keys read (those of `memo.capabilities`, snake_case or camelCase): reminders `title`,
`when`, `reminders` ([{title, when}]), `deleted` (a count or the deleted items), `count`; notes
`text`, `query`, `notes` ([{text}]); lists `listName`, `added`, `alreadyThere`, `removed`,
`notFound`, `items` ([str] or [{text}]), `count`; failures `target` / `query` / `title`. A missing key falls back to `summary`, never to an invented value.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.join import Joined, JoinStatus
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.wording import quote

OK_MARK = "✅"
FAILED_MARK = "❌"


@dataclass(frozen=True)
class Line:
    ok: bool
    text: str


@dataclass(frozen=True)
class Formatted:
    status: JoinStatus
    header: str | None
    lines: tuple[Line, ...]


def _get(data: dict[str, Any], *names: str) -> Any:
    for name in names:
        value = data.get(name)
        if value not in (None, "", []):
            return value
    return None


def _count(n: int, language: Language, one_en: str, many_en: str, one_he: str, many_he: str) -> str:
    if language == "he":
        return one_he if n == 1 else f"{n} {many_he}"
    return f"1 {one_en}" if n == 1 else f"{n} {many_en}"


def _texts(values: Any) -> list[str]:
    """Item texts from [str] or [{text|title|name}]."""
    if not isinstance(values, list):
        return []
    out: list[str] = []
    for value in values:
        if isinstance(value, dict):
            text = _get(value, "text", "title", "name")
            if text is not None:
                out.append(str(text))
        elif value not in (None, ""):
            out.append(str(value))
    return out


def _when(result: ExecutionResult, data: dict[str, Any], language: Language, timezone: str) -> str:
    value: datetime | str | None = result.when or _get(data, "due_at", "dueAt", "when")
    return format_when(value, language, timezone)


def _bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)


def _reminder_rows(rows: list[Any], language: Language, timezone: str) -> list[str]:
    """Listed reminders, one line each: title — when (a repeating one: how, and its next time)."""
    shown = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        row_when = format_when(_get(row, "due_at", "dueAt", "when"), language, timezone)
        row_title = quote(_get(row, "title") or "", language)
        row_repeats = _get(row, "repeats")
        if row_repeats:  # a repeating reminder: how it repeats, and its next time
            row_when = f"{row_repeats} ({'הבאה: ' if language == 'he' else 'next: '}{row_when})"
        shown.append(f"{row_title} — {row_when}" if row_when else row_title)
    return shown


# --- success -----------------------------------------------------------------------------------


def _reminders_ok(result: ExecutionResult, language: Language, timezone: str) -> str | None:
    data, he = result.data, language == "he"
    title = _get(data, "title")
    when = _when(result, data, language, timezone)
    repeats = _get(data, "repeats")
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
    rows = data.get("reminders")
    if result.action == "update" and not title and isinstance(rows, list) and len(rows) == 1:
        title = _get(rows[0], "title") if isinstance(rows[0], dict) else None
    repeats_now = (
        _get(rows[0], "repeats")
        if isinstance(rows, list) and len(rows) == 1 and isinstance(rows[0], dict)
        else None
    )
    if result.action == "update" and title and repeats_now:
        if he:
            return f"🔁 עדכנתי את התזכורת {quote(title, language)} — עכשיו {repeats_now}" + (
                f" (הבאה: {when})." if when else "."
            )
        return f"🔁 Updated the reminder {quote(title, language)} — now {repeats_now}" + (
            f" (next: {when})." if when else "."
        )
    if result.action == "update" and title:
        if he:
            return f"עדכנתי את התזכורת {quote(title, language)}" + (f" — עכשיו ל{when}." if when else ".")
        return f"Updated the reminder {quote(title, language)}" + (f" — now for {when}." if when else ".")
    if result.action == "update" and isinstance(rows, list) and len(rows) > 1:
        what = _count(len(rows), language, "reminder", "reminders", "תזכורת אחת", "תזכורות")
        if he:
            return f"עדכנתי {what}" + (f" — עכשיו ל{when}." if when else ".")
        return f"Updated {what}" + (f" — now for {when}." if when else ".")
    if result.action == "list":
        if not isinstance(rows, list):
            return None
        day, until = _get(data, "day"), _get(data, "until")
        first = format_when(day, language, timezone) if day else ""
        last = format_when(until, language, timezone) if until else ""
        about = _get(data, "about")
        if about and not first:
            # "when is the rent reminder?": the ones named so, or that there is none.
            named = quote(str(about), language)
            if not rows:
                return f"אין לך תזכורת על {named}." if he else f"You have no reminder about {named}."
            head_about = f"התזכורות שלך על {named}:" if he else f"Your reminders about {named}:"
            return f"{head_about}\n{_bullets(_reminder_rows(rows, language, timezone))}"
        if not rows:
            if first and last:
                return (
                    f"אין לך תזכורות מ{first} עד {last}."
                    if he
                    else f"You have no reminders from {first} to {last}."
                )
            if first:
                return f"אין לך תזכורות ב{first}." if he else f"You have no reminders on {first}."
            return "אין לך תזכורות קרובות." if he else "You have no upcoming reminders."
        shown = _reminder_rows(rows, language, timezone)
        if data.get("howMany") is True:
            # "how many reminders do I have?": the number first, then which they are.
            many = _count(len(rows), language, "reminder", "reminders", "תזכורת אחת", "תזכורות")
            period = (f"מ{first} עד {last}" if he else f" from {first} to {last}") if first and last else ""
            period = period or ((f"ב{first}" if he else f" on {first}") if first else "")
            head = f"יש לך {many} {period}".rstrip() + ":" if he else f"You have {many}{period}:"
        elif first and last:
            head = f"התזכורות שלך מ{first} עד {last}:" if he else f"Your reminders from {first} to {last}:"
        elif first:
            head = f"התזכורות שלך ב{first}:" if he else f"Your reminders on {first}:"
        else:
            head = "התזכורות שלך:" if he else "Your reminders:"
        return f"{head}\n{_bullets(shown)}"
    if result.action in ("delete", "delete_all"):
        done = _deleted(data, language, ("reminder", "reminders", "תזכורת אחת", "תזכורות"), "התזכורת")
        left = _left_alone(data, language, timezone, ("reminder", "reminders", "תזכורת אחת", "תזכורות"))
        return f"{done} {left}" if done and left else done
    return None


def _changed_since(data: dict[str, Any], language: Language, timezone: str) -> str | None:
    """The items a delete left alone because they were edited after the approval, named."""
    changed = data.get("changed")
    titles = _texts(changed)
    if not titles:
        return None
    names = ", ".join(quote(t, language) for t in titles)
    now = ""
    if isinstance(changed, list) and len(changed) == 1 and isinstance(changed[0], dict):
        now = format_when(_get(changed[0], "when"), language, _get(data, "timezone") or timezone)
    if language == "he":
        return f"את {names} לא מחקתי: הפרטים השתנו אחרי שאישרת" + (f" (עכשיו ל{now})" if now else "") + "."
    they = "it was" if len(titles) == 1 else "they were"
    return (
        f"I didn't delete {names}: {they} changed after you approved"
        + (f" (now for {now})" if now else "")
        + "."
    )


def _left_alone(
    data: dict[str, Any], language: Language, timezone: str, nouns: tuple[str, str, str, str]
) -> str | None:
    """After a delete that did part of it: what changed since the approval, what was already gone."""
    parts = [text] if (text := _changed_since(data, language, timezone)) else []
    gone = data.get("gone")
    if isinstance(gone, int) and not isinstance(gone, bool) and gone > 0:
        what = _count(gone, language, *nouns)
        if language == "he":
            parts.append(f"{what} כבר {'נמחקה' if gone == 1 else 'נמחקו'} קודם.")
        else:
            parts.append(f"{what} {'was' if gone == 1 else 'were'} already gone.")
    return " ".join(parts) or None


def _deleted(
    data: dict[str, Any], language: Language, nouns: tuple[str, str, str, str], he_the: str
) -> str | None:
    """How many were deleted (`deleted`: a count or the deleted items; `count`), naming a single
    one; None when the result does not say."""
    he = language == "he"
    deleted = data.get("deleted")
    titles = _texts(deleted) or _texts(data.get("titles"))
    if isinstance(deleted, int) and not isinstance(deleted, bool):
        n: int | None = deleted
    elif isinstance(data.get("count"), int):
        n = int(data["count"])
    elif isinstance(deleted, list):
        n = len(deleted)
    else:
        n = 1 if _get(data, "title", "text") else None
    title = titles[0] if len(titles) == 1 else _get(data, "title", "text")
    if n is None:
        return None
    if n == 0:
        return f"לא היו {nouns[3]} למחוק." if he else f"There were no {nouns[1]} to delete."
    if n == 1 and title:
        name = quote(title, language)
        return f"מחקתי את {he_the} {name}." if he else f"Deleted the {nouns[0]} {name}."
    what = _count(n, language, *nouns)
    if len(titles) == n:
        names = ", ".join(quote(t, language) for t in titles)
        return f"מחקתי {what}: {names}." if he else f"Deleted {what}: {names}."
    return f"מחקתי {what}." if he else f"Deleted {what}."


def _notes_ok(result: ExecutionResult, language: Language) -> str | None:
    data, he = result.data, language == "he"
    if result.action == "update":
        text = _get(data, "text")
        if not text:
            return None
        return (
            f"📝 עדכנתי את הפתק: {quote(text, language)}."
            if he
            else f"📝 Updated your note: {quote(text, language)}."
        )
    if result.action == "save":
        text = _get(data, "text")
        if not text:
            return None
        return (
            f"📝 שמרתי את הפתק {quote(text, language)}."
            if he
            else f"📝 Saved your note {quote(text, language)}."
        )
    if result.action == "search":
        notes = data.get("notes")
        if not isinstance(notes, list):
            return None
        query = _get(data, "query")
        found = _texts(notes)
        if not found:
            if he:
                return "לא מצאתי פתקים" + (f" שמתאימים ל{quote(query, language)}." if query else ".")
            return "I found no notes" + (f" matching {quote(query, language)}." if query else ".")
        what = _count(len(found), language, "note", "notes", "פתק אחד", "פתקים")
        if he:
            head = f"מצאתי {what}" + (f" עבור {quote(query, language)}:" if query else ":")
        else:
            head = f"Found {what}" + (f" for {quote(query, language)}:" if query else ":")
        return f"{head}\n{_bullets(found)}"
    if result.action in ("delete", "delete_all"):
        return _deleted(data, language, ("note", "notes", "פתק אחד", "פתקים"), "הפתק")
    return None


def _lists_ok(result: ExecutionResult, language: Language) -> str | None:
    data, he = result.data, language == "he"
    if result.action == "show_all" and isinstance(data.get("lists"), list):
        return _all_lists(data["lists"], language)
    if result.action == "show" and isinstance(data.get("lists"), list):
        return _every_list(data["lists"], language)
    name = _get(data, "list_name", "listName")
    if not name:
        return None
    if result.action in ("add", "remove"):
        key = "added" if result.action == "add" else "removed"
        changed = _texts(data[key]) if key in data else _texts(data.get("items"))
        already = _texts(data.get("alreadyThere" if result.action == "add" else "notFound"))
        parts: list[str] = []
        if changed and result.action == "add":
            parts.append(
                f"הוספתי {', '.join(changed)} לרשימת {name}."
                if he
                else f"Added {', '.join(changed)} to your {name} list."
            )
        elif changed:
            parts.append(
                f"הורדתי {', '.join(changed)} מרשימת {name}."
                if he
                else f"Removed {', '.join(changed)} from your {name} list."
            )
        if already and result.action == "add":
            parts.append(
                f"כבר ברשימה: {', '.join(already)}." if he else f"Already there: {', '.join(already)}."
            )
        elif already:
            parts.append(
                f"לא היו ברשימה: {', '.join(already)}." if he else f"Not on it: {', '.join(already)}."
            )
        return " ".join(parts) or None
    items = _texts(data.get("items"))
    if result.action == "show" and isinstance(data.get("items"), list):
        if not items:
            return f"רשימת {name} ריקה." if he else f"Your {name} list is empty."
        head = f"רשימת {name}:" if he else f"Your {name} list:"
        if data.get("howMany") is True:
            # "how many things are on my list?": the number first, then which they are.
            many = _count(len(items), language, "item", "items", "פריט אחד", "פריטים")
            head = f"ברשימת {name} יש {many}:" if he else f"Your {name} list has {many}:"
        return f"{head}\n{_bullets(items)}"
    if result.action == "clear":
        removed = _texts(data.get("removedItems"))
        if removed:
            # The approved items, by name (or how many): the list may keep others ("only 1" of two).
            shown = ", ".join(removed) if len(removed) <= 5 else None
            what = shown or _count(len(removed), language, "item", "items", "פריט אחד", "פריטים")
            return f"הורדתי {what} מרשימת {name}." if he else f"Removed {what} from your {name} list."
        count = data.get("count", data.get("deleted"))
        if isinstance(count, int):
            what = _count(count, language, "item", "items", "פריט אחד", "פריטים")
            return f"ניקיתי את רשימת {name} ({what})." if he else f"Cleared your {name} list ({what})."
        return f"ניקיתי את רשימת {name}." if he else f"Cleared your {name} list."
    return None


def _all_lists(lists: list[Any], language: Language) -> str:
    """ "what lists do I have?": each list with its number of items."""
    he = language == "he"
    if not lists:
        if he:
            return "אין עדיין רשימות. אפשר להתחיל למשל ב: תוסיף חלב לרשימת הקניות"
        return "You have no lists yet. Try: add milk to my shopping list"
    lines = [
        f"{entry.get('name')} ({_count(int(entry.get('count', 0)), language, 'item', 'items', 'פריט אחד', 'פריטים')})"
        for entry in lists
        if isinstance(entry, dict)
    ]
    return f"{'הרשימות שלך:' if he else 'Your lists:'}\n{_bullets(lines)}"


def _every_list(lists: list[Any], language: Language) -> str:
    """ "what's on my list?" with no list named and several lists: each list and what is on it."""
    he = language == "he"
    if not lists:
        if he:
            return "אין לך עדיין כלום ברשימות. אפשר להתחיל למשל ב: תוסיף חלב לרשימת הקניות"
        return "There's nothing on your lists yet. Try: add milk to my shopping list"
    sections = []
    for entry in lists:
        if isinstance(entry, dict):
            name = entry.get("name")
            head = f"רשימת {name}:" if he else f"Your {name} list:"
            sections.append(f"{head}\n{_bullets(_texts(entry.get('items')))}")
    return "\n\n".join(sections)


def _undo_ok(result: ExecutionResult, language: Language) -> str | None:
    """ "Undo" of a delete: what came back, and which reminders' times passed while deleted."""
    restored = _texts(result.data.get("restored"))
    if not restored:
        return None
    names = ", ".join(quote(t, language) for t in restored)
    passed = _texts(result.data.get("timePassed"))
    late = ", ".join(quote(t, language) for t in passed)
    if language == "he":
        text = f"↩️ ביטלתי את המחיקה ושחזרתי את {names}."
        return text + (f" הזמן של {late} כבר עבר בינתיים, אז לא תישלח עליו תזכורת." if passed else "")
    text = f"↩️ Undone: {names} {'is' if len(restored) == 1 else 'are'} back."
    return text + (
        f" The time of {late} passed meanwhile, so no reminder will fire for it." if passed else ""
    )


def format_success(result: ExecutionResult, language: Language, timezone: str) -> str:
    text: str | None = None
    if result.action == "undo":
        text = _undo_ok(result, language)
    elif result.capability == "reminders":
        text = _reminders_ok(result, language, timezone)
    elif result.capability == "notes":
        text = _notes_ok(result, language)
    elif result.capability == "lists":
        text = _lists_ok(result, language)
    if text is not None:
        return text
    summary = result.summary.strip()
    if language == "he":
        return f"בוצע: {summary}." if summary else "בוצע."
    return f"Done: {summary}." if summary else "Done."


# --- failure -----------------------------------------------------------------------------------

_ACTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("reminders", "create"): ("set the reminder", "לקבוע את התזכורת"),
    ("reminders", "list"): ("list your reminders", "להציג את התזכורות שלך"),
    ("reminders", "update"): ("update the reminder", "לעדכן את התזכורת"),
    ("reminders", "delete"): ("delete the reminder", "למחוק את התזכורת"),
    ("reminders", "delete_all"): ("delete your reminders", "למחוק את התזכורות שלך"),
    ("notes", "save"): ("save the note", "לשמור את הפתק"),
    ("notes", "search"): ("search your notes", "לחפש בפתקים שלך"),
    ("notes", "update"): ("update the note", "לעדכן את הפתק"),
    ("notes", "delete"): ("delete the note", "למחוק את הפתק"),
    ("notes", "delete_all"): ("delete your notes", "למחוק את הפתקים שלך"),
    ("lists", "add"): ("add to your list", "להוסיף לרשימה"),
    ("lists", "remove"): ("remove from your list", "להוריד מהרשימה"),
    ("lists", "show"): ("show your list", "להציג את הרשימה"),
    ("lists", "clear"): ("clear your list", "לנקות את הרשימה"),
}
_CAPABILITY_ACTIONS: dict[str, tuple[str, str]] = {
    "calendar": ("use your calendar", "להשתמש ביומן שלך"),
    "email": ("use your email", "להשתמש במייל שלך"),
}
# (English, Hebrew noun, Hebrew "that matches" in the noun's gender)
_THINGS: dict[str, tuple[str, str, str]] = {
    "reminders": ("a reminder", "תזכורת", "שמתאימה"),
    "notes": ("a note", "פתק", "שמתאים"),
    "lists": ("an item", "פריט", "שמתאים"),
}


def _action_phrase(result: ExecutionResult, language: Language) -> str:
    en, he = _ACTIONS.get(
        (result.capability, result.action),
        _CAPABILITY_ACTIONS.get(result.capability, ("do that", "לעשות את זה")),
    )
    return he if language == "he" else en


def format_failure(result: ExecutionResult, language: Language) -> str:
    he = language == "he"
    action = _action_phrase(result, language)
    code = result.error_code or ""
    data = result.data
    if code == "NOT_FOUND":
        thing_en, thing_he, matching_he = _THINGS.get(result.capability, ("anything", "משהו", "שמתאים"))
        target = _get(data, "target", "query", "title", "text")
        if he:
            found = f"לא מצאתי {thing_he}" + (f" {matching_he} ל{quote(target, language)}" if target else "")
            return f"{found}, אז לא יכולתי {action}."
        found = f"I couldn't find {thing_en}" + (f" matching {quote(target, language)}" if target else "")
        return f"{found}, so I couldn't {action}."
    if code == "REVIEW_REJECTED":
        reason = (result.error or "").strip()
        if he:
            return f"המפעיל לא אישר {action}, אז לא ביצעתי את זה." + (f" הסיבה: {reason}" if reason else "")
        return f"An operator didn't approve this, so I didn't {action}." + (
            f" Their reason: {reason}" if reason else ""
        )
    if code == "CHANGED_SINCE_APPROVAL":
        changed = _changed_since(data, language, "UTC")
        if changed:
            again = " אפשר לבקש שוב אם עדיין צריך." if he else " Ask again if you still want it."
            return changed + again
        if he:
            return f"לא ביצעתי את הבקשה {action}: הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב."
        return f"I didn't {action}: the details changed after you approved, so it needs your approval again."
    if code == "NOTHING_TO_UNDO" and result.error:
        return result.error  # worded by the step itself (memo.capabilities.undo)
    if code == "REVIEW_WITHDRAWN":
        if he:
            return f"ביטלת את הבקשה {action}, אז לא עשיתי את זה. שום דבר לא השתנה."
        return f"You withdrew the request, so I didn't {action}. Nothing was changed."
    if code == "REVIEW_EXPIRED":
        if he:
            return f"הבקשה {action} פגה לפני שמפעיל בדק אותה, אז לא ביצעתי אותה. אפשר לבקש שוב."
        return f"Your request to {action} expired before an operator reviewed it, so I didn't do it. Ask again if you still want it."
    if code == "IDEMPOTENCY_MISSING_RESULT":
        if he:
            return (
                f"ייתכן שכבר ניסיתי {action} קודם, אבל אין לי אישור אם זה הצליח — "
                "כדאי לבדוק לפני שמבקשים שוב."
            )
        return (
            f"I may already have tried to {action} earlier, but I can't confirm whether it went "
            "through — please check before asking again."
        )
    if code.startswith("APPROVAL_"):
        if "EXPIRED" in code:
            reason_he = "האישור שלך פג לפני שהספקתי. אפשר לבקש שוב."
            reason_en = "your approval expired before I got to it. Ask again if you still want it."
        elif any(word in code for word in ("CHANGED", "MISMATCH", "DRIFT", "HASH")):
            reason_he = "הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב."
            reason_en = "the details changed after you approved, so it needs your approval again."
        else:
            reason_he = "זה צריך את האישור שלך קודם."
            reason_en = "it needs your approval first."
        return f"לא ביצעתי את הבקשה {action}: {reason_he}" if he else f"I didn't {action}: {reason_en}"
    if code == "TIME_IN_PAST":
        if he:
            return f"לא יכולתי {action}: הזמן הזה כבר עבר."
        return f"I couldn't {action}: that time has already passed."
    if code in ("CAPABILITY_UNAVAILABLE", "NOT_CONNECTED"):
        if he:
            return f"אני עוד לא יכול {action} — צריך לחבר את החשבון קודם."
        return f"I can't {action} yet — connect your account first."
    # A step that failed for an unknown reason (STEP_FAILED, a timeout) may or may not have acted.
    if he:
        return f"משהו השתבש כשניסיתי {action}, ואין לי אישור שזה הצליח."
    return f"Something went wrong when I tried to {action}, and I can't confirm it went through."


# --- the whole turn ----------------------------------------------------------------------------

_HEADERS: dict[JoinStatus, tuple[str | None, str | None]] = {
    "complete": (None, None),
    "partial": ("I did part of it:", "עשיתי רק חלק:"),
    "failed": ("I couldn't do any of it:", "לא הצלחתי לבצע אף אחד מהם:"),
    "empty": (None, None),
}


def format_joined(joined: Joined, language: Language, timezone: str) -> Formatted:
    if joined.status == "empty":
        text = (
            "לא עשיתי כלום — לא היה מה לבצע."
            if language == "he"
            else "I didn't do anything — there was nothing to run."
        )
        return Formatted(status="empty", header=None, lines=(Line(ok=False, text=text),))
    lines = tuple(
        Line(ok=True, text=format_success(o.result, language, timezone))
        if o.result.success
        else Line(ok=False, text=format_failure(o.result, language))
        for o in joined.outcomes
    )
    en, he = _HEADERS[joined.status]
    header = he if language == "he" else en
    if joined.status == "failed" and len(lines) == 1:
        header = None  # one failed step: its own line says it
    return Formatted(status=joined.status, header=header, lines=lines)
