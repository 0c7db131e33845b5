"""The user's lists on the items table (`sk = LIST#<list key>#ITEM#<id>`): the lists half of the
`ItemsRepository` port."""

from __future__ import annotations

from datetime import datetime

from memo.aws.dynamo import batch_write, to_item
from memo.aws.items_keys import (
    CHANGED_AT,
    LISTS_PREFIX,
    PREVIOUS,
    dump,
    iso,
    list_item_sk,
    list_prefix,
    model_of,
    user_pk,
)
from memo.aws.items_revisions import added_slot
from memo.aws.items_tombstones import TombstoningItems
from memo.capabilities.items import ListItem, Revision, Tombstone


class DynamoLists(TombstoningItems):
    """List items: added once, listed oldest first, removed one by one or a list at a time."""

    def add_list_item(self, item: ListItem, *, undo: Tombstone | None = None) -> bool:
        """Add the item; False if it exists already (a retried add). With `undo`, its turn's undo
        takes it off again (`memo.aws.items_revisions.added_slot`), unless it was changed since."""
        sk = list_item_sk(item.list_name, item.item_id)
        values = dump(item)
        if undo is not None:
            values[CHANGED_AT] = iso(item.created_at)
            values[PREVIOUS] = added_slot(undo, item.created_at)
        return self._put_new(user_pk(item.thread_id), sk, "list_item", values)

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        """The items of one list, oldest first (the order they were added)."""
        items = [model_of(ListItem, raw) for raw in self._query(user_pk(thread_id), list_prefix(list_name))]
        return sorted(items, key=lambda i: i.created_at)

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        """The items of every list of the user ("what lists do I have?"), oldest first."""
        items = [model_of(ListItem, raw) for raw in self._query(user_pk(thread_id), LISTS_PREFIX)]
        return sorted(items, key=lambda i: i.created_at)

    def update_list_item(
        self,
        thread_id: str,
        list_name: str,
        item_id: str,
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[ListItem] | None = None,
    ) -> ListItem | None:
        """The item's text replaced ("12 eggs" for "eggs"), if it still reads `expected` (or already
        reads `text`: an earlier attempt of the same step); stamped as the person's change, and with
        `revision` the text it had kept for undo, as a note's is. None if it is gone or was changed
        meanwhile."""
        return self._rewrite_text(
            user_pk(thread_id),
            list_item_sk(list_name, item_id),
            ListItem,
            text=text,
            expected=expected,
            changed_at=changed_at,
            revision=revision,
        )

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
