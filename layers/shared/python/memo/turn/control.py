"""The turn's decisions, from the entry: what one actionable message asks, decided over what the turn
read, returned as one `TurnOutcome` (data; `memo.turn.recorder` writes and issues it).

`TurnControl` is the webhook's `TurnHandler` (`memo.turn.engine`). The order of a turn:
  a tap on Undo, or "undo"    -> `memo.turn.undo`
  a tap on an id of Memo's own buttons that none carries (malformed, out of range), or on an id too
                                 long to read (`memo.ingress.ids`) -> "that button no longer works",
                                 nothing runs
  a reminder's Done / Snooze  -> `memo.turn.reminder_buttons` (typed "done" / "snooze 15 min" too)
  "Undo what I just did?" open -> `memo.turn.undo` (asked by a bare "cancel" / "בטל" with no
                                 question open)
  pending & live              -> `memo.turn.resumed`: fast path -> interpreter -> transition
  pending & expired           -> HITL_EXPIRED, deleted with the turn's write; a bare late answer gets
                                 the expiry message with "Try again", anything else is fresh
                                 (`PendingHITL.is_live`)
  fresh                       -> `memo.turn.fresh`: a withdrawal, the stale-reply guard,
                                 acknowledgements, else `memo.turn.plan`: planner -> capability
                                 check -> HITL gate -> resolution -> approval (`memo.turn.approval`)
                                 -> execution (`memo.turn.execute`)
A message longer than Memo reads (`MEMO_MESSAGE_MAX_CHARS`) is answered first, and not planned.
Every decision reads through the read-only ports of `memo.turn.reads.DecisionPorts` and writes
nothing: the pending question's change, the start, the review wait, and the calls to the case
platform (an operator's question answered, a withdrawal) are all in the outcome. What the user reads
comes from `memo.hitl.templates`; the executor's input is built by `memo.executor.tasks`.
"""

from __future__ import annotations

from memo.capabilities.undo import ACTION as UNDO_ACTION
from memo.conversation.model import MemoryMessage
from memo.conversation.pending import PendingChange, state_from_item
from memo.domain import HITLReply, TurnState
from memo.hitl import gate, templates
from memo.hitl.templates.turn_answers import message_too_long
from memo.ingress.ids import UNKNOWN_REPLY_ID
from memo.observability import bind_turn, logger
from memo.reminders.buttons import (
    HOW_MUCH_LATER,
    ReminderButton,
    by_its_name,
    delivered_lately,
    how_much_later,
    is_reminder_button_id,
    parse_button,
    typed_button,
)
from memo.replies import Reply
from memo.reply.undo import (
    cannot_redo,
    is_redo_said,
    is_undo_id,
    is_undo_said,
    nothing_to_undo,
    parse_undo,
    sent_by_memo,
)
from memo.turn import questions
from memo.turn.fresh import fresh, late_answer, withdrawal
from memo.turn.outcome import TurnContext, TurnOutcome
from memo.turn.reads import DecisionPorts, Turn, latest_actions
from memo.turn.reminder_buttons import handle_button, snoozed_to
from memo.turn.resumed import resumed
from memo.turn.travel import zone_changed
from memo.turn.undo import (
    READS,
    UNDO_ASK_STEP,
    answer_of,
    ask_undo,
    asked_request,
    declined,
    handle_undo,
    is_bare_cancel,
    is_undo_ask,
    undo_said,
)


