"""'Stop reminding me about vitamins' and other deletes of a repeating reminder that say which part
in words: asked for approval like any delete, the approval naming the part (the whole series, or
only the next time), and only that part goes. Through the webhook, the ticker on moto, the fake
clock. (Picking the part from "This one / the whole series?" is itself the approval.)"""

from __future__ import annotations

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import at


def _fired_on(chat: Conversation, clock: FakeClock, day: int, hour: int) -> list[str]:
    assert chat.stack.ticker is not None
    clock.set(at(day, hour, 1))
    chat.stack.ticker.tick()
    return chat.replies()


def test_stop_reminding_me_asks_before_deleting_the_whole_series(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every day at 9am to take vitamins")
    question = chat.say("stop reminding me about vitamins")
    assert question.startswith("Before I go ahead: I'm about to delete 1 reminder:")
    assert "“take vitamins” — every day at 09:00" in question and "— the whole series" in question
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert len(_fired_on(chat, clock, 1, 9)) == 1  # still coming
    chat.say("don't remind me to take vitamins anymore")
    assert chat.say("yes") == "Deleted the reminder “take vitamins”."
    assert _fired_on(chat, clock, 2, 9) == [] and _fired_on(chat, clock, 3, 9) == []


def test_just_this_one_in_words_is_approved_as_only_the_next_time(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every day at 8 to drink water")
    question = chat.say("delete just this one of the water reminder")
    assert "skip “drink water” once" in question and "the whole series" not in question
    assert chat.say("yes").startswith("✅ Skipped “drink water”")
    assert _fired_on(chat, clock, 1, 8) == []  # that one time is skipped
    assert len(_fired_on(chat, clock, 2, 8)) == 1  # the series goes on


def test_hebrew_stop_reminding(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום ב-8 לשתות מים")
    question = chat.say("תפסיק להזכיר לי לשתות מים")
    assert "כל הסדרה" in question
    assert chat.say("כן") == "מחקתי את התזכורת „לשתות מים”."
    assert chat.say("מה התזכורות שלי?") == "אין לך תזכורות קרובות."
