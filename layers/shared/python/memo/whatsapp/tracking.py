"""Delivery tracking: what each outbound WhatsApp message carried, by its message id.

Meta's statuses and a user's reactions name a message by the id the Graph API returned when Memo
sent it. Keeping that id with what it carried (a reply, a HITL question, a reminder delivery) lets a
`failed` status find the reminder it failed to deliver, and a 👍 find the question it answers. This
is separate from the reply memory (which items a message named): it is keyed by the outbound id.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

OutboundKind = Literal["reply", "hitl_question", "reminder"]


class OutboundRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    message_id: str
    thread_id: str
    kind: OutboundKind
    at: datetime
    phone_number_id: str | None = None
    reminder_id: str | None = None  # kind "reminder": the reminder this message delivered
    mode: Literal["text", "template"] | None = None  # kind "reminder": how it was sent


class OutboundLog(Protocol):
    def record(self, records: list[OutboundRecord]) -> None:
        """Keep each record (idempotent: the same message id overwrites itself)."""

    def get(self, message_id: str) -> OutboundRecord | None: ...

    def claim_retry(self, message_id: str, *, at: datetime) -> bool:
        """Mark the failed message as followed up; False when another delivery already did."""


class _Delivered(Protocol):
    """What `memo.reminders.deliver.deliver` answers (`DeliveryResult`)."""

    @property
    def outcome(self) -> str: ...

    @property
    def reminder_id(self) -> str: ...

    @property
    def mode(self) -> Literal["text", "template"] | None: ...

    @property
    def message_ids(self) -> list[str]: ...


def record_delivery(log: OutboundLog, event: Mapping[str, Any], result: _Delivered, *, now: datetime) -> None:
    """Keep the message ids of a reminder delivery (the reminders Lambda, after `deliver`)."""
    thread_id = event.get("threadId")
    if result.outcome != "sent" or not isinstance(thread_id, str):
        return
    log.record(
        [
            OutboundRecord(
                message_id=message_id,
                thread_id=thread_id,
                kind="reminder",
                at=now,
                reminder_id=result.reminder_id,
                mode=result.mode,
            )
            for message_id in result.message_ids
            if message_id
        ]
    )


def record_sent(
    log: OutboundLog,
    *,
    thread_id: str,
    kind: OutboundKind,
    message_ids: list[str],
    now: datetime,
    phone_number_id: str | None = None,
) -> None:
    """Keep the message ids of one send (the responder Lambda's reply, after `respond`)."""
    log.record(
        [
            OutboundRecord(
                message_id=message_id, thread_id=thread_id, kind=kind, at=now, phone_number_id=phone_number_id
            )
            for message_id in message_ids
            if message_id
        ]
    )
