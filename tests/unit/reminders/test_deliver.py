"""Reminder delivery over fakes: window, template, idempotency, failures."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from memo.capabilities.items import Reminder
from memo.capabilities.scheduler import schedule_name_for
from memo.conversation.model import MemoryMessage
from memo.errors import TransientFault
from memo.reminders.deliver import ReminderDeliveryFailed, ReminderUndeliverable, deliver
from memo.reminders.store import StoredReminder, ThreadWindow
from memo.reminders.template import TemplateMessage
from memo.replies import Reply
from memo.whatsapp.sender import SentMessage, WhatsAppSendError, WhatsAppSendOutcomeUnknown
from memo.whatsapp.tracking import OutboundTag
from tests.support.conversation import LogEvents

NOW = datetime(2025, 6, 3, 9, 0, tzinfo=UTC)
THREAD = "972501234567"
EVENT = {"threadId": THREAD, "reminderId": "r1"}


def reminder(**changes) -> Reminder:
    values = {
        "reminder_id": "r1",
        "thread_id": THREAD,
        "title": "call mom",
        "due_at": NOW,
        "timezone": "Asia/Jerusalem",
        "created_at": NOW - timedelta(days=1),
        "phone_number_id": "PN1",
        **changes,
    }
    return Reminder.model_validate(values)


@dataclass
class FakeItems:
    """The claim semantics of DynamoReminderItems, in memory."""

    stored: StoredReminder | None
    claim_id: str | None = None
    released: list[str] = field(default_factory=list)

    def load(self, thread_id: str, reminder_id: str) -> StoredReminder | None:
        return self.stored

    def claim(self, stored: StoredReminder, *, claim_id: str, now: datetime) -> bool:
        current = self.stored
        if current is None or current.reminder.status != "scheduled" or current.claimed_for == stored.due_key:
            return False
        self.claim_id = claim_id
        self.stored = replace(current, claimed_for=stored.due_key)
        return True

    def complete(
        self, stored: StoredReminder, *, claim_id: str, sent_at: datetime, next_due: datetime | None = None
    ) -> bool:
        assert self.stored is not None
        if claim_id != self.claim_id:
            return False
        if next_due is not None:  # a repeating reminder moves on to its next occurrence
            moved = self.stored.reminder.model_copy(update={"due_at": next_due, "sent_at": sent_at})
            self.stored = replace(self.stored, reminder=moved, due_key=next_due.isoformat())
            return True
        sent = self.stored.reminder.model_copy(update={"status": "sent", "sent_at": sent_at})
        self.stored = replace(self.stored, reminder=sent)
        return True

    def release(self, stored: StoredReminder, *, claim_id: str, error: str) -> bool:
        assert self.stored is not None and claim_id == self.claim_id
        self.released.append(error)
        self.stored = replace(self.stored, claimed_for=None)
        self.claim_id = None
        return True


@dataclass
class FakeConversation:
    window_: ThreadWindow
    recorded: list[MemoryMessage] = field(default_factory=list)

    def window(self, thread_id: str, *, now: datetime) -> ThreadWindow:
        return self.window_

    def record(self, thread_id: str, message: MemoryMessage) -> None:
        self.recorded.append(message)


@dataclass
class FakeSender:
    fail_with: int | None = None
    unknown: bool = False  # Meta answered 500 (or nothing) after taking the request
    texts: list[tuple[str, str, Reply]] = field(default_factory=list)
    templates: list[tuple[str, str, TemplateMessage]] = field(default_factory=list)
    tags: list[OutboundTag | None] = field(default_factory=list)

    def _check(self, tag: OutboundTag | None) -> None:
        self.tags.append(tag)
        if self.unknown:
            raise WhatsAppSendOutcomeUnknown("no answer", status=500, meta_code=1, attempts=1)
        if self.fail_with is not None:
            raise WhatsAppSendError("nope", status=400, meta_code=self.fail_with, attempts=1)

    def send(
        self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag | None = None
    ) -> SentMessage:
        self._check(tag)
        self.texts.append((phone_number_id, to, reply))
        return SentMessage(message_ids=["wamid.text"])

    def send_template(
        self, phone_number_id: str, to: str, template: TemplateMessage, *, tag: OutboundTag | None = None
    ) -> SentMessage:
        self._check(tag)
        self.templates.append((phone_number_id, to, template))
        return SentMessage(message_ids=["wamid.tpl"])


def stored(r: Reminder | None = None) -> StoredReminder:
    r = r or reminder()
    return StoredReminder(reminder=r, due_key=r.due_at.isoformat(), claimed_for=None)


def open_window(language: str = "en") -> FakeConversation:
    return FakeConversation(ThreadWindow(language=language, last_user_message_at=NOW - timedelta(hours=3)))  # type: ignore[arg-type]


def closed_window(language: str = "en") -> FakeConversation:
    return FakeConversation(ThreadWindow(language=language, last_user_message_at=NOW - timedelta(hours=25)))  # type: ignore[arg-type]


def run(items, conversation, sender, **kwargs):
    return deliver(
        EVENT,
        items=items,
        conversation=conversation,
        sender=sender,
        clock=lambda: NOW,
        template_name=kwargs.pop("template_name", "memo_reminder_v2"),
        template_language={"en": "en_US", "he": "he"},
        **kwargs,
    )


def test_inside_the_window_a_text_in_the_users_language_is_sent_marked_and_remembered() -> None:
    items, conversation, sender = FakeItems(stored()), open_window("he"), FakeSender()
    result = run(items, conversation, sender)
    assert (result.outcome, result.mode, result.message_ids) == ("sent", "text", ["wamid.text"])
    [(pn, to, reply)] = sender.texts
    assert (pn, to, reply.text) == ("PN1", THREAD, "⏰ תזכורת: call mom")
    assert items.stored is not None and items.stored.reminder.status == "sent"
    [memory] = conversation.recorded
    assert (memory.kind, memory.role, memory.text) == ("reminder", "assistant", "⏰ תזכורת: call mom")


def test_outside_the_window_the_configured_template_carries_the_title() -> None:
    sender = FakeSender()
    result = run(FakeItems(stored()), closed_window(), sender)
    assert result.mode == "template" and sender.texts == []
    [(_, to, template)] = sender.templates
    assert template == TemplateMessage(
        name="memo_reminder_v2", language_code="en_US", body_parameters=["call mom"]
    )
    assert to == THREAD


def test_a_user_who_never_wrote_gets_the_template() -> None:
    sender = FakeSender()
    run(FakeItems(stored()), FakeConversation(ThreadWindow(language="en", last_user_message_at=None)), sender)
    assert len(sender.templates) == 1


def test_delivered_twice_sends_once() -> None:
    items, conversation, sender = FakeItems(stored()), open_window(), FakeSender()
    first = run(items, conversation, sender)
    second = run(items, conversation, sender)
    assert (first.outcome, second.outcome) == ("sent", "already_sent")
    assert len(sender.texts) == 1 and len(conversation.recorded) == 1


def test_a_second_delivery_while_the_first_holds_the_claim_does_not_send() -> None:
    items, sender = FakeItems(stored()), FakeSender()
    held = stored()
    items.stored = replace(held, claimed_for=held.due_key)  # claimed, never completed (a crash)
    assert run(items, open_window(), sender).outcome == "claimed"
    assert sender.texts == []


@pytest.mark.parametrize(
    ("item", "outcome"),
    [
        (None, "missing"),
        (stored(reminder(status="sent", sent_at=NOW)), "already_sent"),
        (stored(reminder(status="cancelled")), "cancelled"),
        (stored(reminder(due_at=NOW + timedelta(hours=1))), "not_due"),
    ],
)
def test_nothing_is_sent_when_there_is_nothing_to_deliver(item, outcome) -> None:
    sender, leftovers = FakeSender(), FakeLeftovers()
    assert run(FakeItems(item), open_window(), sender, leftovers=leftovers).outcome == outcome
    assert sender.texts == [] and sender.templates == []
    # The schedule of a reminder deleted (cancelled, or gone for good) is deleted; any other stays.
    deleted = outcome in ("missing", "cancelled")
    assert leftovers.cancelled == ([schedule_name_for(EVENT["reminderId"])] if deleted else [])


class FakeLeftovers:
    def __init__(self, fault: bool = False) -> None:
        self.cancelled: list[str] = []
        self.fault = fault

    def cancel(self, schedule_name: str) -> None:
        if self.fault:
            raise TransientFault("throttled")
        self.cancelled.append(schedule_name)


def test_a_leftover_schedule_that_cannot_be_deleted_now_is_left_for_its_next_firing(
    log_events: LogEvents,
) -> None:
    result = run(
        FakeItems(stored(reminder(status="cancelled"))),
        open_window(),
        FakeSender(),
        leftovers=FakeLeftovers(fault=True),
    )
    assert result.outcome == "cancelled" and log_events.named("REMINDER_SCHEDULE_LEFT")


def test_a_delivered_reminder_keeps_its_schedule() -> None:
    leftovers = FakeLeftovers()
    assert run(FakeItems(stored()), open_window(), FakeSender(), leftovers=leftovers).outcome == "sent"
    assert leftovers.cancelled == []


def test_a_failed_send_is_logged_released_and_raised_so_it_is_retried(
    caplog: pytest.LogCaptureFixture,
) -> None:
    items, conversation = FakeItems(stored()), closed_window()
    with caplog.at_level(logging.ERROR), pytest.raises(ReminderDeliveryFailed):
        run(items, conversation, FakeSender(fail_with=132001))
    assert items.released == ["WHATSAPP_132001"]
    assert items.stored is not None and items.stored.reminder.status == "scheduled"
    assert any(getattr(r, "metaErrorCode", None) == 132001 for r in caplog.records)
    assert conversation.recorded == []
    retried = FakeSender()
    assert run(items, conversation, retried).outcome == "sent" and len(retried.templates) == 1


@dataclass
class FakeMarks:
    marked: list[tuple[str, str, str]] = field(default_factory=list)

    def mark_unconfirmed(self, thread_id: str, reminder_id: str, *, token: str, at: datetime) -> bool:
        self.marked.append((thread_id, reminder_id, token))
        return True


@pytest.mark.parametrize("window", [open_window, closed_window], ids=["text", "template"])
def test_a_send_of_unknown_outcome_is_kept_claimed_marked_and_never_sent_again(window) -> None:
    """Meta took the request and answered 500 (or nothing): the user may have it; a second delivery
    of the schedule, or a retry, sends nothing more. The mark and the send token stay for the operator."""
    items, conversation, marks = FakeItems(stored()), window(), FakeMarks()
    result = run(items, conversation, FakeSender(unknown=True), unconfirmed=marks)
    assert result.outcome == "unconfirmed" and items.released == []
    assert items.stored is not None and items.stored.reminder.status == "sent"
    [(thread, reminder_id, token)] = marks.marked
    assert (thread, reminder_id) == (THREAD, "r1") and token
    assert len(conversation.recorded) == 1
    again = FakeSender()
    assert run(items, conversation, again).outcome == "already_sent"
    assert again.texts == [] and again.templates == []


def test_every_delivery_is_tagged_with_its_reminder_mode_and_claims_token() -> None:
    sender = FakeSender()
    run(FakeItems(stored()), closed_window(), sender)
    [tag] = sender.tags
    assert tag is not None and (tag.kind, tag.thread_id, tag.reminder_id, tag.mode) == (
        "reminder",
        THREAD,
        "r1",
        "template",
    )


def test_no_phone_number_id_anywhere_is_an_error_not_a_silent_skip() -> None:
    items = FakeItems(stored(reminder(phone_number_id=None)))
    with pytest.raises(ReminderUndeliverable):
        run(items, open_window(), FakeSender())
    sender = FakeSender()
    run(items, open_window(), sender, default_phone_number_id="PN-default")
    assert sender.texts[0][0] == "PN-default"


def _fired_for(scheduled: object, due_in: timedelta) -> str:
    """The outcome of a firing whose event says `scheduled`, at NOW, of a reminder due `due_in`
    from NOW."""
    event = {**EVENT, "scheduledAt": scheduled}
    result = deliver(
        event,
        items=FakeItems(stored(reminder(due_at=NOW + due_in))),
        conversation=open_window(),
        sender=FakeSender(),
        clock=lambda: NOW,
        template_name="memo_reminder_v2",
        template_language={"en": "en_US"},
    )
    return result.outcome


@given(
    scheduled_in=st.integers(min_value=-180, max_value=180),
    due_in=st.integers(min_value=-180, max_value=180),
)
def test_a_firing_sends_what_is_due_by_its_own_time_and_never_a_later_one(
    scheduled_in: int, due_in: int
) -> None:
    # A firing may come up to two minutes early (its time is then still sent), or late: a late
    # firing of an earlier time sends what was due by then, not the next time ahead of its own firing.
    scheduled = (NOW + timedelta(minutes=scheduled_in)).strftime("%Y-%m-%dT%H:%M:%SZ")
    by = min(0, scheduled_in) + 2
    expected = "sent" if due_in <= by else "not_due"
    assert _fired_for(scheduled, timedelta(minutes=due_in)) == expected


@pytest.mark.parametrize("scheduled", [None, "<aws.scheduler.scheduled-time>"])
@pytest.mark.parametrize(
    ("due_in", "outcome"), [(timedelta(minutes=2), "sent"), (timedelta(minutes=3), "not_due")]
)
def test_an_event_that_does_not_say_its_time_is_read_by_the_clock(
    scheduled: str | None, due_in: timedelta, outcome: str
) -> None:
    # A schedule made before events carried their time, or a runner that leaves the attribute as is.
    assert _fired_for(scheduled, due_in) == outcome


@pytest.mark.parametrize("scheduled", ["yesterday", "2025-13-40T00:00:00Z", 12.5e20])
def test_an_event_with_a_time_that_is_no_time_is_refused(scheduled: object) -> None:
    with pytest.raises(ValidationError, match="scheduledAt"):
        _fired_for(scheduled, timedelta())
