"""The wire shapes of the platform's answers: results and errors, built in one place for MCP and the CLI.

Success: `{"status": "success", ...}`; lists: `{"status": "success", "count", "items", "next_cursor"}`.
Errors: `{"status": "error", "code": ..., "message": ..., <fields of the error>}`; an unknown case is
`{"status": "not_found", "case_id": ...}`. `error_answer` chooses by exception type, never by text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from caseplatform.errors import CaseNotFound, CasePlatformError
from caseplatform.hooks import summary_line
from caseplatform.model import Case, CaseRecord, CaseState, Event, Page, SchemaRecord
from caseplatform.queries import CaseView

T = TypeVar("T")


def error_answer(error: CasePlatformError) -> dict[str, Any]:
    if isinstance(error, CaseNotFound):
        return {"status": "not_found", "case_id": error.case_id}
    return {"status": "error", "code": error.code, "message": str(error), **error.fields()}


def success(**fields: Any) -> dict[str, Any]:
    return {"status": "success", **fields}


def items_answer(
    items: Sequence[T], render: Callable[[T], dict[str, Any]], next_cursor: str | None = None
) -> dict[str, Any]:
    return success(count=len(items), items=[render(item) for item in items], next_cursor=next_cursor)


def page_answer(page: Page[T], render: Callable[[T], dict[str, Any]]) -> dict[str, Any]:
    return items_answer(page.items, render, page.next_cursor)


def event_dict(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    data.pop("request_hash")
    return data


def submit_answer(event: Event, case: Case) -> dict[str, Any]:
    return success(
        case_id=event.case_id,
        event_id=event.event_id,
        current_state=event.state_after,
        adapter_id=case.adapter_id,
        schema_version=case.schema_version,
        created_at_ms=event.created_at_ms,
    )


def transition_answer(event: Event) -> dict[str, Any]:
    """The answer of request_clarification / provide_clarification / record_decision; built from the
    event alone, so a retry with the same request_id gets exactly the first answer."""
    answer = success(
        case_id=event.case_id,
        event_id=event.event_id,
        event_type=event.event_type,
        current_state=event.state_after,
        created_at_ms=event.created_at_ms,
    )
    if event.decision_outcome is not None:
        answer["decision"] = event.decision_outcome
    if event.question is not None:
        answer["question"] = event.question
    return answer


def state_dict(state: CaseState) -> dict[str, Any]:
    return state.to_dict()


def case_summary(record: CaseRecord) -> dict[str, Any]:
    case, state = record.case, record.state
    return {
        "case_id": case.case_id,
        "adapter_id": case.adapter_id,
        "case_type": case.case_type,
        "title": case.title,
        "summary_line": summary_line(case),
        "priority": case.priority,
        "confidence": case.confidence,
        "current_state": state.current_state,
        "created_at_ms": case.created_at_ms,
        "updated_at_ms": state.updated_at_ms,
        "needs_clarification_since_ms": state.needs_clarification_since_ms,
        "escalation_due_at_ms": state.escalation_due_at_ms,
        "active_decision_outcome": state.active_decision_outcome,
    }


def case_answer(view: CaseView) -> dict[str, Any]:
    """The case as read; `payload_problems` only when the payload, read from an older version, does
    not validate against the version it is read as."""
    case = view.record.case
    answer = success(
        case={
            "case_id": case.case_id,
            "adapter_id": case.adapter_id,
            "schema_version": case.schema_version,
            "read_as_schema_version": view.read_as_schema_version,
            "case_type": case.case_type,
            "title": case.title,
            "summary": case.summary,
            "payload": view.payload,
            "payload_hash_sha256": case.payload_hash_sha256,
            "submitter": {k: v for k, v in case.submitter.to_dict().items() if k != "kind"},
            "priority": case.priority,
            "confidence": case.confidence,
            "created_at_ms": case.created_at_ms,
            "updated_at_ms": case.updated_at_ms,
            "refs": [ref.to_dict() for ref in view.refs],
        },
        state=state_dict(view.record.state),
    )
    if view.payload_problems:
        answer["case"]["payload_problems"] = list(view.payload_problems)
    return answer


def history_answer(case_id: str, events: list[Event]) -> dict[str, Any]:
    return {**items_answer(events, event_dict), "case_id": case_id}


def schema_answer(
    record: SchemaRecord, previous_version: int | None = None, *, activated: bool = False
) -> dict[str, Any]:
    answer = success(
        adapter_id=record.adapter_id,
        schema_version=record.schema_version,
        is_active=record.is_active,
        updated_at_ms=record.updated_at_ms,
    )
    if activated:
        answer["previous_version"] = previous_version
    return answer
