"""The line of a step that failed, worded per error code, saying only what is known:
- NOT_FOUND: nothing matched, so the step was not performed (true: there was no target).
- APPROVAL_*: the executor refused the step (expired, or its args changed after approval), so it
  was not performed.
- REVIEW_REJECTED: an operator rejected the step (it was not performed); the operator's reason is
  passed on. REVIEW_EXPIRED: no operator decided in time (it was not performed).
- NOTHING_TO_UNDO, CHANGED_AGAIN, NOTE_TOO_LONG, ITEM_TOO_LARGE, NOT_REPEATING: the step's own user-facing error
  (an "Undo" with nothing left to restore, or whose updated items were all changed again since; a
  note over the configured limit, or an item over DynamoDB's, refused before anything was saved).
- REVIEW_WITHDRAWN: the user withdrew the request while it waited for an operator (not performed).
- IDEMPOTENCY_MISSING_RESULT: the step may have run before; we cannot confirm either way, and say so.
- CHANGED_SINCE_APPROVAL: every item the delete was approved for was edited after the question was
  asked, so none was deleted; the items are named (`changed`).
- anything else (STEP_FAILED from the state machine's Catch, a timeout): something went wrong and
  we cannot confirm the step went through; we claim neither that it did nor that nothing changed.
"""

from __future__ import annotations

from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.deletion_lines import changed_since_line
from memo.reply.result_data import first_value
from memo.text.language import Language
from memo.text.wording import quote

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
    ("lists", "update"): ("change that on your list", "לשנות את זה ברשימה"),
    ("lists", "show"): ("show your list", "להציג את הרשימה"),
    ("lists", "clear"): ("clear your list", "לנקות את הרשימה"),
}
#: Failures whose `error` the step words itself, for the user (`memo.capabilities`).
_WORDED_BY_THE_STEP = frozenset(
    {"NOTHING_TO_UNDO", "CHANGED_AGAIN", "NOTE_TOO_LONG", "ITEM_TOO_LARGE", "NOT_REPEATING"}
)
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
    if code == "NOT_FOUND":
        return _not_found(result, action, language)
    if code == "REVIEW_REJECTED":
        reason = (result.error or "").strip()
        if he:
            return f"המפעיל לא אישר {action}, אז לא ביצעתי את זה." + (f" הסיבה: {reason}" if reason else "")
        return f"An operator didn't approve this, so I didn't {action}." + (
            f" Their reason: {reason}" if reason else ""
        )
    if code == "CHANGED_SINCE_APPROVAL":
        return _changed_since_approval(result.data, action, language)
    if code in _WORDED_BY_THE_STEP and result.error:
        return result.error  # worded by the step itself, in the user's language
    if code == "REVIEW_WITHDRAWN":
        if he:
            return f"ביטלת את הבקשה {action}, אז לא עשיתי את זה. שום דבר לא השתנה."
        return f"You withdrew the request, so I didn't {action}. Nothing was changed."
    if code == "REVIEW_EXPIRED":
        if he:
            return f"הבקשה {action} פגה לפני שמפעיל בדק אותה, אז לא ביצעתי אותה. אפשר לבקש שוב."
        return f"Your request to {action} expired before an operator reviewed it, so I didn't do it. Ask again if you still want it."
    if code == "IDEMPOTENCY_MISSING_RESULT":
        return _may_have_run(action, language)
    if code.startswith("APPROVAL_"):
        return _approval_refused(code, action, language)
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


def _not_found(result: ExecutionResult, action: str, language: Language) -> str:
    thing_en, thing_he, matching_he = _THINGS.get(result.capability, ("anything", "משהו", "שמתאים"))
    target = first_value(result.data, "target", "query", "title", "text")
    if language == "he":
        found = f"לא מצאתי {thing_he}" + (f" {matching_he} ל{quote(target, language)}" if target else "")
        return f"{found}, אז לא יכולתי {action}."
    found = f"I couldn't find {thing_en}" + (f" matching {quote(target, language)}" if target else "")
    return f"{found}, so I couldn't {action}."


def _changed_since_approval(data: dict[str, Any], action: str, language: Language) -> str:
    """A delete that touched nothing: the items it was approved for changed after the question."""
    he = language == "he"
    changed = changed_since_line(data, language, "UTC")
    if changed:
        again = " אפשר לבקש שוב אם עדיין צריך." if he else " Ask again if you still want it."
        return changed + again
    if he:
        return f"לא ביצעתי את הבקשה {action}: הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב."
    return f"I didn't {action}: the details changed after you approved, so it needs your approval again."


def _may_have_run(action: str, language: Language) -> str:
    if language == "he":
        return f"ייתכן שכבר ניסיתי {action} קודם, אבל אין לי אישור אם זה הצליח — כדאי לבדוק לפני שמבקשים שוב."
    return (
        f"I may already have tried to {action} earlier, but I can't confirm whether it went "
        "through — please check before asking again."
    )


def _approval_refused(code: str, action: str, language: Language) -> str:
    """The executor refused the step: its approval expired, or its details changed after it."""
    if "EXPIRED" in code:
        reason_he = "האישור שלך פג לפני שהספקתי. אפשר לבקש שוב."
        reason_en = "your approval expired before I got to it. Ask again if you still want it."
    elif any(word in code for word in ("CHANGED", "MISMATCH", "DRIFT", "HASH")):
        reason_he = "הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב."
        reason_en = "the details changed after you approved, so it needs your approval again."
    else:
        reason_he = "זה צריך את האישור שלך קודם."
        reason_en = "it needs your approval first."
    return (
        f"לא ביצעתי את הבקשה {action}: {reason_he}" if language == "he" else f"I didn't {action}: {reason_en}"
    )
