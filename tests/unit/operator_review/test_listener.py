"""The decision bridge: what the user is told after an operator narrowed a step names real figures
and what the step acts on ("I'll add 1 of the 3 items", never "of the 1 lists"), and an approval
whose edit would broaden the step (recorded where no edit check ran) runs nothing: the waiting step
fails as rejected."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from caseplatform.model import Case, Event, Principal
from caseplatform.redaction import mask_contacts, redact_tree
from memo.executor.contracts import StepTask, args_hash
from memo.operator_review.cases import payload_of
from memo.operator_review.listener import (
    EDIT_REFUSED_CAUSE,
    REVIEW_REJECTED,
    TaskTokenBridge,
    changed_by_operator_text,
)
from memo.operator_review.tokens import WaitingStep
from memo.replies import Reply
from memo.text.language import Language
from memo.whatsapp.sender import SentMessage

NOW = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)
OPERATOR = Principal(name="Alice", role="reviewer", kind="operator", id="alice")


def _task(capability: str, action: str, language: Language = "en", **args: Any) -> StepTask:
    return StepTask(
        trace_id="wamid.T1",
        thread_id="972501234567",
        phone_number_id="100",
        step_id="s1",
        capability=capability,
        action=action,
        args=dict(args),
        args_hash=args_hash(dict(args)),
        language=language,
    )


@pytest.mark.parametrize(
    ("asked", "ran", "told"),
    [
        (
            _task("lists", "add", listName="shopping", items=["eggs", "milk", "bread"]),
            {"listName": "shopping", "items": ["eggs"]},
            "An operator changed your request before it ran: I'll add 1 of the 3 items you asked about.",
        ),
        (
            _task("reminders", "delete_all", reminderIds=["r1", "r2"]),
            {"reminderIds": ["r2"]},
            "An operator changed your request before it ran: I'll delete 1 of the 2 reminders you asked about.",
        ),
        (
            _task("notes", "delete", noteIds=["n1", "n2", "n3"]),
            {"noteIds": ["n1", "n3"]},
            "An operator changed your request before it ran: I'll delete 2 of the 3 notes you asked about.",
        ),
        (
            _task("reminders", "delete_all", "he", reminderIds=["r1", "r2"]),
            {"reminderIds": ["r2"]},
            "נציג שינה את הבקשה שלך לפני הביצוע: אמחק 1 מתוך 2 תזכורות שביקשת.",
        ),
        (
            _task("lists", "add", "he", listName="קניות", items=["ביצים", "חלב"]),
            {"listName": "קניות", "items": ["חלב"]},
            "נציג שינה את הבקשה שלך לפני הביצוע: אוסיף 1 מתוך 2 פריטים שביקשת.",
        ),
    ],
)
def test_the_user_hears_what_now_runs_in_real_figures(
    asked: StepTask, ran: dict[str, Any], told: str
) -> None:
    approved = asked.model_copy(update={"args": ran})
    assert changed_by_operator_text(asked, approved) == told


class Tokens:
    def __init__(self, waiting: WaitingStep) -> None:
        self.waiting: WaitingStep | None = waiting

    def get(self, case_id: str) -> WaitingStep | None:
        return self.waiting

    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None:
        self.waiting = waiting

    def delete(self, case_id: str) -> None:
        self.waiting = None


class Tasks:
    def __init__(self) -> None:
        self.succeeded: list[str] = []
        self.failed: list[tuple[str, str]] = []

    def succeed(self, task_token: str, output: str) -> None:
        self.succeeded.append(output)

    def fail(self, task_token: str, *, error: str, cause: str) -> None:
        self.failed.append((error, cause))


class Sender:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, phone_number_id: str, to: str, reply: Reply, *, tag: object = None) -> SentMessage:
        self.sent.append(reply.text)
        return SentMessage(message_ids=["wamid.SENT"])


def _decided(task: StepTask, approved_args: dict[str, Any] | None) -> tuple[Case, Event]:
    payload = payload_of(task)
    case = Case(
        case_id="HITL-1",
        schema_version=1,
        adapter_id="memo_operation",
        case_type="lists_add",
        title="t",
        summary="s",
        payload=payload,
        payload_hash_sha256="0" * 64,
        submitter=Principal(name="Memo", role="agent", id="memo:executor"),
        priority="normal",
        confidence=None,
        created_at_ms=0,
        updated_at_ms=0,
    )
    event = Event(
        event_id="HEV-1",
        case_id="HITL-1",
        event_type="decision_recorded",
        notes="",
        actor=OPERATOR,
        created_at_ms=0,
        state_after="approved",
        decision_outcome="approved",
        approved_payload=None if approved_args is None else {**payload, "args": approved_args},
    )
    return case, event


def _bridge(task: StepTask) -> tuple[TaskTokenBridge, Tasks, Sender]:
    tasks, sender = Tasks(), Sender()
    bridge = TaskTokenBridge(
        tokens=Tokens(WaitingStep(case_id="HITL-1", task_token="tok", task=task)),
        tasks=tasks,
        clock=lambda: NOW,
        approval_ttl_seconds=600,
        sender=lambda: sender,  # type: ignore[arg-type,return-value]  # sends only
    )
    return bridge, tasks, sender


def test_an_approval_that_would_broaden_the_step_fails_it_as_rejected() -> None:
    task = _task("lists", "add", listName="shopping", items=["eggs"])
    bridge, tasks, sender = _bridge(task)
    forty = {"listName": "shopping", "items": [f"item {n}" for n in range(39)] + ["https://evil.example"]}
    bridge.on_event(*_decided(task, forty))
    assert tasks.succeeded == [] and tasks.failed == [(REVIEW_REJECTED, EDIT_REFUSED_CAUSE)]
    assert sender.sent == []  # no "I'll add 40 of the 1 ..."


def test_an_approval_that_narrows_the_step_runs_it_and_tells_the_user() -> None:
    task = _task("lists", "add", listName="shopping", items=["eggs", "milk"])
    bridge, tasks, sender = _bridge(task)
    bridge.on_event(*_decided(task, {"listName": "shopping", "items": ["milk"]}))
    (output,) = tasks.succeeded
    assert StepTask.model_validate_json(output).args == {"listName": "shopping", "items": ["milk"]}
    assert sender.sent == [
        "An operator changed your request before it ran: I'll add 1 of the 2 items you asked about."
    ]


def test_an_approval_without_an_edit_runs_the_step_as_submitted() -> None:
    task = _task("lists", "add", listName="shopping", items=["eggs"])
    bridge, tasks, sender = _bridge(task)
    bridge.on_event(*_decided(task, None))
    (output,) = tasks.succeeded
    assert StepTask.model_validate_json(output).args == task.args and sender.sent == []


def test_a_case_sent_back_for_changes_fails_the_step_with_the_feedback_and_runs_nothing() -> None:
    task = _task("lists", "add", listName="shopping", items=["eggs"])
    bridge, tasks, sender = _bridge(task)
    case, decided = _decided(task, None)
    sent_back = replace(
        decided,
        event_type="changes_requested",
        state_after="changes_requested",
        decision_outcome=None,
        feedback="Which shop? We have two shopping lists",
    )
    bridge.on_event(case, sent_back)
    assert tasks.succeeded == []
    assert tasks.failed == [(REVIEW_REJECTED, "changes requested: Which shop? We have two shopping lists")]
    assert sender.sent == []


def _masked(case: Case) -> Case:
    """The case as stored with contacts masked (`HITL_REDACT=contacts`)."""
    return replace(case, payload=redact_tree(case.payload, mask_contacts))


def test_an_approval_without_an_edit_of_a_masked_case_runs_the_users_own_words() -> None:
    task = _task("lists", "add", listName="contacts", items=["call Dana 0501234567", "dana@example.com"])
    bridge, tasks, sender = _bridge(task)
    case, event = _decided(task, None)
    masked = _masked(case)
    assert masked.payload["args"]["items"] == ["call Dana [redacted-phone]", "[redacted-email]"]
    bridge.on_event(masked, event)
    (output,) = tasks.succeeded
    assert StepTask.model_validate_json(output).args == task.args  # the token store's args, not the masks
    assert sender.sent == []


def test_an_edit_of_a_masked_case_is_refused_and_runs_nothing() -> None:
    task = _task("lists", "add", listName="contacts", items=["call Dana 0501234567", "milk"])
    bridge, tasks, sender = _bridge(task)
    case, _ = _decided(task, None)
    masked = _masked(case)
    # The operator narrows what they see: the masked item would run as "[redacted-phone]".
    narrowed = {**masked.payload, "args": {"listName": "contacts", "items": ["call Dana [redacted-phone]"]}}
    event = Event(
        event_id="HEV-2",
        case_id="HITL-1",
        event_type="decision_recorded",
        notes="",
        actor=OPERATOR,
        created_at_ms=0,
        state_after="approved",
        decision_outcome="approved",
        approved_payload=narrowed,
    )
    bridge.on_event(masked, event)
    assert tasks.succeeded == [] and tasks.failed == [(REVIEW_REJECTED, EDIT_REFUSED_CAUSE)]
    assert sender.sent == []
