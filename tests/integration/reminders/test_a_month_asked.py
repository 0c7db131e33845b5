"""Asking about a month the way people ask: "what do I have in january?", "which reminders are in
march?", "מה יש לי בינואר?", through the webhook on the fake clock. The answer lists that month's
reminders only (it listed every reminder, or was not understood), and an empty month says so."""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from datetime import date

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.text.dates import format_when
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START

HE_MONTHS = ["ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
             "נובמבר", "דצמבר"]  # fmt: skip


def _month(after: int) -> date:
    """The first day of the month `after` months from the clock's."""
    index = START.month - 1 + after
    return date(START.year + index // 12, index % 12 + 1, 1)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def _set_on_the_5th(chat: Conversation, title: str, month: date) -> str:
    name = calendar.month_name[month.month].lower()
    reply = chat.say(f"remind me to {title} on {name} 5 at 10am")
    assert reply.startswith("⏰ Reminder set"), reply
    return format_when(f"{month.replace(day=5).isoformat()}T10:00:00+02:00", "en", "Asia/Jerusalem")[:10]


def test_a_month_lists_its_reminders_only_in_english_and_hebrew(chat: Conversation) -> None:
    first, second = _month(1), _month(2)
    _set_on_the_5th(chat, "renew the passport", first)
    _set_on_the_5th(chat, "call the bank", second)
    chat.say("remind me to water the plants tomorrow at 9am")

    asked = chat.say(f"what do I have in {calendar.month_name[first.month].lower()}?")
    assert asked.startswith(f"Your reminders in {calendar.month_name[first.month]}:\n"), asked
    assert "renew the passport" in asked and "call the bank" not in asked and "water" not in asked

    listed = chat.say(f"which reminders are in {calendar.month_name[second.month]}")
    assert listed.startswith(f"Your reminders in {calendar.month_name[second.month]}:\n"), listed
    assert "call the bank" in listed and "renew the passport" not in listed

    hebrew = chat.say(f"מה יש לי ב{HE_MONTHS[second.month - 1]}?")
    assert hebrew.startswith(f"התזכורות שלך ב{HE_MONTHS[second.month - 1]}:\n"), hebrew
    assert "call the bank" in hebrew and "renew the passport" not in hebrew


def test_an_empty_month_says_which_month_is_empty(chat: Conversation) -> None:
    _set_on_the_5th(chat, "renew the passport", _month(1))
    empty = _month(3)
    name = calendar.month_name[empty.month]
    assert chat.say(f"anything for {name.lower()}?") == f"You have no reminders in {name}."
    assert (
        chat.say(f"מה יש לי ב{HE_MONTHS[empty.month - 1]}")
        == f"אין לך תזכורות ב{HE_MONTHS[empty.month - 1]}."
    )


def test_this_month_is_from_today_and_next_month_is_the_whole_month(chat: Conversation) -> None:
    _set_on_the_5th(chat, "renew the passport", _month(1))
    chat.say("remind me to water the plants tomorrow at 9am")
    this = chat.say("what do I have this month?")
    assert "water the plants" in this and "renew the passport" not in this
    following = chat.say("reminders for next month")
    assert following.startswith(f"Your reminders in {calendar.month_name[_month(1).month]}:\n"), following
    assert "renew the passport" in following and "water the plants" not in following
