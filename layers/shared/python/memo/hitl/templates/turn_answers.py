"""The turn's own answers (`memo.turn.control`) and the WhatsApp form of a pending question."""

from __future__ import annotations

from memo.domain import PendingHITL
from memo.hitl.fastpath import interactive_reply_id
from memo.replies import Choice, Reply
from memo.text.language import Language

_LIST_BUTTON: dict[Language, str] = {"en": "Choose", "he": "בחירה"}
_CONNECT_ACCOUNT = {
    "en": "To use your {what} I need access to your account, and it isn't connected yet. "
    "For now I can help with reminders, notes and lists.",
    "he": "כדי לעבוד עם {what} אני צריך גישה לחשבון שלך, והוא עדיין לא מחובר. "
    "בינתיים אני יכול לעזור עם תזכורות, פתקים ורשימות.",
}
_ACCOUNT_NAMES: dict[Language, dict[str, str]] = {
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
    names = _ACCOUNT_NAMES[language]
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
