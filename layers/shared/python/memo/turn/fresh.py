"""A message with no live question open: a withdrawal, a late or stale answer, a thanks, a message
in a language Memo does not read, or a request."""

from __future__ import annotations

import re
from datetime import datetime

from memo.conversation import smalltalk
from memo.conversation.model import question_set_aside
from memo.domain import HITLReply, PendingHITL, TurnState
from memo.hitl import fastpath, gate, templates
from memo.hitl.resume import stale_reply_guard
from memo.observability import logger
from memo.operator_review.withdraw import WithdrawResult, withdraw_reply
from memo.planner.intents.followups import a_time_for_the_reminder_just_set
from memo.planner.lexicon import has_hebrew
from memo.planner.timeparse import extract_when
from memo.replies import Reply
from memo.text.language import other_language
from memo.turn.outcome import Settlement, TurnOutcome, Withdrawal
from memo.turn.plan import plan
from memo.turn.questions import pause
from memo.turn.reads import Turn, latest_actions

WITHDRAW_RESULTS: tuple[WithdrawResult, ...] = ("withdrawn", "already_decided", "not_submitted_yet")


def fresh(turn: Turn, reply: HITLReply) -> TurnOutcome:
    """A withdrawal, a stale answer, a thanks, another language (answered in English and Hebrew,
    never planned), or a request to plan."""
    ctx = turn.ctx
    withdrawn = withdrawal(turn, reply)
    if withdrawn is not None:
        return withdrawn
    # "8" right after a reminder was set may be its time (a guess, confirmed): not a stale answer.
    timed = a_time_for_the_reminder_just_set(ctx.message.text or "", latest_actions(ctx), ctx.now)
    guard = (
        None
        if timed
        else stale_reply_guard(reply, thread_id=ctx.message.thread_id, language=ctx.profile.language)
    )
    if guard is not None:
        if question_set_aside(ctx.snapshot.recent):  # a new request closed the question just now
            guard = templates.stale_reply(ctx.profile.language, set_aside=True)
        return TurnOutcome(reply=Reply.plain(guard), outcome="stale_reply")
    if reply.interactive_id is None:
        ack = smalltalk.acknowledgement(ctx.message.text)
        if ack is not None:  # "ok", "👍", "thanks" with nothing pending: a short friendly answer
            text = smalltalk.reply(
                ack, language=ctx.profile.language, local_now=ctx.local_now, name=ctx.profile.name
            )
            return TurnOutcome(reply=Reply.plain(text), outcome=f"smalltalk_{ack}")
        language = other_language(ctx.message.text)
        if language is not None:  # "recuérdame…", "Привет": say which languages Memo reads
            logger.info("OTHER_LANGUAGE", extra={"language": language})
            return TurnOutcome(reply=Reply.plain(smalltalk.other_language()), outcome="other_language")
    return plan(turn, turn.fresh_state())


def withdrawal(turn: Turn, reply: HITLReply) -> TurnOutcome | None:
    """A cancel word with no question open withdraws the newest request waiting for an operator
    (`memo.operator_review.withdraw`, called by the recorder); None when there is none. What the turn
    says depends on the withdrawal's result: one outcome per result."""
    reviews = turn.ports.reviews
    if reviews is None or reply.interactive_id or not fastpath.is_cancel(reply.text or ""):
        return None
    thread_id, language = turn.ctx.message.thread_id, turn.ctx.profile.language
    wait = reviews.waiting(thread_id, now=turn.ctx.now)
    if wait is None:
        return None
    outcomes = {}
    for result in WITHDRAW_RESULTS:
        text = withdraw_reply(result, language)
        outcomes[result] = TurnOutcome(reply=Reply.plain(text) if text else None, outcome=f"review_{result}")
    return TurnOutcome(
        reply=None,
        outcome="review_withdrawal",
        settle=Settlement(call=Withdrawal(thread_id=thread_id, wait=wait), outcomes=outcomes),
    )


def _a_time_alone(text: str | None, state: TurnState, now: datetime) -> bool:
    """Whether `text` is a time and nothing else ("friday at 9", "מחר ב-5")."""
    if not text:
        return False
    language = "he" if has_hebrew(text) else "en"
    parsed = extract_when(text, now=now, timezone=state.input.timezone, language=language)
    return parsed.found and not re.sub(r"[\W_]+", "", parsed.remainder)


def late_answer(turn: Turn, state: TurnState, expired: PendingHITL, reply: HITLReply) -> TurnOutcome | None:
    """A bare answer ("yes", "2", a button) to a question that expired: the expiry message with a
    one-tap "Try again" that re-plans the original request. None: the message is a new request."""
    if expired.return_to.node == "case" or (
        expired.context is not None and expired.context.awaiting == "retry"
    ):
        return None
    bare = reply.interactive_id is not None or fastpath.looks_like_hitl_answer(reply.text)
    # "friday at 9" a day after "When should I remind you?": its late answer, not a request of its own
    late_time = expired.reason == "missing_fields" and _a_time_alone(reply.text, state, turn.ctx.now)
    if not bare and not late_time:
        return None
    retry = gate.build_retry_hitl(state, now=turn.ctx.now, ttl_seconds=turn.ttl)
    logger.info("HITL_EXPIRED_ANSWER", extra={"hitlId": expired.hitl_id})
    assert retry.pending_hitl is not None
    checked = gate.GateResult(state=retry, pending=retry.pending_hitl, created=True)
    return pause(turn.ctx, checked, user_kind="hitl_reply")
