"""A daily reminder set after its hour had passed (so from tomorrow), then the person flies west: in
the new zone today has not reached its hour yet, and it comes today at that hour there. It was
tomorrow's first (a missed dose). Signed payloads through the webhook, the ticker on moto, the fake
clock (a Monday at 10:00 in Jerusalem, 03:00 in New York)."""

from __future__ import annotations

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown


def test_a_series_not_begun_comes_today_where_the_user_is(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to take pills every day at 9am")  # from tomorrow: 09:00 has passed here
    chat.say("I'm in New York this week")
    # Its time there reads as 09:00 on the Monday (the same words as 09:00 in Jerusalem would).
    today = shown(0, 9)
    assert chat.say("what do I have today?") == (
        f"Your reminders on {today.split(',')[0]}:\n• “take pills” — every day at 09:00 ({today})"
    )
    # 09:01 in New York is 16:01 in Jerusalem.
    assert any("take pills" in sent for sent in fired(chat, clock, 0, 16, 1))


def test_a_series_set_to_start_later_keeps_its_first_day(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to stretch every day at 9am starting thursday")
    chat.say("I'm in New York this week")
    assert fired(chat, clock, 0, 16, 1) == []
    assert "stretch" not in chat.say("what do I have today?")


def test_a_series_already_begun_is_not_moved_earlier(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to drink water every day at 11am")  # today at 11:00 here: begun today
    chat.say("I'm in New York this week")
    listed = chat.say("show my reminders")
    assert "every day at 11:00 (next: " in listed
    assert any("drink water" in sent for sent in fired(chat, clock, 0, 18, 1))  # 11:01 in New York
