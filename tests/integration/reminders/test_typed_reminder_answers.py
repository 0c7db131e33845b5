"""Answering a delivered reminder by typing instead of tapping: "snooze 15 min", "done", "remind me
again in an hour", "בוצע", "תזכיר לי שוב בעוד חצי שעה". Signed payloads through the webhook, the
ticker on moto, the fake clock: the reminder comes back when the words said, and not before."""

from __future__ import annotations

from datetime import timedelta

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START


def _after(chat: Conversation, clock: FakeClock, minutes: int) -> list[str]:
    """What the person got when `minutes` passed."""
    assert chat.stack.ticker is not None
    clock.advance(minutes=minutes)
    chat.stack.ticker.tick()
    return chat.replies()


def test_snooze_15_min_typed_brings_it_back_in_15_minutes(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to drink water in 10 minutes")
    (delivered,) = _after(chat, clock, 11)
    assert delivered.startswith("⏰ Reminder: drink water")
    assert chat.say("snooze 15 min") == "⏰ I'll remind you about “drink water” again at " + (
        f"{(START + timedelta(minutes=26)):%a %-d %b, %H:%M}."
    )
    assert _after(chat, clock, 10) == []  # not at the buttons' 10 minutes
    (again,) = _after(chat, clock, 6)
    assert again.startswith("⏰ Reminder: drink water")
    assert chat.say("done") == "✅ Marked “drink water” done."
    assert _after(chat, clock, 120) == []


def test_remind_me_again_in_an_hour_and_later_asks_how_much(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to stretch in 5 minutes")
    _after(chat, clock, 6)
    assert chat.say("later") == "How much later? For example “snooze 30 min” or “remind me again in an hour”."
    assert chat.say("remind me again in an hour").startswith("⏰ I'll remind you about “stretch” again at ")
    assert _after(chat, clock, 59) == []
    (again,) = _after(chat, clock, 2)
    assert again.startswith("⏰ Reminder: stretch")


def test_hebrew_typed_snooze_and_done(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי בעוד 5 דקות לשתות מים")
    (delivered,) = _after(chat, clock, 6)
    assert "לשתות מים" in delivered
    assert chat.say("תזכיר לי שוב בעוד חצי שעה").startswith("⏰")
    assert _after(chat, clock, 29) == []
    assert len(_after(chat, clock, 2)) == 1
    assert chat.say("בוצע") == "✅ סימנתי את „לשתות מים” כבוצע."


def test_done_long_after_the_reminder_is_not_taken_as_its_button(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to water the plants in 5 minutes")
    _after(chat, clock, 6)
    clock.advance(hours=3)
    # Hours later "done" is no answer to that reminder: nothing is marked, it is read as any message.
    assert not chat.say("done").startswith("✅")
