"""`CapabilityDispatcher`: routes a step to the operation of its capability (reminders, notes, lists,
and `items/undo`, the "Undo" of a delete: `memo.capabilities.undo`).

`execute(capability, action, args, ctx)` validates the step's resolved executor args against the
action's args model and performs the side effect once. Outcomes:
- success -> `ExecutionResult(success=True, summary, data, external_ids[, when])`;
- a user-level failure (the target vanished, a time in the past, args that do not fit the action,
  an unknown capability/action, a `CapabilityError`, an item over DynamoDB's size limit refused
  before its write: `ItemTooLarge`) -> `success=False` with `error_code` and a user-facing `error`
  in the step's language;
- AWS faults (a `ServiceFault`: what the adapters do not turn into a result) raise, so the Step
  Functions Retry owns them.
Calendar and email never get here: the turn's capability check refuses them first.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from memo.capabilities.base import CapabilityError, ExecutionContext, ExecutionResult, ReminderScheduler
from memo.capabilities.common import INVALID_ARGS, UNSUPPORTED_ACTION, Args, failure, say
from memo.capabilities.lists import (
    AddListItemsArgs,
    ClearListArgs,
    ListOperations,
    RemoveListItemsArgs,
    ShowAllListsArgs,
    ShowListArgs,
    UpdateListItemArgs,
)
from memo.capabilities.notes import (
    DeleteAllNotesArgs,
    DeleteNotesArgs,
    NoteOperations,
    SaveNoteArgs,
    SearchNotesArgs,
    UpdateNoteArgs,
)
from memo.capabilities.reminder_args import (
    CreateReminderArgs,
    DeleteAllRemindersArgs,
    DeleteRemindersArgs,
    DoneReminderArgs,
    ListRemindersArgs,
    SnoozeReminderArgs,
    UpdateReminderArgs,
)
from memo.capabilities.reminders import ReminderOperations
from memo.capabilities.store import ItemsRepository
from memo.capabilities.undo import UndoArgs, UndoOperations
from memo.errors import ItemTooLarge
from memo.observability import logger, mask_phone
from memo.settings import DEFAULT_NOTE_MAX_CHARS
from memo.text.recurrence_limits import RecurrenceLimits

#: (capability, action) -> the args model of that action.
ARGS_MODELS: dict[tuple[str, str], type[Args]] = {
    ("reminders", "create"): CreateReminderArgs,
    ("reminders", "list"): ListRemindersArgs,
    ("reminders", "update"): UpdateReminderArgs,
    ("reminders", "delete"): DeleteRemindersArgs,
    ("reminders", "delete_all"): DeleteAllRemindersArgs,
    ("notes", "save"): SaveNoteArgs,
    ("notes", "search"): SearchNotesArgs,
    ("notes", "update"): UpdateNoteArgs,
    ("notes", "delete"): DeleteNotesArgs,
    ("notes", "delete_all"): DeleteAllNotesArgs,
    ("lists", "add"): AddListItemsArgs,
    ("lists", "remove"): RemoveListItemsArgs,
    ("lists", "update"): UpdateListItemArgs,
    ("lists", "show"): ShowListArgs,
    ("lists", "show_all"): ShowAllListsArgs,
    ("lists", "clear"): ClearListArgs,
    ("items", "undo"): UndoArgs,
    ("reminders", "snooze"): SnoozeReminderArgs,
    ("reminders", "done"): DoneReminderArgs,
}

Operation = Callable[[Any, ExecutionContext], ExecutionResult]


class CapabilityDispatcher:
    """Each (capability, action) to the operation that performs it, over the items repository and the scheduler."""

    def __init__(
        self,
        repository: ItemsRepository,
        scheduler: ReminderScheduler,
        clock: Callable[[], datetime],
        recurrence_limits: RecurrenceLimits | None = None,
        *,
        note_max_chars: int = DEFAULT_NOTE_MAX_CHARS,
    ) -> None:
        reminders = ReminderOperations(repository, scheduler, clock, recurrence_limits)
        notes = NoteOperations(repository, clock, max_chars=note_max_chars)
        lists = ListOperations(repository, clock)
        undo = UndoOperations(repository, scheduler, clock)
        self._operations: dict[tuple[str, str], Operation] = {
            ("reminders", "create"): reminders.create,
            ("reminders", "list"): reminders.list,
            ("reminders", "update"): reminders.update,
            ("reminders", "delete"): reminders.delete,
            ("reminders", "delete_all"): reminders.delete_all,
            ("notes", "save"): notes.save,
            ("notes", "search"): notes.search,
            ("notes", "update"): notes.update,
            ("notes", "delete"): notes.delete,
            ("notes", "delete_all"): notes.delete_all,
            ("lists", "add"): lists.add,
            ("lists", "remove"): lists.remove,
            ("lists", "update"): lists.update,
            ("lists", "show"): lists.show,
            ("lists", "show_all"): lists.show_all,
            ("lists", "clear"): lists.clear,
            ("items", "undo"): undo.undo,
            ("reminders", "snooze"): reminders.snooze,
            ("reminders", "done"): reminders.done,
        }

    def execute(
        self, capability: str, action: str, args: dict[str, Any], ctx: ExecutionContext
    ) -> ExecutionResult:
        log = {
            "traceId": ctx.trace_id,
            "threadId": mask_phone(ctx.thread_id),
            "stepId": ctx.step_id,
            "capability": capability,
            "action": action,
        }
        key = (capability, action)
        operation = self._operations.get(key)
        if operation is None:
            logger.warning("CAPABILITY_UNSUPPORTED_ACTION", extra=log)
            return failure(
                capability,
                action,
                UNSUPPORTED_ACTION,
                say(ctx.language, "I can't do that yet.", "אני עדיין לא יודע לעשות את זה."),
            )
        try:
            parsed = ARGS_MODELS[key].model_validate(args)
        except ValidationError as exc:
            logger.warning("CAPABILITY_INVALID_ARGS", extra={**log, "errors": exc.error_count()})
            return failure(
                capability,
                action,
                INVALID_ARGS,
                say(
                    ctx.language,
                    "I didn't get all the details needed for that.",
                    "חסרים לי פרטים כדי לעשות את זה.",
                ),
            )
        try:
            result = operation(parsed, ctx)
        except CapabilityError as exc:
            logger.warning("CAPABILITY_ERROR", extra={**log, "errorCode": exc.code})
            return failure(
                capability,
                action,
                exc.code,
                say(ctx.language, "I couldn't do that, sorry.", "לא הצלחתי לעשות את זה, סליחה."),
            )
        except ItemTooLarge as exc:
            # Refused before the write (ITEM_TOO_LARGE was logged): nothing was stored.
            return failure(
                capability,
                action,
                exc.code,
                say(
                    ctx.language,
                    "That's too long for me to keep, so I didn't save it. Could you shorten it?",
                    "זה ארוך מדי בשבילי לשמור, אז לא שמרתי את זה. אפשר לקצר?",
                ),
            )
        logger.info(
            "CAPABILITY_EXECUTED", extra={**log, "success": result.success, "errorCode": result.error_code}
        )
        return result
