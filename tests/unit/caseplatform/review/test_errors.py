"""Domain and auth errors map to HTTP statuses by type, in one place."""

from __future__ import annotations

import pytest

from caseplatform.errors import (
    AdapterNotFound,
    AlreadyTerminal,
    CaseNotFound,
    DuplicateApprover,
    EnvelopeInvalid,
    IdempotencyConflict,
    InvalidStateTransition,
    PayloadInvalid,
    QuestionRequired,
)
from caseplatform.review.api import error_body, status_of
from caseplatform.review.auth import Forbidden, Unauthenticated


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (Unauthenticated("x"), 401, "UNAUTHENTICATED"),
        (Forbidden("x"), 403, "FORBIDDEN"),
        (CaseNotFound("HITL-1"), 404, None),
        (AdapterNotFound("a"), 404, "ADAPTER_NOT_FOUND"),
        (
            AlreadyTerminal("HITL-1", {"decision": "approved", "actor": {"name": "Bob"}}),
            409,
            "ALREADY_TERMINAL",
        ),
        (InvalidStateTransition("approved", "request_clarification"), 409, "INVALID_STATE_TRANSITION"),
        (DuplicateApprover("HITL-1", "ann", 1, 2), 409, "DUPLICATE_APPROVER"),
        (IdempotencyConflict("r"), 409, "IDEMPOTENCY_CONFLICT"),
        (PayloadInvalid([{"path": "$.payload.x", "message": "bad"}]), 422, "PAYLOAD_INVALID"),
        (EnvelopeInvalid([{"path": "$.notes", "message": "long"}]), 400, "ENVELOPE_INVALID"),
        (QuestionRequired("q"), 400, "QUESTION_REQUIRED"),
    ],
)
def test_status_by_type(error: Exception, status: int, code: str | None) -> None:
    assert status_of(error) == status
    body = error_body(error)  # type: ignore[arg-type]
    assert body.get("code") == code
    if code is None:
        assert body["status"] == "not_found"


def test_already_terminal_says_who_won() -> None:
    body = error_body(AlreadyTerminal("HITL-1", {"decision": "rejected", "actor": {"name": "Bob"}}))
    assert body["message"].startswith("This case was already rejected by Bob")
    assert body["existing_decision"]["decision"] == "rejected"


def test_payload_invalid_keeps_its_details() -> None:
    body = error_body(PayloadInvalid([{"path": "$.payload.count", "message": "0 is less than 1"}]))
    assert body["details"] == [{"path": "$.payload.count", "message": "0 is less than 1"}]
