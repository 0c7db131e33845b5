"""The bound on a webhook body's ids (`memo.ingress.ids`): at the limit an id is kept, one byte past
it it is treated as absent, counted in UTF-8 bytes, and logged without the id itself; and how each
id of a message is bounded (`memo.ingress.messages.bound_ids`, over the parsed payload)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.ingress.ids import DEFAULT_MAX_ID_BYTES, ID_TOO_LONG, UNKNOWN_REPLY_ID, id_bytes, within
from memo.ingress.messages import QueuedMessage, parse_webhook
from memo.ingress.statuses import report
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import WhatsAppUser, status_payload
from tests.support.conversation import LogEvents

LIMIT = DEFAULT_MAX_ID_BYTES
USER = WhatsAppUser()


def _parse(message: dict[str, Any], limit: int = LIMIT) -> list[QueuedMessage]:
    return parse_webhook(parse_payload(USER.payload(message)), max_id_bytes=limit).messages


def test_an_id_of_exactly_the_limit_is_kept_and_one_byte_more_is_not(log_events: LogEvents) -> None:
    assert within("w" * LIMIT, "context_id", LIMIT) == "w" * LIMIT
    assert log_events.named(ID_TOO_LONG) == []
    assert within("w" * (LIMIT + 1), "context_id", LIMIT) is None
    (logged,) = log_events.named(ID_TOO_LONG)
    assert (logged["field"], logged["bytes"], logged["limit"]) == ("context_id", LIMIT + 1, LIMIT)
    assert "w" * 20 not in str(logged)  # the length, never the id


def test_the_limit_counts_utf8_bytes_not_characters() -> None:
    hebrew = "א" * (LIMIT // 2)  # two bytes each
    assert within(hebrew, "reply_id", LIMIT) == hebrew
    assert within(hebrew + "א", "reply_id", LIMIT) is None


@given(value=st.text(max_size=400), limit=st.integers(min_value=64, max_value=512))
def test_an_id_is_kept_exactly_when_it_fits(value: str, limit: int) -> None:
    kept = within(value, "target_id", limit)
    assert (kept == value) == (id_bytes(value) <= limit)
    assert kept in (value, None)


def _reply(choice_id: str) -> dict[str, Any]:
    return USER.button_reply(choice_id, "Approve")


def _quoting(context_id: str) -> dict[str, Any]:
    message = USER.text("and this one")
    message["context"] = {"from": USER.wa_id, "id": context_id}
    return message


def _reaction(target: str) -> dict[str, Any]:
    return USER.message("reaction", {"reaction": {"message_id": target, "emoji": "👍"}})


@pytest.mark.parametrize("size", [LIMIT, LIMIT + 1])
def test_a_quoted_message_id_past_the_limit_is_no_quote(size: int) -> None:
    (message,) = _parse(_quoting("q" * size))
    assert message.context_id == ("q" * size if size <= LIMIT else None)
    assert message.text == "and this one"


@pytest.mark.parametrize("size", [LIMIT, LIMIT + 1])
def test_a_reacted_to_message_id_past_the_limit_is_no_target(size: int) -> None:
    (message,) = _parse(_reaction("r" * size))
    assert message.target_id == ("r" * size if size <= LIMIT else None)
    assert message.emoji == "👍"


@pytest.mark.parametrize("size", [LIMIT, LIMIT + 1])
def test_a_button_reply_id_past_the_limit_is_an_unknown_button(size: int) -> None:
    (message,) = _parse(_reply("b" * size))
    assert message.reply_id == ("b" * size if size <= LIMIT else UNKNOWN_REPLY_ID)
    assert message.reply_title == "Approve"


@pytest.mark.parametrize("size", [LIMIT, LIMIT + 1])
def test_a_message_id_past_the_limit_drops_that_message_only(size: int) -> None:
    document = USER.payload(USER.text("first", wamid="m" * size), USER.text("second"))
    messages = parse_webhook(parse_payload(document), max_id_bytes=LIMIT).messages
    assert [m.text for m in messages] == (["first", "second"] if size <= LIMIT else ["second"])


def test_a_sender_past_the_limit_drops_the_message() -> None:
    long_sender = WhatsAppUser(wa_id="9" * (LIMIT + 1))
    document = long_sender.payload(long_sender.text("hi"))
    assert parse_webhook(parse_payload(document), max_id_bytes=LIMIT).messages == []


def test_a_configured_limit_is_the_one_applied() -> None:
    (message,) = _parse(_quoting("q" * 100), limit=64)
    assert message.context_id is None
    (message,) = _parse(_quoting("q" * 64), limit=64)
    assert message.context_id == "q" * 64


@pytest.mark.parametrize("size", [LIMIT - len("status.failed."), LIMIT])
def test_a_failed_status_whose_follow_up_id_would_pass_the_limit_is_not_followed_up(size: int) -> None:
    document = status_payload("s" * size, "failed", USER.wa_id, errors=[{"code": 131047, "title": "x"}])
    follow_ups = report(parse_payload(document), max_id_bytes=LIMIT)
    assert len(follow_ups) == (1 if size + len("status.failed.") <= LIMIT else 0)
