"""The user's reminders on the items table (`sk = REMINDER#<id>`): the reminder half of the
`ItemsRepository` port. `update_reminder` given `changed_at` stamps it when the title, time, series or
zone change, and given a `Revision` keeps the values it replaces for undo in the same write
(`memo.aws.items_revisions`); `mark_reminder_sent` returns False when the reminder is no longer
`scheduled`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memo.aws.dynamo import conditional_write, to_item
from memo.aws.items_keys import (
    CHANGED_AT,
    PREVIOUS,
    REMINDER_PREFIX,
    dump,
    iso,
    model_of,
    reminder_sk,
    user_pk,
)
from memo.aws.items_revisions import cancelled_slot, previous_slot
from memo.aws.items_tombstones import TombstoningItems
from memo.capabilities.base import FirstWrite
from memo.capabilities.items import Deletion, Reminder, Revision, Tombstone
from memo.errors import ConditionFailed
from memo.observability import logger, mask_phone


@dataclass
class _Changes:
    """The parts of a reminder's UpdateItem."""

    sets: list[str] = field(default_factory=list)
    removes: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def expression(self) -> str:
        parts = (["SET " + ", ".join(self.sets)] if self.sets else []) + (
            ["REMOVE " + ", ".join(self.removes)] if self.removes else []
        )
        return " ".join(parts)


def _changes(
    *,
    title: str | None,
    due_at: datetime | None,
    schedule_name: str | None,
    recurrence: str | None,
    changed_at: datetime | None,
    revision: Revision[Reminder] | None = None,
    timezone: str | None = None,
    skips: str | None = None,
) -> _Changes:
    changes = _Changes()
    if title is not None:
        changes.sets.append("#title = :title")
        changes.names["#title"] = "title"
        changes.values[":title"] = title
    if due_at is not None:
        changes.sets += ["due_at = :due_at", "#status = :scheduled"]
        changes.names["#status"] = "status"
        changes.values[":due_at"] = iso(due_at)
        changes.values[":scheduled"] = "scheduled"
        changes.removes.append("sent_at")
    if schedule_name is not None:
        changes.sets.append("schedule_name = :schedule_name")
        changes.values[":schedule_name"] = schedule_name
    if recurrence is not None:
        changes.sets.append("recurrence = :recurrence")
        changes.values[":recurrence"] = recurrence
    if timezone is not None:
        changes.sets.append("#timezone = :timezone")
        changes.names["#timezone"] = "timezone"
        changes.values[":timezone"] = timezone
    if skips:
        changes.sets.append("skips = :skips")
        changes.values[":skips"] = skips
    elif skips is not None:  # "": it skips nothing any more
        changes.removes.append("skips")
    if changed_at is not None and any(v is not None for v in (title, due_at, recurrence, timezone, skips)):
        changes.sets.append(f"{CHANGED_AT} = :changed_at")
        changes.values[":changed_at"] = iso(changed_at)
        if revision is not None:  # what it replaces, kept for undo
            changes.sets.append(f"{PREVIOUS} = :prev")
            changes.values[":prev"] = previous_slot(revision, changed_at)
    return changes


class DynamoReminders(TombstoningItems):
    """Reminders: created once, read, listed soonest first, changed, deleted or tombstoned."""

    def put_reminder(self, reminder: Reminder, *, undo: Tombstone | None = None) -> bool:
        """Create the reminder; False if an item with its id exists already (a retried create). With
        `undo`, the create is kept for that undo as an update from the reminder cancelled, stamped
        at its creation: the undo's revert cancels it (`memo.aws.items_revisions`)."""
        values = dump(reminder)
        if undo is not None:
            values[CHANGED_AT] = iso(reminder.created_at)
            values[PREVIOUS] = cancelled_slot(undo, reminder.created_at)
        return self._put_new(
            user_pk(reminder.thread_id), reminder_sk(reminder.reminder_id), "reminder", values
        )

    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        return self._get(user_pk(thread_id), reminder_sk(reminder_id), Reminder)

    def list_reminders(self, thread_id: str) -> list[Reminder]:
        """All of the user's reminders (any status), soonest first."""
        reminders = [model_of(Reminder, raw) for raw in self._query(user_pk(thread_id), REMINDER_PREFIX)]
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
        revision: Revision[Reminder] | None = None,
        timezone: str | None = None,
        skips: str | None = None,
        unchanged_since: datetime | None = None,
    ) -> Reminder | None:
        """Rename and/or move a reminder (and replace a repeating one's series or zone); a move makes
        it `scheduled` again. With `changed_at`, a new title, time, series or zone is stamped as the person's
        change (a delete approved before it leaves the reminder alone), and with `revision` the
        values it replaces are kept for undo. None if it is gone, or (given `unchanged_since`, an
        approval's question) changed after then: left as it is."""
        changes = _changes(
            title=title,
            due_at=due_at,
            schedule_name=schedule_name,
            recurrence=recurrence,
            changed_at=changed_at,
            revision=revision,
            timezone=timezone,
            skips=skips,
        )
        if not changes.sets and not changes.removes:
            return self.get_reminder(thread_id, reminder_id)
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "Key": to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            "UpdateExpression": changes.expression(),
            "ConditionExpression": "attribute_exists(pk) AND attribute_not_exists(undo_key)",
            "ReturnValues": "ALL_NEW",
        }
        if unchanged_since is not None:
            kwargs["ConditionExpression"] += (
                f" AND (attribute_not_exists({CHANGED_AT}) OR {CHANGED_AT}<=:since)"
            )
            changes.values[":since"] = iso(unchanged_since)
        if changes.values:
            kwargs["ExpressionAttributeValues"] = to_item(changes.values)
        if changes.names:
            kwargs["ExpressionAttributeNames"] = changes.names
        try:
            response = conditional_write(self._ddb.update_item, **kwargs)
        except ConditionFailed:
            return None
        return model_of(Reminder, response["Attributes"])

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

    def remove_reminders(
        self,
        thread_id: str,
        reminder_ids: Sequence[str],
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
        first_write: FirstWrite | None = None,
    ) -> dict[str, Deletion[Reminder]]:
        """Tombstone the reminders in one transaction (per 100) with no read before: by id, deleted
        (with no item), gone, or changed since `unchanged_since` (left alone, as it is now);
        `first_write` goes in the first transaction."""
        found = self._tombstone_all(
            user_pk(thread_id),
            {reminder_id: reminder_sk(reminder_id) for reminder_id in reminder_ids},
            Reminder,
            undo,
            unchanged_since=unchanged_since,
            first_write=first_write,
        )
        return {reminder_id: found[reminder_id] for reminder_id in reminder_ids}

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
                    {":sent": "sent", ":scheduled": "scheduled", ":sent_at": iso(sent_at)}
                ),
            )
        except ConditionFailed:
            logger.info(
                "REMINDER_ALREADY_HANDLED",
                extra={"threadId": mask_phone(thread_id), "reminderId": reminder_id},
            )
            return False
        return True
