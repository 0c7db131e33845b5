"""The `ConversationStore` port on the conversation table: a thread's snapshot (one consistent
Query), its profile and its messages (keys and item formats: `memo.aws.conversation_table`); the
turn's one write is `memo.aws.conversation_turn.TurnTransaction`."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.conversation_table import (
    ACTIONS_SK,
    MESSAGE_PREFIX,
    PENDING_SK,
    PROFILE_SK,
    SINGLETONS,
    SLOTS,
    latest_actions_of,
    message_items,
    message_of,
    profile_item,
    thread_pk,
)
from memo.aws.conversation_turn import TurnRecords, TurnTransaction
from memo.aws.dynamo import batch_write, from_item
from memo.aws.faults import call
from memo.conversation.model import MemoryMessage, ThreadSnapshot, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _snapshot(thread_id: str, items: list[dict[str, Any]], *, now: datetime, limit: int) -> ThreadSnapshot:
    """The thread as the load's items hold it, newest first: its singletons, then up to `limit`
    messages (returned oldest first)."""
    snapshot = ThreadSnapshot(thread_id=thread_id)
    epoch = int(now.timestamp())
    messages: list[MemoryMessage] = []
    for raw in items:
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
            messages.append(message_of(item))
    snapshot.recent = list(reversed(messages))
    return snapshot


class DynamoConversationStore:
    def __init__(
        self,
        dynamodb: DynamoDBClient,
        table_name: str,
        *,
        sleep: Callable[[float], None] = time.sleep,
        records: TurnRecords | None = None,
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._sleep = sleep  # backoff between retries of unprocessed batch writes
        # The turn's one write, completing the turn's idempotency record (`records`) when it holds one.
        self._turns = TurnTransaction(dynamodb, table_name, records)

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
            ProjectionExpression="sk, #ttl, message, profile, actions, recent, #state, " + ", ".join(SLOTS),
            ExpressionAttributeNames={"#ttl": "ttl", "#state": "state"},
            ScanIndexForward=False,
            ConsistentRead=True,
            Limit=limit + SINGLETONS,
        )
        return _snapshot(thread_id, list(response.get("Items", [])), now=now, limit=limit)

    def save_profile(self, profile: UserProfile) -> None:
        call(self._ddb.put_item, TableName=self._table, Item=profile_item(profile))

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None:
        if not messages:
            return
        requests = [
            {"PutRequest": {"Item": item}}
            for item in message_items(thread_id, messages, ttl_seconds=ttl_seconds)
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
        its pending question and its updated profile (`memo.aws.conversation_turn`)."""
        return self._turns.record(
            thread_id,
            wamid,
            messages,
            ttl_seconds=ttl_seconds,
            result=result,
            pending=pending,
            profile=profile,
        )
