"""The turn path's `InboundMessage` reads what ingress queued (`QueuedMessage`): the same fields and
defaults, the same event row, and the old meaning of messages queued before the event table."""

from __future__ import annotations

from memo.ingress.inbound import InboundMessage
from memo.ingress.messages import QueuedMessage, parse_webhook
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import WhatsAppUser
from tests.integration.ingress.fixtures import message_fixtures

USER = WhatsAppUser()


def test_messages_enqueued_before_the_table_keep_their_old_meaning() -> None:
    [text] = parse_webhook(parse_payload(USER.payload(USER.text("hi")))).messages
    old = text._replace(event="")
    assert old.handling == "turn"
    assert old._replace(type="image").handling == "text_only"
    # The turn path reads such a message off the queue the same way.
    read = InboundMessage.model_validate_json(text.to_json()).model_copy(update={"event": ""})
    assert read.handling == "turn"
    assert read.model_copy(update={"type": "image"}).handling == "text_only"


def test_the_queued_message_and_the_turns_inbound_message_have_the_same_fields() -> None:
    """Ingress writes `QueuedMessage` JSON; the turn path reads `InboundMessage`: same names, same defaults."""
    inbound = {
        name: field.get_default(call_default_factory=True)
        for name, field in InboundMessage.model_fields.items()
    }
    queued = {name: QueuedMessage._field_defaults.get(name, inbound[name]) for name in QueuedMessage._fields}
    queued["error_codes"] = list(queued["error_codes"])
    assert queued == inbound
    required = {name for name, field in InboundMessage.model_fields.items() if field.is_required()}
    assert required == set(QueuedMessage._fields) - set(QueuedMessage._field_defaults)


def test_every_fixture_reaches_the_turn_path_as_it_left_ingress() -> None:
    for message in message_fixtures(USER).values():
        [queued] = parse_webhook(parse_payload(USER.payload(message))).messages
        inbound = InboundMessage.model_validate_json(queued.to_json())
        assert inbound.model_dump() == queued.to_dict()
        assert (inbound.row, inbound.handling, inbound.actionable) == (
            queued.row,
            queued.handling,
            queued.actionable,
        )
