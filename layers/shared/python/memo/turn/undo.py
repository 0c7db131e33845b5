"""The tap on "Undo" (`memo.reply.undo`): a turn of its own, answered before anything else.

Within the window it starts (once the turn's write has claimed the tap) one executor step `items/undo` for the turn whose deletes it undoes
(`memo.capabilities.undo`); the executor's ledger runs it at most once per tap, the repository
restores each item at most once whatever the taps, and the responder tells the user what came back.
After the window it answers at once that it is too late. A pending question of the thread is left
as it is: "Undo" neither answers nor cancels it.
"""

from __future__ import annotations

from memo.capabilities.undo import ACTION, CAPABILITY, UndoArgs
from memo.executor.contracts import ExecutionInput
from memo.executor.tasks import one_step_execution
from memo.observability import logger
from memo.replies import Reply
from memo.reply.undo import UndoRequest, too_late
from memo.turn.outcome import TurnContext, TurnOutcome

UNDO_STEP_ID = "undo"


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
        return TurnOutcome(reply=Reply.plain(too_late(ctx.profile.language)), outcome="undo_too_late")
    logger.info("UNDO_REQUESTED", extra={"undoKey": request.undo_key})
    return TurnOutcome(reply=None, outcome="undo_started", start=undo_execution(ctx, request))
