"""The reply Lambda's `ResponderMemory` on the conversation table: the reply claim
(`CLAIM#REPLY#<trace id>`), the reply in the recent messages, the thread's latestActions
(`RECENT_ACTIONS`) and the items its reply named (`CTX#<message id>`, `memo.aws.conversation_quotes`).

The claim goes in one transaction with the turn's latestActions.
The latestActions are appended without a read and without a condition: one UpdateItem puts the
turn's entries (packed) in the item's first slot (`r0`, `memo.aws.conversation_table.SLOTS`) and
shifts the others on by one (`r1` takes `r0`'s, and so on), so the slots always hold the last
`appends` turns (setting `MEMO_LATEST_ACTIONS_APPENDS`, 10 by default: each turn adds at least one
action, so they hold the 10 latest) and the oldest falls off on its own: no append ever finds the
item full, so none costs a second request. Entries over `append_max_bytes` packed (setting
`MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES`, 16 KiB by default) are merged at once instead: the item is
read, merged with `merge_latest_actions` into `actions` (the slots emptied) and written back under a
version condition (`attribute_not_exists(pk)` for the first write; every append bumps the version
too), so the loser of a race merges again from what its lost write returned and no action is lost.
The merged item leaves room for the slots (`append_max_bytes` each) under DynamoDB's item limit:
should the merged entries not fit, the oldest are dropped first and the log says how many
(LATEST_ACTIONS_TRIMMED); the reply's after-send write leaves out an item over the limit
(ITEM_TOO_LARGE) and writes the rest.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.condition_values import ALL_OLD, lost_writes, old_item
from memo.aws.conversation_quotes import DynamoQuotes, quote_requests
from memo.aws.conversation_table import (
    ACTIONS_SK,
    REPLY_CLAIM_PREFIX,
    SLOTS,
    latest_actions_of,
    message_items,
    thread_pk,
)
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.dynamo import (
    ITEM_LIMIT_BYTES,
    batch_write,
    conditional_write,
    from_item,
    guard,
    item_bytes,
    to_item,
)
from memo.aws.faults import call
from memo.conversation.model import MemoryMessage
from memo.errors import ConditionFailed, ItemTooLarge
from memo.observability import logger
from memo.packing import pack
from memo.reply.memory import (
    LATEST_ACTIONS_MAX,
    LATEST_ACTIONS_SCOPE,
    REPLY_CLAIM_TTL,
    LatestActionsConflict,
    entry_created_at,
    merge_latest_actions,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

# Versioned writes of RECENT_ACTIONS lost to other writers before giving up.
ACTIONS_WRITE_ATTEMPTS = 5
# The largest turn's entries (packed) appended to `recent` by default; a larger one is merged at
# once. A merge leaves room for that many bytes per append it allows, so the appends never outgrow
# the item.
APPEND_MAX_BYTES = 16_384


def _version_condition(item: dict[str, Any] | None, version: int) -> dict[str, Any]:
    """The condition of a versioned put of RECENT_ACTIONS over `item` as it was read."""
    if item is None:
        return {"ConditionExpression": "attribute_not_exists(pk)"}
    if "version" not in item:
        return {"ConditionExpression": "attribute_not_exists(version)"}
    return {
        "ConditionExpression": "version = :v",
        "ExpressionAttributeValues": {":v": {"N": str(version)}},
    }


def _fits(item: dict[str, Any]) -> bool:
    try:
        guard(item, what=str(item.get("sk", {}).get("S", "")).split("#", 1)[0])
    except ItemTooLarge:
        return False
    return True


def _within_limit(
    stored: dict[str, Any], merged: list[dict[str, Any]], *, limit: int = ITEM_LIMIT_BYTES
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The RECENT_ACTIONS item with the newest of `merged` that fit in `limit` bytes (the
    oldest entries are dropped first, LATEST_ACTIONS_TRIMMED says how many), and what it holds."""
    kept = list(merged)
    while True:
        packed = pack(json.dumps(kept, separators=(",", ":"), ensure_ascii=False))
        item = to_item({**stored, "actions": packed})
        if not kept or item_bytes(item) <= limit:
            if len(kept) < len(merged):
                logger.error(
                    "LATEST_ACTIONS_TRIMMED", extra={"dropped": len(merged) - len(kept), "kept": len(kept)}
                )
            return item, kept
        kept.pop()


