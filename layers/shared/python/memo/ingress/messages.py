"""The messages ingress puts on the FIFO queue, converted from the webhook's wire payload.

A `QueuedMessage` is one user message (or a failed status's follow-up), whatever the batch it came in;
its JSON is what travels on the queue, and the turn path reads it back as `memo.ingress.inbound.
InboundMessage` (same fields, same defaults: a test holds the two together). It is a named tuple,
not a pydantic model nor a dataclass, because the webhook's ingress path is what Meta waits on at a
cold start, and both cost far more to define.

Its thread is the user: the phone number (`from` / `wa_id`) when Meta sends it, else the
business-scoped user id (BSUID). Each message names its row of the event table (`memo.ingress.events`),
which says what the turn does with it. Within one webhook batch only the first message per user that
gets the "text only" reply keeps `reply_unsupported`: an album of three photos is answered once, and
not at all when one of its photos has a caption (the caption is read as text and answered).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from memo.ingress.events import EventRow, Handling, caption, event_row, message_key
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES, UNKNOWN_REPLY_ID, within
from memo.ingress.wire import WaContact, WaMessage, WebhookPayload
from memo.text.wording import shorten

# WhatsApp display names are short; a longer one is junk or an attack, and it is echoed in greetings.
PROFILE_NAME_LIMIT = 64


class QueuedMessage(NamedTuple):
    wamid: str
    thread_id: str
    phone_number_id: str
    timestamp: int
    type: str
    wa_id: str | None = None
    user_id: str | None = None
    text: str = ""
    reply_id: str | None = None  # id of the chosen reply button / list row
    reply_title: str | None = None
    context_id: str | None = None  # the message this one replies to
    profile_name: str | None = None
    event: str = ""  # the event table's key
    target_id: str | None = None  # the message a reaction, edit or revoke names
    emoji: str | None = None  # a reaction's emoji ("" when it was removed)
    group_id: str | None = None  # a group chat's id: never answered privately
    new_wa_id: str | None = None  # user_changed_number: the new number (`system.wa_id`, else `new_wa_id`)
    media_id: str | None = None  # audio: the Graph API media id
    media_mime: str | None = None
    media_size: int | None = None
    voice: bool = False
    error_codes: tuple[int, ...] = ()  # `unsupported` messages: Meta's error codes
    outbound_tag: str | None = None  # `status.failed`: the failed message's tracking tag, as Meta echoed it
    reply_unsupported: bool = True  # False: this batch already answers this user's "text only"

    @property
    def row(self) -> EventRow:
        return event_row(self.event, self.type)

    @property
    def handling(self) -> Handling:
        return self.row.handling

    @property
    def actionable(self) -> bool:
        return self.handling == "turn" and bool(self.text or self.reply_id)

    def to_dict(self) -> dict[str, Any]:
        document = self._asdict()
        document["error_codes"] = list(self.error_codes)
        return document

    def to_json(self) -> str:
        """The queue message's body (what `InboundMessage.model_validate_json` reads)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


class ParsedWebhook(NamedTuple):
    messages: list[QueuedMessage]
    statuses: int


def _profile_name(name: str | None) -> str | None:
    if name is None:
        return None
    name = " ".join(name.split())
    return shorten(name, PROFILE_NAME_LIMIT) if name else None


#: Ids without which a message cannot be keyed, answered or placed: one over the bound drops it.
_REQUIRED_IDS = ("wamid", "thread_id", "phone_number_id", "group_id")
#: Ids a message can do without: one over the bound is absent (a quote, a reaction's target, ...).
_OPTIONAL_IDS = ("wa_id", "user_id", "context_id", "target_id", "new_wa_id", "media_id")


def bound_ids(message: QueuedMessage, max_id_bytes: int) -> QueuedMessage | None:
    """The message with every id within `max_id_bytes` (`memo.ingress.ids`): over it, its own id,
    sender, business number or group drop the message (None); a quoted or targeted message, a new
    number or a media id become absent; a reply's id becomes `UNKNOWN_REPLY_ID`."""
    for name in _REQUIRED_IDS:
        value = getattr(message, name)
        if value is not None and within(value, name, max_id_bytes) is None:
            return None
    changes: dict[str, Any] = {}
    for name in _OPTIONAL_IDS:
        value = getattr(message, name)
        if value is not None and within(value, name, max_id_bytes) is None:
            changes[name] = None
    if message.reply_id is not None and within(message.reply_id, "reply_id", max_id_bytes) is None:
        changes["reply_id"] = UNKNOWN_REPLY_ID
    return message._replace(**changes) if changes else message


def parse_webhook(payload: WebhookPayload, *, max_id_bytes: int = DEFAULT_MAX_ID_BYTES) -> ParsedWebhook:
    """Every message of every entry and change, in order, its ids bounded (`bound_ids`); status
    callbacks are only counted."""
    messages: list[QueuedMessage] = []
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
                bounded = None if converted is None else bound_ids(converted, max_id_bytes)
                if bounded is not None:
                    messages.append(bounded)
    return ParsedWebhook(messages=_one_text_only_reply_per_user(messages), statuses=statuses)


def _one_text_only_reply_per_user(messages: list[QueuedMessage]) -> list[QueuedMessage]:
    # An album whose caption is read (`image.caption`) is answered by that caption's turn alone.
    answered = {m.thread_id for m in messages if m.event.endswith(".caption") and m.group_id is None}
    kept: list[QueuedMessage] = []
    for message in messages:
        if message.handling == "text_only" and message.group_id is None:
            if message.thread_id in answered:
                message = message._replace(reply_unsupported=False)
            answered.add(message.thread_id)
        kept.append(message)
    return kept


def _contact_for(message: WaMessage, contacts: tuple[WaContact, ...]) -> WaContact | None:
    for contact in contacts:
        if (message.from_ and contact.wa_id == message.from_) or (
            message.from_user_id and contact.user_id == message.from_user_id
        ):
            return contact
    return contacts[0] if len(contacts) == 1 else None


def _convert(message: WaMessage, contact: WaContact | None, phone_number_id: str) -> QueuedMessage | None:
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
    return QueuedMessage(
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
        new_wa_id=message.system.new_number if message.system is not None else None,
        media_id=audio.id if audio is not None else None,
        media_mime=audio.mime_type if audio is not None else None,
        media_size=audio.file_size if audio is not None else None,
        voice=bool(audio is not None and (audio.voice or message.voice is not None)),
        error_codes=tuple(e.code for e in message.errors if e.code is not None),
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
    return caption(message), None, None  # a picture's caption is what the person wrote
