"""The user's items on DynamoDB: reminders, notes and list items (`memo.tables.ITEMS`).

`ItemsRepository` is the port the capabilities, entity resolution and the reminders Lambda use;
`DynamoItemsRepository` is its adapter. Items are the models of `memo.capabilities.items` dumped as
JSON values (snake_case attribute names) next to `pk`/`sk` and a `kind` attribute; datetimes are
stored as ISO 8601 in UTC so that string order is time order.

Conditional writes live here and come back as plain results, never as exceptions the caller must
know by name: a create that finds the item already there returns False (a retried step re-creates
nothing), an update/delete of a vanished item returns None, and `mark_reminder_sent` returns False
when the reminder is no longer `scheduled` (a second Scheduler delivery). Every other `ClientError`
(throttling, service faults) propagates: it is transient, and the caller's retry policy owns it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from botocore.exceptions import ClientError
from pydantic import BaseModel

from memo.aws.dynamo import from_item, to_item
from memo.capabilities.items import (
    ListItem,
    Note,
    Reminder,
    list_item_sk,
    list_prefix,
    note_sk,
    reminder_sk,
    user_pk,
)
from memo.observability import logger, mask_phone

REMINDER_PREFIX = "REMINDER#"
NOTE_PREFIX = "NOTE#"
_KEY_ATTRIBUTES = ("pk", "sk", "kind")
_BATCH_LIMIT = 25
_BATCH_ATTEMPTS = 5
_BATCH_BACKOFF_SECONDS = 0.05

M = TypeVar("M", bound=BaseModel)


class UnprocessedWrites(Exception):
    """DynamoDB kept returning unprocessed deletes (throttling): transient, the step is retried."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} deletes left unprocessed")
        self.count = count


class ItemsRepository(Protocol):
    """What capabilities and entity resolution need from the user's items."""

    def put_reminder(self, reminder: Reminder) -> bool: ...
    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None: ...
    def list_reminders(self, thread_id: str) -> list[Reminder]: ...
    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]: ...
    def update_reminder(
        self,
        thread_id: str,
        reminder_id: str,
        *,
        title: str | None = None,
        due_at: datetime | None = None,
        schedule_name: str | None = None,
    ) -> Reminder | None: ...
    def delete_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None: ...
    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool: ...
    def put_note(self, note: Note) -> bool: ...
    def get_note(self, thread_id: str, note_id: str) -> Note | None: ...
    def list_notes(self, thread_id: str) -> list[Note]: ...
    def delete_note(self, thread_id: str, note_id: str) -> Note | None: ...
    def add_list_item(self, item: ListItem) -> bool: ...
    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]: ...
    def list_all_list_items(self, thread_id: str) -> list[ListItem]: ...
    def remove_list_item(self, thread_id: str, list_name: str, item_id: str) -> ListItem | None: ...
    def clear_list(self, thread_id: str, list_name: str) -> list[ListItem]: ...


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _conditional_failed(exc: ClientError) -> bool:
    return _code(exc) == "ConditionalCheckFailedException"


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("datetimes stored in the items table must be timezone-aware")
    return value.astimezone(UTC)


def _iso(value: datetime) -> str:
    return _utc(value).isoformat()


