"""Deeply nested signed bodies: a lone surrogate at the bottom of a field nested hundreds deep once
made the cleaner recurse past the interpreter's limit (a 500, so Meta retried the batch for days).
Now any body JSON can parse is cleaned and its messages go through; one nested deeper than JSON
parsing allows is a 400, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation
from tests.support.webhook import error_code, post


def _body_with(extra: Any, user: WhatsAppUser, text: str, *, depth: int = 0) -> bytes:
    """A body of one text message with `extra`, nested `depth` lists deep, under a field Memo does
    not read (written as text: encoding so deep a document would recurse in `json.dumps`)."""
    payload = user.payload(user.text(text))
    payload["entry"][0]["changes"][0]["value"]["x_extra"] = "EXTRA"
    nested = "[" * depth + json.dumps(extra) + "]" * depth
    return json.dumps(payload).replace('"EXTRA"', nested).encode()


@pytest.mark.parametrize("depth", [500, 900])
def test_a_lone_surrogate_nested_hundreds_deep_is_cleaned_and_the_message_answered(
    chat: Conversation, depth: int
) -> None:
    body = _body_with("\ud800", chat.user, "remind me to call mom tomorrow at 5pm", depth=depth)
    assert b"\\ud800" in body

    response = post(body)

    assert response["statusCode"] == 200, response
    assert json.loads(response["body"])["enqueued"] == 1
    assert chat.stack.poller is not None
    chat.stack.poller.drain()
    assert chat.stack.stepfunctions is not None
    chat.stack.stepfunctions.wait_all()
    (reply,) = chat.replies()
    assert "call mom" in reply


@pytest.mark.parametrize("depth", [1_000, 10_000])
def test_a_body_nested_deeper_than_json_parsing_allows_is_a_400_not_a_500(
    stack: LocalStack, user: WhatsAppUser, depth: int
) -> None:
    body = _body_with("\ud800", user, "hi", depth=depth)

    response = post(body)

    assert response["statusCode"] == 400
    assert error_code(response) == "MALFORMED_JSON"


_CHARS = st.characters() | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
_TEXT = st.text(_CHARS, max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_TEXT, children, max_size=3),
    max_leaves=20,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=_JSON, depth=st.integers(min_value=0, max_value=950), text=_TEXT.filter(str.strip))
def test_any_json_at_any_parseable_depth_is_accepted_with_its_message(
    stack: LocalStack, user: WhatsAppUser, extra: Any, depth: int, text: str
) -> None:
    body = _body_with(extra, user, text, depth=depth)

    response = post(body)

    assert response["statusCode"] == 200, response
    assert json.loads(response["body"])["enqueued"] == 1
