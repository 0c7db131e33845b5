"""Messages in a language Memo does not read, through the webhook: Spanish once got an English "not
sure I understood". Now each gets one short answer in English and Hebrew naming the languages Memo
reads, and nothing is planned or changed; English and Hebrew with a foreign word or a name in them
are understood as before."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from memo.conversation.smalltalk import other_language
from tests.support.conversation import Conversation, LogEvents

BOTH_LANGUAGES = other_language()


def _items(chat: Conversation) -> list[Any]:
    return boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{chat.user.wa_id}"}},
    )["Items"]


@pytest.mark.parametrize(
    "text",
    [
        "recuérdame llamar a mamá mañana a las 5",  # Spanish
        "hola",
        "añade huevos y leche a la lista de compras",
        "Rappelle-moi d'appeler maman demain à 17h",  # French
        "Erinnere mich morgen um 9 Uhr an den Zahnarzt",  # German
        "Напомни мне позвонить маме завтра в 5",  # Russian
        "ذكرني بالاتصال بأمي غدا الساعة الخامسة",  # Arabic
    ],
)
def test_another_language_gets_one_answer_in_english_and_hebrew_and_changes_nothing(
    chat: Conversation, log_events: LogEvents, text: str
) -> None:
    assert chat.say(text) == BOTH_LANGUAGES
    assert "English" in BOTH_LANGUAGES and "עברית" in BOTH_LANGUAGES
    assert _items(chat) == []
    assert len(log_events.named("OTHER_LANGUAGE")) == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("remind me to call José tomorrow at 5pm", "José"),
        ("remind me to call Владимир tomorrow at 5pm", "Владимир"),
        ("add jalapeños and queso to the shopping list", "jalapeños"),
        ("תזכיר לי להתקשר לJosé מחר בחמש", "José"),
    ],
)
def test_english_or_hebrew_with_a_foreign_word_or_a_name_is_understood(
    chat: Conversation, log_events: LogEvents, text: str, said: str
) -> None:
    reply = chat.say(text)
    assert reply != BOTH_LANGUAGES and said in reply
    assert len(_items(chat)) >= 1
    assert log_events.named("OTHER_LANGUAGE") == []
