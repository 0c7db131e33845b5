"""Step outcomes and fakes for the responder tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.executor.contracts import ResponderInput, StepOutcome
from memo.replies import Reply
from memo.whatsapp.sender import SentMessage, WhatsAppSendError, WhatsAppSendOutcomeUnknown
from memo.whatsapp.tracking import OutboundTag

NOW = datetime(2025, 6, 3, 12, 0, tzinfo=UTC)  # a Tuesday
THREAD = "972501234567"


def ok(step_id: str, capability: str, action: str, **fields: Any) -> StepOutcome:
    return StepOutcome(
        step_id=step_id,
        result=ExecutionResult(success=True, capability=capability, action=action, **fields),
    )


def failed(step_id: str, capability: str, action: str, code: str, **fields: Any) -> StepOutcome:
    return StepOutcome(
        step_id=step_id,
        result=ExecutionResult(
            success=False, capability=capability, action=action, error_code=code, **fields
        ),
    )


def reminder_created(step_id: str = "s1", title: str = "call mom") -> StepOutcome:
    return ok(
        step_id,
        "reminders",
        "create",
        data={"title": title},
        summary=f"reminder “{title}”",
        when=datetime(2025, 6, 4, 14, 0, tzinfo=UTC),
        external_ids={"reminderId": f"r-{step_id}"},
    )


def request(*outcomes: StepOutcome, language: str = "en", timezone: str = "Asia/Jerusalem") -> ResponderInput:
    return ResponderInput(
        trace_id="wamid.T1",
        thread_id=THREAD,
        phone_number_id="PN1",
        language=language,
        timezone=timezone,
        outcomes=list(outcomes),
    )


class FakeSender:
    def __init__(self, *, fail_with: int | None = None, unknown: bool = False) -> None:
        self.sent: list[tuple[str, str, Reply]] = []
        self.tags: list[OutboundTag | None] = []
        self.fail_with = fail_with
        self.unknown = unknown  # Meta answered 500 (or nothing) after taking the request

    def send(
        self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag | None = None
    ) -> SentMessage:
        self.tags.append(tag)
        if self.unknown:
            raise WhatsAppSendOutcomeUnknown("no answer", status=500, meta_code=1, attempts=1)
        if self.fail_with is not None:
            raise WhatsAppSendError("rejected", status=400, meta_code=self.fail_with, attempts=1)
        self.sent.append((phone_number_id, to, reply))
        return SentMessage(message_ids=[f"wamid.out.{len(self.sent)}"])

    def mark_read(self, phone_number_id: str, wamid: str) -> None:
        return None

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage:
        return self.send(phone_number_id, group_id, reply)


class FakeMemory:
    def __init__(self) -> None:
        self.replies: list[tuple[str, str]] = []
        self.actions: list[dict[str, Any]] = []
        self.claims: set[tuple[str, str]] = set()
        self.quotes: dict[str, list[dict[str, Any]]] = {}
        self.results_deleted: list[str] = []

    def claim_reply(
        self, thread_id: str, trace_id: str, *, now: datetime, actions: Any = (), results: Any = ()
    ) -> bool:
        """The claim and, in the same write, the actions and the results' deletes (as the DynamoDB
        adapter's transaction)."""
        if (thread_id, trace_id) in self.claims:
            return False
        self.claims.add((thread_id, trace_id))
        self.results_deleted.extend(results)
        if actions:
            self.record_actions(thread_id, actions, now=now)
        return True

    def release_reply(self, thread_id: str, trace_id: str) -> None:
        self.claims.discard((thread_id, trace_id))

    def record_reply(self, thread_id: str, text: str, *, at: datetime) -> None:
        self.replies.append((thread_id, text))

    def record_actions(self, thread_id: str, actions: Any, *, now: datetime) -> list[dict[str, Any]]:
        from memo.reply.memory import merge_latest_actions

        self.actions = merge_latest_actions(self.actions, list(actions), now=now)
        return self.actions

    def record_quote(self, thread_id: str, message_ids: Any, actions: Any, *, now: datetime) -> None:
        for message_id in message_ids:
            self.quotes[message_id] = list(actions)

    def record_sent(
        self,
        thread_id: str,
        *,
        text: str | None,
        message_ids: Any,
        actions: Any,
        now: datetime,
        trace_id: str | None = None,
    ) -> None:
        if text is not None:
            self.record_reply(thread_id, text, at=now)
        if actions:
            self.record_quote(thread_id, message_ids, actions, now=now)
