"""Updates that can be undone on the items table: the previous version an update keeps, and its revert.

An update given a `Revision` (a note's or a list item's new text; a reminder's new title, time or
series) adds one attribute to its own UpdateItem, so no request is added: `undo_prev` (`PREVIOUS`),
a map of

- `key`: the turn's traceId, the undo key a delete's tombstone has too; `op`: the step's
  traceId:stepId;
- `until`: the end of the undo window (epoch seconds); `at`: the `changed_at` the update stamped;
- `was`: the values it replaced (a note's or a list item's text; a reminder's title, time, zone,
  status, series, sent time and schedule name).

A later update replaces the slot with its own; a read never returns it as part of the item.

`RevisingItems._revert` puts one item back as `was` says, in one conditional UpdateItem that also
removes the slot and stamps the revert as the person's change. Its condition: the slot is the
undo's (`key`), its window is open, the item is not deleted, and its `changed_at` is still the
update's (`at`). So an item changed again since is left as it is (`changed`: the undo refuses rather
than overwrite the newer change), and a second undo, a racing one or a re-run finds no slot and
reverts nothing. The undo's one query (`TombstoningItems.restore`) finds the slots among the live
items it reads anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeVar

from memo.aws.condition_values import ALL_OLD, old_item
from memo.aws.dynamo import conditional_write, to_item
from memo.aws.items_access import ItemsAccess
from memo.aws.items_keys import CHANGED_AT, PREVIOUS, RESTORABLE, UNDO_KEY, dump, from_values, iso, model_of
from memo.capabilities.items import Item, ListItem, Note, Reminder, Revision, Tombstone
from memo.errors import ConditionFailed

TextItem = TypeVar("TextItem", Note, ListItem)

#: What a reminder's revert puts back; the optional ones absent from `was` are removed.
REMINDER_FIELDS = ("title", "due_at", "timezone", "status", "recurrence", "sent_at", "schedule_name", "skips")
_OPTIONAL = frozenset({"recurrence", "sent_at", "schedule_name", "skips"})


def epoch(moment: datetime) -> int:
    """A moment as the table holds window ends: epoch seconds."""
    return int(moment.timestamp())


def previous_slot(
    revision: Revision[Note] | Revision[Reminder] | Revision[ListItem], changed_at: datetime
) -> dict[str, Any]:
    """The `undo_prev` map an update writes with its change (see the module doc)."""
    was = revision.was
    if isinstance(was, Note | ListItem):
        values: dict[str, Any] = {"text": was.text}
    else:
        values = {k: v for k, v in dump(was).items() if k in REMINDER_FIELDS}
    undo = revision.undo
    return {
        "key": undo.key,
        "op": undo.operation or undo.key,
        "until": epoch(undo.until),
        "at": iso(changed_at),
        "was": values,
    }


#: The condition of every revert (a put back and a take-off alike): not deleted, the slot is the
#: undo's and its window open, and the item not changed since the slot's change.
_STILL_THE_UNDOS = f"attribute_not_exists({UNDO_KEY}) AND #prev.#key = :key AND #prev.#until > :now AND {CHANGED_AT} = #prev.#at"
_SLOT_NAMES = {"#prev": PREVIOUS, "#key": "key", "#until": "until", "#at": "at"}

#: In a slot's `was`: the item did not exist before (a list item added): its revert removes it.
GONE = "gone"


def added_slot(undo: Tombstone, created_at: datetime) -> dict[str, Any]:
    """The `undo_prev` map a list item's add writes with it: its undo takes it off again."""
    return {
        "key": undo.key,
        "op": undo.operation or undo.key,
        "until": epoch(undo.until),
        "at": iso(created_at),
        "was": {GONE: True},
    }


def cancelled_slot(undo: Tombstone, created_at: datetime) -> dict[str, Any]:
    """The `undo_prev` map a reminder's create writes with it: its undo cancels it. Only the status
    is kept (the revert leaves title, time and zone, and drops its series and schedule name: the
    undo removes the schedule by the reminder's id)."""
    return {**added_slot(undo, created_at), "was": {"status": "cancelled"}}


@dataclass(frozen=True)
class Reversion:
    """What one revert did: `reverted` (the item as it is again), `removed` (an item added, taken off
    again) or `changed` (left as it is now)."""

    status: Literal["reverted", "removed", "changed"]
    item: Item


def undoes(values: dict[str, Any], undo_key: str) -> bool:
    """Whether a live item's update slot belongs to the undo of `undo_key`."""
    slot = values.get(PREVIOUS)
    return isinstance(slot, dict) and slot.get("key") == undo_key and UNDO_KEY not in values


