"""Wire payload -> domain messages: batches, message types, identities."""

from __future__ import annotations

from memo.ingress.messages import ParsedWebhook, parse_webhook
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import WhatsAppUser, envelope


def _parse(document: dict) -> ParsedWebhook:
    return parse_webhook(parse_payload(document))


def test_every_message_of_every_entry_and_change_is_kept_in_order() -> None:
    dana, noa = (
        WhatsAppUser(wa_id="972500000001", name="Dana"),
        WhatsAppUser(wa_id="972500000002", name="Noa"),
    )
    document = envelope([dana.value([dana.text("one"), dana.text("two")]), noa.value([noa.text("three")])])
    document["entry"].append(envelope([dana.value([dana.text("four")])])["entry"][0])
    parsed = _parse(document)
    assert [m.text for m in parsed.messages] == ["one", "two", "three", "four"]
    assert [m.thread_id for m in parsed.messages] == [
        "972500000001",
        "972500000001",
        "972500000002",
        "972500000001",
    ]
    assert parsed.messages[2].profile_name == "Noa"


def test_interactive_replies_carry_the_choice_id() -> None:
    user = WhatsAppUser()
    parsed = _parse(
        user.payload(user.button_reply("approve", "Approve"), user.list_reply("opt-2", "Dentist"))
    )
    button, row = parsed.messages
    assert (button.reply_id, button.text, button.actionable) == ("approve", "Approve", True)
    assert (row.reply_id, row.text) == ("opt-2", "Dentist")


def test_media_and_unknown_types_are_kept_but_not_actionable() -> None:
    user = WhatsAppUser()
    kinds = [
        "image",
        "audio",
        "video",
        "document",
        "sticker",
        "location",
        "contacts",
        "reaction",
        "unsupported",
        "hologram",
    ]
    messages = [user.message(kind, {kind: {"id": "media-1"}}) for kind in kinds]
    parsed = _parse(user.payload(*messages))
    assert [m.type for m in parsed.messages] == kinds
    assert not any(m.actionable for m in parsed.messages)


def test_business_scoped_user_id_identifies_a_user_without_a_phone_number() -> None:
    user = WhatsAppUser(user_id="US.13491208655302741918")
    message = user.text("hi")
    del message["from"]
    value = user.value([message])
    del value["contacts"][0]["wa_id"]
    parsed = _parse(envelope([value]))
    assert parsed.messages[0].thread_id == "US.13491208655302741918"
    assert parsed.messages[0].wa_id is None


def test_both_identities_are_kept_when_meta_sends_both() -> None:
    user = WhatsAppUser(user_id="IL.777")
    message = _parse(user.payload(user.text("hi"))).messages[0]
    assert (message.thread_id, message.wa_id, message.user_id) == ("972501234567", "972501234567", "IL.777")
