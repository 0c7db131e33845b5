"""One reminder said for several days with no time ("remind me on monday and wednesday to call mom",
"on the 1st and 15th of every month to pay bills", "תזכיר לי ביום שני ורביעי להתקשר לאמא"): the time
is asked once, naming each day, and the answer sets one reminder on each day with the title said
(it was one reminder titled "wednesday to call mom"). Signed payloads through the webhook, the fake
clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import pytest

from memo.text.dates import format_when
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import MONDAY, fired, shown

EN_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
HE_DAYS = ("שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון")


def _offset(weekday: int) -> int:
    """Days from the clock's Monday to the weekday said alone with no time: Monday is next week's."""
    return weekday or 7


def _listed(chat: Conversation, show: str) -> list[str]:
    return [line.strip(" •") for line in chat.say(show).splitlines() if "—" in line]


@pytest.mark.parametrize("days", [(0, 2), (1, 3), (2, 4), (0, 2, 4), (6, 3)])
@pytest.mark.parametrize("language", ["en", "he"])
def test_the_time_is_asked_once_and_each_day_gets_the_reminder(
    chat: Conversation, clock: FakeClock, days: tuple[int, ...], language: str
) -> None:
    if language == "en":
        names = [EN_DAYS[d] for d in days]
        said = f"{', '.join(names[:-1])} and {names[-1]}"
        request, answer, title, show = (
            f"remind me on {said} to call mom",
            "at 6pm",
            "call mom",
            "show my reminders",
        )
    else:
        names = [HE_DAYS[d] for d in days]
        said = f"{', '.join(names[:-1])} ו{names[-1]}"
        request, answer, title, show = (
            f"תזכיר לי ביום {said} להתקשר לאמא",
            "בשש בערב",
            "להתקשר לאמא",
            "תזכורות",
        )
    asked = chat.say(request)
    offsets = sorted(_offset(d) for d in days)
    assert asked.startswith("What time on" if language == "en" else "באיזו שעה")
    for offset in offsets:  # the question names each day
        day = format_when(str(MONDAY.fromordinal(MONDAY.toordinal() + offset)), language, "Asia/Jerusalem")
        assert day in asked
    assert len(chat.say(answer).splitlines()) == len(days)
    quote = "“{}”" if language == "en" else "„{}”"
    assert _listed(chat, show) == [
        f"{quote.format(title)} — {shown(o, 18, language=language)}" for o in offsets
    ]
    (first,) = fired(chat, clock, offsets[0], 18)
    assert title in first


@pytest.mark.parametrize(
    ("request_", "answer", "title"),
    [
        ("remind me on the 1st and 15th of every month to pay bills", "9am", "pay bills"),
        ("תזכיר לי ב-1 וב-15 לכל חודש לשלם חשבונות", "ב-9 בבוקר", "לשלם חשבונות"),
    ],
)
def test_several_days_of_every_month_ask_the_time_once(
    chat: Conversation, request_: str, answer: str, title: str
) -> None:
    asked = chat.say(request_)
    assert asked.startswith(("At what time, each time?", "באיזו שעה, בכל פעם?"))
    replies = chat.say(answer).splitlines()
    assert len(replies) == 2 and all(title in line and "09:00" in line for line in replies)
    listed = _listed(chat, "show my reminders")
    assert len(listed) == 2 and all(line.split(" — ")[0].strip("“”„") == title for line in listed)


@pytest.mark.parametrize(
    ("request_", "no_time", "show"),
    [
        ("remind me on monday and wednesday to call mom", "whenever you like", "show my reminders"),
        ("תזכיר לי ביום שני ורביעי להתקשר לאמא", "מתי שנוח לך", "תזכורות"),
    ],
)
def test_an_answer_that_is_no_time_asks_again_and_sets_nothing(
    chat: Conversation, request_: str, no_time: str, show: str
) -> None:
    asked = chat.say(request_)
    assert asked.split("?")[0] in chat.say(no_time)  # the same question again
    assert _listed(chat, show) == []  # and nothing was set
