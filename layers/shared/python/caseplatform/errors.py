"""Domain errors of the case platform.

Every error carries its stable error code (the `code` of every error answer); `answers.error_answer` turns them into the
`{status, code, ...}` shapes, by type, in one place. Nothing here knows about MCP, HTTP or storage.
"""

from __future__ import annotations

from typing import Any


class CasePlatformError(Exception):
    """Base of every domain error; `code` is the stable, machine-checkable error code."""

    code: str = "ERROR"
    # True when the refusal depends on the adapter's active schema (a store that decided on a cached
    # schema decides again on the schema read now before letting it through).
    depends_on_schema: bool = False

    def fields(self) -> dict[str, Any]:
        """Extra fields of the error answer (besides status and code)."""
        return {}


class CaseNotFound(CasePlatformError):
    code = "NOT_FOUND"

    def __init__(self, case_id: str) -> None:
        super().__init__(f"case {case_id} not found")
        self.case_id = case_id


class AdapterNotFound(CasePlatformError):
    code = "ADAPTER_NOT_FOUND"

    def __init__(self, adapter_id: str) -> None:
        super().__init__(f"no active schema for adapter {adapter_id}")
        self.adapter_id = adapter_id

    def fields(self) -> dict[str, Any]:
        return {"adapter_id": self.adapter_id}


class SchemaVersionNotFound(CasePlatformError):
    code = "SCHEMA_VERSION_NOT_FOUND"

    def __init__(self, adapter_id: str, schema_version: int) -> None:
        super().__init__(f"adapter {adapter_id} has no schema version {schema_version}")
        self.adapter_id = adapter_id
        self.schema_version = schema_version

    def fields(self) -> dict[str, Any]:
        return {"adapter_id": self.adapter_id, "schema_version": self.schema_version}


class SchemaVersionExists(CasePlatformError):
    """A different schema is already registered under this (adapter_id, schema_version)."""

    code = "SCHEMA_VERSION_EXISTS"

    def __init__(self, adapter_id: str, schema_version: int) -> None:
        super().__init__(f"adapter {adapter_id} already has a different schema version {schema_version}")
        self.adapter_id = adapter_id
        self.schema_version = schema_version

    def fields(self) -> dict[str, Any]:
        return {"adapter_id": self.adapter_id, "schema_version": self.schema_version}


class SchemaBreakingChange(CasePlatformError):
    """A schema version breaks the version before it (an older payload may fail it) and neither its
    upcaster (`x-hitl.upcast`) covers the change nor its declared migration (`x-hitl.migration`)
    accepts it. `changes`: each one as `{change, kind, path, message}`."""

    code = "SCHEMA_BREAKING_CHANGE"

    def __init__(
        self, adapter_id: str, schema_version: int, previous_version: int, changes: list[dict[str, str]]
    ) -> None:
        listed = "; ".join(change["message"] for change in changes)
        super().__init__(
            f"version {schema_version} of adapter {adapter_id} breaks version {previous_version} with no"
            f" upcaster or declared migration for: {listed}. Add x-hitl.upcast rules (rename, drop,"
            " convert, defaults) or declare x-hitl.migration accepting these changes"
        )
        self.adapter_id = adapter_id
        self.schema_version = schema_version
        self.previous_version = previous_version
        self.changes = changes

    def fields(self) -> dict[str, Any]:
        return {
            "adapter_id": self.adapter_id,
            "schema_version": self.schema_version,
            "previous_version": self.previous_version,
            "changes": self.changes,
        }


class _DetailedError(CasePlatformError):
    def __init__(self, details: list[dict[str, str]]) -> None:
        super().__init__(f"{self.code}: {len(details)} problem(s)")
        self.details = details

    def fields(self) -> dict[str, Any]:
        return {"details": self.details}


class PayloadInvalid(_DetailedError):
    """The adapter payload does not match the adapter's active schema (or is too large)."""

    code = "PAYLOAD_INVALID"
    depends_on_schema = True


class EditRefused(_DetailedError):
    """An operator's edited payload that the adapter's edit check refuses (`caseplatform.ports.
    EditCheck`): e.g. it would broaden what the case asked for. Nothing is recorded."""

    code = "EDIT_REFUSED"


class EnvelopeInvalid(_DetailedError):
    """The canonical envelope (titles, actors, enums, size bounds, request_id) is not valid."""

    code = "ENVELOPE_INVALID"


class SchemaInvalid(_DetailedError):
    """A schema given to register_adapter_schema is not a valid JSON Schema or x-hitl policy."""

    code = "SCHEMA_INVALID"


class InvalidStateTransition(CasePlatformError):
    code = "INVALID_STATE_TRANSITION"

    def __init__(self, from_state: str, requested_action: str) -> None:
        super().__init__(f"{requested_action} is not allowed from {from_state}")
        self.from_state = from_state
        self.requested_action = requested_action

    def fields(self) -> dict[str, Any]:
        return {"from_state": self.from_state, "requested_action": self.requested_action}


