"""The follow-up of a `failed` status (the `FailedDeliveries` port of the turn engine).

What failed comes from the message's tracking tag (`memo.whatsapp.tracking`), which Meta echoes in
the status: nothing is read to know it. Exactly once per failed message: the follow-up is claimed
first (`OutboundLog.claim_retry`, a PutItem that only one delivery of the status can make), on top of
the FIFO deduplication and the turn's idempotency key. Then:
- a reminder delivery: the reminder is marked undelivered; when Meta's code means the 24-hour window
  closed (`OUTSIDE_WINDOW_CODES`) and the failed message was not already a template, the reminder is
  sent again once, as the reminder template (tagged as a template, so a failure of the retry is
  followed up too, and ends in the alarm); any other code: the `ReminderDeliveryFailed` metric (an
  alarm) and `REMINDER_UNDELIVERED` at error level. A retry whose outcome is unknown (5xx, timeout)
  is not sent again: Meta's statuses for it carry its tag;
- a reply or a question: logged (`DELIVERY_FAILED_FOLLOWED_UP`); there is nothing safe to resend.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol

from memo.capabilities.items import Reminder
from memo.ingress.events import OUTSIDE_WINDOW_CODES
from memo.observability import count, logger
from memo.reminders.template import TemplateMessage
from memo.text.language import Language
from memo.whatsapp.sender import SentMessage, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundLog, OutboundRecord, OutboundTag


class ReminderFailures(Protocol):
    def get(self, thread_id: str, reminder_id: str) -> Reminder | None: ...

    def mark_undelivered(
        self, thread_id: str, reminder_id: str, *, code: int | None, message_id: str, at: datetime
    ) -> bool: ...

    def mark_retried(self, thread_id: str, reminder_id: str, *, message_id: str, at: datetime) -> bool: ...


class TemplateSending(Protocol):
    def send_template(
        self, phone_number_id: str, to: str, template: TemplateMessage, *, tag: OutboundTag | None = None
    ) -> SentMessage: ...


class ThreadLanguage(Protocol):
    def __call__(self, thread_id: str, now: datetime) -> Language: ...


class FailedDeliveryFollowUp:
    def __init__(
        self,
        *,
        outbound: OutboundLog,
        reminders: ReminderFailures,
        sender: TemplateSending,
        language: ThreadLanguage,
        template_name: str,
        template_languages: Mapping[str, str],
        default_phone_number_id: str | None = None,
    ) -> None:
        self._outbound = outbound
        self._reminders = reminders
        self._sender = sender
        self._language = language
        self._template_name = template_name
        self._template_languages = template_languages
        self._default_phone = default_phone_number_id

    def follow_up(self, record: OutboundRecord, codes: list[int], *, now: datetime) -> str:
        if not self._outbound.claim_retry(record.message_id, at=now):
            logger.info("DELIVERY_FAILED_ALREADY_FOLLOWED_UP", extra={"messageId": record.message_id})
            return "delivery_failed_duplicate"
        if record.kind != "reminder" or not record.reminder_id:
            logger.info(
                "DELIVERY_FAILED_FOLLOWED_UP",
                extra={"messageId": record.message_id, "carried": record.kind, "metaErrorCodes": codes},
            )
            return f"delivery_failed_{record.kind}"
        return self._reminder(record, record.reminder_id, codes, now)

    def _alarm(self, record: OutboundRecord, codes: list[int], why: str) -> str:
        count("ReminderDeliveryFailed")
        logger.error(
            "REMINDER_UNDELIVERED",
            extra={
                "messageId": record.message_id,
                "reminderId": record.reminder_id,
                "metaErrorCodes": codes,
                "why": why,
            },
        )
        return "reminder_undelivered"

    def _reminder(self, record: OutboundRecord, reminder_id: str, codes: list[int], now: datetime) -> str:
        code = codes[0] if codes else None
        self._reminders.mark_undelivered(
            record.thread_id, reminder_id, code=code, message_id=record.message_id, at=now
        )
        if not OUTSIDE_WINDOW_CODES.intersection(codes):
            return self._alarm(record, codes, "code")
        if record.mode == "template":
            return self._alarm(record, codes, "template_failed")
        reminder = self._reminders.get(record.thread_id, reminder_id)
        if reminder is None or reminder.status == "cancelled":
            logger.info("REMINDER_RETRY_SKIPPED", extra={"reminderId": reminder_id, "gone": reminder is None})
            return "reminder_retry_skipped"
        phone = record.phone_number_id or reminder.phone_number_id or self._default_phone
        if not phone:
            return self._alarm(record, codes, "no_phone_number_id")
        language = self._language(record.thread_id, now)
        template = TemplateMessage(
            name=self._template_name,
            language_code=self._template_languages.get(language, language),
            body_parameters=[reminder.title],
        )
        tag = OutboundTag.new(
            "reminder",
            record.thread_id,
            seed=f"retry:{record.message_id}",
            reminder_id=reminder_id,
            mode="template",
        )
        try:
            sent = self._sender.send_template(phone, record.thread_id, template, tag=tag)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="reminder_retry_template")
            if exc.outcome_unknown:
                # Meta may have it: not sent a third time; its statuses carry the tag.
                self._reminders.mark_retried(record.thread_id, reminder_id, message_id="", at=now)
                return "reminder_retry_unconfirmed"
            return self._alarm(record, codes, "retry_send_failed")
        retry_id = next((i for i in sent.message_ids if i), "")
        self._reminders.mark_retried(record.thread_id, reminder_id, message_id=retry_id, at=now)
        count("ReminderRetriedAsTemplate")
        logger.info(
            "REMINDER_RETRIED_AS_TEMPLATE",
            extra={"reminderId": reminder_id, "failedMessageId": record.message_id},
        )
        return "reminder_retried_as_template"
