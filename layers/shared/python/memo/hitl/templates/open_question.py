"""What is said about the open question itself: the re-ask nudge, one question at a time, expiry and
its "Try again" button, cancellation, and a reply when no question is open."""

from __future__ import annotations

from memo.domain import PendingHITL, PendingHITLOption
from memo.hitl.templates.approval import EDIT_ID
from memo.text.language import Language


def nudge(pending: PendingHITL, language: Language) -> str:
    """The re-ask text: a short hint of what answer fits, then the same question."""
    count = len(pending.options or [])
    if pending.context is not None and pending.context.awaiting == "edit_details":
        hint = "לא הבנתי מה לשנות." if language == "he" else "I couldn't tell what to change."
    elif pending.kind == "approval" and {o.id for o in pending.options or []} == {"yes", "no"}:
        # A yes / no approval (the offer to move reminders after a change of timezone).
        hint = (
            "לא הבנתי — אפשר לענות כן או לא."
            if language == "he"
            else "Sorry, I didn't catch that — please answer yes or no."
        )
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


def set_aside(language: Language, request: str) -> str:
    """A new request sent while a question was open: the question is closed, and its request was
    not done (`request`: what it would have done, "delete all your reminders")."""
    if language == "he":
        return f"את הבקשה הקודמת ({request}) הנחתי בצד, ולא עשיתי בה כלום."
    return f"I've set aside the earlier request ({request}); nothing was done about it."


def cancelled(language: Language) -> str:
    return "בסדר, ביטלתי. לא שיניתי כלום." if language == "he" else "OK, cancelled. Nothing was changed."


def quoted_elsewhere(language: Language) -> str:
    """A typed answer that quoted one of Memo's messages while a question is open."""
    if language == "he":
        return "לא ברור לי על איזו הודעה שלי ענית, אז לא עשיתי כלום. השאלה הפתוחה:"
    return "I can't tell which of my messages you answered, so I didn't act on it. The open question is:"


def stale_reply(language: Language, *, set_aside: bool = False) -> str:
    """A bare "yes" with no question open; `set_aside`: right after a new request closed one."""
    if set_aside:
        if language == "he":
            return "אני לא מחכה לתשובה כרגע: את השאלה הקודמת הנחתי בצד כששלחת בקשה חדשה, ולא עשיתי בה כלום. אפשר לבקש שוב אם עדיין צריך."
        return (
            "I'm not waiting on a question right now: the earlier one was set aside when you sent a new"
            " request, and nothing was done about it. Say it again if you still want it."
        )
    if language == "he":
        return "אני לא מחכה לתשובה כרגע — במה אפשר לעזור?"
    return "I'm not waiting on a question right now — what would you like to do?"


def button_gone(language: Language) -> str:
    """A tap on a button that no longer stands for anything (an id Memo never sent, or no longer
    reads): nothing was done."""
    if language == "he":
        return "הכפתור הזה כבר לא פעיל, ולא עשיתי כלום. אפשר לכתוב לי מה לעשות 🙏"
    return "That button no longer works, so I didn't do anything. Just tell me what you'd like to do 🙏"


def reaction_to_a_guess(language: Language) -> str:
    """A reaction (👍, ❤️, …) on a "Just to check" question: a guess is never confirmed by one."""
    if language == "he":
        return "זה היה רק ניחוש שלי, אז אני צריך תשובה במילים — כן או לא? עד אז לא עשיתי כלום."
    return "That was only my guess, so I need a typed answer — yes or no? I haven't done anything yet."


def one_at_a_time(language: Language) -> str:
    """A yes with a new request after it: neither is run, so the request is not lost."""
    if language == "he":
        return (
            "דבר אחד בכל פעם 🙂 קודם תענו על השאלה הזאת, ואז תשלחו לי את הבקשה החדשה. לא עשיתי כלום בינתיים."
        )
    return "One thing at a time 🙂 Please answer this question first, then send me the new request. I haven't done anything yet."


def which_one_changes(language: Language) -> str:
    """A change said to a question about several requests, without saying which it is for."""
    if language == "he":
        return "לא ברור לי מה לשנות. ענו כן כדי שאעשה את זה כמו שכתוב, לא כדי לבטל, או שלחו את הבקשה מחדש כמו שאתם רוצים. לא עשיתי כלום בינתיים."
    return (
        "I'm not sure which one to change. Say yes to go ahead as shown, no to cancel, or send the "
        "request again the way you want it. I haven't done anything yet."
    )
