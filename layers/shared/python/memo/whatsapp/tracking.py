"""Delivery tracking: what each outbound WhatsApp message carried, told by the message itself.

Every message Memo sends carries a compact tracking tag in the Graph API's
`biz_opaque_callback_data` field (at most 512 characters; Meta does not read it and echoes it in
every `statuses` object of the webhook for that message). The tag says what the message was: its
kind (a reply, a HITL question, a reminder delivery), the thread, the reminder and how it was sent
(text or template) for a reminder, a send token (the same for every part of one send, and in the
`SEND_OUTCOME_UNKNOWN` log line of an ambiguous send) and the part's index. So a `failed` status says
by itself what failed, and its follow-up needs no stored record of each send.

One thing is still stored, by outbound message id (`OutboundLog.record`): the message of a HITL
question that a 👍/✅ reaction may answer (a yes/no question with one safe default). A reaction names
only the message it reacts to, with no tag, so that message id is the only way to know the reaction
is on the open question's own message. Nothing is kept for any other message.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from memo.whatsapp.tags import TAG_LIMIT, OutboundKind, OutboundTag, SendMode, send_token

__all__ = [
    "TAG_LIMIT",
    "OutboundKind",
    "OutboundLog",
    "OutboundRecord",
    "OutboundTag",
    "SendMode",
    "send_token",
]


class OutboundRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    message_id: str
    thread_id: str
    kind: OutboundKind
    at: datetime
    phone_number_id: str | None = None
    reminder_id: str | None = None  # kind "reminder": the reminder this message delivered
    mode: SendMode | None = None  # kind "reminder": how it was sent
    token: str | None = None  # the send token of its tag

    @classmethod
    def of_tag(
        cls, tag: OutboundTag, message_id: str, *, at: datetime, phone_number_id: str | None = None
    ) -> OutboundRecord:
        """What the message with this tag carried, as the failure follow-up reads it."""
        return cls(
            message_id=message_id,
            thread_id=tag.thread_id,
            kind=tag.kind,
            at=at,
            phone_number_id=phone_number_id,
            reminder_id=tag.reminder_id,
            mode=tag.mode,
            token=tag.token,
        )


class OutboundLog(Protocol):
    def record(self, records: list[OutboundRecord]) -> None:
        """Keep each record (only a question a reaction may answer; the same id overwrites itself)."""

    def get(self, message_id: str) -> OutboundRecord | None: ...

    def claim_retry(self, message_id: str, *, at: datetime) -> bool:
        """Claim the follow-up of a failed message; False when another delivery of its status did."""
