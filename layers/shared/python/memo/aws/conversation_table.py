"""The conversation table (`memo.tables.CONVERSATION`): the only module that knows its keys.

One partition per thread, `pk = THREAD#<thread id>`. Sort keys are chosen so one descending,
consistent Query returns every singleton item first, then the most recent messages:
`RECENT_ACTIONS` > `PROFILE` > `PENDING` > `MSG#<epoch µs>#<seq>#<wamid>` (earlier releases wrote
`MSG#<epoch ms>#...`: both sort by time, and both are read); the reply claims
(`CLAIM#REPLY#<trace id>`) and the items each sent message named (`CTX#<message id>`, for replies
that quote it: `memo.reply.quotes`) sort below `MSG#` and are never read by that query. Messages carry a TTL;
DynamoDB deletes late, so reads also drop what has expired.

- `DynamoConversationStore`: the `ConversationStore` port (thread snapshot, profile, messages);
- `DynamoPendingStore`: the `PendingStore` port: the one `PENDING` item of a thread (`pendingHITL`
  and the turn's packed frozen state, TTL = `expiresAt`), created and consumed by conditional writes;
- `DynamoResponderMemory`: the reply Lambda's `ResponderMemory` (reply claim, reply, latestActions,
  the items its reply named);
- `DynamoQuotes`: the `QuoteStore` port (`memo.reply.quotes`): the items a sent message named;
- `DynamoReviewWaits`: the `ReviewWaits` port (`memo.operator_review.withdraw`): the thread's requests
  waiting for an operator (`AWAIT#REVIEWS`, below `MSG#` too), so the user can withdraw one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.condition_values import lost_writes
from memo.aws.dynamo import batch_write, conditional_write, from_item, to_item
from memo.aws.faults import call, cancellation_reasons, fault
from memo.conversation.model import MemoryMessage, ThreadSnapshot, TurnRecorded, UserProfile
from memo.conversation.pending import (
    PendingChange,
    PendingExists,
    PendingGone,
    state_for_item,
    state_from_item,
)
from memo.domain import LatestAction, PendingHITL, TurnState
from memo.errors import ConditionFailed
from memo.observability import logger
from memo.operator_review.waits import ReviewWait
from memo.packing import pack, unpack
from memo.reply.memory import (
    LATEST_ACTIONS_SCOPE,
    REPLY_CLAIM_TTL,
    LatestActionsConflict,
    entry_created_at,
    merge_latest_actions,
)
from memo.reply.quotes import parse_quoted

PROFILE_SK = "PROFILE"
PENDING_SK = "PENDING"
ACTIONS_SK = "RECENT_ACTIONS"
MESSAGE_PREFIX = "MSG#"
# One reply per turn: "CLAIM#..." sorts before "MSG#", so the thread load never reads claims.
REPLY_CLAIM_PREFIX = "CLAIM#REPLY#"
TURN_CLAIM_PREFIX = "CLAIM#TURN#"
# The items a sent message named, by its WhatsApp message id; "CTX#" also sorts below "MSG#".
QUOTE_PREFIX = "CTX#"
# The thread's requests waiting for an operator; "AWAIT#" sorts below "MSG#" as well.
REVIEW_WAITS_SK = "AWAIT#REVIEWS"
SINGLETONS = 3
# Versioned writes of RECENT_ACTIONS lost to other writers before giving up.
ACTIONS_WRITE_ATTEMPTS = 5
CONDITION_CHECK_FAILED_REASON = "ConditionalCheckFailed"


class TurnRecords(Protocol):
    """The turn's idempotency record when the turn holds it (`memo.aws.idempotency.TurnIdempotency`)."""

    def completion_for(self, result: Mapping[str, Any]) -> dict[str, Any] | None: ...

    def completed_in_transaction(self) -> None: ...

    def check(self) -> None: ...


def thread_pk(thread_id: str) -> str:
    return f"THREAD#{thread_id}"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _message_items(
    thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int
) -> list[dict[str, Any]]:
    """Each message as one item, each fact stored once: its time (to the microsecond) and its
    WhatsApp message id are in the sort key, `MSG#<epoch µs>#<seq>#<wamid>`, not again in the
    message; a request that started its own plan (`started` = its wamid, the plan's traceId) stores
    `starts: true` instead. `_message_of` reads these and what earlier releases wrote
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
        item = {
            "pk": thread_pk(thread_id),
            "sk": f"{MESSAGE_PREFIX}{at_us:016d}#{seq}#{message.wamid or ''}",
            "message": stored,
            "ttl": int(message.at.timestamp()) + ttl_seconds,
        }
        items.append(to_item(item))
    return items


def _message_of(item: Mapping[str, Any]) -> MemoryMessage:
    """A message item as `_message_items` writes it (the time to the microsecond from the sort key),
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


