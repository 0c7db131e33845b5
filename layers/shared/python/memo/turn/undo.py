"""Undo, a turn of its own: the tap on "Undo" (`memo.reply.undo`) or the words that say it, and a
bare "cancel" / "בטל" / "ביטול" with no question open, with the question it asks.

The tap is answered before anything else. Within the window it starts (once the turn's write has
claimed the tap) one executor step `items/undo` for the turn whose deletes and updates it undoes
(`memo.capabilities.undo`); the executor's ledger runs it at most once per tap, the repository
restores each item at most once whatever the taps, and the responder tells the user what came back.
After the window it answers at once that it is too late. A pending question of the thread is left
as it is: "Undo" neither answers nor cancels it.

A bare cancel word with a question open cancels that question (`memo.hitl`). With none, the person
may mean "undo what you just did", but a bare cancel word is not clear enough to change data on:
when the latest request that changed something can still be undone (`undo_said`, inside its
window), Memo asks "Undo what I just did — <what it did>?" (yes / no), and only a yes undoes it; with
nothing to undo it says there is nothing to cancel or undo.

The question (`UNDO_ASK_STEP`) names the request's undo key and window in its one candidate and ends
with the window. Its answer (`answer_of`): yes (the Yes button, "yes", "undo") starts the undo step as
a tap on "Undo" would (`handle_undo`: too late once the window closed); no or a cancel word ("no",
"בטל") leaves everything as it is; an unclear bare answer ("3", "maybe") is asked again; anything
else is a new request of its own (`memo.turn.control`) and undoes nothing.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from memo.capabilities.common import say
from memo.capabilities.undo import ACTION, CAPABILITY, UndoArgs
from memo.domain import (
    DisambiguationCandidate,
    HITLReason,
    HITLReply,
    LatestAction,
    PendingHITL,
    PendingHITLContext,
)
from memo.executor.contracts import ExecutionInput
from memo.executor.tasks import one_step_execution
from memo.hitl import fastpath, gate, templates
from memo.hitl.reasons import policy_source_for, return_to_for
from memo.hitl.templates.clarification import NO_ID, YES_ID
from memo.observability import logger
from memo.replies import Reply
from memo.reply.undo import UndoRequest, brings_back, is_undo_said, too_late, typed_undo
from memo.text.language import Language
from memo.turn.outcome import TurnContext, TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn, latest_actions

UNDO_STEP_ID = "undo"

#: Actions that only read: a read between a delete and "undo" ("show my reminders") is no change
#: of its own, so "undo" still means the delete before it.
READS = frozenset({"list", "show", "show_all", "search"})


def undo_said(latest: Sequence[LatestAction], text: str | None = None) -> UndoRequest | None:
    """The Undo typed words ask for: the latest request that changed something, past any reads since
    (`memo.reply.undo.typed_undo`: None when that request deleted, updated and set nothing). Words
    that ask for something back ("bring it back") do not take away a reminder just set."""
    changes = [action for action in latest if action.action not in READS]
    return typed_undo(changes, creates=not brings_back(text))


def undo_execution(ctx: TurnContext, request: UndoRequest) -> ExecutionInput:
    """The execution of one undo step for the tap (named from the tap's own traceId)."""
    args = UndoArgs(undo_key=request.undo_key).to_json()
    return one_step_execution(
        trace_id=ctx.trace_id,
        thread_id=ctx.message.thread_id,
        phone_number_id=ctx.message.phone_number_id,
        language=ctx.profile.language,
        timezone=ctx.profile.timezone,
        step_id=UNDO_STEP_ID,
        capability=CAPABILITY,
        action=ACTION,
        args=args,
    )


def handle_undo(ctx: TurnContext, request: UndoRequest) -> TurnOutcome:
    """Too late, or the undo step to start once the turn's write has claimed the tap."""
    if not request.open_at(ctx.now):
        logger.info("UNDO_TOO_LATE", extra={"undoKey": request.undo_key})
        answer = too_late(ctx.profile.language, updated=request.updated)
        return TurnOutcome(reply=Reply.plain(answer), outcome="undo_too_late")
    logger.info("UNDO_REQUESTED", extra={"undoKey": request.undo_key})
    return TurnOutcome(reply=None, outcome="undo_started", start=undo_execution(ctx, request))


UNDO_ASK_STEP = "undo_ask"
_REASON: HITLReason = "confirmation"
_BARE_CANCEL = re.compile(r"^\W*(?:cancel|ביטול|בטל|תבטל|תבטלי)\W*$", re.I)

Answer = Literal["yes", "no", "unclear", "other"]


def is_bare_cancel(reply: HITLReply) -> bool:
    """ "cancel", "בטל", "ביטול" typed alone (no button, no object: "cancel it" means the thing just
    made, and is planned)."""
    return reply.interactive_id is None and _BARE_CANCEL.match(reply.text or "") is not None


def nothing_to_cancel(language: Language) -> str:
    return say(
        language,
        "There's nothing to cancel or undo right now.",
        "אין כרגע מה לבטל או להחזיר.",
    )


def ask_undo(turn: Turn) -> TurnOutcome:
    """The question for a bare cancel word with no question open (see the module doc)."""
    ctx = turn.ctx
    language = ctx.profile.language
    latest = latest_actions(ctx)
    request = undo_said(latest)
    if request is None or not request.open_at(ctx.now):
        return TurnOutcome(reply=Reply.plain(nothing_to_cancel(language)), outcome="undo_nothing")
    did = "; ".join(a.summary for a in latest if a.request == request.undo_key) or request.undo_key
    question = say(language, f"Undo what I just did — {did}?", f"לבטל את מה שעשיתי עכשיו — {did}?")
    candidate = DisambiguationCandidate(
        id=request.undo_key,
        label=did,
        data={"until": request.until.isoformat(), "updated": "yes" if request.updated else ""},
    )
    pending = PendingHITL(
        hitl_id=str(uuid.uuid4()),
        kind="approval",
        source="planner",
        reason=_REASON,
        origin_step_id=UNDO_ASK_STEP,
        return_to=return_to_for("planner", _REASON),
        expected_input="yes_no",
        question=question,
        options=templates.yes_no_options(language),
        policy_source=policy_source_for("planner", _REASON),
        context=PendingHITLContext(candidates=[candidate]),
        expires_at=request.until,
        created_at=ctx.now,
    )
    state = turn.fresh_state().model_copy(update={"pending_hitl": pending})
    return pause(ctx, gate.GateResult(state=state, pending=pending, created=True), user_kind="message")


def is_undo_ask(pending: PendingHITL | None) -> bool:
    return pending is not None and pending.origin_step_id == UNDO_ASK_STEP


def asked_request(pending: PendingHITL) -> UndoRequest | None:
    """The undo the question asked about (its one candidate)."""
    candidates = (pending.context.candidates if pending.context is not None else None) or []
    if len(candidates) != 1:
        return None
    data = candidates[0].data or {}
    try:
        until = datetime.fromisoformat(str(data.get("until")))
    except ValueError:
        return None
    return UndoRequest(undo_key=candidates[0].id, until=until, updated=bool(data.get("updated")))


def answer_of(pending: PendingHITL, reply: HITLReply) -> Answer:
    """What a message says to the question (see the module doc); a button is this question's own
    ("<hitlId>:yes") or unclear."""
    text = reply.text or ""
    if reply.interactive_id is not None:
        buttons: dict[str, Answer] = {
            f"{pending.hitl_id}:{YES_ID}": "yes",
            f"{pending.hitl_id}:{NO_ID}": "no",
        }
        return buttons.get(reply.interactive_id, "unclear")
    if fastpath.is_yes(text) or is_undo_said(text):
        return "yes"
    if fastpath.is_no(text) or fastpath.is_way_out(text) or is_bare_cancel(reply):
        return "no"
    if fastpath.looks_like_hitl_answer(text):
        return "unclear"
    return "other"


def declined(language: Language) -> TurnOutcome:
    text = say(language, "OK, I left everything as it is.", "בסדר, השארתי הכול כמו שזה.")
    return TurnOutcome(reply=Reply.plain(text), outcome="undo_declined", user_kind="hitl_reply")
