"""The event table: every WhatsApp message kind names its row, and each row's handling is logged one way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.ingress.events import (
    GROUP_ROW,
    MESSAGE_EVENTS,
    STATUS_EVENTS,
    caption,
    message_event,
    message_key,
    row,
)
from memo.ingress.wire import WaInteractive, WaMedia, WaMessage, WaSystem


def _message(type_: str, **fields: object) -> WaMessage:
    return WaMessage(id="wamid.IN", type=type_, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("message", "key", "handling"),
    [
        (_message("text"), "text", "turn"),
        (_message("interactive", interactive=WaInteractive("button_reply")), "interactive.button_reply", "turn"),
        (_message("interactive", interactive=WaInteractive("list_reply")), "interactive.list_reply", "turn"),
        (_message("interactive", interactive=WaInteractive("nfm_reply")), "interactive.nfm_reply", "text_only"),
        (_message("button"), "button", "turn"),
        (_message("reaction"), "reaction", "reaction"),
        (_message("audio"), "audio", "voice"),
        (_message("voice"), "audio", "voice"),  # some API versions name voice notes apart
        (_message("image", image=WaMedia(id="1")), "image", "text_only"),
        (_message("image", image=WaMedia(id="1", caption="pay this at 9")), "image.caption", "turn"),
        (_message("video", video=WaMedia(id="1", caption="send to grandma")), "video.caption", "turn"),
        (_message("document", document=WaMedia(id="1", caption="sign this")), "document.caption", "turn"),
        (_message("sticker"), "sticker", "text_only"),
        (_message("system", system=WaSystem("user_changed_number", "972509999999")), "system.user_changed_number", "changed_number"),
        (_message("system", system=WaSystem("customer_identity_changed")), "system.customer_identity_changed", "silent"),
        (_message("request_welcome"), "request_welcome", "welcome"),
        (_message("edit"), "edit", "edit"),
        (_message("revoke"), "revoke", "silent"),
        (_message("unsupported"), "unsupported", "text_only"),
    ],
)  # fmt: skip
def test_each_message_kind_names_its_row(message: WaMessage, key: str, handling: str) -> None:
    assert message_key(message) == key
    event = message_event(message)
    assert (event.key, event.handling) == (key, handling)


@pytest.mark.parametrize(
    "message",
    [
        _message("image", image=WaMedia(id="1", caption=" \n ")),  # only spaces: no caption
        _message("image"),  # no media object at all
        _message("audio", audio=WaMedia(id="1", caption="a caption Meta never sends on audio")),
    ],
)
def test_only_a_real_caption_on_an_image_video_or_document_is_read(message: WaMessage) -> None:
    assert caption(message) == ""
    assert not message_key(message).endswith(".caption")


def test_a_caption_is_read_without_its_surrounding_spaces() -> None:
    assert caption(_message("video", video=WaMedia(caption="  call mom  "))) == "call mom"


@pytest.mark.parametrize(
    "message",
    [_message("system"), _message("system", system=WaSystem("a_notice_meta_adds_later"))],
)
def test_an_unknown_system_notice_is_the_general_system_row(message: WaMessage) -> None:
    assert message_event(message).key == "system"
    assert message_event(message).handling == "silent"


def test_an_unknown_interactive_subtype_is_the_other_row() -> None:
    event = message_event(_message("interactive", interactive=WaInteractive("payment_reply")))
    assert (event.key, event.handling) == ("other", "text_only")


@pytest.mark.parametrize(
    "type_", ["status.failed", "image.caption", "system.user_changed_number", "interactive.x"]
)
def test_a_type_written_like_a_derived_key_is_an_unknown_type(type_: str) -> None:
    """Meta's `type` is one word: one with a dot never takes a row Memo derives itself (a status's
    delivery-failed handling, a captioned photo)."""
    event = message_event(_message(type_))
    assert (event.key, event.handling) == ("other", "text_only")


@given(st.from_regex(r"[a-z_.]{1,20}", fullmatch=True))
def test_any_message_type_meta_may_add_gets_a_message_row(type_: str) -> None:
    event = message_event(_message(type_))
    assert event in MESSAGE_EVENTS
    assert event.key in (type_, "other", "audio" if type_ == "voice" else type_)


def test_every_row_has_its_own_key_and_a_row_is_found_by_it() -> None:
    rows = (*MESSAGE_EVENTS, *STATUS_EVENTS, GROUP_ROW)
    assert len({r.key for r in rows}) == len(rows)
    assert all(row(r.key) is r for r in (*MESSAGE_EVENTS, *STATUS_EVENTS))
    assert row("not.a.row") is row("other")


def test_each_acted_on_handling_is_logged_under_one_event() -> None:
    logs: dict[str, set[str]] = {}
    for event in (*MESSAGE_EVENTS, *STATUS_EVENTS):
        logs.setdefault(event.handling, set()).add(event.log)
    assert {handling: names for handling, names in logs.items() if handling != "silent"} == {
        "turn": {"TURN_DONE"},
        "text_only": {"UNSUPPORTED_MESSAGE"},
        "voice": {"VOICE_NOTE"},
        "reaction": {"REACTION_RECEIVED"},
        "edit": {"MESSAGE_EDITED"},
        "changed_number": {"NUMBER_CHANGED"},
        "welcome": {"WELCOME_SENT"},
        "delivery_failed": {"WHATSAPP_DELIVERY_FAILED"},
    }
    assert [r.key for r in STATUS_EVENTS if r.handling != "silent"] == ["status.failed"]