class DynamoItemsRepository:
    """`ItemsRepository` on one DynamoDB table (pk = USER#<thread>, sk = kind-specific)."""

    def __init__(
        self, dynamodb_client: Any, table_name: str, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._ddb = dynamodb_client
        self._table = table_name
        self._sleep = sleep  # backoff between retries of unprocessed batch deletes (injectable for tests)

    # --- generic helpers ---------------------------------------------------------------------

    def _put_new(self, pk: str, sk: str, kind: str, values: dict[str, Any]) -> bool:
        item = to_item({**values, "pk": pk, "sk": sk, "kind": kind})
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                logger.info("ITEM_ALREADY_EXISTS", extra={"kind": kind})
                return False
            raise
        return True

    def _get(self, pk: str, sk: str, model: type[M]) -> M | None:
        response = self._ddb.get_item(
            TableName=self._table, Key=to_item({"pk": pk, "sk": sk}), ConsistentRead=True
        )
        raw = response.get("Item")
        return _model(model, raw) if raw else None

    def _query(self, pk: str, prefix: str) -> Iterator[dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": to_item({":pk": pk, ":prefix": prefix}),
            "ConsistentRead": True,
        }
        while True:
            response = self._ddb.query(**kwargs)
            yield from response.get("Items", [])
            last = response.get("LastEvaluatedKey")
            if not last:
                return
            kwargs["ExclusiveStartKey"] = last

    def _delete_existing(self, pk: str, sk: str, model: type[M]) -> M | None:
        try:
            response = self._ddb.delete_item(
                TableName=self._table,
                Key=to_item({"pk": pk, "sk": sk}),
                ConditionExpression="attribute_exists(pk)",
                ReturnValues="ALL_OLD",
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                return None
            raise
        raw = response.get("Attributes")
        return _model(model, raw) if raw else None

    # --- reminders ---------------------------------------------------------------------------

    def put_reminder(self, reminder: Reminder) -> bool:
        """Create the reminder; False if an item with its id exists already (a retried create)."""
        values = _dump(reminder)
        return self._put_new(
            user_pk(reminder.thread_id), reminder_sk(reminder.reminder_id), "reminder", values
        )

    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        return self._get(user_pk(thread_id), reminder_sk(reminder_id), Reminder)

    def list_reminders(self, thread_id: str) -> list[Reminder]:
        """All of the user's reminders (any status), soonest first."""
        reminders = [_model(Reminder, raw) for raw in self._query(user_pk(thread_id), REMINDER_PREFIX)]
        return sorted(reminders, key=lambda r: r.due_at)

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]:
        """Scheduled reminders not yet due, soonest first."""
        return [r for r in self.list_reminders(thread_id) if r.status == "scheduled" and r.due_at > now]

    def update_reminder(
        self,
        thread_id: str,
        reminder_id: str,
        *,
        title: str | None = None,
        due_at: datetime | None = None,
        schedule_name: str | None = None,
    ) -> Reminder | None:
        """Rename and/or move a reminder; a move makes it `scheduled` again. None if it is gone."""
        sets: list[str] = []
        removes: list[str] = []
        values: dict[str, Any] = {}
        names: dict[str, str] = {}
        if title is not None:
            sets.append("#title = :title")
            names["#title"] = "title"
            values[":title"] = title
        if due_at is not None:
            sets += ["due_at = :due_at", "#status = :scheduled"]
            names["#status"] = "status"
            values[":due_at"] = _iso(due_at)
            values[":scheduled"] = "scheduled"
            removes.append("sent_at")
        if schedule_name is not None:
            sets.append("schedule_name = :schedule_name")
            values[":schedule_name"] = schedule_name
        if not sets:
            return self.get_reminder(thread_id, reminder_id)
        expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "Key": to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            "UpdateExpression": expression,
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeValues": to_item(values),
            "ReturnValues": "ALL_NEW",
        }
        if names:
            kwargs["ExpressionAttributeNames"] = names
        try:
            response = self._ddb.update_item(**kwargs)
        except ClientError as exc:
            if _conditional_failed(exc):
                return None
            raise
        return _model(Reminder, response["Attributes"])

    def delete_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        """Delete and return the reminder; None if it was already gone."""
        return self._delete_existing(user_pk(thread_id), reminder_sk(reminder_id), Reminder)

    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool:
        """`scheduled` -> `sent`, once: False when it is not scheduled (already sent, cancelled, gone)."""
        try:
            self._ddb.update_item(
                TableName=self._table,
                Key=to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
                UpdateExpression="SET #status = :sent, sent_at = :sent_at",
                ConditionExpression="attribute_exists(pk) AND #status = :scheduled",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {":sent": "sent", ":scheduled": "scheduled", ":sent_at": _iso(sent_at)}
                ),
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                logger.info(
                    "REMINDER_ALREADY_HANDLED",
                    extra={"threadId": mask_phone(thread_id), "reminderId": reminder_id},
                )
                return False
            raise
        return True

    # --- notes -------------------------------------------------------------------------------

    def put_note(self, note: Note) -> bool:
        return self._put_new(user_pk(note.thread_id), note_sk(note.note_id), "note", _dump(note))

    def get_note(self, thread_id: str, note_id: str) -> Note | None:
        return self._get(user_pk(thread_id), note_sk(note_id), Note)

    def list_notes(self, thread_id: str) -> list[Note]:
        """All notes, newest first."""
        notes = [_model(Note, raw) for raw in self._query(user_pk(thread_id), NOTE_PREFIX)]
        return sorted(notes, key=lambda n: n.created_at, reverse=True)

    def delete_note(self, thread_id: str, note_id: str) -> Note | None:
        return self._delete_existing(user_pk(thread_id), note_sk(note_id), Note)

    # --- lists -------------------------------------------------------------------------------

    def add_list_item(self, item: ListItem) -> bool:
        sk = list_item_sk(item.list_name, item.item_id)
        return self._put_new(user_pk(item.thread_id), sk, "list_item", _dump(item))

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        """The items of one list, oldest first (the order they were added)."""
        items = [_model(ListItem, raw) for raw in self._query(user_pk(thread_id), list_prefix(list_name))]
        return sorted(items, key=lambda i: i.created_at)

    def list_all_list_items(self, thread_id: str) -> list[ListItem]:
        items = [_model(ListItem, raw) for raw in self._query(user_pk(thread_id), "LIST#")]
        return sorted(items, key=lambda i: i.created_at)

    def remove_list_item(self, thread_id: str, list_name: str, item_id: str) -> ListItem | None:
        return self._delete_existing(user_pk(thread_id), list_item_sk(list_name, item_id), ListItem)

    def clear_list(self, thread_id: str, list_name: str) -> list[ListItem]:
        """Delete every item of the list; returns what was deleted."""
        items = self.list_items(thread_id, list_name)
        pk = user_pk(thread_id)
        for start in range(0, len(items), _BATCH_LIMIT):
            chunk = items[start : start + _BATCH_LIMIT]
            requests = [
                {"DeleteRequest": {"Key": to_item({"pk": pk, "sk": list_item_sk(i.list_name, i.item_id)})}}
                for i in chunk
            ]
            self._batch_delete(requests)
        return items

    def _batch_delete(self, requests: list[dict[str, Any]]) -> None:
        pending: dict[str, Any] = {self._table: requests}
        for attempt in range(_BATCH_ATTEMPTS):
            response = self._ddb.batch_write_item(RequestItems=pending)
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                return
            self._sleep(_BATCH_BACKOFF_SECONDS * 2**attempt)
        raise UnprocessedWrites(len(pending.get(self._table, [])))


def _dump(model: BaseModel) -> dict[str, Any]:
    values = model.model_dump(mode="json")
    for key, value in list(values.items()):
        original = getattr(model, key, None)
        if isinstance(original, datetime):
            values[key] = _iso(original)
        elif value is None:
            values.pop(key)
    return values


def _model(model: type[M], raw: dict[str, Any]) -> M:
    values = {k: v for k, v in from_item(raw).items() if k not in _KEY_ATTRIBUTES}
    return model.model_validate(values)