class DynamoResponderMemory:
    """The responder's writes are two requests: one transaction of the reply claim and the turn's
    latestActions appended (before the send), and one BatchWriteItem after it (the reply in the recent messages and its `CTX#` quote records)."""

    def __init__(
        self,
        dynamodb: DynamoDBClient,
        table_name: str,
        *,
        message_ttl_seconds: int,
        appends: int = LATEST_ACTIONS_MAX,
        append_max_bytes: int = APPEND_MAX_BYTES,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._ddb = dynamodb
        self._appends = appends
        self._append_max = append_max_bytes
        self._table = table_name
        self._ttl = message_ttl_seconds
        self._sleep = sleep  # backoff between retries of unprocessed batch writes
        self._store = DynamoConversationStore(dynamodb, table_name, sleep=sleep)

    def _claim_key(self, thread_id: str, trace_id: str) -> dict[str, Any]:
        return {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": f"{REPLY_CLAIM_PREFIX}{trace_id}"}}

    def _claim_put(self, thread_id: str, trace_id: str, now: datetime) -> dict[str, Any]:
        return {
            "TableName": self._table,
            "Item": {
                **self._claim_key(thread_id, trace_id),
                "ttl": {"N": str(int((now + REPLY_CLAIM_TTL).timestamp()))},
            },
            "ConditionExpression": "attribute_not_exists(pk)",
        }

    def claim_reply(
        self,
        thread_id: str,
        trace_id: str,
        *,
        now: datetime,
        actions: Sequence[dict[str, Any]] = (),
    ) -> bool:
        """The reply's claim, in one write with `actions` appended to the thread's latestActions.
        A claim that exists means its actions were recorded with it, so a lost claim writes
        nothing. Actions too large to append are merged; a lost version merges again (from the
        item the lost write returned)."""
        if not actions:
            try:
                conditional_write(self._ddb.put_item, **self._claim_put(thread_id, trace_id, now))
            except ConditionFailed:
                return False
            return True
        write = self._actions_append(thread_id, actions, now=now)
        if write is None:  # too large to append: merged at once
            write = {"Put": self._actions_put(thread_id, actions, now=now)[0]}
        for _ in range(ACTIONS_WRITE_ATTEMPTS):
            claim = {"Put": self._claim_put(thread_id, trace_id, now)}
            try:
                conditional_write(
                    self._ddb.transact_write_items,
                    TransactItems=[claim, write],
                )
            except ConditionFailed as exc:
                if 0 in lost_writes(exc):
                    return False  # already answered: its actions went in with its claim
                # Another writer changed the item since the merge read it: merge again, from the
                # item the lost write returned (a read only when it returned none).
                found = old_item(exc, index=1)
                put, _merged, version = self._actions_put(thread_id, actions, now=now, found=found)
                logger.info("LATEST_ACTIONS_RETRY", extra={"version": version})
                write = {"Put": put}
                continue
            return True
        raise LatestActionsConflict(f"RECENT_ACTIONS kept changing after {ACTIONS_WRITE_ATTEMPTS} attempts")

    def _actions_append(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> dict[str, Any] | None:
        """The UpdateItem that puts `actions` (newest first, packed) in RECENT_ACTIONS' first slot
        and shifts the last turns' on by one, the oldest falling off (a slot no turn filled yet
        passes on an empty list): no read, no condition. Its version goes up, so a merge that read
        before it loses and reads again. None: `actions` are over `append_max_bytes` packed (the
        caller merges them)."""
        newest = max((c for c in map(entry_created_at, actions) if c is not None), default=now)
        packed = pack(json.dumps(list(actions), separators=(",", ":"), ensure_ascii=False))
        if len(packed) > self._append_max:
            return None
        slots = SLOTS[: self._appends]
        # Every operand reads the item as it was: `r1=r0` takes the r0 this update replaces.
        shifts = [f"{slots[i]}=if_not_exists({slots[i - 1]},:z)" for i in range(len(slots) - 1, 0, -1)]
        values: dict[str, Any] = {
            ":a": {"B": packed},
            # Gone once its newest entry leaves the 12-hour scope (readers drop expired items).
            ":t": {"N": str(int((newest + LATEST_ACTIONS_SCOPE).timestamp()))},
            ":o": {"N": "1"},
        }
        if shifts:
            values[":z"] = {"L": []}
        return {
            "Update": {
                "TableName": self._table,
                "Key": {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": ACTIONS_SK}},
                "UpdateExpression": "SET "
                + ",".join([*shifts, f"{slots[0]}=:a", "#t=:t"])
                + " ADD version :o",
                "ExpressionAttributeNames": {"#t": "ttl"},
                "ExpressionAttributeValues": values,
            }
        }

    def release_reply(self, thread_id: str, trace_id: str) -> None:
        call(self._ddb.delete_item, TableName=self._table, Key=self._claim_key(thread_id, trace_id))

    def record_reply(self, thread_id: str, text: str, *, at: datetime) -> None:
        message = MemoryMessage(role="assistant", text=text, at=at, kind="message")
        self._store.append(thread_id, [message], ttl_seconds=self._ttl)

    def record_quote(
        self, thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> None:
        DynamoQuotes(self._ddb, self._table).remember(thread_id, message_ids, actions, now=now)

    def record_sent(
        self,
        thread_id: str,
        *,
        text: str | None,
        message_ids: Sequence[str],
        actions: Sequence[dict[str, Any]],
        now: datetime,
        trace_id: str | None = None,
    ) -> None:
        """After the send, one BatchWriteItem: the reply in the recent messages (`text`, the end of
        plan `trace_id`) and the items it named under each sent message id (`CTX#<id>`, for a reply
        that quotes it)."""
        # After the send, best effort: an item over DynamoDB's limit is left out (ITEM_TOO_LARGE is
        # logged), so the others are still written.
        requests: list[dict[str, Any]] = []
        if text is not None:
            message = MemoryMessage(role="assistant", text=text, at=now, kind="message", finished=trace_id)
            with suppress(ItemTooLarge):
                items = message_items(thread_id, [message], ttl_seconds=self._ttl)
                requests += [{"PutRequest": {"Item": item}} for item in items]
        if actions:
            quotes = quote_requests(thread_id, message_ids, actions, now=now)
            requests += [r for r in quotes if _fits(r["PutRequest"]["Item"])]
        if requests:
            batch_write(self._ddb, self._table, requests, sleep=self._sleep)

    def _actions_put(
        self,
        thread_id: str,
        actions: Sequence[dict[str, Any]],
        *,
        now: datetime,
        found: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        """Read RECENT_ACTIONS (unless `found`: the item as a lost write returned it) and build
        the versioned put of it merged with `actions`: (the Put, the merged list, the version read)."""
        item = found
        if item is None:
            key = {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": ACTIONS_SK}}
            raw = call(self._ddb.get_item, TableName=self._table, Key=key, ConsistentRead=True).get("Item")
            item = from_item(raw) if raw else None
        merged = merge_latest_actions(latest_actions_of(item) if item else [], actions, now=now)
        version = int(item.get("version", 0)) if item else 0
        condition = _version_condition(item, version)
        newest = max((c for c in map(entry_created_at, merged) if c is not None), default=now)
        stored = {
            "pk": thread_pk(thread_id),
            "sk": ACTIONS_SK,
            "version": version + 1,
            # Gone once its newest entry leaves the 12-hour scope (readers drop expired items).
            "ttl": int((newest + LATEST_ACTIONS_SCOPE).timestamp()),
        }
        item, merged = _within_limit(
            stored, merged, limit=ITEM_LIMIT_BYTES - self._appends * self._append_max
        )
        # A lost version brings the item back (the next merge needs no read).
        put = {
            "TableName": self._table,
            "Item": item,
            **condition,
            "ReturnValuesOnConditionCheckFailure": ALL_OLD,
        }
        return put, merged, version

    def record_actions(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> list[dict[str, Any]]:
        for _ in range(ACTIONS_WRITE_ATTEMPTS):
            put, merged, version = self._actions_put(thread_id, actions, now=now)
            try:
                conditional_write(self._ddb.put_item, **put)
            except ConditionFailed:
                logger.info("LATEST_ACTIONS_RETRY", extra={"version": version})
                continue
            return merged
        raise LatestActionsConflict(f"RECENT_ACTIONS kept changing after {ACTIONS_WRITE_ATTEMPTS} attempts")
