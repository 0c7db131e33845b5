"""The tap on "Undo" (`memo.reply.undo`): a turn of its own, answered before anything else.

Within the window it starts (once the turn's write has claimed the tap) one executor step `items/undo` for the turn whose deletes and updates it undoes
(`memo.capabilities.undo`); the executor's ledger runs it at most once per tap, the repository
restores each item at most once whatever the taps, and the responder tells the user what came back.
After the window it answers at once that it is too late. A pending question of the thread is left
as it is: "Undo" neither answers nor cancels it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memo.capabilities.undo import ACTION, CAPABILITY, UndoArgs
from memo.domain import LatestAction
from memo.executor.contracts import ExecutionInput
from memo.executor.tasks import one_step_execution
from memo.observability import logger
from memo.replies import Reply
from memo.reply.undo import UndoRequest, is_typed_undo, too_late, typed_undo
from memo.turn.outcome import TurnContext, TurnOutcome

UNDO_STEP_ID = "undo"

#: Actions that only read: a read between a delete and "undo" ("show my reminders") is no change
#: of its own, so "undo" still means the delete before it.
READS = frozenset({"list", "show", "show_all", "search"})

#: Hebrew ways of saying undo beyond `memo.reply.undo`'s: "אופס תחזיר", "תחזיר את הכל", "תחזירי הכל
#: בבקשה" (bring it / everything back).
_MORE_UNDO = re.compile(
    r"^\W*(?:(?:אופס|אוי|רגע|לא)[\s,!.]+)*(?:אפשר\s+)?(?:תחזיר|תחזירי|להחזיר|החזר)"
    r"(?:\s+(?:את\s+)?(?:הכל|הכול|כולם|כולן|מה\s+שמחקת))?(?:\s+בחזרה)?(?:\s+בבקשה)?\s*[.!?]*$"
)


def is_undo_said(text: str | None) -> bool:
    """ "undo", "bring it back", "בטל את המחיקה", "אופס תחזיר", "תחזיר את הכל": the Undo, typed."""
    return is_typed_undo(text) or (bool(text) and _MORE_UNDO.match(text or "") is not None)


def undo_said(latest: Sequence[LatestAction]) -> UndoRequest | None:
    """The Undo typed words ask for: the latest request that changed something, past any reads since
    (`memo.reply.undo.typed_undo`: None when that request deleted and updated nothing)."""
    changes = [action for action in latest if action.action not in READS]
    return typed_undo(changes)


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
