"""A yearly reminder said by its month alone ("remind me every march at 9 to renew insurance",
"תזכיר לי כל מרץ ב-9 לחדש ביטוח"): which day of March is asked and nothing is set until the answer
names one; the answer completes a yearly series on that day (it was a one-time reminder titled
"every march ..." at the next 9 o'clock). Signed payloads through the webhook, the fake clock."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation

CASES = [
    # request, question, answer, the yearly line shown
    ("remind me every march at 9 to renew insurance", "Which day of March? (e.g. “the 5th”)", "the 5th",
     "every year on 5 Mar at 09:00"),
    ("remind me every year in march at 9 to renew insurance", "Which day of March? (e.g. “the 5th”)", "5",
     "every year on 5 Mar at 09:00"),
    ("remind me every march to renew insurance", "Which day of March, and at what time? (e.g. “the 5th at 9:00”)",
     "the 12th at 8am", "every year on 12 Mar at 08:00"),
    ("תזכיר לי כל מרץ ב-9 לחדש ביטוח", "באיזה יום במרץ? (למשל „ב-5”)", "ב-5", "כל שנה ב-5.3 ב-09:00"),
    ("תזכיר לי כל שנה במרץ לחדש ביטוח", "באיזה יום במרץ, ובאיזו שעה? (למשל „ב-5 בשעה 9:00”)",
     "ב-12 בשעה 8:00", "כל שנה ב-12.3 ב-08:00"),
]  # fmt: skip


@pytest.mark.parametrize(("request_", "question", "answer", "yearly"), CASES)
def test_the_day_is_asked_and_the_answer_sets_a_yearly_reminder(
    chat: Conversation, request_: str, question: str, answer: str, yearly: str
) -> None:
    assert chat.say(request_) == question
    reply = chat.say(answer)
    assert reply.startswith("🔁") and yearly in reply, reply
    assert "every march" not in reply and "כל מרץ" not in reply
    (listed,) = [line for line in chat.say("show my reminders").splitlines() if "—" in line]
    assert listed.split(" — ")[0].strip(" •“”„") in ("renew insurance", "לחדש ביטוח")


@pytest.mark.parametrize(
    ("request_", "not_a_day", "show"),
    [
        ("remind me every march at 9 to renew insurance", "april 5", "show my reminders"),
        ("remind me every march at 9 to renew insurance", "at 10", "show my reminders"),
        ("remind me every march to renew insurance", "the 5th", "show my reminders"),  # no time yet
        ("תזכיר לי כל מרץ ב-9 לחדש ביטוח", "ב-5 באפריל", "תזכורות"),
    ],
)
def test_an_answer_without_a_day_of_that_month_asks_again_and_sets_nothing(
    chat: Conversation, request_: str, not_a_day: str, show: str
) -> None:
    question = chat.say(request_)
    assert chat.say(not_a_day).endswith(question)  # asked again
    assert [line for line in chat.say(show).splitlines() if "—" in line] == []
