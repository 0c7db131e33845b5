"""A series moved to other days by the words people use: "change it to saturdays", "move the plants
to mondays", "switch it to mondays", "תעביר את התזכורת של הצמחים לימי שני", "תשנה את זה לימי שני";
it keeps its time of day, and a day in the plural is no title. Also "remind me mondays at 9 to ..."
without "on". Signed payloads through the webhook, the ticker on moto, the fake clock (a Monday at
10:00, Jerusalem)."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown

PLANTS = "remind me to water plants every sunday at 9"


@pytest.mark.parametrize(
    ("said", "day", "name"),
    [
        ("change it to saturdays", 5, "Saturday"),  # it was "I'm not sure I understood"
        ("move it to saturdays", 5, "Saturday"),
        ("switch it to mondays", 7, "Monday"),
        ("move the plants to mondays", 7, "Monday"),  # it was "What should I change in the reminder?"
        ("change the plants reminder to every monday", 7, "Monday"),  # it was "What time do you mean?"
    ],
)
def test_a_series_moved_to_other_days_keeps_its_time(
    chat: Conversation, clock: FakeClock, said: str, day: int, name: str
) -> None:
    chat.say(PLANTS)
    assert chat.say(said) == (
        f"🔁 Updated the reminder “water plants” — now every {name} at 09:00 (next: {shown(day, 9)})."
    )
    if day > 6:
        assert fired(chat, clock, 6, 9) == []  # not on Sunday any more
    (came,) = fired(chat, clock, day, 9)
    assert "water plants" in came
    assert fired(chat, clock, 6, 9, 30) == []  # nor after it


def test_hebrew_to_mondays_moves_the_series_and_never_renames_it(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום ראשון ב-9 להשקות את העציצים")
    # "לימי שני" was read as the new title "ימי שני".
    assert chat.say("תשנה את זה לימי שני").startswith(
        "🔁 עדכנתי את התזכורת „להשקות את העציצים” — עכשיו כל יום שני ב-09:00"
    )
    assert chat.say("תעביר את העציצים לימי רביעי").startswith(
        "🔁 עדכנתי את התזכורת „להשקות את העציצים” — עכשיו כל יום רביעי ב-09:00"
    )


def test_mondays_without_on_is_a_weekly_reminder(chat: Conversation) -> None:
    # It was the title "mondays to water plants", once, tonight at 21:00.
    assert chat.say("remind me mondays at 9 to water plants") == (
        f"🔁 Reminder set: “water plants” every Monday at 09:00 (first: {shown(7, 9)})."
    )
    assert chat.say("remind me about mondays meeting tomorrow at 9").startswith(
        "⏰ Reminder set: “mondays meeting”"
    )


@pytest.mark.parametrize(
    "said", ["change the plants reminder to every 3 days", "make the plants reminder every 3 days"]
)
def test_every_n_days_said_for_a_series_is_how_it_repeats(
    chat: Conversation, clock: FakeClock, said: str
) -> None:
    # It was "Move “water plants” 3 days earlier or later?", and the answer after it was lost.
    chat.say(PLANTS)
    changed = chat.say(said)
    assert changed.startswith("🔁 Updated the reminder “water plants” — now every 3 days at 09:00"), changed
    listed = chat.say("show my reminders")
    assert "every 3 days at 09:00" in listed and "every Sunday" not in listed


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("change the plants reminder to say feed the cat", "feed the cat"),
        ("make the plants reminder say feed the cat", "feed the cat"),
        ("update my reminder about the plants so it says water the garden", "water the garden"),
        ("תשנה את התזכורת של העציצים שיהיה כתוב להאכיל את החתול", "להאכיל את החתול"),
    ],
)
def test_a_new_text_said_as_what_it_says_renames_the_series(
    chat: Conversation, clock: FakeClock, said: str, title: str
) -> None:
    # "change the bank reminder to say call the insurance" asked "What time do you mean?".
    chat.say(PLANTS)
    renamed = chat.say(said)
    assert title in renamed and ("every Sunday" in renamed or "כל יום ראשון" in renamed), renamed
    assert chat.say("undo").startswith("↩️")
    assert "“water plants”" in chat.say("show my reminders")
    chat.say(said)
    (came,) = fired(chat, clock, 6, 9)
    assert title in came
