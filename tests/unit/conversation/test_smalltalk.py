"""Small talk, in English and Hebrew."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from memo.conversation import smalltalk
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

MORNING = datetime(2026, 11, 22, 8, 30, tzinfo=ZoneInfo("Asia/Jerusalem"))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("hi!", "greeting"),
        ("Good morning", "greeting"),
        ("שלום", "greeting"),
        ("בוקר טוב", "greeting"),
        ("how are you?", "how_are_you"),
        ("מה נשמע?", "how_are_you"),
        ("thanks a lot", "thanks"),
        ("תודה רבה", "thanks"),
        ("who are you", "identity"),
        ("מה אתה יודע לעשות?", "identity"),
        ("bye", "goodbye"),
        ("להתראות", "goodbye"),
        ("the quarterly numbers look off", None),
    ],
)
def test_small_talk_is_recognised_in_both_languages(text: str, kind: str | None) -> None:
    assert smalltalk.classify(text) == kind


def test_greeting_uses_the_local_time_of_day_and_the_first_name() -> None:
    text = smalltalk.reply("greeting", language="en", local_now=MORNING, name="Dana Levi")
    assert text.startswith("Good morning, Dana!")
    hebrew = smalltalk.reply("greeting", language="he", local_now=MORNING.replace(hour=20), name=None)
    assert hebrew.startswith("ערב טוב!")


def test_text_only_notice_is_in_the_users_language() -> None:
    assert "text" in smalltalk.unsupported_type("en")
    assert "טקסט" in smalltalk.unsupported_type("he")


@pytest.mark.parametrize(
    "text",
    [
        "rename the shopping list to groceries",
        "Rename my packing list as travel",
        "change the name of the to-do list to chores",
        "תשנה את השם של רשימת הקניות לאוכל",
        "שנה את הרשימה של הסופר לקניות",
    ],
)
def test_a_list_rename_is_answered_as_one(text: str) -> None:
    assert smalltalk.classify(text) == "list_rename"


@pytest.mark.parametrize(
    "text",
    [
        "rename call mom to call dad",
        "add milk to my list",
        "rename the reminder to pay rent",
        "תשנה את השם של התזכורת לאמא",
    ],
)
def test_other_renames_and_list_requests_are_not(text: str) -> None:
    assert smalltalk.classify(text) != "list_rename"


@pytest.mark.parametrize(
    "message",
    ["תיצור רשימת אריזה עם דרכון, מטען וגרביים", "תקנה עוגת תודהה", "הבייגלה של סבתא"],
)
def test_hebrew_thanks_and_goodbye_are_whole_words(message: str) -> None:
    """ "וגרביים" holds the letters of "ביי": no goodbye."""
    assert smalltalk.classify(message) not in ("goodbye", "thanks")
    assert smalltalk.classify("יאללה ביי") == "goodbye" and smalltalk.classify("ותודה רבה") == "thanks"


@pytest.mark.parametrize(
    "said",
    [
        "stop repeating it",
        "make it one time",
        "don't repeat it anymore",
        "make it a one-off",
        "תפסיק לחזור על זה",
        "שיהיה חד פעמי",
    ],
)
def test_making_a_series_one_time_is_answered_with_what_can_be_done(said: str) -> None:
    assert smalltalk.classify(said) == "series_to_once"


@pytest.mark.parametrize(
    "text",
    [
        "what's my timezone?",
        "What is my time zone",
        "which timezone am I in?",
        "what timezone are you using",
        "מה אזור הזמן שלי?",
        "באיזה אזור זמן אני?",
    ],
)
def test_asking_for_the_timezone_is_answered_with_it(text: str) -> None:
    # "what's my timezone?" searched the notes for "timezone".
    assert smalltalk.classify(text) == "timezone"
    now = datetime(2026, 11, 23, 3, 2, tzinfo=ZoneInfo("America/New_York"))
    language = "he" if "ז" in text else "en"
    said = smalltalk.reply("timezone", language=language, local_now=now, name=None)
    assert "America/New_York" in said and "03:02" in said


@pytest.mark.parametrize("text", ["what time is it", "my timezone is London", "timezone"])
def test_other_words_about_time_are_no_timezone_question(text: str) -> None:
    assert smalltalk.classify(text) != "timezone"


def test_how_to_gives_examples_that_memo_understands() -> None:
    for language in ("en", "he"):
        text = smalltalk.reply("how_to", language=language, local_now=MORNING, name=None)
        examples = re.findall(r"[“„]([^”]+)”", text)
        assert len(examples) == 5, text
        for example in examples:  # each example is a request Memo reads as one
            (step,) = RulePlanner().plan(pin(example)).output.plan
            assert step.capability in ("reminders", "lists", "notes"), example


@pytest.mark.parametrize(
    "verb", ["pause", "mute", "silence", "turn off", "disable", "please pause", "can you mute"]
)
@pytest.mark.parametrize(
    "what", ["all my reminders", "my reminders", "reminders", "the notifications", "all reminders for a week"]
)
def test_pausing_reminders_is_answered_with_what_can_be_done(verb: str, what: str) -> None:
    # "pause all my reminders" was "I'm not sure I understood".
    assert smalltalk.classify(f"{verb} {what}") == "pause"


@pytest.mark.parametrize(
    "said", ["תשהה את כל התזכורות", "תשתיק את התזכורות", "תכבה לי את ההתראות", "תקפיא את כל התזכורות לשבוע"]
)
def test_hebrew_pausing_reminders(said: str) -> None:
    assert smalltalk.classify(said) == "pause"


@pytest.mark.parametrize(
    "said", ["pause", "turn off the oven at 5", "remind me to pause the movie", "mute the tv"]
)
def test_other_pausing_is_no_pause_of_reminders(said: str) -> None:
    assert smalltalk.classify(said) != "pause"
