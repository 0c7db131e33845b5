"""The reminder template message: the Graph API body Meta expects, its parameter rules, and its send."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from memo.reminders.template import (
    PARAMETER_LIMIT,
    TemplateMessage,
    TemplateSender,
    template_body,
    template_parameter,
)
from memo.whatsapp.tracking import OutboundTag

THREAD = "972501234567"


def test_template_body_is_metas_shape() -> None:
    body = template_body(
        THREAD, TemplateMessage(name="memo_reminder", language_code="he", body_parameters=["a\nb   c"])
    )
    assert body == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": THREAD,
        "type": "template",
        "template": {
            "name": "memo_reminder",
            "language": {"code": "he"},
            "components": [{"type": "body", "parameters": [{"type": "text", "text": "a b c"}]}],
        },
    }
    assert template_body("US.123", TemplateMessage(name="x", language_code="en"))["recipient"] == "US.123"


def test_a_template_without_parameters_has_no_body_component() -> None:
    body = template_body(THREAD, TemplateMessage(name="memo_reminder", language_code="en"))
    assert body["template"] == {"name": "memo_reminder", "language": {"code": "en"}}


@given(st.text(max_size=PARAMETER_LIMIT + 200))
def test_a_parameter_is_always_one_line_meta_accepts(text: str) -> None:
    parameter = template_parameter(text)
    assert len(parameter) <= PARAMETER_LIMIT
    assert not re.search(r"[\n\t]| {5,}", parameter)
    assert parameter == parameter.strip()


@given(st.text(alphabet="abc \n\t", max_size=PARAMETER_LIMIT))
def test_a_parameter_that_fits_keeps_every_word(text: str) -> None:
    assert template_parameter(text).split() == text.split()


def test_a_long_title_is_cut_with_an_ellipsis() -> None:
    parameter = template_parameter("pay the bill " * 200)
    assert len(parameter) <= PARAMETER_LIMIT
    assert parameter.startswith("pay the bill pay") and parameter.endswith("…")
    assert not parameter[:-1].endswith(" ")  # no space before the ellipsis


class _Transport:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def __call__(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        self.calls.append((url, json.loads(body)))
        return 200, json.dumps({"messages": [{"id": "wamid.T"}]}).encode()


def test_a_template_is_sent_to_the_phone_number_id_and_tagged_as_a_reminders_template() -> None:
    transport = _Transport()
    sender = TemplateSender(base_url="https://graph.example/v21.0", access_token="tok", transport=transport)
    template = TemplateMessage(name="memo_reminder", language_code="en", body_parameters=["call mom"])
    sent = sender.send_template("PN1", THREAD, template)
    [(url, body)] = transport.calls
    assert url == "https://graph.example/v21.0/PN1/messages"
    tag = OutboundTag.decode(body.pop("biz_opaque_callback_data"))
    assert body == template_body(THREAD, template)
    assert tag is not None and (tag.kind, tag.thread_id, tag.mode) == ("reminder", THREAD, "template")
    assert sent.message_ids == ["wamid.T"]


def test_the_callers_tag_is_the_one_sent() -> None:
    transport = _Transport()
    sender = TemplateSender(base_url="https://graph.example/v21.0", access_token="tok", transport=transport)
    tag = OutboundTag.new("reminder", THREAD, seed="claim-1", reminder_id="r1", mode="template")
    sender.send_template("PN1", THREAD, TemplateMessage(name="memo_reminder", language_code="he"), tag=tag)
    assert OutboundTag.decode(transport.calls[0][1]["biz_opaque_callback_data"]) == tag
