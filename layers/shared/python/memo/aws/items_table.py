"""The items table (`memo.tables.ITEMS`): the user's reminders, notes and list items.

Models are those of `memo.capabilities.items`; this module alone knows the keys (pk = USER#<thread>,
sk = REMINDER#<id>, NOTE#<id>, LIST#<list key>#ITEM#<id>); items are the models dumped as JSON values (snake_case
attribute names) next to `pk`/`sk` and a `kind` attribute; datetimes are stored as ISO 8601 in UTC
so that string order is time order.

- `DynamoItemsRepository`: the `ItemsRepository` port of the capabilities and entity resolution.
  Conditional writes come back as plain results: a create that finds the item already there returns
  False (a retried step re-creates nothing), an update/delete of a vanished item returns None, and
  `mark_reminder_sent` returns False when the reminder is no longer `scheduled`. Throttling and
  service faults come out as `TransientFault` / `ServiceFault`: the caller's retry policy owns them.
- `DynamoReminderItems`: the reminders Lambda's claim / complete / release of one delivery.

Undo: a delete given a `Tombstone` does not delete. It marks the item (`undo_key` = the turn's
traceId, `undo_op` = the step's traceId:stepId, `undo_until`, and the table's TTL attribute `ttl` =
`undo_until`; a reminder also becomes `cancelled`, its previous status kept in `undo_status`, so no
delivery can claim it). Every read of this adapter skips tombstoned items, so for the user they are
gone; `restore` brings back the items of one undo key while `undo_until` has not passed (a
conditional write per item: two undos restore each item once); DynamoDB's TTL purges the rest.

A tombstone is one conditional UpdateItem and no read: its condition is what the delete may touch
(the item exists; it is not tombstoned, unless by an earlier attempt of the same step, which then
counts it again; with `unchanged_since`, its `changed_at` is not later). A lost condition returns
the item as it stood (`ReturnValuesOnConditionCheckFailure`), which says why: gone or changed.
`update_reminder` given `changed_at` stamps it when the title, time or series change.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from memo.aws.condition_values import ALL_OLD, old_item
from memo.aws.dynamo import batch_write, conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.capabilities.items import Deletion, ListItem, Note, Reminder, Tombstone, list_key
from memo.errors import ConditionFailed
from memo.observability import logger, mask_phone
from memo.reminders.store import StoredReminder

REMINDER_PREFIX = "REMINDER#"
UNDO_KEY = "undo_key"
_UNDO_ATTRIBUTES = (UNDO_KEY, "undo_until", "undo_status", "undo_op", "ttl")
#: When the person last changed a reminder's title, time or series (ISO 8601, UTC).
CHANGED_AT = "changed_at"
NOTE_PREFIX = "NOTE#"
_KEY_ATTRIBUTES = ("pk", "sk", "kind", CHANGED_AT, *_UNDO_ATTRIBUTES)


def user_pk(thread_id: str) -> str:
    return f"USER#{thread_id}"


def reminder_sk(reminder_id: str) -> str:
    return f"REMINDER#{reminder_id}"


def note_sk(note_id: str) -> str:
    return f"NOTE#{note_id}"


def list_item_sk(list_name: str, item_id: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#{item_id}"


def list_prefix(list_name: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#"


M = TypeVar("M", bound=BaseModel)


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("datetimes stored in the items table must be timezone-aware")
    return value.astimezone(UTC)


def _iso(value: datetime) -> str:
    return _utc(value).isoformat()


class DynamoItemsRepository:
    """`ItemsRepository` on the items table."""

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
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            logger.info("ITEM_ALREADY_EXISTS", extra={"kind": kind})
            return False
        return True

    def _get(self, pk: str, sk: str, model: type[M]) -> M | None:
        response = call(
            self._ddb.get_item, TableName=self._table, Key=to_item({"pk": pk, "sk": sk}), ConsistentRead=True
        )
        raw = response.get("Item")
        return _model(model, raw) if raw and UNDO_KEY not in raw else None

    def _query(self, pk: str, prefix: str) -> Iterator[dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            # Tombstoned items (kept for undo) are left out by DynamoDB, not sent and dropped here.
            "FilterExpression": "attribute_not_exists(#undo)",
            "ExpressionAttributeNames": {"#undo": UNDO_KEY},
            "ExpressionAttributeValues": to_item({":pk": pk, ":prefix": prefix}),
            "ConsistentRead": True,
        }
        while True:
            response = call(self._ddb.query, **kwargs)
            yield from (raw for raw in response.get("Items", []) if UNDO_KEY not in raw)
            last = response.get("LastEvaluatedKey")
            if not last:
                return
            kwargs["ExclusiveStartKey"] = last

    def _delete_existing(self, pk: str, sk: str, model: type[M], undo: Tombstone | None = None) -> M | None:
        if undo is not None:
            removal = self._tombstone(pk, sk, model, undo)
            return removal.item if removal.status == "deleted" else None
        try:
            response = conditional_write(
                self._ddb.delete_item,
                TableName=self._table,
                Key=to_item({"pk": pk, "sk": sk}),
                ConditionExpression="attribute_exists(pk) AND attribute_not_exists(undo_key)",
                ReturnValues="ALL_OLD",
            )
        except ConditionFailed:
            return None
        raw = response.get("Attributes")
        return _model(model, raw) if raw else None

    def _tombstone(
        self,
        pk: str,
        sk: str,
        model: type[M],
        undo: Tombstone,
        *,
        unchanged_since: datetime | None = None,
    ) -> Deletion[M]:
        """Mark a live item deleted-but-restorable (see the module doc) in one conditional write."""
        sets = ["undo_key = :key", "undo_until = :until", "#ttl = :ttl"]
        names = {"#ttl": "ttl"}
        values: dict[str, Any] = {
            ":key": undo.key,
            ":until": _iso(undo.until),
            ":ttl": int(undo.until.timestamp()),
        }
        condition = "attribute_exists(pk) AND attribute_not_exists(undo_key)"
        if undo.operation is not None:
            # An earlier attempt of this same step may have tombstoned it: that is still our delete.
            sets.append("undo_op = :op")
            values[":op"] = undo.operation
            condition = "attribute_exists(pk) AND (attribute_not_exists(undo_key) OR undo_op = :op)"
        if unchanged_since is not None:
            condition += f" AND (attribute_not_exists({CHANGED_AT}) OR {CHANGED_AT} <= :since)"
            values[":since"] = _iso(unchanged_since)
        if model is Reminder:
            # Both operands read the item as it was: the previous status is kept for a restore
            # (and kept as it was by a retry, which finds the reminder cancelled already).
            sets += ["undo_status = if_not_exists(undo_status, #status)", "#status = :cancelled"]
            names["#status"] = "status"
            values[":cancelled"] = "cancelled"
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": pk, "sk": sk}),
                UpdateExpression="SET " + ", ".join(sets),
                ConditionExpression=condition,
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_item(values),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure=ALL_OLD,
            )
        except ConditionFailed as exc:
            found = old_item(exc)
            if found is None or UNDO_KEY in found:
                return Deletion(status="gone")  # never there, or deleted by someone else
            return Deletion(status="changed", item=_from_values(model, found))
        raw = response.get("Attributes")
        if not raw:
            return Deletion(status="gone")
        before = from_item(raw)
        if UNDO_KEY in before and "undo_status" in before:
            before["status"] = before["undo_status"]  # our earlier attempt's tombstone: as it was
        return Deletion(status="deleted", item=_from_values(model, before))

    def restore(self, thread_id: str, undo_key: str, *, now: datetime) -> list[Reminder | Note | ListItem]:
        """Bring back every item tombstoned under `undo_key` whose undo window is still open; each
        item once (a conditional write), so a second undo, or a racing one, restores nothing."""
        pk = user_pk(thread_id)
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk",
            "FilterExpression": "undo_key = :key",
            "ExpressionAttributeValues": to_item({":pk": pk, ":key": undo_key}),
            "ConsistentRead": True,
        }
        restored: list[Reminder | Note | ListItem] = []
        while True:
            response = call(self._ddb.query, **kwargs)
            for raw in response.get("Items", []):
                item = self._restore_one(from_item(raw), undo_key, now)
                if item is not None:
                    restored.append(item)
            last = response.get("LastEvaluatedKey")
            if not last:
                return restored
            kwargs["ExclusiveStartKey"] = last

    def _restore_one(
        self, values: dict[str, Any], undo_key: str, now: datetime
    ) -> Reminder | Note | ListItem | None:
        model = _RESTORABLE.get(str(values.get("kind")))
        if model is None:
            return None
        names = {"#ttl": "ttl"}
        expression = "REMOVE undo_key, undo_until, undo_op, #ttl"
        if model is Reminder:
            expression = "SET #status = undo_status " + expression + ", undo_status"
            names["#status"] = "status"
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": values["pk"], "sk": values["sk"]}),
                UpdateExpression=expression,
                ConditionExpression="undo_key = :key AND undo_until > :now",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_item({":key": undo_key, ":now": _iso(now)}),
                ReturnValues="ALL_NEW",
            )
        except ConditionFailed:
            return None  # restored by another undo, or its window closed
        restored: Reminder | Note | ListItem = _model(model, response["Attributes"])
        return restored

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
        recurrence: str | None = None,
        changed_at: datetime | None = None,
    ) -> Reminder | None:
        """Rename and/or move a reminder (and replace a repeating one's series); a move makes it
        `scheduled` again. With `changed_at`, a new title, time or series is stamped as the person's
        change (a delete approved before it leaves the reminder alone). None if it is gone."""
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
        if recurrence is not None:
            sets.append("recurrence = :recurrence")
            values[":recurrence"] = recurrence
        if changed_at is not None and (title is not None or due_at is not None or recurrence is not None):
            sets.append(f"{CHANGED_AT} = :changed_at")
            values[":changed_at"] = _iso(changed_at)
        if not sets:
            return self.get_reminder(thread_id, reminder_id)
        expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "Key": to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            "UpdateExpression": expression,
            "ConditionExpression": "attribute_exists(pk) AND attribute_not_exists(undo_key)",
            "ExpressionAttributeValues": to_item(values),
            "ReturnValues": "ALL_NEW",
        }
        if names:
            kwargs["ExpressionAttributeNames"] = names
        try:
            response = conditional_write(self._ddb.update_item, **kwargs)
        except ConditionFailed:
            return None
        return _model(Reminder, response["Attributes"])

    def delete_reminder(
        self, thread_id: str, reminder_id: str, *, undo: Tombstone | None = None
    ) -> Reminder | None:
        """Delete (or, with `undo`, tombstone) and return the reminder; None if it was already gone."""
        return self._delete_existing(user_pk(thread_id), reminder_sk(reminder_id), Reminder, undo)

    def remove_reminder(
        self,
        thread_id: str,
        reminder_id: str,
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
    ) -> Deletion[Reminder]:
        """Tombstone the reminder with no read before: deleted (as it was), gone, or changed since
        `unchanged_since` (left alone, as it is now)."""
        return self._tombstone(
            user_pk(thread_id), reminder_sk(reminder_id), Reminder, undo, unchanged_since=unchanged_since
        )

    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool:
        """`scheduled` -> `sent`, once: False when it is not scheduled (already sent, cancelled, gone)."""
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
                UpdateExpression="SET #status = :sent, sent_at = :sent_at",
                ConditionExpression="attribute_exists(pk) AND #status = :scheduled",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {":sent": "sent", ":scheduled": "scheduled", ":sent_at": _iso(sent_at)}
                ),
            )
        except ConditionFailed:
            logger.info(
                "REMINDER_ALREADY_HANDLED",
                extra={"threadId": mask_phone(thread_id), "reminderId": reminder_id},
            )
            return False
        return True

    # --- notes -------------------------------------------------------------------------------

    def put_note(self, note: Note) -> bool:
        return self._put_new(user_pk(note.thread_id), note_sk(note.note_id), "note", _dump(note))

    def list_notes(self, thread_id: str) -> list[Note]:
        """All notes, newest first."""
        notes = [_model(Note, raw) for raw in self._query(user_pk(thread_id), NOTE_PREFIX)]
        return sorted(notes, key=lambda n: n.created_at, reverse=True)

    def update_note(
        self, thread_id: str, note_id: str, *, text: str, expected: str, changed_at: datetime
    ) -> Note | None:
        """The note's text replaced, if it still reads `expected` (or already reads `text`: an
        earlier attempt of the same step); stamped as the person's change. None if it is gone or was
        changed meanwhile."""
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": user_pk(thread_id), "sk": note_sk(note_id)}),
                UpdateExpression=f"SET #t = :text, {CHANGED_AT} = :at",
                ConditionExpression="attribute_not_exists(undo_key) AND (#t = :expected OR #t = :text)",
                ExpressionAttributeNames={"#t": "text"},
                ExpressionAttributeValues=to_item(
                    {":text": text, ":expected": expected, ":at": _iso(changed_at)}
                ),
                ReturnValues="ALL_NEW",
            )
        except ConditionFailed:
            return None
        return _model(Note, response["Attributes"])

    def delete_note(self, thread_id: str, note_id: str, *, undo: Tombstone | None = None) -> Note | None:
        return self._delete_existing(user_pk(thread_id), note_sk(note_id), Note, undo)

    # --- lists -------------------------------------------------------------------------------

    def add_list_item(self, item: ListItem) -> bool:
        sk = list_item_sk(item.list_name, item.item_id)
        return self._put_new(user_pk(item.thread_id), sk, "list_item", _dump(item))

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        """The items of one list, oldest first (the order they were added)."""
        items = [_model(ListItem, raw) for raw in self._query(user_pk(thread_id), list_prefix(list_name))]
        return sorted(items, key=lambda i: i.created_at)

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        """The items of every list of the user ("what lists do I have?"), oldest first."""
        items = [_model(ListItem, raw) for raw in self._query(user_pk(thread_id), "LIST#")]
        return sorted(items, key=lambda i: i.created_at)

    def remove_list_item(
        self, thread_id: str, list_name: str, item_id: str, *, undo: Tombstone | None = None
    ) -> ListItem | None:
        return self._delete_existing(user_pk(thread_id), list_item_sk(list_name, item_id), ListItem, undo)

    def clear_list(
        self,
        thread_id: str,
        list_name: str,
        *,
        item_ids: list[str] | None = None,
        undo: Tombstone | None = None,
    ) -> list[ListItem]:
        """Delete every item of the list (only `item_ids` of them when given; with `undo`, tombstone
        them one by one); returns what was deleted. Pinned ids with `undo` need no read: each
        tombstone is conditional and returns the item it deleted."""
        pk = user_pk(thread_id)
        if item_ids is not None and undo is not None:
            removals = (
                self._tombstone(pk, list_item_sk(list_name, i), ListItem, undo)
                for i in dict.fromkeys(item_ids)
            )
            return [r.item for r in removals if r.item is not None and r.status == "deleted"]
        items = self.list_items(thread_id, list_name)
        if item_ids is not None:
            pinned = set(item_ids)
            items = [i for i in items if i.item_id in pinned]
        if undo is not None:
            gone = (self._tombstone(pk, list_item_sk(i.list_name, i.item_id), ListItem, undo) for i in items)
            return [
                removal.item for removal in gone if removal.item is not None and removal.status == "deleted"
            ]
        requests = [
            {"DeleteRequest": {"Key": to_item({"pk": pk, "sk": list_item_sk(i.list_name, i.item_id)})}}
            for i in items
        ]
        batch_write(self._ddb, self._table, requests, sleep=self._sleep)
        return items


_RESTORABLE: dict[str, type[Reminder] | type[Note] | type[ListItem]] = {
    "reminder": Reminder,
    "note": Note,
    "list_item": ListItem,
}


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
    return _from_values(model, from_item(raw))


def _from_values(model: type[M], values: dict[str, Any]) -> M:
    return model.model_validate({k: v for k, v in values.items() if k not in _KEY_ATTRIBUTES})


class DynamoReminderItems:
    """The reminders Lambda's `ReminderItems`: the reminder item `DynamoItemsRepository` writes,
    plus three delivery attributes the `Reminder` model ignores: `delivery_claim_id`,
    `delivery_claimed_at` and `delivery_due_at` (the `due_at` the claim was made for). A claim is
    refused while one exists for the same `due_at`, so a reminder moved to a new time can be claimed
    again, while a second delivery of the same occurrence cannot. A lost condition is False."""

    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _key(self, reminder: Reminder) -> dict[str, Any]:
        return to_item({"pk": user_pk(reminder.thread_id), "sk": reminder_sk(reminder.reminder_id)})

    def load(self, thread_id: str, reminder_id: str) -> StoredReminder | None:
        raw = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            ConsistentRead=True,
        ).get("Item")
        if not raw:
            return None
        values = from_item(raw)
        reminder = Reminder.model_validate({k: v for k, v in values.items() if k not in _KEY_ATTRIBUTES})
        return StoredReminder(
            reminder=reminder, due_key=str(values["due_at"]), claimed_for=values.get("delivery_due_at")
        )

    def _update(self, reminder: Reminder, **kwargs: Any) -> bool:
        try:
            conditional_write(self._ddb.update_item, TableName=self._table, Key=self._key(reminder), **kwargs)
        except ConditionFailed:
            return False
        return True

    def claim(self, stored: StoredReminder, *, claim_id: str, now: datetime) -> bool:
        """Take the delivery of this occurrence; False if it is claimed, sent, cancelled, moved or gone."""
        return self._update(
            stored.reminder,
            UpdateExpression="SET delivery_claim_id = :c, delivery_claimed_at = :now, delivery_due_at = :due",
            ConditionExpression=(
                "attribute_exists(pk) AND #status = :scheduled AND due_at = :due "
                "AND (attribute_not_exists(delivery_due_at) OR delivery_due_at <> :due)"
            ),
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=to_item(
                {
                    ":c": claim_id,
                    ":now": now.astimezone(UTC).isoformat(),
                    ":due": stored.due_key,
                    ":scheduled": "scheduled",
                }
            ),
        )

    def complete(
        self, stored: StoredReminder, *, claim_id: str, sent_at: datetime, next_due: datetime | None = None
    ) -> bool:
        """`scheduled` -> `sent` under our claim; False if the reminder changed or vanished meanwhile.
        With `next_due` (a repeating reminder) it stays `scheduled` and moves to its next occurrence,
        so that occurrence's delivery can claim it and this one's cannot claim it again."""
        if next_due is not None:
            return self._update(
                stored.reminder,
                UpdateExpression="SET due_at = :next, sent_at = :sent_at",
                ConditionExpression="#status = :scheduled AND delivery_claim_id = :c AND due_at = :due",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {
                        ":next": next_due.astimezone(UTC).isoformat(),
                        ":scheduled": "scheduled",
                        ":sent_at": sent_at.astimezone(UTC).isoformat(),
                        ":c": claim_id,
                        ":due": stored.due_key,
                    }
                ),
            )
        return self._update(
            stored.reminder,
            UpdateExpression="SET #status = :sent, sent_at = :sent_at",
            ConditionExpression="#status = :scheduled AND delivery_claim_id = :c",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=to_item(
                {
                    ":sent": "sent",
                    ":scheduled": "scheduled",
                    ":sent_at": sent_at.astimezone(UTC).isoformat(),
                    ":c": claim_id,
                }
            ),
        )

    def release(self, stored: StoredReminder, *, claim_id: str, error: str) -> bool:
        """Give the claim back after a send that certainly failed, so a retry can deliver it."""
        return self._update(
            stored.reminder,
            UpdateExpression=(
                "SET delivery_last_error = :e REMOVE delivery_claim_id, delivery_claimed_at, delivery_due_at"
            ),
            ConditionExpression="delivery_claim_id = :c",
            ExpressionAttributeValues=to_item({":c": claim_id, ":e": error}),
        )
