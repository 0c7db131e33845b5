""" "Remind me about it on sunday" right after a reminder was set: that reminder once more, on the
day said, through the webhook on the fake clock. Before, "it" was no title: the title was asked,
and whatever came next was glued to "it" ("delete them" became a reminder called “it delete them”).
A request that takes things away, said where a title is asked, is never a title.
"""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation
from tests.support.week import shown


@pytest.mark.parametrize(
    ("first", "said", "day", "hour"),
    [
        ("remind me to call grandma tomorrow at 6pm", "remind me about it on sunday", 6, 18),
        ("remind me to call grandma tomorrow at 6pm", "remind me of that too on friday at 9am", 4, 9),
        ("remind me to call grandma tomorrow at 6pm", "and remind me about it again on thursday", 3, 18),
        ("תזכיר לי להתקשר לסבתא מחר בשש בערב", "תזכיר לי את זה גם ביום ראשון", 6, 18),
        ("תזכיר לי להתקשר לסבתא מחר בשש בערב", "תזכיר לי על זה ביום שישי ב-9 בבוקר", 4, 9),
        ("תזכיר לי להתקשר לסבתא מחר בשש בערב", "תזכיר לי את זה שוב ביום חמישי", 3, 18),
    ],
)
def test_about_it_is_the_reminder_just_set(
    chat: Conversation, first: str, said: str, day: int, hour: int
) -> None:
    he = first[0] > "z"
    language = "he" if he else "en"
    title = "להתקשר לסבתא" if he else "call grandma"
    chat.say(first)
    reply = chat.say(said)
    assert title in reply and shown(day, hour, language=language) in reply
    listed = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert listed.count(title) == 2 and shown(1, 18, language=language) in listed
    assert "it" not in listed.replace("“", " ").split() and "זה" not in listed.split()


@pytest.mark.parametrize(
    ("ask", "away", "then"),
    [
        ("remind me tomorrow", "delete them", "at 5pm"),
        ("remind me on sunday", "remove it", "at 5pm"),
        ("remind me tomorrow", "undo that", "at 5pm"),
        ("תזכיר לי מחר", "תמחק אותם", "בחמש"),
        ("תזכיר לי ביום ראשון", "תבטל את זה", "בחמש"),
    ],
)
def test_a_request_that_takes_away_is_never_the_title_asked(
    chat: Conversation, ask: str, away: str, then: str
) -> None:
    he = ask[0] > "z"
    chat.say("תזכיר לי להתקשר לסבתא מחר בשש בערב" if he else "remind me to call grandma tomorrow at 6pm")
    question = chat.say(ask)
    assert chat.say(away) != question  # not taken as the answer ...
    chat.say(then)
    listed = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert away not in listed and away.split()[-1] not in listed  # ... nor glued to any title
    assert ("להתקשר לסבתא" if he else "call grandma") in listed


@pytest.mark.parametrize(
    ("first", "again", "answer", "hour"),
    [
        ("remind me to call dad tomorrow at 5pm", "remind me again tomorrow", "at 8pm", 20),
        ("remind me to call dad tomorrow at 5pm", "and again tomorrow", "9am", 9),
        ("תזכיר לי להתקשר לאמא מחר בחמש", "תזכיר לי שוב מחר", "בשמונה בערב", 20),
        ("תזכיר לי להתקשר לאמא מחר בחמש", "ושוב מחר", "ב-9 בבוקר", 9),
    ],
)
def test_again_on_its_own_day_asks_the_time(
    chat: Conversation, first: str, again: str, answer: str, hour: int
) -> None:
    # "remind me again tomorrow" of tomorrow's 17:00 reminder set a second, identical 17:00 one.
    he = first[0] > "z"
    language = "he" if he else "en"
    chat.say(first)
    assert chat.say(again).startswith(("באיזו שעה" if he else "What time") + (" ביום" if he else " on"))
    assert shown(1, hour, language=language) in chat.say(answer)
    listed = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert listed.count(shown(1, 17, language=language)) == 1 and shown(1, hour, language=language) in listed
