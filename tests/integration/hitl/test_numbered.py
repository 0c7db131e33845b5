"""A typed number answers a yes/no question whose buttons are shown numbered ("1) Yes 2) No (answer
with a number)"), through the webhook (signed payloads), in English and Hebrew: every kind of such
question ("Just to check" offers, an approval of one item, an approval that lists several items) x
every typed form of each option's number. A number no option has is asked again and changes
nothing; a number that is both an item the approval lists and a button is asked again too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.conversation import Conversation

RLM = "\u200f"  # the direction mark a Hebrew keyboard may put before a digit


def forms(number: int, language: str) -> list[str]:
    """The ways a person types option `number`."""
    word = "אפשרות" if language == "he" else "option"
    return [
        f"{number}",
        f"{number}.",
        f"{number})",
        f" {number} ",
        f"#{number}",
        f"{RLM}{number}",
        f"{word} {number}",
    ]


SAID: dict[str, dict[str, Any]] = {
    "en": {
        "note": "save a note: gate code is 1234",
        "guess": "the gate code changed to {value}",
        "asked": "Just to check — ",
        "updated": "📝 Updated your note: “gate code is {value}”.",
        "read": "what's my gate code?",
        "cancelled": "OK, cancelled. Nothing was changed.",
        "nudge": "Sorry, I didn't catch that",
        "reminders": ["remind me to call mom tomorrow at 5pm", "remind me to call dad tomorrow at 6pm"],
        "delete all": "delete all my reminders",
        "approval": "Before I go ahead",
        "deleted": "Deleted 1 reminder",
        "edit": "What should I change?",
        "show": "show my reminders",
        "two ways": "I can't tell whether {n} means item {n}",
    },
    "he": {
        "note": "תשמור פתק: הקוד של השער הוא 1234",
        "guess": "הקוד של השער השתנה ל-{value}",
        "asked": "רק מוודא — ",
        "updated": "📝 עדכנתי את הפתק: „הקוד של השער הוא {value}”.",
        "read": "מה הקוד של השער?",
        "cancelled": "בסדר, ביטלתי. לא שיניתי כלום.",
        "nudge": "לא הבנתי",
        "reminders": ["תזכיר לי להתקשר לאמא מחר ב-17:00", "תזכיר לי להתקשר לאבא מחר ב-18:00"],
        "delete all": "תמחק את כל התזכורות שלי",
        "approval": "רגע לפני",
        "deleted": "מחקתי",
        "edit": "מה לשנות?",
        "show": "מה התזכורות שלי?",
        "two ways": "לא ברור לי אם {n} הוא פריט {n}",
    },
}
OUT_OF_RANGE = ["0", "3", "9", "12."]


@pytest.mark.parametrize("language", ["en", "he"])
def test_just_to_check_takes_each_typed_number(chat: Conversation, language: str) -> None:
    said = SAID[language]
    chat.say(said["note"])
    value = 5000
    for typed in forms(2, language):
        value += 1
        assert chat.say(said["guess"].format(value=value)).startswith(said["asked"])
        assert chat.say(typed) == said["cancelled"], typed
    assert chat.say(said["read"]).endswith("1234")
    for typed in OUT_OF_RANGE:
        value += 1
        assert chat.say(said["guess"].format(value=value)).startswith(said["asked"])
        answer = chat.say(typed)
        assert answer.startswith(said["nudge"]) and said["asked"] in answer, (typed, answer)
        assert chat.say(said["read"]).endswith("1234"), typed  # a new message: the question is gone
    for typed in forms(1, language):
        value += 1
        assert chat.say(said["guess"].format(value=value)).startswith(said["asked"])
        assert chat.say(typed) == said["updated"].format(value=value), typed
    assert chat.say(said["read"]).endswith(f"{value}")


@pytest.mark.parametrize("language", ["en", "he"])
def test_an_approval_of_one_item_takes_each_typed_number(chat: Conversation, language: str) -> None:
    said = SAID[language]
    chat.say(said["reminders"][0])
    for typed in [*forms(3, language), *OUT_OF_RANGE[:1], "4", "7"]:
        assert chat.say(said["delete all"]).startswith(said["approval"])
        answer = chat.say(typed)
        if typed.strip(RLM + " .)#אפשרותoption") == "3":
            assert answer == said["cancelled"], typed
        else:
            assert answer.startswith(said["nudge"]) and said["approval"] in answer, (typed, answer)
        assert "17:00" in chat.say(said["show"]), typed  # nothing deleted
    for typed in forms(2, language):
        assert chat.say(said["delete all"]).startswith(said["approval"])
        assert chat.say(typed).startswith(said["edit"]), typed
        assert chat.say("cancel" if language == "en" else "ביטול") == said["cancelled"]
    for typed in forms(1, language)[:3]:
        assert chat.say(said["delete all"]).startswith(said["approval"])
        assert chat.say(typed).startswith(said["deleted"]), typed
        chat.say(said["reminders"][0])


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_number_that_is_an_item_and_a_button_is_asked_again(chat: Conversation, language: str) -> None:
    said = SAID[language]
    for request in said["reminders"]:
        chat.say(request)
    assert chat.say(said["delete all"]).startswith(said["approval"])
    for number in (1, 2):
        for typed in forms(number, language):
            answer = chat.say(typed)
            assert answer.startswith(said["two ways"].format(n=number)), (typed, answer)
            assert said["approval"] in answer
    for typed in ["0", "5", "9"]:
        assert said["approval"] in chat.say(typed), typed
    assert chat.say("3") == said["cancelled"]
    shown = chat.say(said["show"])
    assert "17:00" in shown and "18:00" in shown  # nothing deleted
