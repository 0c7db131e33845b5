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

A repeating reminder's schedule is made again starting at its next occurrence after `now` (the
Scheduler refuses a recurring start more than 5 minutes in the past); a one-time one keeps its time.

Changes can arrive out of order (each notice is queued under its own old number). Every change is
recorded under the number it left (`NUMBER#<old>` / `CHANGED`: where to, and Meta's `timestamp` of the
notice), a newer record never overwritten by an older one, BEFORE anything moves:
- a change older than one already recorded for its old number is stale: nothing moves (it would
  undo the newer change);
- the data goes to where the new number itself went by later changes: A->B (t1) delivered after
  B->C (t2) moves A's data to C; a later change back to A leaves it on A;
- a change away from the destination recorded while this move ran (the two notices run in
  parallel) is looked up again after the move, and what landed there follows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.capabilities.base import CapabilityError
from memo.conversation.pending import state_for_item, state_from_item
from memo.errors import ConditionFailed
from memo.observability import count, logger

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_SINGLETONS = frozenset({"PROFILE", "PENDING", "RECENT_ACTIONS"})
_CHANGED = "CHANGED"


class NumberChange(NamedTuple):
    """The newest change recorded away from a number: where to, at Meta's notice `timestamp`."""

    to: str
    at: int


class ScheduleRepointer(Protocol):
    """`memo.aws.scheduler.EventBridgeReminderScheduler.schedule`: create or replace a schedule."""

    def schedule(
        self,
        *,
        reminder_id: str,
        thread_id: str,
        at: datetime,
        timezone: str,
        recurrence: str | None = None,
        not_before: datetime | None = None,
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

    def move(self, old_thread_id: str, new_wa_id: str, *, now: datetime, changed_at: int) -> str:
        """Move what `old_thread_id` holds to `new_wa_id` (or where it went since); `changed_at` is
        the notice's `timestamp`. Returns "moved", "nothing_to_move", "stale" (a newer change of
        the old number was applied), "superseded" (the user is back on the old number) or
        "same_number"."""
        if old_thread_id == new_wa_id:
            return "same_number"
        left = self.change_of(old_thread_id)
        if left is not None and left.at > changed_at:
            count("NumberMovesStale")
            logger.info("NUMBER_MOVE_STALE", extra={"changedAt": changed_at, "newerAt": left.at})
            return "stale"
        self._record(old_thread_id, new_wa_id, changed_at)
        target = self._current(new_wa_id, changed_at)
        if target == old_thread_id:
            logger.info("NUMBER_MOVE_SUPERSEDED", extra={"changedAt": changed_at})
            return "superseded"
        items, conversation = self._move_all(old_thread_id, target, now)
        later = self._current(new_wa_id, changed_at)
        if later != target:  # `target` changed number while this move ran: what landed follows
            more = self._move_all(target, later, now)
            items, conversation = items + more[0], conversation + more[1]
        moved = items + conversation
        count("NumbersMoved" if moved else "NumberMovesEmpty")
        logger.info(
            "NUMBER_MOVE_DONE",
            extra={
                "itemsMoved": items,
                "conversationItemsMoved": conversation,
                "followed": target != new_wa_id,
            },
        )
        return "moved" if moved else "nothing_to_move"

    def change_of(self, number: str) -> NumberChange | None:
        """The newest change recorded away from `number`, if any."""
        response = call(
            self._ddb.get_item,
            TableName=self._conversation,
            Key=to_item({"pk": f"NUMBER#{number}", "sk": _CHANGED}),
            ConsistentRead=True,
        )
        raw = response.get("Item")
        if not raw:
            return None
        item = from_item(raw)
        return NumberChange(to=str(item["to"]), at=int(item["changed_at"]))

    def _record(self, old: str, new: str, changed_at: int) -> None:
        """Record the change under the number it left; a newer record already there stays."""
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._conversation,
                Item=to_item({"pk": f"NUMBER#{old}", "sk": _CHANGED, "to": new, "changed_at": changed_at}),
                ConditionExpression="attribute_not_exists(pk) OR changed_at <= :at",
                ExpressionAttributeValues=to_item({":at": changed_at}),
            )
        except ConditionFailed:
            logger.info("NUMBER_CHANGE_NEWER_KEPT", extra={"changedAt": changed_at})

    def _current(self, number: str, since: int) -> str:
        """Where `number` went by changes newer than `since`, each newer than the one before (so
        the walk ends: a change back to an earlier number is followed only when it is newer)."""
        at = since
        while (change := self.change_of(number)) is not None and change.at > at:
            number, at = change.to, change.at
        return number

    def _move_all(self, old: str, new: str, now: datetime) -> tuple[int, int]:
        return self._move_items(old, new, now), self._move_conversation(old, new)

    def _delete(self, table: str, item: dict[str, Any]) -> None:
        call(self._ddb.delete_item, TableName=table, Key=to_item({"pk": item["pk"], "sk": item["sk"]}))

    def _move_items(self, old: str, new: str, now: datetime) -> int:
        moved = 0
        for item in _query(self._ddb, self._items, f"USER#{old}"):
            copy = {**item, "pk": f"USER#{new}"}
            if "thread_id" in copy:
                copy["thread_id"] = new
            call(self._ddb.put_item, TableName=self._items, Item=to_item(copy))
            self._repoint_schedule(copy, new, now)
            self._delete(self._items, item)
            moved += 1
        return moved

    def _repoint_schedule(self, item: dict[str, Any], new: str, now: datetime) -> None:
        """The schedule made again for the new thread: a repeating one from its next occurrence
        after `now` (same rule, same time of day), a one-time one at its own time."""
        if (
            item.get("kind") != "reminder"
            or item.get("status") != "scheduled"
            or not item.get("schedule_name")
        ):
            return
        if self._scheduler is None:
            logger.error("NUMBER_MOVE_SCHEDULE_NOT_REPOINTED", extra={"reminderId": item.get("reminder_id")})
            return
        try:
            self._scheduler.schedule(
                reminder_id=str(item["reminder_id"]),
                thread_id=new,
                at=datetime.fromisoformat(str(item["due_at"])),
                timezone=str(item.get("timezone") or "UTC"),
                recurrence=item.get("recurrence"),
                not_before=now,
            )
        except CapabilityError:  # a series with no occurrence left, an unknown zone: nothing to fire
            logger.error("NUMBER_MOVE_SCHEDULE_REJECTED", extra={"reminderId": item.get("reminder_id")})

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
