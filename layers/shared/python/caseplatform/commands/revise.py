"""Changes requested and the submitter's revision: a reviewer's edit without a payload sends the case
back to its submitter with the feedback (`changes_requested`); the submitter resubmits a revised
payload, validated against the adapter's active schema, and the case is pending again. Also the
feedback tool: feedback left on an open case without deciding it, where the adapter enables it."""

from __future__ import annotations

from typing import Any

from caseplatform import decisions
from caseplatform.commands.approve import require_feedback
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Stamp, Verdict
from caseplatform.errors import (
    AdapterNotFound,
    DecisionNotAllowed,
    EnvelopeInvalid,
    FeedbackToolDisabled,
    PayloadInvalid,
)
from caseplatform.model import CaseRecord, Event, canonical_json
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.redaction import redact_tree
from caseplatform.validation import MAX_PAYLOAD_BYTES


class RevisionCommands(CommandPipeline):
    def request_changes(
        self,
        *,
        case_id: str,
        verdict: Verdict,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        """A reviewer's `edit` without a payload: the case returns to its submitter with the feedback
        (and answers), state `changes_requested`. Only where the case allows `edit`."""
        feedback = verdict.feedback or ""
        args: dict[str, Any] = {
            "case_id": case_id,
            "structured_decision": "edit",
            "feedback": feedback,
            "notes": feedback,
            "actor": actor,
            "request_id": request_id,
        }
        if verdict.answers is not None:
            args["answers"] = verdict.answers
        intent = self._accept(args, "request_changes", default_kind="operator")
        if intent.actor.kind != "operator":
            raise EnvelopeInvalid([{"path": "$.actor.kind", "message": "only an operator requests changes"}])
        clean = Verdict("edit", intent.notes, verdict.answers)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            policy = self._decision_policy(snap.case)
            allowed = policy.allowed_for(snap.case.payload)
            if "edit" not in allowed:
                raise DecisionNotAllowed(snap.case.case_id, "edit", allowed)
            require_feedback(policy, snap.case.case_id, "edit", clean.feedback)
            return decisions.request_changes(snap, stamp, intent=intent, verdict=clean)

        return self._run(intent, decide, seen).event

    def resubmit_case(
        self,
        *,
        case_id: str,
        payload: dict[str, Any],
        notes: str,
        actor: dict[str, Any],
        request_id: str,
    ) -> Event:
        """The submitter's revised payload for a case in `changes_requested`: validated against the
        adapter's active schema (PAYLOAD_INVALID, nothing written), the case is pending again and its
        history keeps every round. Only the submitter revises (NOT_SUBMITTER); any other state is
        INVALID_STATE_TRANSITION."""
        if not isinstance(payload, dict):
            raise PayloadInvalid([{"path": "$.payload", "message": "the revised payload must be an object"}])
        payload_json = canonical_json(payload)
        size = len(payload_json.encode("utf-8"))
        if size > MAX_PAYLOAD_BYTES:
            message = f"payload is {size} bytes; the limit is {MAX_PAYLOAD_BYTES}"
            raise PayloadInvalid([{"path": "$.payload", "message": message}])
        args = {"case_id": case_id, "notes": notes, "actor": actor, "request_id": request_id}
        intent = self._accept(args, "resubmit", default_kind="agent", hashed={**args, "payload": payload})
        revised = redact_tree(payload, self._redact)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            active = self._store.decision_schema(snap.case.adapter_id)
            if active is None:
                raise AdapterNotFound(snap.case.adapter_id)
            self._registry.validator(active).validate(revised)
            return decisions.resubmit(snap, stamp, intent=intent, revised=revised)

        return self._run(intent, decide).event

    def leave_feedback(self, *, case_id: str, feedback: str, actor: dict[str, Any], request_id: str) -> Event:
        """Feedback on an open case without deciding it (the feedback tool), where the adapter's
        `x-hitl.enable_feedback_tool` is set (FEEDBACK_TOOL_DISABLED otherwise)."""
        if not isinstance(feedback, str) or not feedback.strip():
            raise EnvelopeInvalid([{"path": "$.feedback", "message": "feedback must not be blank"}])
        args = {
            "case_id": case_id,
            "notes": "",
            "feedback": feedback,
            "actor": actor,
            "request_id": request_id,
        }
        intent = self._accept(args, "add_feedback", default_kind="agent")
        clean = self._redact(feedback)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            if not self._decision_policy(snap.case).enable_feedback_tool:
                raise FeedbackToolDisabled(snap.case.adapter_id)
            return decisions.add_feedback(snap, stamp, intent=intent, feedback=clean)

        return self._run(intent, decide).event
