"""Each inbound message names its row of the event table; a batch answers "text only" once per user."""

from __future__ import annotations

import pytest

from memo.ingress.inbound import InboundMessage
from memo.ingress.messages import QueuedMessage, parse_webhook
from memo.ingress.statuses import report
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import WhatsAppUser, envelope
from memo.whatsapp.events import MESSAGE_EVENTS, row
from tests.integration.ingress.fixtures import message_fixtures, status_fixtures

USER = WhatsAppUser()


def _parse(*messages: dict) -> list[QueuedMessage]:
    return parse_webhook(parse_payload(USER.payload(*messages))).messages


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


def test_messages_enqueued_before_the_table_keep_their_old_meaning() -> None:
    [text] = _parse(USER.text("hi"))
    old = text._replace(event="")
    assert old.handling == "turn"
    assert old._replace(type="image").handling == "text_only"
    # The turn path reads such a message off the queue the same way.
    read = InboundMessage.model_validate_json(text.to_json()).model_copy(update={"event": ""})
    assert read.handling == "turn"
    assert read.model_copy(update={"type": "image"}).handling == "text_only"


def test_only_failed_statuses_are_followed_up() -> None:
    fixtures = status_fixtures(USER.wa_id)
    for key in ("status.sent", "status.delivered", "status.read", "account.errors", "account.other_field"):
        assert report(parse_payload(fixtures[key])) == []
    [follow_up] = report(parse_payload(fixtures["status.failed"]))
    assert (follow_up.wamid, follow_up.error_codes, follow_up.handling) == (
        "status.failed.wamid.OUT2",
        (131047,),
        "delivery_failed",
    )
    assert row("status.failed").handling == "delivery_failed"