class TurnControl:
    """Resumes the thread's live pending question, or plans the message as a new request."""

    def __init__(self, ports: DecisionPorts) -> None:
        self._ports = ports

    def handle(self, ctx: TurnContext) -> TurnOutcome:
        return decide(Turn(ctx, self._ports))

    def zone_changed(self, ctx: TurnContext, previous: str) -> TurnOutcome:
        return zone_changed(Turn(ctx, self._ports), previous)

    def lost_race(self, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
        return questions.lost_race(self._ports.pending, ctx, outcome)


def decide(turn: Turn) -> TurnOutcome:
    """The turn's outcome: a tap or a typed word of its own first, then the open question or a fresh
    request."""
    ctx = turn.ctx
    too_long = _too_long_to_read(turn)
    if too_long is not None:
        return too_long
    tapped = _taps(ctx)
    if tapped is not None:
        return tapped
    reply = HITLReply(
        text=ctx.message.text, interactive_id=ctx.message.reply_id, reaction=bool(ctx.message.emoji)
    )
    item = ctx.snapshot.pending
    if item is not None:
        state = state_from_item(item)
        if is_undo_ask(state.pending_hitl):
            return _undo_answer(turn, state, reply)
        # A resumed turn is the original request's: its traceId on every log line from here.
        bind_turn(state.trace_id, state.thread_id)
        expired = gate.expired_question(state, ctx.now)
        if expired is not None:
            # The expired question is deleted with the turn's write (HITL_EXPIRED is logged);
            # the message is then a late answer or a fresh request.
            discard = PendingChange.discard(state.thread_id, expired.hitl_id)
            late = late_answer(turn, state, expired, reply)
            if late is not None:
                return questions.after(discard, late)
            bind_turn(ctx.trace_id, ctx.message.thread_id)  # a fresh request of its own
            return questions.after(discard, _fresh(turn, reply))
        if state.pending_hitl is not None:
            return resumed(turn, state, reply)
    return _fresh(turn, reply)


def _fresh(turn: Turn, reply: HITLReply) -> TurnOutcome:
    """No live question: a bare "cancel" / "בטל" asks whether to undo what was just done (a review
    waiting for an operator is withdrawn first), anything else is `memo.turn.fresh`'s."""
    if is_bare_cancel(reply):
        return withdrawal(turn, reply) or ask_undo(turn)
    return fresh(turn, reply)


def _undo_answer(turn: Turn, state: TurnState, reply: HITLReply) -> TurnOutcome:
    """The answer to "Undo what I just did?" (`memo.turn.undo`): the question goes with the
    turn's write unless it is asked again."""
    ctx, pending = turn.ctx, state.pending_hitl
    assert pending is not None
    discard = PendingChange.discard(state.thread_id, pending.hitl_id)
    answer, request = answer_of(pending, reply), asked_request(pending)
    if answer == "yes" and request is not None:
        return questions.after(discard, handle_undo(ctx, request))
    if answer == "no":
        return questions.after(discard, declined(ctx.profile.language))
    if answer == "unclear" and pending.is_live(ctx.now):
        return questions.existing_question(ctx, pending, UNDO_ASK_STEP, user_kind="hitl_reply")
    return questions.after(discard, fresh(turn, reply))  # a request of its own: nothing undone


def _too_long_to_read(turn: Turn) -> TurnOutcome | None:
    """A message longer than Memo reads is answered at once, whatever it asks: it is not planned
    (reading a request costs time with its length), an open question stays open, nothing is saved."""
    text, ports = turn.ctx.message.text or "", turn.ports
    if len(text) <= ports.message_max_chars:
        return None
    logger.info("MESSAGE_TOO_LONG", extra={"chars": len(text), "limit": ports.message_max_chars})
    answer = message_too_long(
        turn.ctx.profile.language, len(text), ports.message_max_chars, ports.note_max_chars
    )
    return TurnOutcome(reply=Reply.plain(answer), outcome="message_too_long")


def _taps(ctx: TurnContext) -> TurnOutcome | None:
    """Undo (tapped or typed) and a delivered reminder's buttons (tapped or typed): turns of their
    own, answered before anything else; None for any other message."""
    reply_id = ctx.message.reply_id
    if is_undo_id(reply_id):
        undo = parse_undo(reply_id)
        if undo is not None and sent_by_memo(undo, ctx.now):
            return handle_undo(ctx, undo)  # "Undo" on a delete's confirmation: a turn of its own
        return _button_gone(ctx)  # an Undo id that no button of Memo's carries
    tapped = parse_button(reply_id)
    if tapped is None and (is_reminder_button_id(reply_id) or reply_id == UNKNOWN_REPLY_ID):
        return _button_gone(ctx)  # a reminder's button id that none carries, or one too long to read
    redo = is_redo_said(ctx.message.text)
    if (redo or is_undo_said(ctx.message.text)) and not _asks_an_answer(ctx):
        # "undo", "bring it back", "בטל את המחיקה", "אופס תחזיר": the Undo of the latest change, as
        # if tapped (a read since, "show my reminders", is passed over); "undo" also takes away a
        # reminder just set. "redo" / "undo the undo" undoes nothing.
        typed = None if redo else undo_said(latest_actions(ctx), ctx.message.text)
        return handle_undo(ctx, typed) if typed is not None else _nothing_undone(ctx, redo=redo)
    button = tapped or _typed_button(ctx)
    if isinstance(button, ReminderButton):  # "Done" / "Snooze" on a delivered reminder
        return handle_button(ctx, button)
    if button == HOW_MUCH_LATER:
        # Remembered as about that reminder: "in an hour" next is its snooze, even when it was a
        # reply quoting an older reminder than the latest.
        about = _typed_reminder(ctx)
        return TurnOutcome(
            reply=Reply.plain(how_much_later(ctx.profile.language)),
            outcome="reminder_how_long",
            reply_kind="reminder",
            reply_reminder_id=about.reminder_id if about is not None else None,
        )
    return None


def _nothing_undone(ctx: TurnContext, *, redo: bool) -> TurnOutcome:
    """Undo words with nothing to undo: "redo" (an undo is not undone, and what it took away is
    asked for again); else ("undo" again, "תחזיר" again: a second undo) there is nothing to undo.
    Nothing runs."""
    language = ctx.profile.language
    changes = [action for action in latest_actions(ctx) if action.action not in READS]
    undone = bool(changes) and changes[0].action == UNDO_ACTION
    if redo:
        return TurnOutcome(reply=Reply.plain(cannot_redo(language, undone=undone)), outcome="undo_nothing")
    return TurnOutcome(reply=Reply.plain(nothing_to_undo(language)), outcome="undo_nothing")


def _button_gone(ctx: TurnContext) -> TurnOutcome:
    """A tap on an id of Memo's own buttons (Undo, a reminder's Done / Snooze) that no button of
    Memo's carries: a short answer; nothing runs, and an open question stays as it is."""
    reply_id = ctx.message.reply_id or ""
    logger.warning("BUTTON_ID_INVALID", extra={"prefix": reply_id[:16], "length": len(reply_id)})
    return TurnOutcome(reply=Reply.plain(templates.button_gone(ctx.profile.language)), outcome="button_gone")


def _asks_an_answer(ctx: TurnContext) -> bool:
    """Whether a question of Memo's waits for its answer; "what would you like me to do?"
    (intent_unclear) waits for a request, which "undo" is."""
    item = ctx.snapshot.pending
    if item is None:
        return False
    asked = state_from_item(item).pending_hitl
    return asked is not None and asked.reason != "intent_unclear"


def _typed_button(ctx: TurnContext) -> ReminderButton | str | None:
    """ "done" / "snooze 15 min" typed right after a reminder went out, or in a reply quoting
    one: that reminder's button (`memo.reminders.buttons.typed_button`)."""
    about = _typed_reminder(ctx)
    if about is None or about.reminder_id is None or not ctx.message.text:
        return None
    asked = about.text in (how_much_later("en"), how_much_later("he"))
    # Quoting the reminder, or the next message after it: an amount alone is about it.
    right_after = bool(ctx.message.context_id) or ctx.snapshot.recent[-1:] == [about]
    said = " ".join(ctx.message.text.split())
    words = by_its_name(said, about.text)  # "snooze call mom until 5pm": named, as if right after it
    right_after = right_after or words != said
    button = typed_button(words, about.reminder_id, asked_how_long=asked, right_after=right_after)
    if isinstance(button, ReminderButton) and button.to:
        return snoozed_to(ctx, button, about.at)  # "snooze it until 5pm", "remind me again tomorrow"
    return button


def _typed_reminder(ctx: TurnContext) -> MemoryMessage | None:
    """The message about a delivered reminder that typed words may answer: the one a reply
    quotes (even with a question open: quoting a reminder is about it), else the latest one among
    the last few messages if it went out lately (with a question open: only the last message)."""
    quoted = ctx.message.context_id
    if quoted:
        # A reply quoting one of Memo's messages is about that message, however old: a reminder
        # it delivered gets its button; anything else (or one no longer in memory) is not the
        # latest reminder's, and goes on as words.
        shown = next((m for m in ctx.snapshot.recent if m.wamid == quoted), None)
        return shown if shown is not None and shown.kind == "reminder" else None
    if _asks_an_answer(ctx):
        # A question is open: only the very next message after a reminder that went out since is
        # about that reminder ("done" right after it), and the question stays open. "What would
        # you like me to do?" asks about nothing: "done" after it is still the reminder's.
        return delivered_lately(ctx.snapshot.recent[-1:], now=ctx.now)
    return delivered_lately(ctx.snapshot.recent, now=ctx.now)
