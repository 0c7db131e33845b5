"""Deliver one due reminder: the EventBridge Scheduler target.

Event: the schedule's target input, `{"threadId": ..., "reminderId": ..., "scheduledAt": ...}` (see
`memo.aws.scheduler`; `scheduledAt` is the time the Scheduler was asked to fire, its
`<aws.scheduler.scheduled-time>` context attribute); everything else is read from the items table.

Flow: load the reminder -> nothing to do if it is gone, sent, cancelled or not yet due (a schedule
left behind by a move; the schedule of one gone or cancelled is deleted, `_forget`) -> claim it -> the 24-hour window decides the message: inside it a text
"⏰ Reminder: <title>" in the user's language with the buttons "Done", "Snooze 10 min" and "Snooze 1
hour" (`memo.reminders.buttons`), outside it the configured template with the title as its body
parameter -> mark it sent (a repeating reminder instead moves on to its next occurrence, so the same
claim rules hold for every occurrence; its one recurring schedule fires again) -> remember it in the
conversation (kind "reminder").

Why claim/complete (and not "mark sent, then send"): EventBridge Scheduler delivers at least once,
and a WhatsApp message cannot be taken back, so the claim comes BEFORE the send: a conditional write
that only one delivery of an occurrence (reminder id + due time) can win; the loser is a no-op. So a
reminder is never sent twice by two deliveries. "Mark sent first" would make a failed send look
delivered and lose the reminder. With a claim:
- a send that certainly failed (`WhatsAppSendError`) releases the claim and raises, so the
  invocation fails (Lambda retries it, the Errors alarm fires, the DLQ keeps it after the retries);
- a crash between the send and `complete` leaves the claim in place: a later delivery does NOT send
  again (it logs REMINDER_CLAIM_HELD). The crash itself is a failed invocation (alarm), so the
  reminder is never lost silently; it is at most left "claimed", visible in the item.
A send whose outcome is unknown (Meta answered 5xx, or no answer came after the request went out:
`WhatsAppSendOutcomeUnknown`) is NOT released: Meta may have delivered it, and a retry would send it
twice. The occurrence is completed as sent (a repeating reminder moves on) and marked unconfirmed on
its item (`delivery_unconfirmed_at`, `delivery_unconfirmed_token`), with `SEND_OUTCOME_UNKNOWN` and
`REMINDER_SEND_UNCONFIRMED` logged and `RemindersUnconfirmed` counted (an alarm). Every message
carries its tracking tag (`memo.whatsapp.tracking`: reminder id, text or template, the send token
derived from the claim id), so Meta's statuses settle it: `delivered`/`read` confirm it (logged with
the token), `failed` is followed up like any failed delivery (marked undelivered; retried once as a
template when the 24-hour window closed). If Meta never reports anything, the user may have missed
this occurrence; it is never sent twice, and the mark and the alarm remain for an operator.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memo.capabilities.items import Reminder
from memo.capabilities.scheduler import SCHEDULED_TIME, schedule_name_for
from memo.conversation.model import MemoryMessage
from memo.errors import MemoError, ServiceFault
from memo.observability import count, logger, mask_phone
from memo.reminders.buttons import buttons, reminder_text
from memo.reminders.store import StoredReminder, ThreadWindow
from memo.reminders.template import TemplateMessage
from memo.replies import Reply
from memo.text.series import next_occurrence
from memo.whatsapp.sender import SentMessage, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundTag

# A schedule may fire a little early or a clock may be a little behind; later than this means the
# reminder was moved and this is its old schedule (the new one will deliver it).
EARLY_TOLERANCE = timedelta(minutes=2)

DeliveryOutcome = Literal["sent", "unconfirmed", "missing", "already_sent", "cancelled", "not_due", "claimed"]


class ReminderEvent(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    thread_id: str = Field(alias="threadId", min_length=1)
    reminder_id: str = Field(alias="reminderId", min_length=1)
    # The time this firing was scheduled for; None from an event that does not say (a schedule
    # made before it was written, or the attribute left unreplaced by a runner that lacks it).
    scheduled_at: datetime | None = Field(default=None, alias="scheduledAt")

    @field_validator("scheduled_at", mode="before")
    @classmethod
    def _unreplaced(cls, value: object) -> object:
        return None if value == SCHEDULED_TIME else value


class DeliveryResult(BaseModel):
    outcome: DeliveryOutcome
    reminder_id: str
    mode: Literal["text", "template"] | None = None
    message_ids: list[str] = Field(default_factory=list)


class ReminderDeliveryFailed(MemoError):
    """The WhatsApp send failed; the claim was released so a retry can deliver the reminder."""

    code = "REMINDER_DELIVERY_FAILED"


class ReminderUndeliverable(MemoError):
    """Nothing to send from: no business phone number id on the reminder or in configuration."""

    code = "REMINDER_UNDELIVERABLE"


class ReminderItems(Protocol):
    def load(self, thread_id: str, reminder_id: str) -> StoredReminder | None: ...

    def claim(self, stored: StoredReminder, *, claim_id: str, now: datetime) -> bool: ...

    def complete(
        self, stored: StoredReminder, *, claim_id: str, sent_at: datetime, next_due: datetime | None = None
    ) -> bool: ...

    def release(self, stored: StoredReminder, *, claim_id: str, error: str) -> bool: ...


class ReminderConversation(Protocol):
    def window(self, thread_id: str, *, now: datetime) -> ThreadWindow: ...

    def record(self, thread_id: str, message: MemoryMessage) -> None: ...


class ReminderSender(Protocol):
    def send(
        self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag | None = None
    ) -> SentMessage: ...

    def send_template(
        self, phone_number_id: str, to: str, template: TemplateMessage, *, tag: OutboundTag | None = None
    ) -> SentMessage: ...


class UnconfirmedMarks(Protocol):
    def mark_unconfirmed(self, thread_id: str, reminder_id: str, *, token: str, at: datetime) -> bool: ...


class LeftoverSchedules(Protocol):
    def cancel(self, schedule_name: str) -> None:
        """Delete the schedule; one already gone is fine."""
        ...


def deliver(
    event: Mapping[str, Any],
    *,
    items: ReminderItems,
    conversation: ReminderConversation,
    sender: ReminderSender,
    clock: Callable[[], datetime],
    template_name: str,
    template_language: Mapping[str, str],
    default_phone_number_id: str | None = None,
    unconfirmed: UnconfirmedMarks | None = None,
    leftovers: LeftoverSchedules | None = None,
) -> DeliveryResult:
    """Send the reminder of `event` once. `template_language` maps the profile's language ("en",
    "he") to the template's language code; `default_phone_number_id` is used for reminders stored
    without the business number the user wrote to; `unconfirmed` marks a send of unknown outcome;
    `leftovers` deletes the schedule of a reminder found deleted (`_forget`)."""
    request = ReminderEvent.model_validate(event)
    logger.thread_safe_append_keys(threadId=mask_phone(request.thread_id), reminderId=request.reminder_id)
    try:
        result = _deliver(
            request,
            items=items,
            conversation=conversation,
            sender=sender,
            now=clock(),
            template_name=template_name,
            template_language=template_language,
            default_phone_number_id=default_phone_number_id,
            unconfirmed=unconfirmed,
        )
        if leftovers is not None and result.outcome in ("missing", "cancelled"):
            _forget(leftovers, request.reminder_id)
        return result
    finally:
        logger.thread_safe_remove_keys(["threadId", "reminderId"])


def _deliver(
    request: ReminderEvent,
    *,
    items: ReminderItems,
    conversation: ReminderConversation,
    sender: ReminderSender,
    now: datetime,
    template_name: str,
    template_language: Mapping[str, str],
    default_phone_number_id: str | None,
    unconfirmed: UnconfirmedMarks | None = None,
) -> DeliveryResult:
    def skipped(outcome: DeliveryOutcome) -> DeliveryResult:
        logger.info("REMINDER_SKIPPED", extra={"outcome": outcome})
        count("RemindersSkipped")
        return DeliveryResult(outcome=outcome, reminder_id=request.reminder_id)

    stored = items.load(request.thread_id, request.reminder_id)
    if stored is None:
        return skipped("missing")
    not_now = _not_to_send(stored.reminder, now, request.scheduled_at)
    if not_now is not None:
        return skipped(not_now)
    reminder = stored.reminder
    phone_number_id = reminder.phone_number_id or default_phone_number_id
    if not phone_number_id:
        logger.error("REMINDER_UNDELIVERABLE", extra={"reason": "no phone number id"})
        raise ReminderUndeliverable("no WhatsApp phone number id for this reminder")

    claim_id = _claim(items, stored, now)
    if claim_id is None:
        return skipped("claimed")

    window = conversation.window(reminder.thread_id, now=now)
    text = reminder_text(reminder.title, window.language)
    mode: Literal["text", "template"] = "text" if window.is_open(now) else "template"
    tag = OutboundTag.new(
        "reminder", reminder.thread_id, seed=claim_id, reminder_id=reminder.reminder_id, mode=mode
    )
    try:
        sent = _send(sender, phone_number_id, reminder, text, window, tag, template_name, template_language)
        outcome_unknown = False
    except WhatsAppSendError as exc:
        sent = _kept_claimed(exc, items, stored, claim_id=claim_id, mode=mode)
        outcome_unknown = True

    _complete(items, conversation, stored, claim_id=claim_id, text=text, sent=sent, now=now)
    _report(reminder, outcome_unknown, mode=mode, tag=tag, unconfirmed=unconfirmed, now=now)
    return DeliveryResult(
        outcome="unconfirmed" if outcome_unknown else "sent",
        reminder_id=reminder.reminder_id,
        mode=mode,
        message_ids=sent.message_ids,
    )


def _send(
    sender: ReminderSender,
    phone_number_id: str,
    reminder: Reminder,
    text: str,
    window: ThreadWindow,
    tag: OutboundTag,
    template_name: str,
    template_language: Mapping[str, str],
) -> SentMessage:
    """Inside the 24-hour window, the text with its buttons; outside it, the template."""
    language = window.language
    if tag.mode == "text":
        reply = Reply.with_choices(text, buttons(reminder.reminder_id, language))
        return sender.send(phone_number_id, reminder.thread_id, reply, tag=tag)
    template = TemplateMessage(
        name=template_name,
        language_code=template_language.get(language, language),
        body_parameters=[reminder.title],
    )
    return sender.send_template(phone_number_id, reminder.thread_id, template, tag=tag)


def _report(
    reminder: Reminder,
    outcome_unknown: bool,
    *,
    mode: str,
    tag: OutboundTag,
    unconfirmed: UnconfirmedMarks | None,
    now: datetime,
) -> None:
    """Log and count the delivery; a send of unknown outcome is also marked on the reminder."""
    if outcome_unknown:
        if unconfirmed is not None:
            unconfirmed.mark_unconfirmed(reminder.thread_id, reminder.reminder_id, token=tag.token, at=now)
        logger.warning("REMINDER_SEND_UNCONFIRMED", extra={"mode": mode, "sendToken": tag.token})
        count("RemindersUnconfirmed")
    else:
        logger.info("REMINDER_SENT", extra={"mode": mode, "sendToken": tag.token})
        count("RemindersSent")


def _claim(items: ReminderItems, stored: StoredReminder, now: datetime) -> str | None:
    """The claim id when this delivery wins the occurrence; None when another holds it."""
    claim_id = uuid.uuid4().hex
    if items.claim(stored, claim_id=claim_id, now=now):
        return claim_id
    if stored.claimed_for == stored.due_key:
        logger.warning("REMINDER_CLAIM_HELD", extra={"claimedFor": stored.claimed_for})
    return None


def _forget(leftovers: LeftoverSchedules, reminder_id: str) -> None:
    """Delete the schedule that fired for a deleted reminder. A delete cancels its reminders'
    schedules after it commits, so a fault or a crash in between can leave one behind: a repeating
    one would fire for nothing at every occurrence. An undo schedules the reminder again. A fault
    here is logged; the next firing tries again."""
    try:
        leftovers.cancel(schedule_name_for(reminder_id))
    except ServiceFault as exc:
        logger.warning("REMINDER_SCHEDULE_LEFT", extra={"error": type(exc).__name__})


def _not_to_send(reminder: Reminder, now: datetime, scheduled_at: datetime | None) -> DeliveryOutcome | None:
    """Why this delivery sends nothing (already sent, cancelled, not yet due); None to send it.

    Due means due by the firing's own time: a firing a little early sends its time, but a late
    firing of an earlier time (a repeating reminder's missed hour, delivered after the one before it
    moved the reminder on) does not send the next time ahead of its own firing."""
    if reminder.status == "sent":
        return "already_sent"
    if reminder.status == "cancelled":
        return "cancelled"
    fired_for = now if scheduled_at is None else min(now, scheduled_at)
    if reminder.due_at > fired_for + EARLY_TOLERANCE:
        return "not_due"
    return None


def _kept_claimed(
    exc: WhatsAppSendError, items: ReminderItems, stored: StoredReminder, *, claim_id: str, mode: str
) -> SentMessage:
    """A failed send: released for a retry (raised) when it certainly failed; otherwise Meta may
    have delivered it, so it stays claimed and is completed, never sent again."""
    log_send_failure(exc, what=f"reminder_{mode}")
    if not exc.may_have_reached_user:
        items.release(stored, claim_id=claim_id, error=f"WHATSAPP_{exc.meta_code or exc.status}")
        raise ReminderDeliveryFailed("the reminder could not be sent; released for a retry") from exc
    return SentMessage(message_ids=exc.message_ids)


def _complete(
    items: ReminderItems,
    conversation: ReminderConversation,
    stored: StoredReminder,
    *,
    claim_id: str,
    text: str,
    sent: SentMessage,
    now: datetime,
) -> None:
    """Mark the occurrence sent (a repeating reminder moves on to its next one) and remember the
    message in the conversation."""
    reminder = stored.reminder
    next_due = (
        next_occurrence(reminder.recurrence, reminder.timezone, max(now, reminder.due_at), reminder.skips)
        if reminder.recurrence is not None
        else None
    )
    if not items.complete(stored, claim_id=claim_id, sent_at=now, next_due=next_due):
        # Sent, but the reminder was deleted or moved while we sent it: nothing to mark.
        logger.warning("REMINDER_CHANGED_WHILE_SENDING")
    conversation.record(
        reminder.thread_id,
        MemoryMessage(
            role="assistant",
            text=text,
            at=now,
            kind="reminder",
            reminder_id=reminder.reminder_id,
            # Its WhatsApp id: a reply quoting this reminder ("snooze 10 min") is about this one.
            wamid=sent.message_ids[0] if sent.message_ids else None,
        ),
    )
