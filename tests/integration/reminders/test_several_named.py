"""One message that names several reminders deletes each of them, shown in one approval and named
counted in the reply; a name that matches nothing is asked about and nothing runs. Signed
payloads through the webhook, English and Hebrew."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation

APPROVE = 1
SET_EN = ["remind me to call mom tomorrow at 5pm", "remind me to call bank tomorrow at 6pm",
          "remind me to call dad tomorrow at 7pm"]  # fmt: skip
SET_HE = ["תזכיר לי להתקשר לאמא מחר ב-17:00", "תזכיר לי לשלם חשבון מחר ב-9:00",
          "תזכיר לי להתקשר לבנק מחר ב-18:00"]  # fmt: skip


def _left(chat: Conversation, show: str) -> list[str]:
    return sorted(line.split("—")[0].strip(" •") for line in chat.say(show).splitlines() if "—" in line)


@pytest.mark.parametrize(
    "request_",
    [
        "delete the bank and dad reminders",
        "delete the call bank reminder and the call dad reminder",
        "cancel the bank reminder and the dad one",
        "remove my bank, dad reminders",
    ],
)
def test_two_named_reminders_are_both_deleted_after_one_approval(chat: Conversation, request_: str) -> None:
    for line in SET_EN:
        chat.say(line)
    asked = chat.say(request_)
    assert asked.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "“call bank”" in asked and "“call dad”" in asked and "call mom" not in asked
    assert chat.tap(APPROVE) == "Deleted 2 reminders: “call bank”, “call dad”."
    assert _left(chat, "show my reminders") == ["“call mom”"]


@pytest.mark.parametrize(
    "request_",
    [
        "תמחק את התזכורת לבנק ואת התזכורת לשלם חשבון",
        "תמחק את הבנק ואת החשבון",  # no word for "reminder" at all
        "תמחקי את בנק ואת חשבון",
        "תבטל את התזכורת של הבנק ושל החשבון",
        "תמחק את התזכורת על הבנק ועל החשבון",
    ],
)
def test_hebrew_et_x_ve_et_y_deletes_both(chat: Conversation, request_: str) -> None:
    for line in SET_HE:
        chat.say(line)
    asked = chat.say(request_)
    assert asked.startswith("רגע לפני: אני עומד למחוק 2 תזכורות:")
    assert "„להתקשר לבנק”" in asked and "„לשלם חשבון”" in asked and "לאמא" not in asked
    assert chat.tap(APPROVE) == "מחקתי 2 תזכורות: „לשלם חשבון”, „להתקשר לבנק”."
    assert _left(chat, "תראה לי את התזכורות") == ["„להתקשר לאמא”"]


def test_a_name_that_matches_nothing_is_asked_and_nothing_runs(chat: Conversation) -> None:
    for line in SET_EN:
        chat.say(line)
    answer = chat.say("delete the bank and dentist reminders")
    assert "haven't done anything" in answer
    assert _left(chat, "show my reminders") == ["“call bank”", "“call dad”", "“call mom”"]


def test_both_of_one_name_deletes_the_two_of_that_name(chat: Conversation) -> None:
    chat.say("remind me to visit grandma tomorrow at 8am")
    chat.say("remind me to call grandma tomorrow at 9am")
    chat.say("remind me to call dad tomorrow at 7pm")
    asked = chat.say("delete both grandma reminders")
    assert asked.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert chat.tap(APPROVE) == "Deleted 2 reminders: “visit grandma”, “call grandma”."
    assert _left(chat, "show my reminders") == ["“call dad”"]


def test_the_reply_names_what_was_found_and_what_was_not(chat: Conversation) -> None:
    for line in SET_EN:
        chat.say(line)
    answer = chat.say("delete the bank and dentist reminders")
    assert answer == (
        "I found “call bank”, but nothing for “dentist”, so I haven't done anything. "
        "Tell me again which ones to delete."
    )
    assert chat.say("delete the plumber and electrician reminders") == (
        "I found nothing for “plumber” or “electrician”, so I haven't done anything."
    )
    # The next message a person sends: just the one that exists, approved as usual.
    assert chat.say("delete the bank reminder").startswith("Before I go ahead")
    chat.tap(APPROVE)
    assert _left(chat, "show my reminders") == ["“call dad”", "“call mom”"]


def test_hebrew_names_that_match_nothing_are_said_and_nothing_runs(chat: Conversation) -> None:
    for line in SET_HE:
        chat.say(line)
    assert chat.say("תמחק את הבנק ואת החלונות") == (
        "מצאתי את „להתקשר לבנק”, אבל כלום עבור „החלונות”, אז לא עשיתי כלום. אפשר לכתוב שוב מה למחוק."
    )
    assert (
        chat.say("תמחק את הרופא ואת החלונות") == "לא מצאתי כלום עבור „הרופא” או „החלונות”, אז לא עשיתי כלום."
    )
    assert _left(chat, "תראה לי את התזכורות") == ["„להתקשר לאמא”", "„להתקשר לבנק”", "„לשלם חשבון”"]