class DynamoConversationStore:
    def __init__(
        self,
        dynamodb: Any,
        table_name: str,
        *,
        sleep: Callable[[float], None] = time.sleep,
        records: TurnRecords | None = None,
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._sleep = sleep  # backoff between retries of unprocessed batch writes
        self._records = records  # the turn's idempotency record, completed by `record_turn`

    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        response = call(
            self._ddb.query,
            TableName=self._table,
            # From the singletons down to the messages: claims, quotes and waits sort below `MSG#`
            # and are never read, however young (short) the thread is.
            KeyConditionExpression="pk = :pk AND sk >= :messages",
            ExpressionAttributeValues={
                ":pk": {"S": thread_pk(thread_id)},
                ":messages": {"S": MESSAGE_PREFIX},
            },
            # Only what is read below: not the partition key every item repeats, nor the pending
            # question's id and the actions' version (their writes condition on them, unread).
            ProjectionExpression="sk, #ttl, message, profile, actions, #state",
            ExpressionAttributeNames={"#ttl": "ttl", "#state": "state"},
            ScanIndexForward=False,
            ConsistentRead=True,
            Limit=limit + SINGLETONS,
        )
        snapshot = ThreadSnapshot(thread_id=thread_id)
        epoch = int(now.timestamp())
        messages: list[MemoryMessage] = []
        for raw in response.get("Items", []):
            item = from_item(raw)
            sk = item["sk"]
            # An expired PENDING item is kept: the turn logs HITL_EXPIRED and deletes it itself.
            if sk != PENDING_SK and item.get("ttl") is not None and int(item["ttl"]) <= epoch:
                continue  # expired, not yet deleted by DynamoDB's TTL sweeper
            if sk == PROFILE_SK:
                snapshot.profile = UserProfile.model_validate(item["profile"])
            elif sk == PENDING_SK:
                snapshot.pending = item
            elif sk == ACTIONS_SK:
                snapshot.latest_actions = latest_actions_of(item)
            elif sk.startswith(MESSAGE_PREFIX) and len(messages) < limit:
                messages.append(_message_of(item))
        snapshot.recent = list(reversed(messages))
        return snapshot

    def save_profile(self, profile: UserProfile) -> None:
        call(self._ddb.put_item, TableName=self._table, Item=_profile_item(profile))

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None:
        if not messages:
            return
        requests = [
            {"PutRequest": {"Item": item}}
            for item in _message_items(thread_id, messages, ttl_seconds=ttl_seconds)
        ]
        batch_write(self._ddb, self._table, requests, sleep=self._sleep)

    def record_turn(
        self,
        thread_id: str,
        wamid: str,
        messages: list[MemoryMessage],
        *,
        ttl_seconds: int,
        result: Mapping[str, Any],
        pending: PendingChange | None = None,
        profile: UserProfile | None = None,
    ) -> TurnRecorded:
        """The turn's one write, a transaction: the claim of its reply, its messages, the change of
        its pending question and its updated profile.

        The claim is the message's Powertools idempotency record, written COMPLETED, when this run
        holds its claim (`memo.aws.idempotency`): a rerun of the same message finds it taken and
        writes nothing (`AlreadyTurned` is raised, with what the first run stored). Else the claim is
        a `CLAIM#TURN#<wamid>` item kept as long as the memory (it sorts below the messages: the
        thread's load never reads it), and a rerun gets "already_recorded". A lost pending condition
        writes nothing either ("pending_conflict")."""
        writes: list[dict[str, Any]] = []
        if pending is not None:
            writes.append(_pending_write(self._table, pending))
        if profile is not None:
            writes.append({"Put": {"TableName": self._table, "Item": _profile_item(profile)}})
        writes += [
            {"Put": {"TableName": self._table, "Item": item}}
            for item in _message_items(thread_id, messages, ttl_seconds=ttl_seconds)
        ]
        for takeover in (False, True):
            completion = self._records.completion_for(result) if self._records is not None else None
            try:
                self._ddb.transact_write_items(
                    TransactItems=[
                        completion or self._turn_claim(thread_id, wamid, messages, ttl_seconds),
                        *writes,
                    ]
                )
            except ClientError as exc:
                reasons = cancellation_reasons(exc)
                if CONDITION_CHECK_FAILED_REASON not in reasons:
                    raise fault(exc) from exc
                if reasons[0] == CONDITION_CHECK_FAILED_REASON:
                    if completion is None or self._records is None:
                        return "already_recorded"
                    # The message's record stood in the way: turned already (raises), or dead and
                    # taken over by the same write again.
                    self._records.check()
                    if takeover:
                        raise ConditionFailed("the message's dead record was taken by another run") from exc
                    continue
                return "pending_conflict"
            except BotoCoreError as exc:
                raise fault(exc) from exc
            self._completed()
            return "recorded"
        raise AssertionError("unreachable: the second refusal raises")

    def _turn_claim(
        self, thread_id: str, wamid: str, messages: list[MemoryMessage], ttl_seconds: int
    ) -> dict[str, Any]:
        """The claim of a turn run outside Powertools' idempotency: a `CLAIM#TURN#<wamid>` item."""
        item = {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": f"{TURN_CLAIM_PREFIX}{wamid}"}}
        if messages:
            item["ttl"] = {"N": str(int(messages[0].at.timestamp()) + ttl_seconds)}
        return {
            "Put": {"TableName": self._table, "Item": item, "ConditionExpression": "attribute_not_exists(pk)"}
        }

    def _completed(self) -> None:
        if self._records is not None:
            self._records.completed_in_transaction()


def _profile_item(profile: UserProfile) -> dict[str, Any]:
    return to_item(
        {
            "pk": thread_pk(profile.thread_id),
            "sk": PROFILE_SK,
            "profile": profile.model_dump(mode="json", exclude_none=True),
        }
    )


def _pending_item(state: TurnState) -> dict[str, Any]:
    """The `PENDING` item: the question's id and expiry (TTL) and the turn's frozen state."""
    pending = _pending_of(state)
    return to_item(
        {
            "pk": thread_pk(state.thread_id),
            "sk": PENDING_SK,
            "hitlId": pending.hitl_id,
            "ttl": int(
                pending.expires_at.timestamp()
            ),  # DynamoDB deletes late: readers check the state's expiresAt
            "state": state_for_item(state),
        }
    )


def _pending_write(table: str, change: PendingChange) -> dict[str, Any]:
    """A pending change as one TransactWriteItems entry, with the conditions `DynamoPendingStore`
    writes it under on its own."""
    expected = {":id": {"S": change.expected_hitl_id or ""}}
    if change.kind == "create":
        # The turn read the thread's pending item consistently: none (nothing may be there now), or
        # the expired question it discarded (still there, or swept since). Any other question is
        # live, and a conflict.
        assert change.state is not None
        put: dict[str, Any] = {
            "TableName": table,
            "Item": _pending_item(change.state),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        if change.expected_hitl_id is not None:
            put["ConditionExpression"] = "attribute_not_exists(pk) OR hitlId = :id"
            put["ExpressionAttributeValues"] = expected
        return {"Put": put}
    if change.kind == "replace":
        assert change.state is not None
        return {
            "Put": {
                "TableName": table,
                "Item": _pending_item(change.state),
                "ConditionExpression": "hitlId = :id",
                "ExpressionAttributeValues": expected,
            }
        }
    return {
        "Delete": {
            "TableName": table,
            "Key": to_item({"pk": thread_pk(change.thread_id), "sk": PENDING_SK}),
            "ConditionExpression": "hitlId = :id"
            if change.kind == "consume"
            else "attribute_not_exists(pk) OR hitlId = :id",
            "ExpressionAttributeValues": expected,
        }
    }


class DynamoPendingStore:
    """Whoever loses a race gets a domain error (`PendingExists` / `PendingGone`) and must neither ask
    a second question nor apply a second answer."""

    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def create(self, state: TurnState, *, now: datetime) -> None:
        """Persist a new pending question; an expired leftover may be overwritten, a live one not."""
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=_pending_item(state),
                ConditionExpression="attribute_not_exists(pk) OR #ttl <= :now",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues={":now": {"N": str(int(now.timestamp()))}},
            )
        except ConditionFailed as exc:
            raise PendingExists("a live pending question already exists") from exc

    def replace(self, state: TurnState, *, expected_hitl_id: str) -> None:
        """Rewrite the pending question in place (a re-ask keeps the same hitlId)."""
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=_pending_item(state),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": expected_hitl_id}},
            )
        except ConditionFailed as exc:
            raise PendingGone(f"pending {expected_hitl_id} is no longer there") from exc

    def consume(self, thread_id: str, hitl_id: str) -> None:
        """Take the pending question for answering: exactly one caller succeeds."""
        try:
            conditional_write(
                self._ddb.delete_item,
                TableName=self._table,
                Key=to_item({"pk": thread_pk(thread_id), "sk": PENDING_SK}),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": hitl_id}},
            )
        except ConditionFailed as exc:
            raise PendingGone(f"pending {hitl_id} was already consumed") from exc

    def current(self, thread_id: str) -> TurnState | None:
        """The stored pending turn of the thread (consistent read), expired or not."""
        item = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": thread_pk(thread_id), "sk": PENDING_SK}),
            ConsistentRead=True,
        ).get("Item")
        return state_from_item(from_item(item)) if item is not None else None


