"""Inbound WhatsApp messages as Memo's domain sees them, converted from the webhook wire models.

An `InboundMessage` is what travels on the FIFO queue from ingress to the turn path: one per user
message, whatever the batch it came in. Its thread is the user: the phone number (`from` / `wa_id`)
when Meta sends it, else the business-scoped user id (BSUID).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from memo.whatsapp.models import WaContact, WaMessage, WebhookPayload

# Message types that carry text Memo can act on; everything else gets a polite "text only" reply.
ACTIONABLE_TYPES = frozenset({"text", "interactive", "button"})


class InboundMessage(BaseModel):
    model_config = ConfigDict(frozen=True)

    wamid: str
    thread_id: str
    wa_id: str | None = None
    user_id: str | None = None
    phone_number_id: str
    timestamp: int
    type: str
    text: str = ""
    reply_id: str | None = None  # id of the chosen reply button / list row
    reply_title: str | None = None
    context_id: str | None = None  # the message this one replies to
    profile_name: str | None = None

    @property
    def actionable(self) -> bool:
        return self.type in ACTIONABLE_TYPES and bool(self.text or self.reply_id)


class ParsedWebhook(BaseModel):
    messages: list[InboundMessage]
    statuses: int


def parse_webhook(payload: WebhookPayload) -> ParsedWebhook:
    """Every message of every entry and change, in order; status callbacks are only counted."""
    messages: list[InboundMessage] = []
    statuses = 0
    for entry in payload.entry:
        for change in entry.changes:
            value = change.value
            statuses += len(value.statuses)
            if not value.messages:
                continue
            phone_number_id = value.metadata.phone_number_id if value.metadata else entry.id
            for message in value.messages:
                converted = _convert(message, _contact_for(message, value.contacts), phone_number_id)
                if converted is not None:
                    messages.append(converted)
    return ParsedWebhook(messages=messages, statuses=statuses)


def _contact_for(message: WaMessage, contacts: list[WaContact]) -> WaContact | None:
    for contact in contacts:
        if (message.from_ and contact.wa_id == message.from_) or (
            message.from_user_id and contact.user_id == message.from_user_id
        ):
            return contact
    return contacts[0] if len(contacts) == 1 else None


def _convert(message: WaMessage, contact: WaContact | None, phone_number_id: str) -> InboundMessage | None:
    wa_id = message.from_ or (contact.wa_id if contact else None)
    user_id = message.from_user_id or (contact.user_id if contact else None)
    thread_id = wa_id or user_id
    if not thread_id:
        return None  # nobody to answer: nothing to enqueue
    text, reply_id, reply_title = _content(message)
    try:
        timestamp = int(message.timestamp)
    except ValueError:
        timestamp = 0
    return InboundMessage(
        wamid=message.id,
        thread_id=thread_id,
        wa_id=wa_id,
        user_id=user_id,
        phone_number_id=phone_number_id,
        timestamp=timestamp,
        type=message.type,
        text=text,
        reply_id=reply_id,
        reply_title=reply_title,
        context_id=message.context.id if message.context else None,
        profile_name=contact.profile.name if contact and contact.profile else None,
    )


def _content(message: WaMessage) -> tuple[str, str | None, str | None]:
    if message.type == "text" and message.text is not None:
        return message.text.body, None, None
    if message.type == "interactive" and message.interactive is not None:
        choice = message.interactive.button_reply or message.interactive.list_reply
        if choice is not None:
            return choice.title, choice.id, choice.title
    if message.type == "button" and message.button is not None:
        return message.button.text, message.button.payload, message.button.text
    return "", None, None
