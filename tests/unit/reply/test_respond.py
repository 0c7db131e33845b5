from __future__ import annotations

import logging

import pytest

from memo.reply.respond import respond
from tests.unit.reply.factories import (
    NOW,
    THREAD,
    FakeMemory,
    FakeSender,
    failed,
    reminder_created,
    request,
)


def test_reply_is_sent_to_the_thread_and_remembered_with_its_actions() -> None:
    sender, memory = FakeSender(), FakeMemory()
    result = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    assert result.sent and result.status == "complete" and result.message_ids == ["wamid.out.1"]
    [(phone_number_id, to, reply)] = sender.sent
    assert (phone_number_id, to) == ("PN1", THREAD)
    assert reply.text == "⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00."
    assert memory.replies == [(THREAD, reply.text)]
    assert [a["operationId"] for a in memory.actions] == ["wamid.T1:s1"]


def test_a_failed_send_is_logged_with_metas_code_and_memory_is_still_updated(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sender, memory = FakeSender(fail_with=131047), FakeMemory()
    with caplog.at_level(logging.ERROR):
        result = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    assert not result.sent and result.meta_error_code == 131047
    assert any(
        r.getMessage() == "WHATSAPP_SEND_FAILED" and getattr(r, "metaErrorCode", None) == 131047
        for r in caplog.records
    )
    assert memory.replies and len(memory.actions) == 1


def test_total_failure_records_the_reply_but_no_action() -> None:
    memory = FakeMemory()
    result = respond(
        request(failed("s1", "reminders", "delete", "NOT_FOUND"), language="he"),
        sender=FakeSender(),
        memory=memory,
        clock=lambda: NOW,
    )
    assert result.status == "failed" and result.actions_recorded == 0
    assert memory.actions == [] and memory.replies[0][1].startswith("לא מצאתי תזכורת")


def test_a_redriven_execution_does_not_send_the_reply_twice() -> None:
    sender, memory = FakeSender(), FakeMemory()
    first = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    again = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    assert first.sent and not again.sent
    assert len(sender.sent) == 1 and len(memory.replies) == 1
    assert [a["operationId"] for a in memory.actions] == ["wamid.T1:s1"]  # still recorded once


def test_a_failed_send_gives_the_claim_back_so_a_redrive_can_answer() -> None:
    memory = FakeMemory()
    respond(
        request(reminder_created()), sender=FakeSender(fail_with=131047), memory=memory, clock=lambda: NOW
    )
    sender = FakeSender()
    retried = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    assert retried.sent and len(sender.sent) == 1


def test_a_send_of_unknown_outcome_keeps_the_claim_so_a_redrive_never_sends_it_twice() -> None:
    """Meta took the reply and answered 500: the user may have it. The claim stays; a redriven
    execution says nothing; the reply went out tagged with the turn's send token."""
    memory = FakeMemory()
    first_sender = FakeSender(unknown=True)
    first = respond(request(reminder_created()), sender=first_sender, memory=memory, clock=lambda: NOW)
    assert (first.sent, first.outcome_unknown) == (False, True)
    [tag] = first_sender.tags
    assert tag is not None and tag.kind == "reply"
    sender = FakeSender()
    again = respond(request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW)
    assert not again.sent and sender.sent == []


class FlakyMemory(FakeMemory):
    """The memory table refuses writes `failures` times (throttling beyond the SDK's retries)."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.order: list[str] = []

    def _maybe_fail(self) -> None:
        from memo.errors import TransientFault

        if self.failures:
            self.failures -= 1
            raise TransientFault("AWS call failed transiently (ThrottlingException)")

    def claim_reply(self, thread_id, trace_id, *, now, actions=(), results=()):
        if actions:
            self._maybe_fail()  # the one write of the claim with the actions
        self.order.append("claim+actions" if actions else "claim")
        return super().claim_reply(thread_id, trace_id, now=now, actions=actions, results=results)


def test_the_actions_are_remembered_before_the_reply_goes_out_even_through_throttling() -> None:
    sender, memory, waits = FakeSender(), FlakyMemory(failures=2), []

    result = respond(
        request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW, sleep=waits.append
    )

    assert result.sent and len(sender.sent) == 1
    # One write, before the send: "delete it" works the moment the reply arrives.
    assert memory.order == ["claim+actions"]
    assert [a["operationId"] for a in memory.actions] == ["wamid.T1:s1"] and len(waits) == 2


def test_a_memory_table_that_stays_down_still_lets_the_reply_out_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sender, memory = FakeSender(), FlakyMemory(failures=99)

    with caplog.at_level(logging.ERROR):
        result = respond(
            request(reminder_created()), sender=sender, memory=memory, clock=lambda: NOW, sleep=lambda _: None
        )

    assert result.sent and len(sender.sent) == 1
    assert any(r.getMessage() == "RESPONDER_MEMORY_UNRECORDED" for r in caplog.records)
