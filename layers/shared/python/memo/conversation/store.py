"""Conversation memory on DynamoDB: one partition per thread.

Sort keys are chosen so one descending, consistent Query returns every singleton item first, then the
most recent messages: `RECENT_ACTIONS` > `PROFILE` > `PENDING` > `MSG#<epoch ms>#...`.
Messages carry a TTL; DynamoDB deletes late, so reads also drop what has expired.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol

from memo.aws.dynamo import from_item, to_item
from memo.conversation.model import MemoryMessage, ThreadSnapshot, UserProfile

PROFILE_SK = "PROFILE"
PENDING_SK = "PENDING"
ACTIONS_SK = "RECENT_ACTIONS"
MESSAGE_PREFIX = "MSG#"
SINGLETONS = 3
UNPROCESSED_ATTEMPTS = 5


class ConversationWriteError(Exception):
    """DynamoDB kept some writes unprocessed after bounded retries (throttling)."""


def thread_pk(thread_id: str) -> str:
    return f"THREAD#{thread_id}"


class ConversationStore(Protocol):
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot: ...

    def save_profile(self, profile: UserProfile) -> None: ...

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None: ...


class DynamoConversationStore:
    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        response = self._ddb.query(
            TableName=self._table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": thread_pk(thread_id)}},
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
                snapshot.latest_actions = list(item.get("actions", []))
            elif sk.startswith(MESSAGE_PREFIX) and len(messages) < limit:
                messages.append(MemoryMessage.model_validate(item["message"]))
        snapshot.recent = list(reversed(messages))
        return snapshot

    def save_profile(self, profile: UserProfile) -> None:
        self._ddb.put_item(
            TableName=self._table,
            Item=to_item(
                {
                    "pk": thread_pk(profile.thread_id),
                    "sk": PROFILE_SK,
                    "profile": profile.model_dump(mode="json"),
                }
            ),
        )

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None:
        if not messages:
            return
        requests = []
        for seq, message in enumerate(messages):
            at_ms = int(message.at.astimezone(UTC).timestamp() * 1000)
            sk = f"{MESSAGE_PREFIX}{at_ms:013d}#{seq}#{message.wamid or ''}"
            item = {
                "pk": thread_pk(thread_id),
                "sk": sk,
                "message": message.model_dump(mode="json"),
                "ttl": int(message.at.timestamp()) + ttl_seconds,
            }
            requests.append({"PutRequest": {"Item": to_item(item)}})
        for start in range(0, len(requests), 25):
            pending: dict[str, Any] = {self._table: requests[start : start + 25]}
            for _ in range(UNPROCESSED_ATTEMPTS):
                pending = self._ddb.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
                if not pending:
                    break
            else:
                raise ConversationWriteError(f"{len(pending[self._table])} messages left unprocessed")
