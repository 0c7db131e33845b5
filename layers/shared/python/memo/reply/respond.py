"""The responder of one turn: join -> format -> write -> send -> memory update.

The reply goes to the thread (the WhatsApp user) from the business number the user wrote to, once per
turn: a conditional claim on the turn's traceId comes first, so a redriven execution does not send it
again. A send that fails for good is logged with Meta's error code, gives the claim back, and does not
stop the memory update: what the turn did (its latestActions) must be remembered even when the user
could not be told.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel

from memo.executor.contracts import ResponderInput
from memo.observability import bind_turn, count, logger, unbind_turn
from memo.reply.format import format_joined
from memo.reply.join import JoinStatus, join
from memo.reply.memory import ResponderMemory, latest_action_entries
from memo.reply.writer import write
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure


class ResponderResult(BaseModel):
    trace_id: str
    status: JoinStatus
    reply_text: str
    sent: bool
    message_ids: list[str]
    meta_error_code: int | None = None
    actions_recorded: int


def respond(
    request: ResponderInput,
    *,
    sender: Sender,
    memory: ResponderMemory,
    clock: Callable[[], datetime],
) -> ResponderResult:
    bind_turn(request.trace_id, request.thread_id)
    try:
        return _respond(request, sender=sender, memory=memory, now=clock())
    finally:
        unbind_turn()


def _respond(
    request: ResponderInput, *, sender: Sender, memory: ResponderMemory, now: datetime
) -> ResponderResult:
    joined = join(request.outcomes)
    formatted = format_joined(joined, request.language, request.timezone)
    reply = write(formatted)
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

    sent, message_ids, meta_code = False, [], None
    first = memory.claim_reply(request.thread_id, request.trace_id, now=now)
    if not first:
        # A redriven execution (or a responder retry) after the reply went out: say nothing twice.
        logger.info("RESPONDER_ALREADY_REPLIED")
    else:
        try:
            message_ids = sender.send(request.phone_number_id, request.thread_id, reply).message_ids
            sent = True
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="responder_reply")
            meta_code = exc.meta_code
            memory.release_reply(request.thread_id, request.trace_id)

    # Actions first: they are what the planner resolves "it" against, and their write is idempotent.
    entries = latest_action_entries(
        joined.outcomes if joined.status != "empty" else (),
        [line.text for line in formatted.lines] if joined.status != "empty" else [],
        trace_id=request.trace_id,
        now=now,
    )
    if entries:
        memory.record_actions(request.thread_id, entries, now=now)
    if first:
        memory.record_reply(request.thread_id, reply.text, at=now)
    return ResponderResult(
        trace_id=request.trace_id,
        status=joined.status,
        reply_text=reply.text,
        sent=sent,
        message_ids=message_ids,
        meta_error_code=meta_code,
        actions_recorded=len(entries),
    )
