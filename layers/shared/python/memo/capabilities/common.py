"""Small helpers shared by the capability operations: args models, bilingual wording, deterministic ids."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.items import Tombstone
from memo.text.language import Language

NOT_FOUND = "NOT_FOUND"
#: How long a delete or clear done by Memo can be undone ("Undo" on its confirmation).
UNDO_WINDOW = timedelta(minutes=10)
#: `ExecutionResult.data` key of a destructive step that can be undone: the window's end (ISO 8601).
UNDO_UNTIL = "undoUntil"
#: The actions that take items away (their deletes are tombstones an undo restores).
TAKES_AWAY = frozenset({"delete", "delete_all", "remove", "clear"})
INVALID_ARGS = "INVALID_ARGS"
TIME_IN_PAST = "TIME_IN_PAST"
REPEAT_TOO_LONG = "REPEAT_TOO_LONG"
#: A skip of days refused: the series already skips `memo.text.series.MOST_SKIPPED` stretches ahead.
TOO_MANY_SKIPS = "TOO_MANY_SKIPS"
#: "stop it after friday" of a reminder that comes once (worded by the step)
NOT_REPEATING = "NOT_REPEATING"
UNSUPPORTED_ACTION = "UNSUPPORTED_ACTION"
#: Every item a delete was approved for was edited after the question was asked: none was deleted.
CHANGED_SINCE_APPROVAL = "CHANGED_SINCE_APPROVAL"
#: `ExecutionResult.data` keys of a delete: items left alone because they changed since the
#: approval ([{id, title|text, when?}]), and how many were already gone.
CHANGED = "changed"
GONE = "gone"
#: `ExecutionResult.data` key of a reminders update that moved series to the user's new zone (the
#: zone): the turn that changed the zone said so already, so the responder sends nothing more.
KEPT_LOCAL_TIME = "keptLocalTime"


class Args(BaseModel):
    """Executor args of one action: camelCase JSON, as they travel in the turn state and the
    Step Functions input (and are hashed for approvals)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True, frozen=True, extra="forbid"
    )

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def say(language: Language, en: str, he: str) -> str:
    return he if language == "he" else en


def entity_id(ctx: ExecutionContext, suffix: str = "") -> str:
    """A deterministic id per (turn, step[, part]): a retried create writes the same item again,
    which the store's conditional put turns into a no-op."""
    raw = f"{ctx.trace_id}:{ctx.step_id}:{suffix}"
    return hashlib.sha256(raw.encode()).hexdigest()[:26]


def failure(capability: str, action: str, code: str, message: str) -> ExecutionResult:
    return ExecutionResult(
        success=False, capability=capability, action=action, error_code=code, error=message
    )


def undo_for(ctx: ExecutionContext, now: datetime) -> Tombstone:
    """The tombstone of a delete in this step: restorable by the turn's undo until the window ends.
    Keyed by the turn (traceId): one "Undo" brings back everything that turn deleted; marked with
    the step (traceId:stepId), so a retry of this step counts what its first attempt deleted."""
    return Tombstone(key=ctx.trace_id, until=now + UNDO_WINDOW, operation=f"{ctx.trace_id}:{ctx.step_id}")


def undo_data(undo: Tombstone) -> dict[str, str]:
    """What a destructive step's result carries so the reply can offer "Undo"."""
    return {UNDO_UNTIL: undo.until.isoformat()}
