"""An operator's question, relayed through WhatsApp (`memo.operator_review.clarify`), and what the
user hears about their answer to it."""

from __future__ import annotations

from memo.text.language import Language


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
