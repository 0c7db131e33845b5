"""Another day said while the time of the day asked is asked, through the webhook on the local stack
(a Monday at 10:00, Jerusalem): "next monday" changed to "tuesday" is the day after that Monday,
"the week after" a week on, and "בעצם שלישי" is Tuesday, never the reminder's new title."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    ("lang", "said", "instead", "day"),
    [
        ("en", "next monday", "actually tuesday", 8),  # the Tuesday after that Monday, not tomorrow
        ("en", "on friday", "no thursday", 3),
        ("en", "next monday", "actually the week after", 14),
        ("he", "ביום שני הבא", "בעצם שלישי", 8),
        ("he", "ביום שני הבא", "בעצם בשבוע שאחרי", 14),
    ],
)
def test_another_day_said_for_the_one_asked_is_the_one_near_it(
    chat: Conversation, lang: str, said: str, instead: str, day: int
) -> None:
    # "next monday" changed to "tuesday" was tomorrow; "בעצם שלישי" retitled the reminder „שלישי”
    # and the time said next set it for Monday.
    chat.say(f"תזכיר לי לשלם חשבון {said}" if lang == "he" else f"remind me to pay the bill {said}")
    asked = chat.say(instead)
    day_shown = shown(day, 8, 0, lang).split(" בשעה")[0].rsplit(",", 1)[0]  # "Tue 1 Dec", "יום ג׳ 1.12"
    assert asked.startswith(("What time on ", "באיזו שעה ב")) and day_shown in asked, asked
    title = "„לשלם חשבון”" if lang == "he" else "“pay the bill”"
    assert chat.say("ב-8" if lang == "he" else "at 8am").startswith(
        (
            f"⏰ קבעתי תזכורת {title} ל{shown(day, 8, 0, lang)}",
            f"⏰ Reminder set: {title} for {shown(day, 8)}",
        )
    )
