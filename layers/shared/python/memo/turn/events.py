"""What the turn says and decides for the event table's non-text rows (`memo.ingress.events`).

The words (welcome, group, voice) in English and Hebrew, the language of a user Memo has never read
a word from (the number's country), and the two narrow ways a non-text event answers the open
question: a reaction on a "Just to check" question's own message (asked again: a guess is confirmed
in words), and an edit of the message the question is waiting on.
"""

from __future__ import annotations

import re
from datetime import datetime

from memo.conversation.model import ThreadSnapshot
from memo.conversation.pending import state_from_item
from memo.domain import LatestAction, PendingHITL, TurnState
from memo.executor.reruns import reads_only
from memo.ingress.inbound import InboundMessage
from memo.reply.memory import current_actions
from memo.text.language import Language
from memo.whatsapp.tracking import OutboundRecord

# Country calling codes whose users Memo greets in Hebrew before it has read a word from them.
HEBREW_COUNTRY_CODES = ("972",)

# "Memo" or "ממו" as a word: how a group member addresses Memo.
_ADDRESSED = re.compile(r"(?<![\w@])@?(?:memo|ממו)(?!\w)", re.IGNORECASE)


def country_language(wa_id: str | None, default: Language) -> Language:
    if wa_id and wa_id.startswith(HEBREW_COUNTRY_CODES):
        return "he"
    return default


def addressed_to_memo(text: str) -> bool:
    return bool(_ADDRESSED.search(text))


def welcome(language: Language, name: str | None) -> str:
    first = (name or "").split()[0] if name and name.strip() else ""
    if language == "he":
        return (
            f"היי{' ' + first if first else ''}! כאן Memo 👋 אני שומר בשבילך תזכורות, פתקים ורשימות, "
            "ממש כאן בוואטסאפ. אפשר לנסות למשל:\n"
            "• תזכיר לי להתקשר לאמא מחר ב-18:00\n"
            "• תוסיף חלב לרשימת הקניות\n"
            "• מה התזכורות שלי?"
        )
    return (
        f"Hi{' ' + first if first else ''}! I'm Memo 👋 I keep your reminders, notes and lists, right "
        "here in WhatsApp. Try for example:\n"
        "• remind me to call mom tomorrow at 6pm\n"
        "• add milk to my shopping list\n"
        "• show my reminders"
    )


def group_reply(language: Language) -> str:
    if language == "he":
        return "היי! אני עובד רק בצ'אט פרטי 🙂 כתבו לי ישירות ואשמח לעזור."
    return "Hi! I only work in private chats 🙂 Message me directly and I'll gladly help."


def voice_unavailable(language: Language) -> str:
    if language == "he":
        return "אני עוד לא יכול להקשיב להודעות קוליות 🎙️ אפשר לכתוב לי את זה?"
    return "I can't listen to voice messages yet 🎙️ Could you type that for me?"


def voice_too_long(language: Language) -> str:
    if language == "he":
        return "ההודעה הקולית ארוכה מדי בשבילי 🙏 אפשר לשלוח הודעה קצרה יותר, או לכתוב לי?"
    return "That voice message is too long for me 🙏 Could you send a shorter one, or type it?"


def voice_not_understood(language: Language) -> str:
    if language == "he":
        return "לא הצלחתי להבין את ההודעה הקולית 🙏 אפשר לנסות שוב או לכתוב לי?"
    return "I couldn't make out that voice message 🙏 Could you try again, or type it?"


def heard(transcript: str, language: Language) -> str:
    """The transcript quoted back, before a reply to a risky request made by voice."""
    return f"🎙️ שמעתי: “{transcript}”" if language == "he" else f"🎙️ I heard: “{transcript}”"


def _live_pending(snapshot: ThreadSnapshot, now: datetime) -> tuple[TurnState, PendingHITL] | None:
    if snapshot.pending is None:
        return None
    state = state_from_item(snapshot.pending)
    pending = state.pending_hitl
    if pending is None or not pending.is_live(now):
        return None
    return state, pending


def is_a_guess(pending: PendingHITL) -> bool:
    """A "Just to check — …?" question: a yes/no about a plan Memo only guessed at. A reaction on it
    is asked again (`reaction_answer`); a reaction on any other question is silent."""
    return (
        pending.expected_input == "yes_no"
        and pending.kind != "approval"
        and pending.reason == "low_confidence_plan"
    )


def reaction_answer(
    message: InboundMessage, snapshot: ThreadSnapshot, question: OutboundRecord | None, now: datetime
) -> InboundMessage | None:
    """A reaction (👍, ❤️, …) on the open "Just to check" question's own message, as an answer that
    the question reads as no answer and asks again (`HITLReply.reaction`); None: the reaction stays
    silent (removed, on any other message, or on any other question)."""
    if not message.emoji or question is None:
        return None
    live = _live_pending(snapshot, now)
    if live is None:
        return None
    _, pending = live
    if not (
        question.kind == "hitl_question"
        and question.thread_id == message.thread_id
        and question.at >= pending.created_at
        and is_a_guess(pending)
    ):
        return None
    return message.model_copy(update={"type": "text", "event": "text", "text": message.emoji})


def edit_of_done(message: InboundMessage, snapshot: ThreadSnapshot, now: datetime) -> list[LatestAction]:
    """What Memo already changed for the request an edit names (its latest actions, whose operation
    ids start with that message's id; what only listed or searched changed nothing): an edit changes
    nothing by itself, so the person is told."""
    if message.handling != "edit" or not message.target_id:
        return []
    done = current_actions(snapshot.latest_actions, now=now, limit=20)
    return [
        a
        for a in reversed(done)
        if (a.operation_id or "").startswith(f"{message.target_id}:")
        and not reads_only(a.capability, a.action)
    ]


def edited_after_done(done: list[LatestAction], language: Language) -> str:
    """The reply to an edit of a request Memo already carried out: nothing changes by itself."""
    what = "; ".join(a.summary for a in done)
    reminders = all(a.capability == "reminders" for a in done)
    if language == "he":
        example = " (למשל „תזיז ל-18:00” או „תמחק את זה”)" if reminders else ""
        return (
            f"ראיתי שערכת את ההודעה, אבל כבר ביצעתי אותה: {what}. העריכה לא משנה כלום בעצמה — "
            f"אם צריך שינוי, כתבו לי מה לשנות{example}."
        )
    example = " (for example “move it to 18:00” or “delete it”)" if reminders else ""
    return (
        f"I see you edited your message, but I had already done it: {what}. The edit changes nothing "
        f"by itself — tell me what to change{example}."
    )


def edit_answer(message: InboundMessage, snapshot: ThreadSnapshot, now: datetime) -> InboundMessage | None:
    """The edited text as the answer, when the edit names the message the open question is waiting
    on: the request that asked it, or the user's last message since it was asked."""
    if not message.text or not message.target_id:
        return None
    live = _live_pending(snapshot, now)
    if live is None:
        return None
    state, pending = live
    waiting_on = {state.trace_id}
    since = [m for m in snapshot.recent if m.role == "user" and m.wamid and m.at >= pending.created_at]
    if since:
        waiting_on.add(str(since[-1].wamid))
    if message.target_id not in waiting_on:
        return None
    return message.model_copy(update={"type": "text", "event": "text"})
