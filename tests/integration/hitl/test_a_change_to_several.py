"""A change said to a "Just to check" about several requests, without saying which it is for:
"make it 8pm" to "call mom at 17:00, then call dad at 19:00?". It changed the first and ran both,
the changed one never shown. Now it is asked again and nothing runs; "yes" runs what was shown, the
request said again is planned anew. Through the webhook on the fake clock (a Monday at 10:00 in
Jerusalem), in English and Hebrew."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import chat_at
from tests.support.week import START, shown

_EN = "remind me tomorrow to call mom at 5pm and dad at 7"
_HE = "תזכיר לי מחר להתקשר לאמא ב-17:00 ולאבא ב-19:00"


@pytest.mark.parametrize("change", ["make it 8pm", "change it to 8pm", "at 8pm instead", "no, 8pm"])
def test_a_change_that_does_not_say_which_is_asked_again_and_runs_nothing(
    monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    with chat_at(monkeypatch, FakeClock(START)) as chat:
        asked = chat.say(_EN)
        assert asked.startswith("Just to check")
        again = chat.say(change)
        assert again.startswith("I'm not sure which one to change.") and asked in again, again
        done = chat.say("yes")
        assert f"“call mom” for {shown(1, 17)}" in done and f"“call dad” for {shown(1, 19)}" in done, done
        listed = chat.say("show my reminders")
        assert shown(1, 20) not in listed and listed.count("•") == 2, listed


def test_the_request_said_again_is_planned_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    with chat_at(monkeypatch, FakeClock(START)) as chat:
        chat.say(_EN)
        chat.say("make it 8pm")
        asked = chat.say("remind me tomorrow to call mom at 5pm and dad at 8pm")
        assert f"“call dad” for {shown(1, 20)}" in asked, asked
        done = chat.say("yes")
        assert f"“call dad” for {shown(1, 20)}" in done and f"“call mom” for {shown(1, 17)}" in done, done


def test_hebrew_a_change_that_does_not_say_which(monkeypatch: pytest.MonkeyPatch) -> None:
    with chat_at(monkeypatch, FakeClock(START)) as chat:
        asked = chat.say(_HE)
        again = chat.say("שנה את השעה ל-20:00")
        assert again.startswith("לא ברור לי מה לשנות.") and asked in again, again
        done = chat.say("כן")
        assert shown(1, 17, language="he") in done and shown(1, 19, language="he") in done, done
