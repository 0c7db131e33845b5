"""A reminder whose time is still to ask, said beside a request of another kind, through the webhook
on the fake clock. Before, "remind me to buy a gift on 15/12 and add wrapping paper to the shopping
list" set a reminder titled “buy a gift for dana and add wrapping paper to the shopping list” and
added nothing; said the other way round, the list add ran and the reminder was dropped with no word.
Now both are one plan: the time is asked, and when it is answered, both run.
"""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation
from tests.support.week import at, shown

#: Three weeks and a day after the week's Monday, as people write a date ("15/12").
DATE = f"{at(22, 0).day}/{at(22, 0).month}"

CASES = [
    (
        "remind me to buy a gift for dana on {date} and add wrapping paper to the shopping list",
        "at 6pm",
        "buy a gift for dana",
        "wrapping paper",
    ),
    (
        "add wrapping paper to the shopping list and remind me to buy a gift for dana on {date}",
        "at 6pm",
        "buy a gift for dana",
        "wrapping paper",
    ),
    (
        "remind me to call the bank and add stamps to my shopping list",
        "on {date} at 6pm",
        "call the bank",
        "stamps",
    ),
    ("add tape to the shopping list and remind me to call dana", "{date} at 18:00", "call dana", "tape"),
    (
        "תזכיר לי ב-{date} לקנות מתנה לדנה ותוסיף נייר עטיפה לרשימת הקניות",
        "בשש בערב",
        "לקנות מתנה לדנה",
        "נייר עטיפה",
    ),
    (
        "תוסיף סלוטייפ לרשימת הקניות ותזכיר לי ב-{date} להתקשר לבנק",
        "ב-18:00",
        "להתקשר לבנק",
        "סלוטייפ",
    ),
]


@pytest.mark.parametrize(("said", "answer", "title", "item"), CASES)
def test_the_time_is_asked_then_both_run(
    chat: Conversation, said: str, answer: str, title: str, item: str
) -> None:
    he = said[0] > "z"
    said, answer = said.format(date=DATE), answer.format(date=DATE)
    question = chat.say(said)
    assert question.startswith(("באיזו שעה", "מתי")) if he else question.startswith(("What time", "When"))
    chat.say(answer)
    listed = chat.say("מה ברשימת הקניות?" if he else "what's on my shopping list?")
    assert f"• {item}" in listed.splitlines()
    reminders = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert f"“{title}”" in reminders or f"„{title}”" in reminders
    assert reminders.count("•") == 1 and "רשימ" not in reminders and "list" not in reminders
    assert shown(22, 18, language="he" if he else "en") in reminders


def test_never_mind_runs_neither(chat: Conversation) -> None:
    chat.say("remind me to call mom and add milk to the shopping list")
    assert chat.say("never mind").startswith("OK, cancelled")
    assert chat.say("what's on my shopping list?") == "Your shopping list is empty."
    assert chat.say("show my reminders") == "You have no upcoming reminders."
