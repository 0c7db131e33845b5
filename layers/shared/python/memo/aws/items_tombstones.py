"""Deletes on the items table, and undo.

A delete given a `Tombstone` does not delete. It marks the item (`undo_key` = the step's operation
id, traceId:stepId, which begins with the turn's traceId, the undo key: one value says both; the
traceId alone for a delete of no step, and with an operation that does not begin with it, that
operation apart in `undo_op`; and the table's TTL attribute `ttl` = the end of the undo window, in
epoch seconds; a reminder also becomes `cancelled`, its previous status kept in `undo_status`, so no
delivery can claim it). Every read of the items adapters skips tombstoned items, so for the user
they are gone; `restore` brings back the items of one undo key (marked by it or by one of its
steps) while their `ttl` has not passed (the window, to the second; tombstones written before also
hold it as `undo_until`, left unread) (a
conditional write per item: two undos restore each item once), except an item an equivalent of
which exists again (an undo restores only what is still missing); DynamoDB's TTL purges the rest.
The same undo puts back the items its turn updated (`memo.aws.items_revisions`), found by the same
query.

A tombstone is one conditional UpdateItem and no read: its condition is what the delete may touch
(the item exists; it is not tombstoned, unless by an earlier attempt of the same step, which then
counts it again; with `unchanged_since`, its `changed_at` is not later). A lost condition returns
the item as it stood (`ReturnValuesOnConditionCheckFailure`), which says why: gone or changed.
Several items are tombstoned by one TransactWriteItems (`_tombstone_all`, up to
`TRANSACT_LIMIT` writes a request, with the executor's claim of the step when it rides along:
`memo.capabilities.base.FirstWrite`): a lost condition cancels it, its reasons say which items lost
and why, and the transaction is sent again without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memo.aws.condition_values import ALL_OLD, lost_writes, old_item
from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.aws.items_keys import CHANGED_AT, RESTORABLE, UNDO_KEY, M, from_values, iso, model_of, user_pk
from memo.aws.items_revisions import RevisingItems, undoes
from memo.capabilities.base import FirstWrite
from memo.capabilities.items import Deletion, Item, Reminder, Restoration, Tombstone, is_back
from memo.errors import ConditionFailed, ServiceFault
from memo.observability import logger

TRANSACT_LIMIT = 100  # the writes one TransactWriteItems may hold


@dataclass
class _Marks:
    """The UpdateItem that tombstones one item: what it sets, under which condition."""

    sets: list[str]
    condition: str
    names: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)


def _marks(model: type[M], undo: Tombstone, unchanged_since: datetime | None) -> _Marks:
    """Written compactly (one-letter placeholders, no spaces; the undo key and the step's operation
    in one value when the operation begins with the key, as a step's does): a transaction of
    "delete all" sends them once per item."""
    marks = _Marks(
        sets=["undo_key=:k", "#t=:t"],
        condition="attribute_exists(pk) AND attribute_not_exists(undo_key)",
        names={"#t": "ttl"},
        values={":k": undo.key, ":t": _seconds(undo.until)},
    )
    # An earlier attempt of this same step may have tombstoned it: that is still our delete.
    if undo.operation is not None and _under(undo.operation, undo.key):
        marks.values[":k"] = undo.operation
        marks.condition = "attribute_exists(pk) AND (attribute_not_exists(undo_key) OR undo_key=:k)"
    elif undo.operation is not None:
        marks.sets.append("undo_op=:o")
        marks.values[":o"] = undo.operation
        marks.condition = "attribute_exists(pk) AND (attribute_not_exists(undo_key) OR undo_op=:o)"
    if unchanged_since is not None:
        # Never changed, or not since: a comparison with an attribute the item lacks is false, so
        # its NOT holds for an item without `changed_at` (always ISO text when there).
        marks.condition += f" AND NOT {CHANGED_AT}>:s"
        marks.values[":s"] = iso(unchanged_since)
    if model is Reminder:
        # Both operands read the item as it was: the previous status is kept for a restore
        # (and kept as it was by a retry, which finds the reminder cancelled already).
        marks.sets += ["undo_status=if_not_exists(undo_status,#s)", "#s=:c"]
        marks.names["#s"] = "status"
        marks.values[":c"] = "cancelled"
    return marks


def _under(mark: str, undo_key: str) -> bool:
    """Whether a tombstone's `undo_key` (or an operation) belongs to the undo of `undo_key`: the
    key itself, or one of its steps' operation ids (the key, ":", a step id, which holds no ":")."""
    if mark == undo_key:
        return True
    step = mark.removeprefix(undo_key + ":")
    return step != mark and bool(step) and ":" not in step


def _seconds(moment: datetime) -> int:
    """A moment as the table's TTL attribute holds it: epoch seconds."""
    return int(moment.timestamp())


def _lost(model: type[M], found: dict[str, Any] | None) -> Deletion[M]:
    """A tombstone whose condition failed, by the item it found: gone, or changed since."""
    if found is None or UNDO_KEY in found:
        return Deletion(status="gone")  # never there, or deleted by someone else
    return Deletion(status="changed", item=from_values(model, found))


class TombstoningItems(RevisingItems):
    """Deletes (plain, or tombstones for undo) and the undo that restores tombstoned items and
    reverts updated ones."""

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
        return model_of(model, raw) if raw else None

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
        marks = _marks(model, undo, unchanged_since)
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": pk, "sk": sk}),
                UpdateExpression="SET " + ",".join(marks.sets),
                ConditionExpression=marks.condition,
                ExpressionAttributeNames=marks.names,
                ExpressionAttributeValues=to_item(marks.values),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure=ALL_OLD,
            )
        except ConditionFailed as exc:
            return _lost(model, old_item(exc))
        raw = response.get("Attributes")
        if not raw:
            return Deletion(status="gone")
        before = from_item(raw)
        if UNDO_KEY in before and "undo_status" in before:
            before["status"] = before["undo_status"]  # our earlier attempt's tombstone: as it was
        return Deletion(status="deleted", item=from_values(model, before))

    def _tombstone_all(
        self,
        pk: str,
        keys: Mapping[str, str],
        model: type[M],
        undo: Tombstone,
        *,
        unchanged_since: datetime | None = None,
        first_write: FirstWrite | None = None,
    ) -> dict[str, Deletion[M]]:
        """Tombstone the items `keys` (id -> sort key; same marks and conditions as `_tombstone`) by
        one transaction per `TRANSACT_LIMIT` writes, `first_write` at the head of the first (told
        which ids that transaction writes when it is the only one); by id. A `deleted` one carries
        no item: a transaction does not return what it overwrote. A lost `first_write` raises its
        `refused` (nothing was written)."""
        marks = _marks(model, undo, unchanged_since)
        update = {
            "TableName": self._table,
            "UpdateExpression": "SET " + ",".join(marks.sets),
            "ConditionExpression": marks.condition,
            "ExpressionAttributeNames": marks.names,
            "ExpressionAttributeValues": to_item(marks.values),
            "ReturnValuesOnConditionCheckFailure": ALL_OLD,
        }
        done: dict[str, Deletion[M]] = {}
        rest = list(keys)
        while rest:
            room = TRANSACT_LIMIT - (first_write is not None)
            pending, rest = rest[:room], rest[room:]
            while pending:  # each lost round leaves at least one item out
                head = [first_write.entry_for(None if rest else pending)] if first_write is not None else []
                try:
                    conditional_write(
                        self._ddb.transact_write_items,
                        TransactItems=[
                            *head,
                            *(
                                {"Update": {**update, "Key": to_item({"pk": pk, "sk": keys[i]})}}
                                for i in pending
                            ),
                        ],
                    )
                except ConditionFailed as exc:
                    lost = lost_writes(exc)
                    if head and 0 in lost and first_write is not None:
                        raise first_write.refused(old_item(exc, index=0)) from exc
                    lost = {i - len(head) for i in lost}
                    if not lost:
                        raise ServiceFault("the tombstones' transaction was cancelled") from exc
                    done.update({pending[i]: _lost(model, old_item(exc, index=i + len(head))) for i in lost})
                    pending = [key for i, key in enumerate(pending) if i not in lost]
                    continue
                done.update({key: Deletion(status="deleted") for key in pending})
                pending = []
                if first_write is not None:
                    first_write.sent()
                    first_write = None
        return done

    def restore(self, thread_id: str, undo_key: str, *, now: datetime) -> Restoration:
        """Bring back every item tombstoned under `undo_key` whose undo window is still open, each
        once (a conditional write), so a second undo, or a racing one, restores nothing; except an
        item an equivalent of which exists again (`is_back`), left deleted and named as present.
        One paged query reads both (the same requests as reading the tombstones alone)."""
        buried, live, revised = self._buried_and_live(thread_id, undo_key, now)
        restored: list[Item] = []
        present: list[Item] = []
        for values, item in buried:
            if is_back(item, live):
                present.append(item)
                continue
            back = self._restore_one(values, str(values[UNDO_KEY]), now)
            if back is not None:
                restored.append(back)
        if present:
            logger.info("UNDO_LEFT_PRESENT", extra={"present": len(present), "restored": len(restored)})
        reversions = [r for r in (self._revert(values, undo_key, now) for values in revised) if r is not None]
        changed = [r.item for r in reversions if r.status == "changed"]
        if changed:
            logger.info("UNDO_LEFT_CHANGED", extra={"changed": len(changed)})
        return Restoration(
            restored=restored,
            present=present,
            reverted=[r.item for r in reversions if r.status == "reverted"],
            changed=changed,
            removed=[r.item for r in reversions if r.status == "removed"],
        )

    def _buried_and_live(
        self, thread_id: str, undo_key: str, now: datetime
    ) -> tuple[list[tuple[dict[str, Any], Item]], list[Item], list[dict[str, Any]]]:
        """The items tombstoned under `undo_key` whose window is open (with their stored values),
        the user's items that are not deleted, and the stored values of those updated under
        `undo_key` (their update slot is the undo's)."""
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk",
            # The undo's own tombstones (its key, or its steps': the key then ":") and every live
            # item; other deletes' tombstones stay behind (and `_under` drops any key that merely
            # begins like this one).
            "FilterExpression": "begins_with(undo_key, :key) OR attribute_not_exists(undo_key)",
            "ExpressionAttributeValues": to_item({":pk": user_pk(thread_id), ":key": undo_key}),
            "ConsistentRead": True,
        }
        buried: list[tuple[dict[str, Any], Item]] = []
        live: list[Item] = []
        revised: list[dict[str, Any]] = []
        while True:
            response = call(self._ddb.query, **kwargs)
            for raw in response.get("Items", []):
                values = from_item(raw)
                model = RESTORABLE.get(str(values.get("kind")))
                if model is None:
                    continue
                if values.get(UNDO_KEY) is None:
                    live.append(from_values(model, values))
                    if undoes(values, undo_key):
                        revised.append(values)
                elif _under(str(values[UNDO_KEY]), undo_key) and int(values.get("ttl", 0)) > _seconds(now):
                    buried.append((values, _as_it_was(model, values)))
            last = response.get("LastEvaluatedKey")
            if not last:
                return buried, live, revised
            kwargs["ExclusiveStartKey"] = last

    def _restore_one(self, values: dict[str, Any], mark: str, now: datetime) -> Item | None:
        """Restore one tombstone, on the condition that it still holds `mark` (its `undo_key`) and
        its window is open."""
        model = RESTORABLE.get(str(values.get("kind")))
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
                ConditionExpression="undo_key = :key AND #ttl > :now",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_item({":key": mark, ":now": _seconds(now)}),
                ReturnValues="ALL_NEW",
            )
        except ConditionFailed:
            return None  # restored by another undo, or its window closed
        restored: Item = model_of(model, response["Attributes"])
        return restored


def _as_it_was(model: type[Item], values: dict[str, Any]) -> Item:
    """A tombstoned item as it was before its delete (a reminder's status is kept in `undo_status`)."""
    if model is Reminder and "undo_status" in values:
        values = {**values, "status": values["undo_status"]}
    return from_values(model, values)
