"""The conversation memory port: what the turn reads and writes about its thread.

Its DynamoDB adapter is `memo.aws.conversation_table.DynamoConversationStore`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from memo.conversation.model import MemoryMessage, ThreadSnapshot, UserProfile


class ConversationStore(Protocol):
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        """The thread's profile, pending item, latestActions and last `limit` messages (oldest
        first), without what has expired (an expired pending item is kept: the turn handles it)."""

    def save_profile(self, profile: UserProfile) -> None: ...

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None: ...

    def record_turn(
        self, thread_id: str, wamid: str, messages: list[MemoryMessage], *, ttl_seconds: int
    ) -> bool:
        """Remember one inbound message's turn and claim its reply, in one write: False (nothing
        written) when a turn of this message was already recorded, so its reply is not sent twice."""
        ...
