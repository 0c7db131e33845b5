"""The conversation memory port: what the turn reads and writes about its thread.

Its DynamoDB adapter is `memo.aws.conversation_table.DynamoConversationStore`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from memo.conversation.model import MemoryMessage, ThreadSnapshot, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange


class ConversationStore(Protocol):
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        """The thread's profile, pending item, latestActions and last `limit` messages (oldest
        first), without what has expired (an expired pending item is kept: the turn handles it)."""

    def save_profile(self, profile: UserProfile) -> None: ...

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None: ...

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
        """Remember one inbound message's turn, claim its reply, apply its pending question's
        change and save its updated profile, in one write. "already_recorded" (nothing written):
        a turn of this message was recorded before, so its reply is not sent twice;
        "pending_conflict" (nothing written): the pending question changed under the turn."""
        ...
