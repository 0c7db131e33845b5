"""Meta's payload read with the standard library: what is accepted, what is refused and how the 400
names the bad fields (the rules pydantic's lax mode applied to the wire models before)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from memo.errors import NotAWhatsAppPayload
from memo.ingress.messages import QueuedMessage, parse_webhook
from memo.ingress.webhook import accept_webhook, sign
from memo.ingress.wire import WireError, parse_payload
from memo.local.whatsapp_user import WhatsAppUser, status_payload
from tests.integration.ingress.fixtures import message_fixtures, status_fixtures
from tests.support.whatsapp_fixtures import documented, recorded_body

USER = WhatsAppUser(name="Dana")
MESSAGE = ("entry", 0, "changes", 0, "value", "messages", 0)
STATUS = ("entry", 0, "changes", 0, "value", "statuses", 0)


def _with(document: dict[str, Any], path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    target: Any = changed
    for part in path[:-1]:
        target = target[part]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return changed


def _bad(document: object) -> list[str]:
    with pytest.raises(WireError) as refused:
        parse_payload(document)
    return refused.value.fields


def _message(**fields: object) -> dict[str, Any]:
    payload = USER.payload(USER.text("hi"))
    payload["entry"][0]["changes"][0]["value"]["messages"][0].update(fields)
    return payload


@pytest.mark.parametrize(
    ("document", "fields"),
    [
        ([1, 2, 3], ["body"]),
        ("text", ["body"]),
        ({"hello": "world"}, ["entry", "object"]),
        ({"object": "page", "entry": [{"id": "1"}]}, ["object"]),
        ({"object": "whatsapp_business_account", "entry": []}, ["entry"]),
        ({"object": "whatsapp_business_account", "entry": {}}, ["entry"]),
        ({"object": "whatsapp_business_account", "entry": [{}]}, ["entry.0.id"]),
        ({"object": "whatsapp_business_account", "entry": [{"id": 7}]}, ["entry.0.id"]),
        (
            {"object": "whatsapp_business_account", "entry": [{"id": "1", "changes": [{}]}]},
            [
                "entry.0.changes.0.field",
                "entry.0.changes.0.value",
            ],
        ),
        (
            {
                "object": "whatsapp_business_account",
                "entry": [{"id": "1", "changes": [{"field": "x", "value": 3}]}],
            },
            ["entry.0.changes.0.value"],
        ),
    ],
)
def test_not_a_whatsapp_payload_names_every_bad_field(document: object, fields: list[str]) -> None:
    assert _bad(document) == fields


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"id": ""}, "id"),  # a message id is not empty (its length is bounded by memo.ingress.ids)
        ({"id": 12}, "id"),
        ({"type": None}, "type"),
        ({"from": 972501234567}, "from"),  # a string field takes a string only
        ({"timestamp": True}, "timestamp"),
        ({"timestamp": [1]}, "timestamp"),
        ({"text": "hi"}, "text"),
        ({"text": {"body": 5}}, "text.body"),
        ({"errors": {}}, "errors"),
        ({"errors": [{"code": "x"}]}, "errors.0.code"),
        ({"errors": [{"code": 1.5}]}, "errors.0.code"),
        ({"audio": {"voice": "maybe"}}, "audio.voice"),
        ({"audio": {"voice": 2}}, "audio.voice"),
        ({"audio": {"file_size": "1e3"}}, "audio.file_size"),
        ({"audio": {"file_size": "12."}}, "audio.file_size"),
        ({"audio": {"file_size": "\u0661\u0662"}}, "audio.file_size"),  # digits, but not ASCII ones
        ({"interactive": {"button_reply": {"id": "a"}}}, "interactive.type"),
        (
            {"interactive": {"type": "button_reply", "button_reply": {"title": "A"}}},
            "interactive.button_reply.id",
        ),
        (
            {"interactive": {"type": "nfm_reply", "nfm_reply": {"response_json": {}}}},
            "interactive.nfm_reply.response_json",
        ),
        ({"context": {"from": 1}}, "context.from"),
        ({"edit": {"message": {"text": {"body": None}}}}, "edit.message.text.body"),
    ],
)
def test_a_bad_message_field_is_named_by_its_path(change: dict[str, object], field: str) -> None:
    assert _bad(_message(**change)) == [".".join(str(p) for p in MESSAGE) + "." + field]


@pytest.mark.parametrize(
    ("change", "read"),
    [
        ({"timestamp": 1767225600}, ("timestamp", "1767225600")),  # epoch seconds as a number
        ({"timestamp": 1767225600.0}, ("timestamp", "1767225600")),
        ({"errors": [{"code": "131051"}]}, ("errors", ((131051,),))),
        ({"errors": [{"code": 131051.0, "error_data": {"details": "x"}}]}, ("errors", ((131051,),))),
        ({"audio": {"id": "m", "voice": "true", "file_size": "2048"}}, ("audio", ("m", None, True, 2048))),
        ({"audio": {"id": "m", "voice": 0}}, ("audio", ("m", None, False, None))),
        ({"audio": {"id": "m", "file_size": " 1_024.00 "}}, ("audio", ("m", None, None, 1024))),
        ({"group_id": None, "context": None}, ("group_id", None)),
        ({"brand_new_field": {"from": "Meta"}}, ("type", "text")),  # unknown fields never fail
    ],
)
def test_what_pydantics_lax_mode_accepted_is_still_accepted(
    change: dict[str, object], read: tuple[str, object]
) -> None:
    message = parse_payload(_message(**change)).entry[0].changes[0].value.messages[0]
    name, expected = read
    value = getattr(message, name)
    if name == "errors":
        value = tuple((e.code,) for e in value)
    elif name == "audio":
        value = (value.id, value.mime_type, value.voice, value.file_size)
    assert value == expected


def test_a_timestamp_of_infinity_is_a_400_not_a_crash() -> None:
    # Python's JSON reads `Infinity`; the pydantic models raised OverflowError on it (a 500, retried).
    body = json.dumps(_message(timestamp=float("inf"))).encode()
    assert b"Infinity" in body
    with pytest.raises(NotAWhatsAppPayload, match=r"messages\.0\.timestamp"):
        accept_webhook(body, sign(body, "k"), app_secret="k", max_body_bytes=100_000, queue=_NoQueue())


def test_statuses_read_their_tag_only_when_it_is_a_string() -> None:
    document = status_payload("wamid.X", "failed", "972501234567")
    for tag, read in (("{}", "{}"), (7, None), ({"memo": 1}, None), (None, None)):
        status = parse_payload(_with(document, (*STATUS, "biz_opaque_callback_data"), tag))
        assert status.entry[0].changes[0].value.statuses[0].biz_opaque_callback_data == read
    assert _bad(_with(document, (*STATUS, "status"), KeyError)) == [".".join(map(str, STATUS)) + ".status"]


def test_every_bad_field_is_reported_at_once_and_the_400_names_five() -> None:
    messages = [USER.text("hi") | {"id": ""} for _ in range(7)]
    body = json.dumps(USER.payload(*messages)).encode()
    with pytest.raises(NotAWhatsAppPayload) as refused:
        accept_webhook(body, sign(body, "k"), app_secret="k", max_body_bytes=100_000, queue=_NoQueue())
    assert len(_bad(json.loads(body))) == 7
    assert refused.value.message.count("entry.0.changes.0.value.messages.") == 5


def test_every_documented_fixture_is_read() -> None:
    for message in message_fixtures(USER).values():
        parse_payload(USER.payload(message))
    for document in status_fixtures(USER.wa_id).values():
        parse_payload(document)


class _NoQueue:
    def enqueue(self, messages: list[QueuedMessage]) -> None:
        raise AssertionError("nothing may be enqueued")


# --- a changed number: Meta's documented notice (tests/fixtures/whatsapp/) ------------------------


def _system(document: dict[str, Any]) -> Any:
    message = parse_payload(document).entry[0].changes[0].value.messages[0]
    assert message.type == "system" and message.system is not None
    return message


def test_the_documented_changed_number_notice_names_the_new_number_in_wa_id() -> None:
    message = _system(documented("user_changed_number"))
    assert (message.from_, message.system.type) == ("16505551234", "user_changed_number")
    assert (message.system.wa_id, message.system.new_wa_id) == ("12195555358", None)
    assert message.system.new_number == "12195555358"


def test_the_older_notice_names_it_in_new_wa_id() -> None:
    message = _system(documented("user_changed_number_new_wa_id"))
    assert (message.system.wa_id, message.system.new_number) == (None, "12195555358")


@pytest.mark.parametrize(
    ("system", "new_number"),
    [
        ({"wa_id": "12195555358"}, "12195555358"),
        ({"new_wa_id": "12195555358"}, "12195555358"),
        ({"new_wa_id": 12195555358}, "12195555358"),  # older payloads wrote it as a number
        ({"wa_id": "12195555358", "new_wa_id": "16505550000"}, "12195555358"),  # wa_id first
        ({"wa_id": None, "new_wa_id": "12195555358"}, "12195555358"),
        ({}, None),
    ],
)
def test_the_new_number_is_wa_id_else_new_wa_id(system: dict[str, object], new_number: str | None) -> None:
    document = documented("user_changed_number")
    fields = {"body": "User changed", "type": "user_changed_number", **system}
    message = _system(_with(document, (*MESSAGE, "system"), fields))
    assert message.system.new_number == new_number


@pytest.mark.parametrize("bad", [True, -1, 1.5, ["12195555358"], {"n": 1}])
def test_a_new_number_of_another_type_is_named_in_the_400(bad: object) -> None:
    for field in ("wa_id", "new_wa_id"):
        document = _with(documented("user_changed_number"), (*MESSAGE, "system", field), bad)
        assert _bad(document) == [".".join(map(str, MESSAGE)) + f".system.{field}"]


def test_the_queued_message_carries_the_new_number_and_the_notice_time() -> None:
    queued: list[QueuedMessage] = []

    class _Queue:
        def enqueue(self, messages: list[QueuedMessage]) -> None:
            queued.extend(messages)

    for name in ("user_changed_number", "user_changed_number_new_wa_id"):
        body = json.dumps(documented(name)).encode()
        accept_webhook(body, sign(body, "k"), app_secret="k", max_body_bytes=100_000, queue=_Queue())
    assert [(q.thread_id, q.new_wa_id, q.timestamp, q.event) for q in queued] == [
        ("16505551234", "12195555358", 1739321024, "system.user_changed_number")
    ] * 2


# --- an edit: Meta documents the new text, or an edited photo's, video's or document's new caption --


def _edited(kind: str, **edited: object) -> dict[str, Any]:
    document = recorded_body("meta/edit.json")  # an edited photo, as Meta documents it
    message = document["entry"][0]["changes"][0]["value"]["messages"][0]["edit"]["message"]
    media = message.pop("image")
    message.update({"type": kind, kind: {**media, **edited}})
    return document


@pytest.mark.parametrize("kind", ["image", "video", "document"])
def test_an_edited_caption_is_the_edits_new_text(kind: str) -> None:
    # Was "": only `edit.message.text` was read, so an edited caption could answer nothing.
    [queued] = parse_webhook(parse_payload(_edited(kind))).messages
    assert (queued.event, queued.text, queued.target_id) == (
        "edit",
        "Updated image caption",
        "wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=",
    )


def test_an_edited_text_is_read_before_any_caption_and_no_caption_is_no_text() -> None:
    with_text = _edited("image")
    with_text["entry"][0]["changes"][0]["value"]["messages"][0]["edit"]["message"]["text"] = {"body": "new"}
    assert [m.text for m in parse_webhook(parse_payload(with_text)).messages] == ["new"]
    assert [m.text for m in parse_webhook(parse_payload(_edited("image", caption="  "))).messages] == [""]
    assert [m.text for m in parse_webhook(parse_payload(_edited("video", caption=None))).messages] == [""]


def test_an_edited_caption_of_another_type_is_named_in_the_400() -> None:
    assert _bad(_edited("document", caption=5)) == [
        ".".join(map(str, MESSAGE)) + ".edit.message.document.caption"
    ]
