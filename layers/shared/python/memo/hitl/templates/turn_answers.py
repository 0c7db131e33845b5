"""The turn's own answers (`memo.turn.control`) and the label of a pending question's list button."""

from __future__ import annotations

from memo.text.language import Language

#: The button that opens a question's list of options.
LIST_BUTTON: dict[Language, str] = {"en": "Choose", "he": "בחירה"}
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


def too_many_steps(language: Language, limit: int) -> str:
    """A message asking for more things than one request carries out: none of it was done."""
    if language == "he":
        return (
            f"זה יותר ממה שאני יכול לעשות מהודעה אחת: עד {limit} דברים בבת אחת, אז לא עשיתי אף אחד מהם. "
            "אפשר לשלוח את זה בכמה הודעות?"
        )
    return (
        f"That's more than I can do from one message: up to {limit} things at a time, so I didn't do "
        "any of it. Could you send it in a few messages?"
    )


def request_too_large(language: Language) -> str:
    """A request too long to carry out in one go (over what one execution takes): none of it was done."""
    if language == "he":
        return "הבקשה הזאת ארוכה מדי בשבילי לביצוע בבת אחת, אז לא עשיתי אף חלק ממנה. אפשר לשלוח אותה בכמה הודעות קצרות יותר?"
    return (
        "That request is too long for me to carry out in one go, so I didn't do any of it. "
        "Could you send it in a few shorter messages?"
    )


def too_large_to_keep(language: Language) -> str:
    """A message whose turn would store an item over DynamoDB's limit: nothing was done with it."""
    if language == "he":
        return "ההודעה הזאת ארוכה מדי בשבילי, אז לא עשיתי איתה כלום. אפשר לשלוח אותה בכמה הודעות קצרות יותר?"
    return (
        "That message is too long for me to work with, so I didn't do anything with it. "
        "Could you send it in a few shorter messages?"
    )


def message_too_long(language: Language, chars: int, limit: int, note_limit: int) -> str:
    """A message longer than Memo reads (`MEMO_MESSAGE_MAX_CHARS`): nothing was done with it."""
    if language == "he":
        return (
            f"ההודעה הזאת ארוכה מדי: {chars:,} תווים, ואני קורא הודעות של עד {limit:,} תווים "
            f"(ופתק יכול להכיל עד {note_limit:,}), אז לא שמרתי ולא עשיתי איתה כלום. "
            "אפשר לקצר אותה, או לשלוח אותה בכמה הודעות קצרות יותר?"
        )
    return (
        f"That message is {chars:,} characters long, and I read messages of up to {limit:,} characters "
        f"(a note holds up to {note_limit:,}), so I didn't save or do anything. "
        "Could you shorten it, or send it as a few shorter messages?"
    )
