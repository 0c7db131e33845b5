"""The domain errors: each carries its own stable code and the fields its answer adds; only refusals
that depend on the adapter's active schema say so; the two store-internal signals are not domain errors.
"""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform import errors
from caseplatform.errors import (
    ActiveSchemaChanged,
    AdapterNotFound,
    AlreadyTerminal,
    AnswerRequired,
    CaseNotFound,
    CasePlatformError,
    ConcurrentModification,
    DecisionNotAllowed,
    DuplicateApprover,
    EditRefused,
    EnvelopeInvalid,
    EscalationNotDue,
    IdempotencyConflict,
    InvalidCursor,
    InvalidStateTransition,
    PayloadInvalid,
    QuestionRequired,
    SchemaBreakingChange,
    SchemaInvalid,
    SchemaVersionExists,
    SchemaVersionNotFound,
    SelfApproval,
)

DETAILS = [{"path": "$.payload.x", "message": "bad"}]


@pytest.mark.parametrize(
    ("error", "code", "fields", "message"),
    [
        (CaseNotFound("HITL-1"), "NOT_FOUND", {}, "case HITL-1 not found"),
        (
            AdapterNotFound("it_ops"),
            "ADAPTER_NOT_FOUND",
            {"adapter_id": "it_ops"},
            "no active schema for adapter it_ops",
        ),
        (
            SchemaVersionNotFound("it_ops", 3),
            "SCHEMA_VERSION_NOT_FOUND",
            {"adapter_id": "it_ops", "schema_version": 3},
            "adapter it_ops has no schema version 3",
        ),
        (
            SchemaVersionExists("it_ops", 1),
            "SCHEMA_VERSION_EXISTS",
            {"adapter_id": "it_ops", "schema_version": 1},
            "adapter it_ops already has a different schema version 1",
        ),
        (PayloadInvalid(DETAILS), "PAYLOAD_INVALID", {"details": DETAILS}, "PAYLOAD_INVALID: 1 problem(s)"),
        (EditRefused(DETAILS), "EDIT_REFUSED", {"details": DETAILS}, "EDIT_REFUSED: 1 problem(s)"),
        (
            EnvelopeInvalid(DETAILS * 2),
            "ENVELOPE_INVALID",
            {"details": DETAILS * 2},
            "ENVELOPE_INVALID: 2 problem(s)",
        ),
        (SchemaInvalid([]), "SCHEMA_INVALID", {"details": []}, "SCHEMA_INVALID: 0 problem(s)"),
        (
            SchemaBreakingChange(
                "it_ops", 2, 1, [{"change": "field_removed:host", "message": "field removed at host"}]
            ),
            "SCHEMA_BREAKING_CHANGE",
            {
                "adapter_id": "it_ops",
                "schema_version": 2,
                "previous_version": 1,
                "changes": [{"change": "field_removed:host", "message": "field removed at host"}],
            },
            "version 2 of adapter it_ops breaks version 1 with no upcaster or declared migration for: field"
            " removed at host. Add x-hitl.upcast rules (rename, drop, convert, defaults) or declare"
            " x-hitl.migration accepting these changes",
        ),
        (
            InvalidStateTransition("approved", "escalate"),
            "INVALID_STATE_TRANSITION",
            {"from_state": "approved", "requested_action": "escalate"},
            "escalate is not allowed from approved",
        ),
        (
            AlreadyTerminal("HITL-1", {"decision": "approved"}),
            "ALREADY_TERMINAL",
            {"case_id": "HITL-1", "existing_decision": {"decision": "approved"}},
            "case HITL-1 already has a terminal decision",
        ),
        (
            DuplicateApprover("HITL-1", "op:dana", 1, 2),
            "DUPLICATE_APPROVER",
            {"case_id": "HITL-1", "approvals": 1, "required_approvers": 2},
            "op:dana already approved case HITL-1; 1 of 2 approvals so far, another reviewer must approve",
        ),
        (
            SelfApproval("HITL-1", "agent:lgv"),
            "SELF_APPROVAL",
            {"case_id": "HITL-1"},
            "agent:lgv submitted case HITL-1 and may not approve it; another reviewer must",
        ),
        (
            DecisionNotAllowed("HITL-1", "edit", ("approve", "reject")),
            "DECISION_NOT_ALLOWED",
            {"case_id": "HITL-1", "decision": "edit", "allowed_decisions": ["approve", "reject"]},
            "edit is not allowed on case HITL-1; allowed: approve, reject",
        ),
        (QuestionRequired("a question is required"), "QUESTION_REQUIRED", {}, "a question is required"),
        (AnswerRequired("an answer is required"), "ANSWER_REQUIRED", {}, "an answer is required"),
        (
            IdempotencyConflict("d-1"),
            "IDEMPOTENCY_CONFLICT",
            {"request_id": "d-1"},
            "request_id d-1 was already used with a different payload",
        ),
        (EscalationNotDue("resolved"), "ESCALATION_NOT_DUE", {}, "resolved"),
        (InvalidCursor("bad cursor"), "INVALID_CURSOR", {}, "bad cursor"),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else None,
)
def test_each_error_has_its_code_fields_and_message(
    error: CasePlatformError, code: str, fields: dict[str, Any], message: str
) -> None:
    assert (error.code, error.fields(), str(error)) == (code, fields, message)


def test_a_decision_refusal_may_give_its_own_reason() -> None:
    error = DecisionNotAllowed("HITL-1", "edit", ("edit",), reason="an edit must change the payload")
    assert str(error) == "an edit must change the payload"
    assert error.fields()["allowed_decisions"] == ["edit"]


def _domain_errors() -> list[type[CasePlatformError]]:
    return [
        value
        for name, value in vars(errors).items()
        if isinstance(value, type)
        and issubclass(value, CasePlatformError)
        and value is not CasePlatformError
        and not name.startswith("_")
    ]


def test_every_domain_error_has_its_own_code() -> None:
    codes = [cls.code for cls in _domain_errors()]
    assert len(codes) == len(set(codes)) == 22
    assert "ERROR" not in codes


def test_only_schema_dependent_refusals_are_decided_again() -> None:
    assert {cls.__name__ for cls in _domain_errors() if cls.depends_on_schema} == {
        "PayloadInvalid",
        "DecisionNotAllowed",
        "FeedbackRequired",
        "FeedbackToolDisabled",
    }


def test_store_signals_are_not_domain_errors() -> None:
    assert not issubclass(ConcurrentModification, CasePlatformError)
    changed = ActiveSchemaChanged("it_ops")
    assert not isinstance(changed, CasePlatformError)
    assert (changed.adapter_id, str(changed)) == ("it_ops", "the active schema of adapter it_ops changed")
