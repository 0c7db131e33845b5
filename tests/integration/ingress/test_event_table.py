"""Every row of the event table replayed, signed, through the webhook handler (API Gateway events),
the FIFO poller and the turn: the reply or the silence, the log line, and what was stored."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import boto3
import pytest

from memo.ingress.events import GROUP_ROW, MESSAGE_EVENTS, STATUS_EVENTS
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser, envelope
from tests.integration.ingress.fixtures import message_fixtures, status_fixtures
from tests.support.conversation import Conversation, LogEvents
from tests.support.webhook import post

DOC = Path(__file__).resolve().parents[3] / "docs" / "whatsapp-events.md"

HE_TEXT_ONLY = "כרגע אני קורא רק הודעות טקסט 🙏 אפשר לכתוב לי את זה במילים?"
SILENT = None

# key -> (what the user reads: a prefix, or None for silence; the log event).
# The user is new and writes from +972: Memo has read no word from them, so the number's country
# (Hebrew) decides the language until they write.
EXPECTED: dict[str, tuple[str | None, str]] = {
    "text": ("Good", "TURN_DONE"),
    "interactive.button_reply": ("I'm not waiting on a question", "TURN_DONE"),
    "interactive.list_reply": ("I'm not waiting on a question", "TURN_DONE"),
    "interactive.nfm_reply": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "interactive.call_permission_reply": (SILENT, "EVENT_IGNORED"),
    "button": ("", "TURN_DONE"),
    "reaction": (SILENT, "REACTION_RECEIVED"),
    "image": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "image.caption": ("⏰ Reminder set: “pay this bill”", "TURN_DONE"),
    "video": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "video.caption": ("⏰ קבעתי תזכורת „לשלוח את זה לסבתא”", "TURN_DONE"),
    "audio": ("אני עוד לא יכול להקשיב להודעות קוליות", "VOICE_NOTE"),
    "document": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "document.caption": ("Added sign this to your todo list.", "TURN_DONE"),
    "sticker": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "location": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "contacts": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "order": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "system.user_changed_number": (SILENT, "NUMBER_CHANGED"),
    "system.customer_identity_changed": (SILENT, "EVENT_IGNORED"),
    "system": (SILENT, "EVENT_IGNORED"),
    "request_welcome": ("היי Dana! כאן Memo 👋", "WELCOME_SENT"),
    "edit": (SILENT, "MESSAGE_EDITED"),
    "revoke": (SILENT, "EVENT_IGNORED"),
    "unsupported": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
    "other": (HE_TEXT_ONLY, "UNSUPPORTED_MESSAGE"),
}


def _stored_user_messages(thread: str) -> list[str]:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    items = ddb.query(
        TableName="memo-conversation",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :m)",
        ExpressionAttributeValues={":pk": {"S": f"THREAD#{thread}"}, ":m": {"S": "MSG#"}},
    )["Items"]
    return [i["message"]["M"]["text"]["S"] for i in items if i["message"]["M"]["role"]["S"] == "user"]


def test_the_table_covers_every_row_and_the_documentation_lists_them() -> None:
    keys = [row.key for row in MESSAGE_EVENTS]
    assert sorted(keys) == sorted(EXPECTED)
    assert sorted(message_fixtures(WhatsAppUser())) == sorted(keys)
    documented = set(re.findall(r"^\| `([a-z_.]+)` \|", DOC.read_text(encoding="utf-8"), re.MULTILINE))
    assert documented == {row.key for row in (*MESSAGE_EVENTS, GROUP_ROW, *STATUS_EVENTS)}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_each_message_row_is_handled_as_the_table_says(
    key: str, chat: Conversation, user: WhatsAppUser, log_events: LogEvents
) -> None:
    expected_reply, expected_log = EXPECTED[key]
    replies = chat.deliver(message_fixtures(user)[key])
    if expected_reply is None:
        assert replies == []
        assert _stored_user_messages(user.wa_id) == []  # a silent event leaves no trace in the thread
    else:
        assert len(replies) == 1 and replies[0].startswith(expected_reply), replies
        assert len(_stored_user_messages(user.wa_id)) == 1
    assert log_events.named(expected_log), log_events.names()


def test_a_group_message_is_ignored_and_never_reaches_the_private_thread(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    message = {**user.text("delete all my reminders"), "group_id": "120363042263447655"}
    assert chat.deliver(message) == []
    assert stack.sink.messages() == []
    assert _stored_user_messages(user.wa_id) == []
    [ignored] = log_events.named(GROUP_ROW.log)
    assert ignored["groupId"] == "120363042263447655"


def test_a_group_message_naming_memo_is_answered_in_the_group_only(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    chat.deliver({**user.text("ממו, תזכיר לי לקנות חלב"), "group_id": "120363042263447655"})
    [sent] = stack.sink.messages()
    assert sent.body["recipient_type"] == "group" and sent.body["to"] == "120363042263447655"
    assert sent.body["text"]["body"].startswith("היי! אני עובד רק בצ'אט פרטי")
    assert _stored_user_messages(user.wa_id) == []
    assert log_events.named("GROUP_MESSAGE")[0]["groupId"] == "120363042263447655"


def test_a_group_message_delivered_twice_is_answered_in_the_group_once(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    # The group's reply is claimed by no write of the turn: the turn asks the message's record first.
    message = {**user.text("Memo, remind us to buy milk"), "group_id": "120363042263447655"}
    chat.deliver(message)
    chat.deliver(message)
    [sent] = stack.sink.messages()
    assert sent.body["to"] == "120363042263447655"
    assert len(log_events.named("GROUP_MESSAGE")) == 2 and log_events.named("DUPLICATE_SKIPPED")


@pytest.mark.parametrize("key", [row.key for row in STATUS_EVENTS])
def test_each_status_row_is_logged_and_never_answered(
    key: str, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    row = next(r for r in STATUS_EVENTS if r.key == key)
    response = post(status_fixtures(user.wa_id)[key])
    assert response["statusCode"] == 200, response
    assert stack.poller is not None
    stack.poller.drain()
    assert stack.sink.messages() == []
    assert log_events.named(row.log), log_events.names()


def test_a_failed_status_is_a_warning_with_metas_code_title_and_message_id(
    stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    post(status_fixtures(user.wa_id)["status.failed"])
    [failed] = log_events.named("WHATSAPP_DELIVERY_FAILED")
    assert failed["levelname"] == "WARNING"
    assert (failed["messageId"], failed["metaErrorCode"], failed["title"]) == (
        "wamid.OUT2",
        131047,
        "Re-engagement message",
    )
    assert stack.poller is not None
    stack.poller.drain()
    # Memo never sent wamid.OUT2: nothing to follow up, and it says so.
    assert log_events.named("DELIVERY_FAILED_UNTRACKED")[0]["messageId"] == "wamid.OUT2"


def test_account_level_errors_are_logged_with_their_codes(
    stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    post(status_fixtures(user.wa_id)["account.errors"])
    [error] = log_events.named("WHATSAPP_ACCOUNT_ERROR")
    assert (error["metaErrorCode"], error["title"]) == (130429, "Rate limit hit")


def test_an_album_and_a_mixed_batch_get_one_text_only_reply(chat: Conversation, user: WhatsAppUser) -> None:
    fixtures = message_fixtures(user)
    album = [
        user.message("image", {"image": {"id": str(1000 + n), "mime_type": "image/jpeg"}}) for n in range(3)
    ]
    assert chat.deliver(*album) == [HE_TEXT_ONLY]
    assert chat.deliver(fixtures["order"], fixtures["sticker"], fixtures["interactive.nfm_reply"]) == [
        HE_TEXT_ONLY
    ]
    # The next batch is answered again: the limit is per batch, not forever.
    assert chat.deliver(fixtures["location"]) == [HE_TEXT_ONLY]


def test_a_caption_is_read_as_text_and_a_caption_that_asks_nothing_gets_text_only(
    chat: Conversation, user: WhatsAppUser
) -> None:
    def photo(n: int, caption: str | None = None) -> dict[str, Any]:
        media = {"id": str(2000 + n), "mime_type": "image/jpeg"}
        return user.message("image", {"image": media if caption is None else {**media, "caption": caption}})

    # An album whose second photo has the caption: one answer, the caption's (was "text only").
    assert chat.deliver(photo(1), photo(2, "add these to my shopping list: milk, eggs"), photo(3)) == [
        "Added milk, eggs to your shopping list."
    ]
    # A caption that asks nothing is about the picture, which Memo does not see.
    assert chat.deliver(photo(4, "look at this view")) == [
        "For now I can only read text messages 🙏 Could you type that for me?"
    ]
    # Blank, it is no caption; and the next message is understood as usual.
    assert chat.deliver(photo(5, "   ")) == [
        "For now I can only read text messages 🙏 Could you type that for me?"
    ]
    assert "milk" in chat.say("what's on my shopping list?")


def test_the_text_only_reply_follows_the_profile_over_the_country(
    chat: Conversation, user: WhatsAppUser
) -> None:
    chat.say("hello there")
    assert chat.deliver(message_fixtures(user)["image"]) == [
        "For now I can only read text messages 🙏 Could you type that for me?"
    ]


def test_a_new_user_from_elsewhere_gets_english(chat: Conversation) -> None:
    chat.user = WhatsAppUser(wa_id="15551234567", name="Sam")
    assert chat.deliver(message_fixtures(chat.user)["request_welcome"])[0].startswith("Hi Sam! I'm Memo 👋")


def test_timestamps_may_be_numbers_and_contacts_may_be_missing(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser
) -> None:
    message = {**user.text("hello"), "timestamp": 1700000000, "some_new_field": {"x": 1}}
    body = envelope(
        [
            {
                "messaging_product": "whatsapp",
                "metadata": {"phone_number_id": user.phone_number_id},
                "messages": [message],
            }
        ]
    )
    response = post(body)
    assert response["statusCode"] == 200, response
    assert stack.poller is not None
    stack.poller.drain()
    assert chat.replies()[0].startswith("Good")


def test_still_strict_on_signature_and_shape(stack: LocalStack, user: WhatsAppUser) -> None:
    assert post(user.payload(user.text("hi")), secret="wrong")["statusCode"] == 403
    bad_timestamp = {**user.text("hi"), "timestamp": ["1700000000"]}
    assert post(user.payload(bad_timestamp))["statusCode"] == 400
    assert post({"object": "whatsapp_business_account", "entry": []})["statusCode"] == 400


@pytest.mark.parametrize(("wa_id", "language"), [("15551234567", "en"), ("972501234567", "he")])
def test_every_example_of_the_welcome_works(chat: Conversation, wa_id: str, language: str) -> None:
    chat.user = WhatsAppUser(wa_id=wa_id, name="Dana")
    [welcome] = chat.deliver(chat.user.message("request_welcome", {}))
    examples = [line.removeprefix("• ") for line in welcome.splitlines() if line.startswith("• ")]
    assert len(examples) == 3
    not_understood = ("I'm not sure I understood", "לא בטוח שהבנתי")
    for example in examples:
        reply = chat.say(example)
        assert not reply.startswith(not_understood), (example, reply)
