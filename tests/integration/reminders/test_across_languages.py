"""Reminders set in one language, named in the other: a Hebrew speaker who wrote “call the bank” in
English deletes or moves it in Hebrew, and the other way round. Signed payloads through the webhook;
a name that crosses to nothing the user has is said, and nothing changes."""

from __future__ import annotations

from tests.support.conversation import Conversation

APPROVE = 1


def _titles(chat: Conversation, show: str) -> list[str]:
    return sorted(line.split("—")[0].strip(" •") for line in chat.say(show).splitlines() if "—" in line)


def test_a_hebrew_delete_finds_the_english_title(chat: Conversation) -> None:
    chat.say("remind me to call the bank tomorrow at 10am")
    chat.say("remind me to water the plants tomorrow at 12pm")
    asked = chat.say("תמחק את התזכורת של הבנק")
    assert "„call the bank”" in asked and "plants" not in asked
    chat.tap(APPROVE)
    assert _titles(chat, "show my reminders") == ["“water the plants”"]


def test_a_hebrew_move_finds_the_english_title(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call the bank tomorrow at 10am")
    moved = chat.say("תזיז את אמא לשש בערב")
    assert "„call mom”" in moved and "18:00" in moved
    lines = chat.say("show my reminders").splitlines()
    assert any("“call mom”" in line and "18:00" in line for line in lines)
    assert any("“call the bank”" in line and "10:00" in line for line in lines)


def test_an_english_delete_finds_the_hebrew_title(chat: Conversation) -> None:
    chat.say("תזכיר לי להוציא את הזבל מחר ב-20:00")
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    asked = chat.say("delete the trash reminder")
    assert "להוציא את הזבל" in asked and "לאמא" not in asked
    chat.tap(APPROVE)
    assert _titles(chat, "show my reminders") == ["“להתקשר לאמא”"]


def test_two_hebrew_names_for_english_titles_one_unknown(chat: Conversation) -> None:
    chat.say("remind me to call the bank tomorrow at 10am")
    chat.say("remind me to buy flowers tomorrow at 11am")
    answer = chat.say("תמחק את הבנק ואת החלונות")
    assert answer == (
        "מצאתי את „call the bank”, אבל כלום עבור „החלונות”, אז לא עשיתי כלום. אפשר לכתוב שוב מה למחוק."
    )
    asked = chat.say("תמחק את הבנק ואת הפרחים")
    assert "„call the bank”" in asked
    assert "buy flowers" in asked
    chat.tap(APPROVE)
    assert _titles(chat, "show my reminders") == []