class AlreadyTerminal(CasePlatformError):
    """A second terminal decision: the first one wins and is returned with the error."""

    code = "ALREADY_TERMINAL"

    def __init__(self, case_id: str, existing: dict[str, Any]) -> None:
        super().__init__(f"case {case_id} already has a terminal decision")
        self.case_id = case_id
        self.existing = existing

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "existing_decision": self.existing}


class DuplicateApprover(CasePlatformError):
    """This principal's approval is already counted; the same principal twice is not two approvers."""

    code = "DUPLICATE_APPROVER"

    def __init__(self, case_id: str, principal: str, approvals: int, required: int) -> None:
        super().__init__(
            f"{principal} already approved case {case_id}; {approvals} of {required} approvals so far,"
            " another reviewer must approve"
        )
        self.case_id = case_id
        self.principal = principal
        self.approvals = approvals
        self.required = required

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "approvals": self.approvals, "required_approvers": self.required}


class SelfApproval(CasePlatformError):
    """The principal who submitted a case may not approve it (on any surface), even when it is also a
    reviewer of the adapter. Rejecting (or asking) is still allowed: it can only narrow what runs."""

    code = "SELF_APPROVAL"

    def __init__(self, case_id: str, principal: str) -> None:
        super().__init__(
            f"{principal} submitted case {case_id} and may not approve it; another reviewer must"
        )
        self.case_id = case_id
        self.principal = principal

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id}


class DecisionNotAllowed(CasePlatformError):
    """The decision is not among the case's `allowed_decisions` (or lacks what it needs)."""

    code = "DECISION_NOT_ALLOWED"
    depends_on_schema = True

    def __init__(self, case_id: str, decision: str, allowed: tuple[str, ...], reason: str = "") -> None:
        super().__init__(
            reason or f"{decision} is not allowed on case {case_id}; allowed: {', '.join(allowed)}"
        )
        self.case_id = case_id
        self.decision = decision
        self.allowed = allowed

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "decision": self.decision, "allowed_decisions": list(self.allowed)}


class NotSubmitter(CasePlatformError):
    """Only the principal who submitted a case revises it (resubmits it after changes were requested)."""

    code = "NOT_SUBMITTER"

    def __init__(self, case_id: str, principal: str) -> None:
        super().__init__(f"only the submitter of {case_id} may revise it, not {principal}")
        self.case_id = case_id

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id}


class FeedbackRequired(CasePlatformError):
    """The adapter's policy requires feedback on every decision (`x-hitl.always_require_feedback`)."""

    code = "FEEDBACK_REQUIRED"
    depends_on_schema = True

    def __init__(self, case_id: str, decision: str) -> None:
        super().__init__(f"{case_id}: the adapter requires feedback on every decision ({decision} has none)")
        self.case_id = case_id
        self.decision = decision

    def fields(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "decision": self.decision}


class FeedbackToolDisabled(CasePlatformError):
    """Feedback outside a decision is taken only where the adapter enables the feedback tool."""

    code = "FEEDBACK_TOOL_DISABLED"
    depends_on_schema = True

    def __init__(self, adapter_id: str) -> None:
        super().__init__(
            f"adapter {adapter_id} does not enable the feedback tool (x-hitl.enable_feedback_tool)"
        )
        self.adapter_id = adapter_id

    def fields(self) -> dict[str, Any]:
        return {"adapter_id": self.adapter_id}


class QuestionRequired(CasePlatformError):
    code = "QUESTION_REQUIRED"


class AnswerRequired(CasePlatformError):
    code = "ANSWER_REQUIRED"


class IdempotencyConflict(CasePlatformError):
    """The request_id was already used for a request with a different intent."""

    code = "IDEMPOTENCY_CONFLICT"

    def __init__(self, request_id: str) -> None:
        super().__init__(f"request_id {request_id} was already used with a different payload")
        self.request_id = request_id

    def fields(self) -> dict[str, Any]:
        return {"request_id": self.request_id}


class EscalationNotDue(CasePlatformError):
    """Internal to the sweep: the case no longer needs escalating (resolved, or a racing sweep won)."""

    code = "ESCALATION_NOT_DUE"


class InvalidCursor(CasePlatformError):
    code = "INVALID_CURSOR"


class ConcurrentModification(Exception):
    """Raised by a store when an optimistic write lost a race; the store retries, callers never see it."""


class ActiveSchemaChanged(Exception):
    """Raised by a store when another version of the adapter's schema became active between the read
    a submission was validated on and its write (which wrote nothing); the service validates again on
    the new one, callers never see it."""

    def __init__(self, adapter_id: str) -> None:
        super().__init__(f"the active schema of adapter {adapter_id} changed")
        self.adapter_id = adapter_id