class RevisingItems(ItemsAccess):
    """Text rewrites kept for undo (a note's, a list item's), and the revert of any update kept so."""

    def _rewrite_text(
        self,
        pk: str,
        sk: str,
        model: type[TextItem],
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[Note] | Revision[ListItem] | None,
    ) -> TextItem | None:
        """The item's `text` replaced, if it still reads `expected` (or already reads `text`: an
        earlier attempt of the same step); stamped as the person's change, and with `revision` the
        text it had kept for undo, in the same write. None if it is gone or was changed meanwhile."""
        sets = f"SET #t = :text, {CHANGED_AT} = :at"
        values: dict[str, Any] = {":text": text, ":expected": expected, ":at": iso(changed_at)}
        if revision is not None:
            sets += f", {PREVIOUS} = :prev"
            values[":prev"] = previous_slot(revision, changed_at)
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": pk, "sk": sk}),
                UpdateExpression=sets,
                ConditionExpression="attribute_not_exists(undo_key) AND (#t = :expected OR #t = :text)",
                ExpressionAttributeNames={"#t": "text"},
                ExpressionAttributeValues=to_item(values),
                ReturnValues="ALL_NEW",
            )
        except ConditionFailed:
            return None
        return model_of(model, response["Attributes"])

    def _revert(self, values: dict[str, Any], undo_key: str, now: datetime) -> Reversion | None:
        """Put the item back as its update slot says (see the module doc); None when the slot's window
        has closed or another undo reverted it first."""
        model = RESTORABLE.get(str(values.get("kind")))
        slot = values.get(PREVIOUS)
        if model is None or not isinstance(slot, dict) or not undoes(values, undo_key):
            return None
        if int(slot.get("until", 0)) <= epoch(now):
            return None  # the window closed
        if values.get(CHANGED_AT) != slot.get("at"):
            return Reversion("changed", from_values(model, values))
        fields = REMINDER_FIELDS if model is Reminder else ("text",)
        was: dict[str, Any] = dict(slot.get("was") or {})
        if was.get(GONE):
            return self._take_off(model, values, undo_key, now)
        names = dict(_SLOT_NAMES)
        sets, removes = [f"{CHANGED_AT} = :now_at"], [PREVIOUS]
        values_out: dict[str, Any] = {":key": undo_key, ":now": epoch(now), ":now_at": iso(now)}
        for name in fields:
            if name in was:
                sets.append(f"#{name} = :{name}")
                values_out[f":{name}"] = was[name]
            elif name in _OPTIONAL:
                removes.append(f"#{name}")
            else:
                continue  # kept as it is (a create's slot keeps only the status)
            names[f"#{name}"] = name
        try:
            response = conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": values["pk"], "sk": values["sk"]}),
                UpdateExpression="SET " + ", ".join(sets) + " REMOVE " + ", ".join(removes),
                ConditionExpression=_STILL_THE_UNDOS,
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_item(values_out),
                ReturnValues="ALL_NEW",
                ReturnValuesOnConditionCheckFailure=ALL_OLD,
            )
        except ConditionFailed as exc:
            return _lost(model, old_item(exc), undo_key, now)
        return Reversion("reverted", model_of(model, response["Attributes"]))

    def _take_off(
        self, model: type[Item], values: dict[str, Any], undo_key: str, now: datetime
    ) -> Reversion | None:
        """Delete an item its undo's request added, on the revert's condition (not changed since)."""
        try:
            conditional_write(
                self._ddb.delete_item,
                TableName=self._table,
                Key=to_item({"pk": values["pk"], "sk": values["sk"]}),
                ConditionExpression=_STILL_THE_UNDOS,
                ExpressionAttributeNames=_SLOT_NAMES,
                ExpressionAttributeValues=to_item({":key": undo_key, ":now": epoch(now)}),
                ReturnValuesOnConditionCheckFailure=ALL_OLD,
            )
        except ConditionFailed as exc:
            return _lost(model, old_item(exc), undo_key, now)
        return Reversion("removed", from_values(model, values))


def _lost(model: type[Item], found: dict[str, Any] | None, undo_key: str, now: datetime) -> Reversion | None:
    """A revert whose condition failed: changed again meanwhile (the slot is still the undo's, open),
    or nothing to revert (reverted by another undo, deleted, or the window closed)."""
    if found is None or not undoes(found, undo_key):
        return None
    slot = found[PREVIOUS]
    if int(slot.get("until", 0)) > epoch(now) and found.get(CHANGED_AT) != slot.get("at"):
        return Reversion("changed", from_values(model, found))
    return None
