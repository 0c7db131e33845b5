"""The "Undo" button of a delete or clear done by Memo, and what its tap carries.

The responder adds one "Undo" reply button to a turn's confirmation when a step of the turn deleted
something that can be restored (its result carries `undoUntil`, see `memo.capabilities.undo`). The
button's id names the turn (its traceId, the key the items were tombstoned under) and the window's
end, so the tap is answered without a read: within the window it starts the undo step, after it the
user hears at once that it is too late (`memo.turn.undo`).

    undo:<window end, epoch seconds>:<traceId>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from memo.capabilities.common import UNDO_UNTIL, say
from memo.executor.contracts import StepOutcome
from memo.replies import Choice, Reply
from memo.text.language import Language

UNDO_PREFIX = "undo:"
#: Choice ids are at most 200 characters; a traceId (a wamid) is far shorter.
_MAX_ID = 200


@dataclass(frozen=True)
class UndoRequest:
    """A tap on "Undo": the turn whose deletes to undo, and until when that is possible."""

    undo_key: str
    until: datetime

    def open_at(self, now: datetime) -> bool:
        return now < self.until


def undo_button_id(trace_id: str, until: datetime) -> str:
    return f"{UNDO_PREFIX}{int(until.timestamp())}:{trace_id}"


def parse_undo(reply_id: str | None) -> UndoRequest | None:
    """The undo a button id asks for, or None for any other id (or a malformed one)."""
    if not reply_id or not reply_id.startswith(UNDO_PREFIX) or len(reply_id) > _MAX_ID:
        return None
    epoch, _, key = reply_id[len(UNDO_PREFIX) :].partition(":")
    if not epoch.isdigit() or not key:
        return None
    return UndoRequest(undo_key=key, until=datetime.fromtimestamp(int(epoch), UTC))


def undo_until(outcomes: Sequence[StepOutcome]) -> datetime | None:
    """The end of the undo window of the turn's destructive steps (the earliest), or None."""
    ends: list[datetime] = []
    for outcome in outcomes:
        raw = outcome.result.data.get(UNDO_UNTIL) if outcome.result.success else None
        if isinstance(raw, str):
            try:
                ends.append(datetime.fromisoformat(raw))
            except ValueError:
                continue
    return min(ends, default=None)


def with_undo(reply: Reply, outcomes: Sequence[StepOutcome], *, trace_id: str, language: Language) -> Reply:
    """The reply with an "Undo" button when the turn deleted something restorable."""
    until = undo_until(outcomes)
    if until is None or reply.kind != "text":
        return reply
    title = say(language, "Undo", "ביטול המחיקה")
    return Reply.with_choices(reply.text, [Choice(id=undo_button_id(trace_id, until), title=title)])


def too_late(language: Language) -> str:
    return say(
        language,
        "That can't be undone anymore: Undo works for 10 minutes after a delete.",
        "כבר אי אפשר לבטל את זה: ביטול אפשרי רק 10 דקות אחרי מחיקה.",
    )
