"""Inbound WhatsApp messages as the turn path reads them off the FIFO queue.

Ingress enqueues each message as the JSON of a `memo.ingress.messages.QueuedMessage` (a named tuple: the
ingress path runs without pydantic); the turn path validates it into this `InboundMessage`, with the
same fields and defaults (a test holds the two together). One per user message, whatever the batch it
came in; its thread is the user: the phone number (`from` / `wa_id`) when Meta sends it, else the
business-scoped user id (BSUID). Each message names its row of the event table (`memo.ingress.events`),
which says what the turn does with it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from memo.ingress.events import EventRow, Handling, event_row


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
    new_wa_id: str | None = None  # user_changed_number: the new number (`system.wa_id`, else `new_wa_id`)
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
        return event_row(self.event, self.type)

    @property
    def handling(self) -> Handling:
        return self.row.handling
