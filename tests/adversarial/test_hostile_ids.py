"""Hostile ids in signed payloads, through the webhook: a crafted Undo button past year 9999 once
crashed its turn five times and blocked the user's queue group; ids thousands of characters long
(a quoted message, a reaction's target, a button's id, the message's own id, a status's) became
DynamoDB keys past their 1,024-byte limit. Now each gets a clear answer or is treated as absent,
and the user's next message is answered as usual."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from memo.conversation.smalltalk import turn_failed
from memo.hitl.templates import button_gone
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES, ID_TOO_LONG
from memo.local.whatsapp_user import new_wamid, status_payload
from tests.support.button_ids import button_ids
from tests.support.conversation import Conversation, LogEvents
from tests.support.webhook import post

LONG = 10_000  # far past DynamoDB's 1,024-byte sort key
GONE = button_gone("en")


def _tap(chat: Conversation, reply_id: str, title: str = "Undo") -> list[str]:
    return chat.deliver(chat.user.button_reply(reply_id, title))


def _next_message_is_answered(chat: Conversation) -> None:
    """The user's queue group is not blocked: the next message is turned and answered."""
    (reply,) = chat.deliver(chat.user.text("remind me to call mom tomorrow at 5pm"))
    assert "call mom" in reply


def test_an_undo_button_past_year_9999_is_answered_once_and_blocks_nothing(chat: Conversation) -> None:
    assert _tap(chat, f"undo:253402300800:{new_wamid()}") == [GONE]
    _next_message_is_answered(chat)


@pytest.mark.parametrize(
    "reply_id",
    [
        "undo:99999999999999999999999999:wamid.X",  # past what a date holds, by far
        "undo:²:wamid.X",  # a digit to str.isdigit, not to int
        "undo:4102444800:wamid.X",  # year 2100: a window Memo never sends
        "reminder:snooze:15:abc",  # not a snooze Memo offers
        "reminder:done:" + "x" * 300,
    ],
)
def test_a_malformed_button_of_memos_own_is_answered_that_it_no_longer_works(
    chat: Conversation, reply_id: str
) -> None:
    assert _tap(chat, reply_id) == [GONE]
    _next_message_is_answered(chat)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reply_id=button_ids())
def test_any_tapped_id_is_answered_once_and_never_fails_the_turn(chat: Conversation, reply_id: str) -> None:
    replies = _tap(chat, reply_id, "Approve")
    assert len(replies) == 1 and replies != [turn_failed("en")], (reply_id, replies)


def _quoting(chat: Conversation, quoted: str, text: str) -> dict[str, Any]:
    message = chat.user.text(text)
    message["context"] = {"from": chat.user.wa_id, "id": quoted}
    return message


def test_a_reply_quoting_an_id_of_ten_thousand_characters_is_answered_as_a_plain_message(
    chat: Conversation, log_events: LogEvents
) -> None:
    replies = chat.deliver(_quoting(chat, "q" * LONG, "remind me to call mom tomorrow at 5pm"))
    assert len(replies) == 1 and "call mom" in replies[0]
    assert {e["field"] for e in log_events.named(ID_TOO_LONG)} == {"context_id"}


def test_a_reaction_to_an_id_of_ten_thousand_characters_changes_nothing_and_fails_nothing(
    chat: Conversation, log_events: LogEvents
) -> None:
    reaction = chat.user.message("reaction", {"reaction": {"message_id": "r" * LONG, "emoji": "👍"}})
    replies = chat.deliver(reaction)
    assert turn_failed("en") not in replies
    assert {e["field"] for e in log_events.named(ID_TOO_LONG)} == {"target_id"}
    _next_message_is_answered(chat)


@pytest.mark.parametrize("title", ["Approve", "Undo", "Done ✅"])
def test_a_button_id_of_ten_thousand_characters_is_a_button_that_no_longer_works(
    chat: Conversation, title: str
) -> None:
    assert _tap(chat, "b" * LONG, title) == [GONE]
    _next_message_is_answered(chat)


def test_a_message_id_past_the_limit_drops_that_message_and_turns_the_rest(
    chat: Conversation, log_events: LogEvents
) -> None:
    crafted = chat.user.text("delete all my reminders", wamid="w" * (DEFAULT_MAX_ID_BYTES + 1))
    kept = chat.user.text("remind me to call mom tomorrow at 5pm", wamid="w" * DEFAULT_MAX_ID_BYTES)
    response = post(chat.user.payload(crafted, kept))
    assert response["statusCode"] == 200  # not a 400 Meta would retry for days
    assert json.loads(response["body"])["enqueued"] == 1
    assert chat.stack.poller is not None and chat.stack.stepfunctions is not None
    chat.stack.poller.drain()
    chat.stack.stepfunctions.wait_all()
    (reply,) = chat.replies()
    assert "call mom" in reply
    assert [e["field"] for e in log_events.named(ID_TOO_LONG)] == ["wamid"]


def test_a_failed_status_of_an_id_of_ten_thousand_characters_is_accepted_and_not_followed_up(
    chat: Conversation, log_events: LogEvents
) -> None:
    document = status_payload("s" * LONG, "failed", chat.user.wa_id, errors=[{"code": 131047, "title": "x"}])
    response = post(document)
    assert response["statusCode"] == 200 and json.loads(response["body"])["enqueued"] == 0
    assert [e["field"] for e in log_events.named(ID_TOO_LONG)] == ["wamid"]
    _next_message_is_answered(chat)