def _pending_of(state: TurnState) -> PendingHITL:
    if state.pending_hitl is None:
        raise ValueError("the turn state has no pendingHITL to persist")
    return state.pending_hitl


class DynamoResponderMemory:
    """latestActions are written read-merge-put with a version condition (`attribute_not_exists(pk)`
    for the first write): the loser of a race re-reads and merges again, so no action is lost.
    The responder's writes are three requests: the read of RECENT_ACTIONS, one transaction of the
    reply claim with the merged latestActions (before the send), and one BatchWriteItem after it
    (the reply in the recent messages and its `CTX#` quote records)."""

    def __init__(
        self,
        dynamodb: Any,
        table_name: str,
        *,
        message_ttl_seconds: int,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._ddb = dynamodb
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
        """The reply's claim; with `actions`, one transaction that also merges them into the
        thread's latestActions (one read of RECENT_ACTIONS before it, for the merge). A claim that
        exists means its actions were recorded with it, so a lost claim writes nothing. A lost
        version (another responder wrote first) reads and merges again."""
        if not actions:
            try:
                conditional_write(self._ddb.put_item, **self._claim_put(thread_id, trace_id, now))
            except ConditionFailed:
                return False
            return True
        for _ in range(ACTIONS_WRITE_ATTEMPTS):
            put, _merged, version = self._actions_put(thread_id, actions, now=now)
            try:
                conditional_write(
                    self._ddb.transact_write_items,
                    TransactItems=[{"Put": self._claim_put(thread_id, trace_id, now)}, {"Put": put}],
                )
            except ConditionFailed as exc:
                if 0 in lost_writes(exc):
                    return False  # already answered: its actions went in with its claim
                logger.info("LATEST_ACTIONS_RETRY", extra={"version": version})
                continue
            return True
        raise LatestActionsConflict(f"RECENT_ACTIONS kept changing after {ACTIONS_WRITE_ATTEMPTS} attempts")

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
        requests: list[dict[str, Any]] = []
        if text is not None:
            message = MemoryMessage(role="assistant", text=text, at=now, kind="message", finished=trace_id)
            items = _message_items(thread_id, [message], ttl_seconds=self._ttl)
            requests += [{"PutRequest": {"Item": item}} for item in items]
        if actions:
            requests += _quote_requests(thread_id, message_ids, actions, now=now)
        if requests:
            batch_write(self._ddb, self._table, requests, sleep=self._sleep)

    def _actions_put(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        """Read RECENT_ACTIONS and build the versioned put of it merged with `actions`:
        (the Put, the merged list, the version read)."""
        key = {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": ACTIONS_SK}}
        raw = call(self._ddb.get_item, TableName=self._table, Key=key, ConsistentRead=True).get("Item")
        item = from_item(raw) if raw else None
        merged = merge_latest_actions(latest_actions_of(item) if item else [], actions, now=now)
        version = int(item.get("version", 0)) if item else 0
        condition: dict[str, Any]
        if item is None:
            condition = {"ConditionExpression": "attribute_not_exists(pk)"}
        elif "version" not in item:
            condition = {"ConditionExpression": "attribute_not_exists(version)"}
        else:
            condition = {
                "ConditionExpression": "version = :v",
                "ExpressionAttributeValues": {":v": {"N": str(version)}},
            }
        newest = max((c for c in map(entry_created_at, merged) if c is not None), default=now)
        stored = {
            "pk": thread_pk(thread_id),
            "sk": ACTIONS_SK,
            "actions": pack(json.dumps(merged, separators=(",", ":"), ensure_ascii=False)),
            "version": version + 1,
            # Gone once its newest entry leaves the 12-hour scope (readers drop expired items).
            "ttl": int((newest + LATEST_ACTIONS_SCOPE).timestamp()),
        }
        return {"TableName": self._table, "Item": to_item(stored), **condition}, merged, version

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


def latest_actions_of(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The latest actions of a `RECENT_ACTIONS` item: packed (`memo.packing`: every turn reads
    them), or a list as items written before packing hold them."""
    actions = item.get("actions", [])
    if isinstance(actions, bytes):
        unpacked: list[dict[str, Any]] = json.loads(unpack(actions))
        return unpacked
    return list(actions)


def _quote_requests(
    thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
) -> list[dict[str, Any]]:
    """One `CTX#<message id>` put per sent message that named items (12 hours, like latest actions)."""
    ttl = int((now + LATEST_ACTIONS_SCOPE).timestamp())
    return [
        {
            "PutRequest": {
                "Item": to_item(
                    {
                        "pk": thread_pk(thread_id),
                        "sk": f"{QUOTE_PREFIX}{message_id}",
                        "actions": list(actions),
                        "ttl": ttl,
                    }
                )
            }
        }
        for message_id in dict.fromkeys(message_ids)
    ]


class DynamoQuotes:
    """`QuoteStore`: one `CTX#<message id>` item per sent message that named items, kept as long as
    latest actions (12 hours, TTL; reads drop expired items themselves)."""

    def __init__(
        self, dynamodb: Any, table_name: str, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._sleep = sleep

    def remember(
        self, thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> None:
        requests = _quote_requests(thread_id, message_ids, actions, now=now)
        if requests:
            batch_write(self._ddb, self._table, requests, sleep=self._sleep)

    def recall(self, thread_id: str, message_id: str, *, now: datetime) -> list[LatestAction]:
        raw = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": thread_pk(thread_id), "sk": f"{QUOTE_PREFIX}{message_id}"}),
        ).get("Item")
        if raw is None:
            return []
        item = from_item(raw)
        if int(item.get("ttl", 0)) <= int(now.timestamp()):
            return []
        return parse_quoted(item.get("actions", []))


class DynamoReviewWaits:
    """`ReviewWaits`: one item per thread holding its waits (a list, appended to; entries past their
    end are dropped on read, and the item's TTL is the latest end)."""

    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _key(self, thread_id: str) -> dict[str, Any]:
        return to_item({"pk": thread_pk(thread_id), "sk": REVIEW_WAITS_SK})

    def remember(self, thread_id: str, wait: ReviewWait) -> None:
        entry = {"traceId": wait.trace_id, "stepIds": list(wait.step_ids), "until": wait.until.isoformat()}
        call(
            self._ddb.update_item,
            TableName=self._table,
            Key=self._key(thread_id),
            UpdateExpression="SET waits = list_append(if_not_exists(waits, :none), :new), #ttl = :ttl",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues=to_item(
                {":none": [], ":new": [entry], ":ttl": int(wait.until.timestamp())}
            ),
        )

    def _load(self, thread_id: str) -> list[dict[str, Any]]:
        raw = call(
            self._ddb.get_item, TableName=self._table, Key=self._key(thread_id), ConsistentRead=True
        ).get("Item")
        return list(from_item(raw).get("waits", [])) if raw else []

    def live(self, thread_id: str, *, now: datetime) -> list[ReviewWait]:
        waits: list[ReviewWait] = []
        for entry in self._load(thread_id):
            try:
                until = datetime.fromisoformat(str(entry["until"]))
                wait = ReviewWait(
                    trace_id=str(entry["traceId"]),
                    step_ids=tuple(str(i) for i in entry["stepIds"]),
                    until=until,
                )
            except (KeyError, TypeError, ValueError):
                continue
            if until > now:
                waits.append(wait)
        return list(reversed(waits))

    def forget(self, thread_id: str, trace_id: str) -> None:
        kept = [entry for entry in self._load(thread_id) if entry.get("traceId") != trace_id]
        if kept:
            call(
                self._ddb.update_item,
                TableName=self._table,
                Key=self._key(thread_id),
                UpdateExpression="SET waits = :kept",
                ExpressionAttributeValues=to_item({":kept": kept}),
            )
        else:
            call(self._ddb.delete_item, TableName=self._table, Key=self._key(thread_id))
