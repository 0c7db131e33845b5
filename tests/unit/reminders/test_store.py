"""What the reminders Lambda reads of a thread: its language and WhatsApp's 24-hour window."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.conversation.model import MemoryMessage, ThreadSnapshot, UserProfile
from memo.reminders.store import RECENT_MESSAGES, WINDOW, ReminderConversation, ThreadWindow
from tests.support.clock import TEST_NOW

THREAD = "972501234567"


@dataclass
class FakeStore:
    """The two calls of the `ConversationStore` port this class makes."""

    snapshot: ThreadSnapshot
    loads: list[tuple[str, datetime, int]] = field(default_factory=list)
    appended: list[tuple[str, list[MemoryMessage], int]] = field(default_factory=list)

    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        self.loads.append((thread_id, now, limit))
        return self.snapshot

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None:
        self.appended.append((thread_id, messages, ttl_seconds))


def _message(role: Literal["user", "assistant"], at: datetime) -> MemoryMessage:
    return MemoryMessage(role=role, text="hi", at=at)


def _conversation(store: FakeStore) -> ReminderConversation:
    return ReminderConversation(store, message_ttl_seconds=3600)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("since", "open_"),
    [
        (timedelta(0), True),
        (timedelta(hours=23, minutes=59, seconds=59), True),
        (timedelta(hours=24), False),  # the window closes at the 24th hour
        (timedelta(hours=25), False),
        (timedelta(days=30), False),
    ],
)
def test_the_window_is_open_for_24_hours_after_the_users_last_message(since: timedelta, open_: bool) -> None:
    window = ThreadWindow(language="en", last_user_message_at=TEST_NOW - since)
    assert window.is_open(TEST_NOW) is open_


@given(st.timedeltas(min_value=timedelta(0), max_value=timedelta(hours=48)))
def test_the_window_rule_holds_at_every_moment(since: timedelta) -> None:
    window = ThreadWindow(language="en", last_user_message_at=TEST_NOW - since)
    assert window.is_open(TEST_NOW) is (since < WINDOW)


def test_a_user_who_never_wrote_has_no_open_window() -> None:
    assert not ThreadWindow(language="he", last_user_message_at=None).is_open(TEST_NOW)


def test_the_window_counts_from_the_users_latest_message_not_memos() -> None:
    recent = [
        _message("user", TEST_NOW - timedelta(hours=30)),
        _message("user", TEST_NOW - timedelta(hours=26)),
        _message("assistant", TEST_NOW - timedelta(hours=1)),  # Memo writing does not open it
    ]
    profile = UserProfile(thread_id=THREAD, language="he", created_at=TEST_NOW - timedelta(days=9))
    store = FakeStore(ThreadSnapshot(thread_id=THREAD, profile=profile, recent=recent))
    window = _conversation(store).window(THREAD, now=TEST_NOW)
    assert window == ThreadWindow(language="he", last_user_message_at=TEST_NOW - timedelta(hours=26))
    assert not window.is_open(TEST_NOW)
    assert store.loads == [(THREAD, TEST_NOW, RECENT_MESSAGES)]


def test_a_thread_without_a_profile_is_english_and_a_naive_time_is_utc() -> None:
    naive = (TEST_NOW - timedelta(hours=2)).replace(tzinfo=None)
    store = FakeStore(ThreadSnapshot(thread_id=THREAD, recent=[_message("user", naive)]))
    window = _conversation(store).window(THREAD, now=TEST_NOW)
    assert window.language == "en"
    assert window.last_user_message_at == TEST_NOW - timedelta(hours=2)
    assert window.is_open(TEST_NOW)


def test_a_delivered_reminder_is_remembered_with_the_messages_ttl() -> None:
    store = FakeStore(ThreadSnapshot(thread_id=THREAD))
    message = MemoryMessage(
        role="assistant", text="⏰ call mom", at=TEST_NOW, kind="reminder", reminder_id="r1"
    )
    _conversation(store).record(THREAD, message)
    assert store.appended == [(THREAD, [message], 3600)]
