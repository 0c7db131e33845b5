"""Wire payload -> queued messages: every message of every entry and change, in order; batches,
message types, identities; each message names its row of the event table; a batch answers "text
only" once per user."""

from __future__ import annotations

import pytest

from memo.ingress.events import MESSAGE_EVENTS
from memo.ingress.messages import ParsedWebhook, QueuedMessage, parse_webhook
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import WhatsAppUser, envelope
from tests.integration.ingress.fixtures import message_fixtures

USER = WhatsAppUser()


def _parse_document(document: dict) -> ParsedWebhook:
    return parse_webhook(parse_payload(document))


def _parse(*messages: dict) -> list[QueuedMessage]:
    return parse_webhook(parse_payload(USER.payload(*messages))).messages


def test_every_message_of_every_entry_and_change_is_kept_in_order() -> None:
    dana, noa = (
        WhatsAppUser(wa_id="972500000001", name="Dana"),
        WhatsAppUser(wa_id="972500000002", name="Noa"),
    )
    document = envelope([dana.value([dana.text("one"), dana.text("two")]), noa.value([noa.text("three")])])
    document["entry"].append(envelope([dana.value([dana.text("four")])])["entry"][0])
    parsed = _parse_document(document)
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
    parsed = _parse_document(
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
    parsed = _parse_document(user.payload(*messages))
    assert [m.type for m in parsed.messages] == kinds
    assert not any(m.actionable for m in parsed.messages)


def test_business_scoped_user_id_identifies_a_user_without_a_phone_number() -> None:
    user = WhatsAppUser(user_id="US.13491208655302741918")
    message = user.text("hi")
    del message["from"]
    value = user.value([message])
    del value["contacts"][0]["wa_id"]
    parsed = _parse_document(envelope([value]))
    assert parsed.messages[0].thread_id == "US.13491208655302741918"
    assert parsed.messages[0].wa_id is None


def test_both_identities_are_kept_when_meta_sends_both() -> None:
    user = WhatsAppUser(user_id="IL.777")
    message = _parse_document(user.payload(user.text("hi"))).messages[0]
    assert (message.thread_id, message.wa_id, message.user_id) == ("972501234567", "972501234567", "IL.777")


@pytest.mark.parametrize("key", [r.key for r in MESSAGE_EVENTS])
def test_every_fixture_names_its_own_row(key: str) -> None:
    [message] = _parse(message_fixtures(USER)[key])
    assert message.row.key == key


def test_what_each_event_carries() -> None:
    f = message_fixtures(USER)
    [reaction, edit, revoke, system, audio, unsupported] = _parse(
        f["reaction"], f["edit"], f["revoke"], f["system.user_changed_number"], f["audio"], f["unsupported"]
    )
    assert (reaction.target_id, reaction.emoji) == (f["reaction"]["reaction"]["message_id"], "👍")
    assert (edit.target_id, edit.text) == ("wamid.HBgLOLDMESSAGE", "see you at 6")
    assert revoke.target_id == "wamid.HBgLOLDMESSAGE" and revoke.text == ""
    assert system.new_wa_id == "972509999999"
    assert (audio.media_id, audio.voice, audio.handling) == ("1479537139650975", True, "voice")
    assert unsupported.error_codes == (131051,)


def test_an_unknown_interactive_subtype_is_the_other_row() -> None:
    message = USER.message("interactive", {"interactive": {"type": "payment_reply"}})
    [parsed] = _parse(message)
    assert parsed.row.key == "other" and parsed.handling == "text_only"


def test_one_text_only_reply_per_user_per_batch() -> None:
    other = WhatsAppUser(wa_id="15550000002")
    images = [USER.message("image", {"image": {"id": str(n)}}) for n in range(3)]
    body = envelope([USER.value(images), other.value([other.message("sticker", {"sticker": {"id": "9"}})])])
    parsed = parse_webhook(parse_payload(body)).messages
    assert [(m.thread_id, m.reply_unsupported) for m in parsed] == [
        (USER.wa_id, True),
        (USER.wa_id, False),
        (USER.wa_id, False),
        ("15550000002", True),
    ]


def test_a_captioned_photo_answers_its_album() -> None:
    photos = [USER.message("image", {"image": {"id": str(n)}}) for n in range(2)]
    captioned = USER.message("image", {"image": {"id": "7", "caption": " remind me to pay this at 9 "}})
    parsed = parse_webhook(parse_payload(envelope([USER.value([*photos, captioned])]))).messages
    assert [(m.row.key, m.reply_unsupported) for m in parsed] == [
        ("image", False),
        ("image", False),
        ("image.caption", True),
    ]
    assert parsed[2].text == "remind me to pay this at 9" and parsed[2].actionable
