"""The conversation table (`memo.tables.CONVERSATION`): its keys and the formats of its items.

One partition per thread, `pk = THREAD#<thread id>`. Sort keys are chosen so one descending,
consistent Query returns every singleton item first, then the most recent messages:
`RECENT_ACTIONS` > `PROFILE` > `PENDING` > `MSG#<epoch µs>#<seq>#<wamid>` (earlier releases wrote
`MSG#<epoch ms>#...`: both sort by time, and both are read); the reply claims
(`CLAIM#REPLY#<trace id>`) and the items each sent message named (`CTX#<message id>`, for replies
that quote it: `memo.reply.quotes`) sort below `MSG#` and are never read by that query. Messages carry a TTL;
DynamoDB deletes late, so reads also drop what has expired.

The adapters on this table, one module each:
- `memo.aws.conversation_thread.DynamoConversationStore`: the `ConversationStore` port (thread
  snapshot, profile, messages), whose turn's one write is `memo.aws.conversation_turn`;
- `memo.aws.conversation_pending.DynamoPendingStore`: the `PendingStore` port: the one `PENDING`
  item of a thread (`pendingHITL` and the turn's packed frozen state, TTL = `expiresAt`), created
  and consumed by conditional writes;
- `memo.aws.responder_memory.DynamoResponderMemory`: the reply Lambda's `ResponderMemory` (reply
  claim, reply, latestActions, the items its reply named);
- `memo.aws.conversation_quotes.DynamoQuotes`: the `QuoteStore` port (`memo.reply.quotes`): the items
  a sent message named;
- `memo.aws.review_waits.DynamoReviewWaits`: the `ReviewWaits` port (`memo.operator_review.withdraw`):
  the thread's requests waiting for an operator (`AWAIT#REVIEWS`, below `MSG#` too), so the user can
  withdraw one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from memo.aws.dynamo import guard, to_item
from memo.conversation.model import MemoryMessage, UserProfile
from memo.packing import unpack

PROFILE_SK = "PROFILE"
PENDING_SK = "PENDING"
ACTIONS_SK = "RECENT_ACTIONS"
# The latest actions of the thread's last turns in RECENT_ACTIONS, one packed list per turn: `r0`
# the newest, each reply shifting the others on by one (`memo.aws.responder_memory`), so the oldest
# falls off without a read. `recent` is the list an earlier release appended to until it merged.
SLOTS = tuple(f"r{i}" for i in range(10))
RECENT_ATTR = "recent"
MESSAGE_PREFIX = "MSG#"
# One reply per turn: "CLAIM#..." sorts before "MSG#", so the thread load never reads claims.
REPLY_CLAIM_PREFIX = "CLAIM#REPLY#"
TURN_CLAIM_PREFIX = "CLAIM#TURN#"
# The items a sent message named, by its WhatsApp message id; "CTX#" also sorts below "MSG#".
QUOTE_PREFIX = "CTX#"
# The thread's requests waiting for an operator; "AWAIT#" sorts below "MSG#" as well.
REVIEW_WAITS_SK = "AWAIT#REVIEWS"
SINGLETONS = 3


def thread_pk(thread_id: str) -> str:
    return f"THREAD#{thread_id}"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def message_items(thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> list[dict[str, Any]]:
    """Each message as one item, each fact stored once: its time (to the microsecond) and its
    WhatsApp message id are in the sort key, `MSG#<epoch µs>#<seq>#<wamid>`, not again in the
    message; a request that started its own plan (`started` = its wamid, the plan's traceId) stores
    `starts: true` instead; the sender's pace holds its time in epoch seconds. `message_of` reads
    these and what earlier releases wrote
    (`MSG#<epoch ms>...` with `at`, `wamid` and `started` in full in the message; the release
    before this one also kept `at` in milliseconds, which its own reader and this one ignore)."""
    items = []
    for seq, message in enumerate(messages):
        at_us = (message.at.astimezone(UTC) - _EPOCH) // _MICROSECOND
        stored: dict[str, Any] = message.model_dump(
            mode="json", exclude_none=True, exclude_defaults=True, exclude={"at", "wamid", "started"}
        )
        if message.started is not None:
            if message.started == message.wamid:
                stored["starts"] = True
            else:
                stored["started"] = message.started
        if message.pace is not None:
            # When the sender's burst is whole again, in epoch seconds (rounded up): a number every
            # release's reader takes for that time.
            stored["pace"]["full_at"] = -(-(message.pace.full_at - _EPOCH) // timedelta(seconds=1))
        item = {
            "pk": thread_pk(thread_id),
            "sk": f"{MESSAGE_PREFIX}{at_us:016d}#{seq}#{message.wamid or ''}",
            "message": stored,
            "ttl": int(message.at.timestamp()) + ttl_seconds,
        }
        items.append(guard(to_item(item), what=MESSAGE_PREFIX.rstrip("#")))
    return items


def message_of(item: Mapping[str, Any]) -> MemoryMessage:
    """A message item as `message_items` writes it (the time to the microsecond from the sort key),
    or as an earlier release did (13-digit milliseconds in the sort key, with `at` as ISO text,
    `wamid` and `started` in full in the message)."""
    stored = dict(item["message"])
    _prefix, stamp, _seq, wamid = str(item["sk"]).split("#", 3)
    if len(stamp) == 16:
        stored["at"] = _EPOCH + int(stamp) * _MICROSECOND
    if "wamid" not in stored and wamid:
        stored["wamid"] = wamid
    if stored.pop("starts", False) is True:
        stored["started"] = stored.get("wamid")
    return MemoryMessage.model_validate(stored)


def profile_item(profile: UserProfile) -> dict[str, Any]:
    item = {
        "pk": thread_pk(profile.thread_id),
        "sk": PROFILE_SK,
        "profile": profile.model_dump(mode="json", exclude_none=True),
    }
    return guard(to_item(item), what=PROFILE_SK)


def latest_actions_of(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The latest actions of a `RECENT_ACTIONS` item: the last turns' (`SLOTS`, one packed list per
    turn, newest first: `memo.aws.responder_memory`; an empty list in a slot no turn filled yet),
    those an earlier release appended (`recent`), then the merged ones (`actions`: packed,
    `memo.packing`, or a list as items written before packing hold them); an operation seen twice
    counts once."""
    found: list[dict[str, Any]] = []
    slots = [item[slot] for slot in SLOTS if slot in item]
    for packed in [*slots, *item.get(RECENT_ATTR, []), item.get("actions", [])]:
        found += json.loads(unpack(packed)) if isinstance(packed, bytes) else list(packed)
    seen: set[str] = set()
    actions: list[dict[str, Any]] = []
    for entry in found:
        operation = entry.get("operationId")
        if isinstance(operation, str):
            if operation in seen:
                continue
            seen.add(operation)
        actions.append(entry)
    return actions
