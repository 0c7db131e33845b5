"""A user changed their WhatsApp number: move everything Memo keeps under the old one to the new one.

The `NumberMover` port of the turn engine (`system.user_changed_number`). One operation, idempotent:
every item is written under the new number BEFORE it is deleted under the old one, so a crash in the
middle loses nothing and a second run (a redelivery, or Meta sending the notice twice) moves only
what is left.

- items table (`USER#<old>` -> `USER#<new>`): reminders, notes and list items, each with its
  `thread_id`; a scheduled reminder's EventBridge schedule is re-pointed at the new thread (the
  reminders Lambda reads the reminder by the thread id in the schedule's input) before the old item
  is deleted, so a schedule firing during the move finds its reminder under either number;
- conversation table (`THREAD#<old>` -> `THREAD#<new>`): the profile (thread id and wa_id updated),
  the pending question (its frozen turn state's thread id updated), the latest actions and the recent
  messages. The profile, pending question and latest actions of the new number win when it already
  has its own (the user wrote from it first): the old ones are then dropped, never merged in.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.conversation.pending import state_for_item, state_from_item
from memo.errors import ConditionFailed
from memo.observability import count, logger

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_SINGLETONS = frozenset({"PROFILE", "PENDING", "RECENT_ACTIONS"})


class ScheduleRepointer(Protocol):
    """`memo.aws.scheduler.EventBridgeReminderScheduler.schedule`: create or replace a schedule."""

    def schedule(
        self, *, reminder_id: str, thread_id: str, at: datetime, timezone: str, recurrence: str | None = None
    ) -> str: ...


def _query(ddb: DynamoDBClient, table: str, pk: str) -> Iterator[dict[str, Any]]:
    start: dict[str, Any] | None = None
    while True:
        request: dict[str, Any] = {
            "TableName": table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": pk}},
            "ConsistentRead": True,
        }
        if start:
            request["ExclusiveStartKey"] = start
        response = call(ddb.query, **request)
        for raw in response.get("Items", []):
            yield from_item(raw)
        start = response.get("LastEvaluatedKey")
        if not start:
            return


class DynamoNumberMove:
    def __init__(
        self,
        dynamodb: DynamoDBClient,
        *,
        conversation_table: str,
        items_table: str,
        scheduler: ScheduleRepointer | None,
    ) -> None:
        self._ddb = dynamodb
        self._conversation = conversation_table
        self._items = items_table
        self._scheduler = scheduler

    def move(self, old_thread_id: str, new_wa_id: str, *, now: datetime) -> str:
        if old_thread_id == new_wa_id:
            return "same_number"
        items = self._move_items(old_thread_id, new_wa_id)
        conversation = self._move_conversation(old_thread_id, new_wa_id)
        moved = items + conversation
        count("NumbersMoved" if moved else "NumberMovesEmpty")
        logger.info("NUMBER_MOVE_DONE", extra={"itemsMoved": items, "conversationItemsMoved": conversation})
        return "moved" if moved else "nothing_to_move"

    def _delete(self, table: str, item: dict[str, Any]) -> None:
        call(self._ddb.delete_item, TableName=table, Key=to_item({"pk": item["pk"], "sk": item["sk"]}))

    def _move_items(self, old: str, new: str) -> int:
        moved = 0
        for item in _query(self._ddb, self._items, f"USER#{old}"):
            copy = {**item, "pk": f"USER#{new}"}
            if "thread_id" in copy:
                copy["thread_id"] = new
            call(self._ddb.put_item, TableName=self._items, Item=to_item(copy))
            self._repoint_schedule(copy, new)
            self._delete(self._items, item)
            moved += 1
        return moved

    def _repoint_schedule(self, item: dict[str, Any], new: str) -> None:
        if (
            item.get("kind") != "reminder"
            or item.get("status") != "scheduled"
            or not item.get("schedule_name")
        ):
            return
        if self._scheduler is None:
            logger.error("NUMBER_MOVE_SCHEDULE_NOT_REPOINTED", extra={"reminderId": item.get("reminder_id")})
            return
        self._scheduler.schedule(
            reminder_id=str(item["reminder_id"]),
            thread_id=new,
            at=datetime.fromisoformat(str(item["due_at"])),
            timezone=str(item.get("timezone") or "UTC"),
            recurrence=item.get("recurrence"),
        )

    def _move_conversation(self, old: str, new: str) -> int:
        moved = 0
        for item in _query(self._ddb, self._conversation, f"THREAD#{old}"):
            sk = str(item["sk"])
            copy = {**item, "pk": f"THREAD#{new}"}
            if sk == "PROFILE":
                copy["profile"] = {**item["profile"], "thread_id": new, "wa_id": new}
            elif sk == "PENDING":
                state = state_from_item(item)
                copy["state"] = state_for_item(state.model_copy(update={"thread_id": new}))
            if sk in _SINGLETONS:
                try:
                    conditional_write(
                        self._ddb.put_item,
                        TableName=self._conversation,
                        Item=to_item(copy),
                        ConditionExpression="attribute_not_exists(pk)",
                    )
                except ConditionFailed:
                    logger.info("NUMBER_MOVE_KEPT_NEW", extra={"item": sk})
            else:
                call(self._ddb.put_item, TableName=self._conversation, Item=to_item(copy))
            self._delete(self._conversation, item)
            moved += 1
        return moved
