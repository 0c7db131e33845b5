"""Deciding a case: `record_decision` (approved / rejected) and the reviewer's structured decision
`decide` (approve, edit, reject, respond)."""

from __future__ import annotations

from typing import Any

from caseplatform import decisions
from caseplatform.commands.approve import Approval, ApprovalCommand, require_feedback
from caseplatform.commands.revise import RevisionCommands
from caseplatform.decisions import Stamp, Verdict
from caseplatform.errors import DecisionNotAllowed, EnvelopeInvalid
from caseplatform.model import STRUCTURED_DECISIONS, CaseRecord, Event
from caseplatform.ports import CaseSnapshot, Transition


class DecisionCommands(ApprovalCommand, RevisionCommands):
    def record_decision(
        self,
        *,
        case_id: str,
        decision: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        """Approve or reject outright (no approver policy). `seen`: the case as read earlier in the
        same request (get_record); the write is still decided and guarded on the live case."""
        args = {
            "case_id": case_id,
            "decision": decision,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        if decision == "approved":
            # Every approval goes through the approver policy (required approvers, no self-approval).
            return self.approve(
                case_id=case_id, notes=notes, actor=actor, request_id=request_id, seen=seen
            ).event
        return self._reject(args, verdict=Verdict("reject"), seen=seen)

    def decide(
        self,
        *,
        case_id: str,
        decision: str,
        feedback: str = "",
        answers: Any = None,
        payload: dict[str, Any] | None = None,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Approval | Event:
        """A reviewer's structured decision `{decision, feedback, answers}` (decision: approve, edit,
        reject, respond), limited to the case's allowed decisions:
            approve   the payload as submitted, or as last revised (the approver policy applies)
                                                                                -> approved
            edit      an edited `payload`, which must differ and be valid       -> approved
            edit      without a payload: `feedback` goes back to the submitter -> changes_requested
            reject    `feedback` is the reason (required)                       -> rejected
            respond   `feedback` and/or `answers` go back to the submitter; what the case asked for
                      does not run                                             -> rejected
        `feedback` and `answers` are recorded on the event. Returns the Approval for approve/edit."""
        _check_structured(decision, feedback, answers, payload)
        verdict = Verdict(decision, feedback or None, answers)  # type: ignore[arg-type]
        if decision == "edit" and payload is None:
            return self.request_changes(
                case_id=case_id, verdict=verdict, actor=actor, request_id=request_id, seen=seen
            )
        if decision in ("approve", "edit"):
            return self.approve(
                case_id=case_id,
                notes=feedback,
                actor=actor,
                request_id=request_id,
                edited_payload=payload,
                seen=seen,
                verdict=verdict,
            )
        args = {
            "case_id": case_id,
            "decision": "rejected",
            "structured_decision": decision,
            "feedback": feedback,
            "notes": feedback,
            "actor": actor,
            "request_id": request_id,
        }
        if answers is not None:
            args["answers"] = answers
        return self._reject(args, verdict=verdict, seen=seen)

    def _reject(self, args: dict[str, Any], *, verdict: Verdict, seen: CaseRecord | None) -> Event:
        """End the case `rejected` (a rejection or a response), within its allowed decisions."""
        intent = self._accept(args, "record_decision", default_kind="operator")
        wanted = verdict.decision or "reject"

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            # Decided on the case as the store's write reads it: the allowed decisions first.
            policy = self._decision_policy(snap.case)
            allowed = policy.allowed_for(snap.case.payload)
            if wanted not in allowed:
                raise DecisionNotAllowed(snap.case.case_id, wanted, allowed)
            require_feedback(policy, snap.case.case_id, wanted, verdict.feedback or intent.notes)
            return decisions.record_decision(snap, stamp, intent=intent, outcome="rejected", verdict=verdict)

        return self._run(intent, decide, seen).event


def _check_structured(decision: str, feedback: str, answers: Any, payload: dict[str, Any] | None) -> None:
    """ENVELOPE_INVALID unless the structured decision carries what it needs: an edit its payload or,
    without one, the feedback that sends it back; a rejection its reason; a response feedback or
    answers; only an edit a payload."""
    if decision not in STRUCTURED_DECISIONS:
        message = f"decision must be one of {', '.join(STRUCTURED_DECISIONS)}"
        raise EnvelopeInvalid([{"path": "$.decision", "message": message}])
    if decision == "edit" and payload is None and not feedback.strip():
        raise EnvelopeInvalid(
            [{"path": "$.feedback", "message": "an edit without a payload needs feedback: what to change"}]
        )
    if decision == "approve" and payload is not None:
        raise EnvelopeInvalid(
            [{"path": "$.payload", "message": "approve takes no payload; use edit to change it"}]
        )
    if decision in ("approve", "edit"):
        return
    if payload is not None:
        raise EnvelopeInvalid([{"path": "$.payload", "message": f"{decision} takes no payload"}])
    if decision == "reject" and not feedback.strip():
        raise EnvelopeInvalid([{"path": "$.feedback", "message": "a rejection needs a reason"}])
    if decision == "respond" and not feedback.strip() and not answers:
        raise EnvelopeInvalid([{"path": "$.feedback", "message": "a response needs feedback or answers"}])
