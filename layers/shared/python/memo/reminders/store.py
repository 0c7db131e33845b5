"""What the reminders Lambda reads: one stored reminder occurrence, and the thread's 24-hour window.

The reminder item's claim / complete / release are done by `memo.aws.items_table.DynamoReminderItems`;
`ReminderConversation` reads and writes the thread through the `ConversationStore` port.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memo.capabilities.items import Reminder
from memo.conversation.model import MemoryMessage
from memo.conversation.store import ConversationStore
from memo.text.language import Language

WINDOW = timedelta(hours=24)
RECENT_MESSAGES = 50


@dataclass(frozen=True)
class StoredReminder:
    reminder: Reminder
    due_key: str  # `due_at` exactly as stored: what a claim is made for
    claimed_for: str | None  # `delivery_due_at` of an existing claim


@dataclass(frozen=True)
class ThreadWindow:
    language: Language
    last_user_message_at: datetime | None

    def is_open(self, now: datetime) -> bool:
        """WhatsApp's customer-service window: 24 hours from the user's last message."""
        return self.last_user_message_at is not None and now - self.last_user_message_at < WINDOW


class ReminderConversation:
    """The thread as the reminders Lambda needs it: its language and window, and its memory."""

    def __init__(self, store: ConversationStore, *, message_ttl_seconds: int) -> None:
        self._store = store
        self._ttl = message_ttl_seconds

    def window(self, thread_id: str, *, now: datetime) -> ThreadWindow:
        snapshot = self._store.load(thread_id, now=now, limit=RECENT_MESSAGES)
        language: Language = snapshot.profile.language if snapshot.profile else "en"
        user_times = [
            m.at if m.at.tzinfo is not None else m.at.replace(tzinfo=UTC)
            for m in snapshot.recent
            if m.role == "user"
        ]
        last = max(user_times, default=None)
        return ThreadWindow(language=language, last_user_message_at=last)

    def record(self, thread_id: str, message: MemoryMessage) -> None:
        self._store.append(thread_id, [message], ttl_seconds=self._ttl)
