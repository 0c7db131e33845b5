"""The events that are not a turn of the private conversation: silent events, a group message, a
changed number, a failed delivery (their rows of `memo.ingress.events`).

None of them loads the thread or writes its memory. The few that act (a group's reply, a number move,
a failed delivery's follow-up) first check that no earlier run turned the message: no write of the
turn claims them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from memo.ingress.inbound import InboundMessage
from memo.observability import count, logger, mask_phone
from memo.replies import Reply
from memo.text.language import detect_language
from memo.turn import events
from memo.turn.outcome import TurnResult
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundLog, OutboundRecord, OutboundTag


class NumberMover(Protocol):
    def move(self, old_thread_id: str, new_wa_id: str, *, now: datetime, changed_at: int) -> str:
        """Move the user's data to `new_wa_id` (idempotent); `changed_at` is the notice's `timestamp`
        (a change older than one already applied moves nothing); returns what happened ("moved", ...)."""


class FailedDeliveries(Protocol):
    def follow_up(self, record: OutboundRecord, codes: list[int], *, now: datetime) -> str:
        """What Memo does about one failed outbound message; returns the outcome's name."""


def silent(message: InboundMessage, trace_id: str, event: str, outcome: str = "silent") -> TurnResult:
    """An event Memo answers by nothing: logged under its row's event name."""
    count("SilentEvents")
    logger.info(
        event,
        extra={
            "event": message.event or message.type,
            "targetId": message.target_id,
            "emoji": message.emoji,
            "metaErrorCodes": message.error_codes or None,
        },
    )
    return _result(message, trace_id, outcome)


class GroupReplies(Protocol):
    def take(self, group_id: str, *, now: datetime) -> bool:
        """Whether the group may hear one more answer now (`MEMO_GROUP_MAX_REPLIES` per
        `MEMO_GROUP_REPLY_WINDOW_SECONDS`); True takes it."""


class OtherEvents:
    def __init__(
        self,
        *,
        sender: Sender,
        outbound: OutboundLog | None = None,
        number_mover: NumberMover | None = None,
        failed_deliveries: FailedDeliveries | None = None,
        turned_check: Callable[[], None] | None = None,
        group_replies: GroupReplies | None = None,
    ) -> None:
        self._group_replies = group_replies
        self._sender = sender
        self._outbound = outbound
        self._mover = number_mover
        self._failed = failed_deliveries
        self._turned_check = turned_check

    def handle(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult | None:
        """The event's result, or None when the message is a turn of the private conversation."""
        if message.group_id is not None:
            return self._group(message, trace_id, now)
        if message.handling == "silent":
            return silent(message, trace_id, message.row.log)
        if message.handling == "changed_number":
            return self._changed_number(message, trace_id, now)
        if message.handling == "delivery_failed":
            return self._delivery_failed(message, trace_id, now)
        return None

    def _not_turned_before(self) -> None:
        """Before a side effect that no write of the turn claims: raises `AlreadyTurned` when an
        earlier run turned the message."""
        if self._turned_check is not None:
            self._turned_check()

    def _group(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult:
        """A group message never reaches the member's private thread: no load, no memory, no question.
        A group hears a bounded number of answers: past it, an addressed line is logged and counted."""
        addressed = message.actionable and events.addressed_to_memo(message.text)
        logger.info(
            "GROUP_MESSAGE" if addressed else "GROUP_MESSAGE_IGNORED",
            extra={
                "groupId": message.group_id,
                "event": message.event or message.type,
                "addressed": addressed,
            },
        )
        if not addressed or message.group_id is None:
            return _result(message, trace_id, "group_ignored")
        language = detect_language(message.text, "en")
        reply = Reply.plain(events.group_reply(language))
        self._not_turned_before()
        if self._group_replies is not None and not self._group_replies.take(message.group_id, now=now):
            count("GroupRepliesLimited")
            logger.warning("GROUP_REPLY_LIMITED", extra={"groupId": message.group_id})
            return _result(message, trace_id, "group_reply_limited")
        try:
            self._sender.send_to_group(message.phone_number_id, message.group_id, reply)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="group_reply")
            sent = False
        else:
            sent = True
        return _result(message, trace_id, "group_answered", reply_text=reply.text, sent=sent)

    def _changed_number(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult:
        """`user_changed_number`: sent from the old number (the thread), naming the new one."""
        if not message.new_wa_id or self._mover is None:
            logger.error("NUMBER_CHANGE_NOT_MOVED", extra={"hasNewNumber": bool(message.new_wa_id)})
            return _result(message, trace_id, "number_not_moved")
        self._not_turned_before()
        result = self._mover.move(message.thread_id, message.new_wa_id, now=now, changed_at=message.timestamp)
        logger.info("NUMBER_CHANGED", extra={"newNumber": mask_phone(message.new_wa_id), "result": result})
        return _result(message, trace_id, f"number_{result}")

    def _delivery_failed(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult:
        """A `failed` status: its tracking tag says what the message carried (no read); a status of a
        message sent before tags existed is looked up in the outbound log."""
        tag = OutboundTag.decode(message.outbound_tag, recipient=message.thread_id)
        record: OutboundRecord | None = None
        if tag is not None and message.target_id:
            record = OutboundRecord.of_tag(
                tag, message.target_id, at=now, phone_number_id=message.phone_number_id
            )
        elif self._outbound is not None and message.target_id:
            record = self._outbound.get(message.target_id)
        if record is None:
            logger.info("DELIVERY_FAILED_UNTRACKED", extra={"messageId": message.target_id})
            outcome = "delivery_failed_untracked"
        elif self._failed is None:
            logger.error("DELIVERY_FAILED_NOT_FOLLOWED_UP", extra={"messageId": message.target_id})
            outcome = "delivery_failed_not_followed_up"
        else:
            self._not_turned_before()
            outcome = self._failed.follow_up(record, message.error_codes, now=now)
        return _result(message, trace_id, outcome)


def _result(
    message: InboundMessage, trace_id: str, outcome: str, *, reply_text: str = "", sent: bool = False
) -> TurnResult:
    return TurnResult(
        trace_id=trace_id, thread_id=message.thread_id, outcome=outcome, reply_text=reply_text, sent=sent
    )
