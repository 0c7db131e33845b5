"""Inbound WhatsApp messages as Memo's domain sees them, converted from the webhook wire models.

An `InboundMessage` is what travels on the FIFO queue from ingress to the turn path: one per user
message, whatever the batch it came in. Its thread is the user: the phone number (`from` / `wa_id`)
when Meta sends it, else the business-scoped user id (BSUID).

Each message names its row of the event table (`memo.whatsapp.events`), which says what the turn does
with it. Within one webhook batch only the first message per user that gets the "text only" reply
keeps `reply_unsupported`: an album of three photos is answered once.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from memo.text.wording import shorten
from memo.whatsapp.events import EventRow, Handling, message_key, row
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
    event: str = ""  # the event table's key ("" on messages enqueued before the table existed)
    target_id: str | None = None  # the message a reaction, edit or revoke names
    emoji: str | None = None  # a reaction's emoji ("" when it was removed)
    group_id: str | None = None  # a group chat's id: never answered privately
    new_wa_id: str | None = None  # user_changed_number: the user's new number
    media_id: str | None = None  # audio: the Graph API media id
    media_mime: str | None = None
    media_size: int | None = None
    voice: bool = False
    error_codes: list[int] = []  # `unsupported` messages: Meta's error codes
    outbound_tag: str | None = None  # `status.failed`: the failed message's tracking tag, as Meta echoed it
    reply_unsupported: bool = True  # False: this batch already answers this user's "text only"

    @property
    def actionable(self) -> bool:
        return self.handling == "turn" and bool(self.text or self.reply_id)

    @property
    def row(self) -> EventRow:
        if self.event:
            return row(self.event)
        # Enqueued before the event table: text types were turned, the rest answered "text only".
        return row(self.type if self.type in ACTIONABLE_TYPES else "other")

    @property
    def handling(self) -> Handling:
        return self.row.handling


class ParsedWebhook(BaseModel):
    messages: list[InboundMessage]
    statuses: int


# WhatsApp display names are short; a longer one is junk or an attack, and it is echoed in greetings.
PROFILE_NAME_LIMIT = 64


def _profile_name(name: str | None) -> str | None:
    if name is None:
        return None
    name = " ".join(name.split())
    return shorten(name, PROFILE_NAME_LIMIT) if name else None


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
    return ParsedWebhook(messages=_one_text_only_reply_per_user(messages), statuses=statuses)


def _one_text_only_reply_per_user(messages: list[InboundMessage]) -> list[InboundMessage]:
    answered: set[str] = set()
    kept: list[InboundMessage] = []
    for message in messages:
        if message.handling == "text_only" and message.group_id is None:
            if message.thread_id in answered:
                message = message.model_copy(update={"reply_unsupported": False})
            answered.add(message.thread_id)
        kept.append(message)
    return kept


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
    audio = message.audio or message.voice
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
        profile_name=_profile_name(contact.profile.name if contact and contact.profile else None),
        event=message_key(message),
        target_id=_target(message),
        emoji=(message.reaction.emoji or "") if message.reaction is not None else None,
        group_id=message.group_id,
        new_wa_id=message.system.new_wa_id if message.system is not None else None,
        media_id=audio.id if audio is not None else None,
        media_mime=audio.mime_type if audio is not None else None,
        media_size=audio.file_size if audio is not None else None,
        voice=bool(audio is not None and (audio.voice or message.voice is not None)),
        error_codes=[e.code for e in message.errors if e.code is not None],
    )


def _target(message: WaMessage) -> str | None:
    if message.reaction is not None:
        return message.reaction.message_id
    if message.edit is not None:
        return message.edit.original_message_id or (message.context.id if message.context else None)
    if message.revoke is not None:
        return message.revoke.original_message_id or (message.context.id if message.context else None)
    return None


def _content(message: WaMessage) -> tuple[str, str | None, str | None]:
    if message.type == "text" and message.text is not None:
        return message.text.body, None, None
    if message.type == "interactive" and message.interactive is not None:
        choice = message.interactive.button_reply or message.interactive.list_reply
        if choice is not None:
            return choice.title, choice.id, choice.title
    if message.type == "button" and message.button is not None:
        return message.button.text, message.button.payload, message.button.text
    if message.type == "edit" and message.edit is not None and message.edit.message is not None:
        edited = message.edit.message.text
        return (edited.body if edited is not None else ""), None, None
    return "", None, None
