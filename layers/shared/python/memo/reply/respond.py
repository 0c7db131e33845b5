"""The responder of one turn: join -> format -> write -> send -> memory update.

The reply goes to the thread (the WhatsApp user) from the business number the user wrote to, once per
turn: a conditional claim on the turn's traceId comes first, so a redriven execution does not send it
again. A send that certainly failed is logged with Meta's error code, gives the claim back, and does not
stop the memory update; a send whose outcome is unknown (5xx, timeout after sending) keeps the claim:
Meta may have delivered it, and its statuses carry the reply's tracking tag: what the turn did (its latestActions) must be remembered even when the user
could not be told.

The latestActions are written *before* the send, in the same write as the claim (one transaction,
retried in place): once the reply is out, a failed write would leave "delete it" with nothing to
mean, and no retry of the responder could repair it (its claim says it already replied); a claim
that exists means its actions are in. What can only be written after the send (the quoted-reply
records of the message ids Meta returned, the reply in the recent messages) is one write, best
effort: the reply has gone, so the responder does not fail for it. A plan whose turn said what it
does (series moved to the user's new zone, `memo.turn.travel`) is recorded and not answered again. In all, two DynamoDB requests
(the claim transaction, the write after the send), and one transaction more when the latestActions
are merged (the append that found the list full brought the item back).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from memo.capabilities.common import KEPT_LOCAL_TIME
from memo.errors import ServiceFault
from memo.executor.contracts import ResponderInput
from memo.observability import bind_turn, count, logger, unbind_turn
from memo.replies import Reply
from memo.reply.format import format_joined
from memo.reply.join import Joined, JoinStatus, join
from memo.reply.memory import LatestActionsConflict, ResponderMemory, latest_action_entries
from memo.reply.quotes import listing_entries
from memo.reply.undo import with_undo
from memo.reply.writer import write
from memo.whatsapp.outbound import MAX_PARTS, TEXT_LIMIT
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundTag

# Waits between attempts of a memory write (three more tries, about 1.4 s in all).
MEMORY_BACKOFF_SECONDS = (0.2, 0.4, 0.8)


class ResponderResult(BaseModel):
    trace_id: str
    status: JoinStatus
    reply_text: str
    sent: bool
    message_ids: list[str]
    meta_error_code: int | None = None
    outcome_unknown: bool = False  # sent, no clear answer: kept claimed, never sent again
    actions_recorded: int


def respond(
    request: ResponderInput,
    *,
    sender: Sender,
    memory: ResponderMemory,
    clock: Callable[[], datetime],
    sleep: Callable[[float], None] = time.sleep,
) -> ResponderResult:
    bind_turn(request.trace_id, request.thread_id)
    try:
        return _respond(request, sender=sender, memory=memory, now=clock(), sleep=sleep)
    finally:
        unbind_turn()


def _in_place(write: Callable[[], object], what: str, *, sleep: Callable[[float], None]) -> bool:
    """Run one memory write, retried in place on a fault; False (logged) when it never succeeds."""
    for attempt, delay in enumerate((*MEMORY_BACKOFF_SECONDS, None), start=1):
        try:
            write()
            return True
        except (ServiceFault, LatestActionsConflict) as exc:
            fields = {"what": what, "attempt": attempt, "error": type(exc).__name__}
            if delay is None:
                logger.error("RESPONDER_MEMORY_UNRECORDED", extra=fields)
                return False
            logger.warning("RESPONDER_MEMORY_RETRY", extra=fields)
            sleep(delay)
    return False


def _claim(
    memory: ResponderMemory,
    request: ResponderInput,
    entries: list[dict[str, Any]],
    *,
    now: datetime,
    sleep: Callable[[float], None],
) -> bool:
    """The reply's claim, in one write with the turn's latestActions, retried in place: both are in
    before the send, or neither is. If that write never succeeds, the claim is taken alone (the
    reply still goes out once; the actions are logged as unrecorded)."""
    if entries:
        for attempt, delay in enumerate((*MEMORY_BACKOFF_SECONDS, None), start=1):
            try:
                return memory.claim_reply(request.thread_id, request.trace_id, now=now, actions=entries)
            except (ServiceFault, LatestActionsConflict) as exc:
                fields = {"what": "actions", "attempt": attempt, "error": type(exc).__name__}
                if delay is None:
                    logger.error("RESPONDER_MEMORY_UNRECORDED", extra=fields)
                    break
                logger.warning("RESPONDER_MEMORY_RETRY", extra=fields)
                sleep(delay)
    return memory.claim_reply(request.thread_id, request.trace_id, now=now)


def _respond(
    request: ResponderInput,
    *,
    sender: Sender,
    memory: ResponderMemory,
    now: datetime,
    sleep: Callable[[float], None] = time.sleep,
) -> ResponderResult:
    joined = join(request.outcomes)
    formatted = format_joined(joined, request.language, request.timezone)
    # A delete or clear that can be undone gets the "Undo" button (10 minutes).
    reply = with_undo(write(formatted), joined.outcomes, trace_id=request.trace_id, language=request.language)
    _log_joined(joined)

    # Actions first: they are what the planner resolves "it" against, and their write is idempotent.
    entries = latest_action_entries(
        joined.outcomes if joined.status != "empty" else (),
        [line.text for line in formatted.lines] if joined.status != "empty" else [],
        trace_id=request.trace_id,
        now=now,
    )
    delivery = _Delivery()
    first = _claim(memory, request, entries, now=now, sleep=sleep)
    told = _told_by_turn(joined)
    if not first or told:
        # A redriven execution (or a responder retry) after the reply went out, or a plan its turn
        # told of already: say nothing (again).
        logger.info("RESPONDER_TOLD_BY_TURN" if told else "RESPONDER_ALREADY_REPLIED")
    else:
        delivery = _send(request, reply, sender=sender, memory=memory)

    # The items this reply names, under its WhatsApp message ids: a reply quoting it means them.
    named = [*entries, *listing_entries(joined.outcomes, now=now)] if joined.status != "empty" else []
    if first and not told:
        # One write after the send: the reply in the recent messages, and the quote records.
        quoted = list(delivery.message_ids) if named else []
        _in_place(
            lambda: memory.record_sent(
                request.thread_id,
                text=reply.text,
                message_ids=quoted,
                actions=named if quoted else [],
                now=now,
                trace_id=request.trace_id,
            ),
            "sent",
            sleep=sleep,
        )
    return ResponderResult(
        trace_id=request.trace_id,
        status=joined.status,
        # The execution's output (Step Functions' 256 KiB): what one reply can carry to WhatsApp.
        reply_text=reply.text[: TEXT_LIMIT * MAX_PARTS],
        sent=delivery.sent,
        message_ids=delivery.message_ids,
        meta_error_code=delivery.meta_code,
        outcome_unknown=delivery.outcome_unknown,
        actions_recorded=len(entries),
    )


def _told_by_turn(joined: Joined) -> bool:
    """Whether the turn that started the plan told the user already: series moved to the user's new
    zone (`KEPT_LOCAL_TIME`), every step done. Its actions are recorded all the same, for "undo"."""
    return joined.status == "complete" and all(o.result.data.get(KEPT_LOCAL_TIME) for o in joined.outcomes)


def _log_joined(joined: Joined) -> None:
    logger.info(
        "RESPONDER_JOINED",
        extra={
            "status": joined.status,
            "steps": len(joined.outcomes),
            "failed": len(joined.failed),
            "errorCodes": sorted({o.result.error_code or "UNKNOWN" for o in joined.failed}),
        },
    )
    count(f"Responder{joined.status.capitalize()}")


@dataclass
class _Delivery:
    """What became of the reply's send: sent, or Meta's error and whether it may have arrived."""

    sent: bool = False
    message_ids: list[str] = field(default_factory=list)
    meta_code: int | None = None
    outcome_unknown: bool = False


def _send(request: ResponderInput, reply: Reply, *, sender: Sender, memory: ResponderMemory) -> _Delivery:
    """Send the claimed reply once; a send that certainly failed gives the claim back."""
    tag = OutboundTag.new("reply", request.thread_id, seed=request.trace_id)
    try:
        message_ids = sender.send(request.phone_number_id, request.thread_id, reply, tag=tag).message_ids
    except WhatsAppSendError as exc:
        log_send_failure(exc, what="responder_reply")
        if not exc.may_have_reached_user:
            # Certainly not delivered: a retry of the responder may send it.
            memory.release_reply(request.thread_id, request.trace_id)
        return _Delivery(
            message_ids=exc.message_ids, meta_code=exc.meta_code, outcome_unknown=exc.outcome_unknown
        )
    return _Delivery(sent=True, message_ids=message_ids)
