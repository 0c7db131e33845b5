"""Approval under the adapter's approver policy: votes until the required number of distinct
principals approved the same payload, then the approving decision; optionally with an edited
payload."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from caseplatform import decisions
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Intent, Stamp, Verdict
from caseplatform.errors import (
    AdapterNotFound,
    DecisionNotAllowed,
    EditRefused,
    EnvelopeInvalid,
    FeedbackRequired,
    PayloadInvalid,
)
from caseplatform.model import CaseRecord, Event, Recorded, SchemaRecord, canonical_json
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.queries import ApprovalStatus, CaseView
from caseplatform.redaction import redact_tree
from caseplatform.schemas import AdapterPolicy
from caseplatform.validation import MAX_PAYLOAD_BYTES


@dataclass(frozen=True)
class Approval:
    """An approval as recorded: its event (a vote or the completing decision) and where the case
    stands on the approver policy right after it."""

    event: Event
    status: ApprovalStatus


# The policy's count and the votes an approval's decision read, kept for its answer.
_Decided = list[tuple[int, list[Event]]]


class ApprovalCommand(CommandPipeline):
    def record_approval(
        self,
        *,
        case_id: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        edited_payload: dict[str, Any] | None = None,
    ) -> Event:
        """An operator approves; see `approve`."""
        return self.approve(
            case_id=case_id, notes=notes, actor=actor, request_id=request_id, edited_payload=edited_payload
        ).event

    def approve(
        self,
        *,
        case_id: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        edited_payload: dict[str, Any] | None = None,
        seen: CaseRecord | None = None,
        verdict: Verdict | None = None,
    ) -> Approval:
        """An operator approves, optionally with an edited payload (validated against the adapter's
        active schema, then by the adapter's edit check when it has one: EDIT_REFUSED, nothing written). The adapter's `x-hitl.required_approvers` (default 1) distinct principals must
        approve the same payload: until then each approval is an `approval_vote` event and the case
        stays open; the approval that completes the count is the `decision_recorded` (approved) event,
        carrying `approved_payload` when edited. The same principal twice is DUPLICATE_APPROVER and
        writes nothing. A rejection (record_decision) ends the case whatever the votes.

        Returns the event and where the case stands on the policy right after it. `seen`: the case
        as read earlier in the same request (get_record); the write is still decided and guarded on
        the live case. The active schema is read once and serves the payload, the edit and the policy."""
        args = {"case_id": case_id, "notes": notes, "actor": actor, "request_id": request_id}
        intent = self._accept(
            args,
            "record_approval",
            default_kind="operator",
            hashed={**args, "edited_payload": edited_payload},
        )
        if intent.actor.kind != "operator":
            raise EnvelopeInvalid([{"path": "$.actor.kind", "message": "only an operator approves"}])
        decided: _Decided = []

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return self._decide_approval(snap, stamp, intent, edited_payload, verdict, decided)

        recorded = self._run(intent, decide, seen)
        if recorded.replayed or not decided:
            # An earlier request's event: where the case stands now, as approval_status reads it.
            return Approval(recorded.event, self._replay_status(recorded, seen))
        # Written now, on the votes this decision read (unchanged since: the write was guarded).
        required, read = decided[0]
        votes = [e for e in read if e.event_type == "approval_vote"]
        if recorded.event.event_type == "approval_vote":
            votes.append(recorded.event)
        return Approval(recorded.event, ApprovalStatus(required, votes))

    def _decide_approval(
        self,
        snap: CaseSnapshot,
        stamp: Stamp,
        intent: Intent,
        edited_payload: dict[str, Any] | None,
        verdict: Verdict | None,
        decided: _Decided,
    ) -> Transition:
        """Everything is decided on the case as the store's write reads it (SQLite: under the write
        lock; DynamoDB: guarded by the case's version and the active schema's), so a stale read can
        never win: the payload as the active schema reads it, the edit, the policy, the votes.
        `decided` receives the policy's count and the votes read."""
        case = snap.case
        active = self._store.decision_schema(case.adapter_id)
        view = self._queries.view(CaseRecord(case, snap.state), active, refs=False)
        edited = None if edited_payload is None else self._checked_edit(view, active, edited_payload)
        if edited is None and view.payload_problems:
            # Read from an older version, the payload fails the version it is read as: approving it
            # as it is would approve what that schema refuses (an edit can make it valid).
            raise PayloadInvalid(list(view.payload_problems))
        policy = self._registry.policy_of(active, case.adapter_id, case.schema_version)
        allowed = policy.allowed_for(case.payload)
        chosen = verdict or Verdict("approve" if edited is None else "edit")
        if chosen.decision == "edit" and edited is None:
            raise DecisionNotAllowed(
                case.case_id, "edit", allowed, "the edit changes nothing; approve instead"
            )
        if chosen.decision not in allowed:
            raise DecisionNotAllowed(case.case_id, chosen.decision or "approve", allowed)
        require_feedback(policy, case.case_id, chosen.decision or "approve", chosen.feedback or intent.notes)
        if edited is None and snap.state.resubmissions:
            edited = view.payload  # the submitter's revision is what is approved

        def events() -> list[Event]:
            # The votes as read with the case, else the history read now (inside the store's write).
            votes = list(snap.votes) if snap.votes is not None else self._store.list_events(case.case_id)
            decided[:] = [(policy.required_approvers, votes)]
            return votes

        return decisions.approve(
            snap,
            stamp,
            intent=intent,
            payload=view.payload,
            edited=edited,
            required=policy.required_approvers,
            events=events,
            verdict=chosen,
            payload_hash=case.payload_hash_sha256
            if view.read_as_schema_version == case.schema_version
            else None,
        )

    def _replay_status(self, recorded: Recorded, seen: CaseRecord | None) -> ApprovalStatus:
        """Where a case stands after a replayed approval: from what the store read with the earlier
        event when it could, else read now."""
        case = recorded.case
        if case is None:
            case = self._queries.record(recorded.event.case_id, seen).case
        active = self._store.decision_schema(case.adapter_id)
        if recorded.votes is not None:
            required = self._registry.policy_of(
                active, case.adapter_id, case.schema_version
            ).required_approvers
            return ApprovalStatus(required, list(recorded.votes))
        return self._queries.status(case, active, self._store.list_events(case.case_id))

    def _checked_edit(
        self, view: CaseView, active: SchemaRecord | None, edited_payload: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The edited payload, redacted, valid for the adapter's active schema and allowed by the
        adapter's edit check (EDIT_REFUSED with its problems otherwise); None when the edit changes
        nothing."""
        if not isinstance(edited_payload, dict):
            raise PayloadInvalid([{"path": "$.payload", "message": "the edited payload must be an object"}])
        size = len(canonical_json(edited_payload).encode("utf-8"))
        if size > MAX_PAYLOAD_BYTES:
            raise PayloadInvalid(
                [
                    {
                        "path": "$.payload",
                        "message": f"payload is {size} bytes; the limit is {MAX_PAYLOAD_BYTES}",
                    }
                ]
            )
        if active is None:
            raise AdapterNotFound(view.record.case.adapter_id)
        clean = redact_tree(edited_payload, self._redact)
        self._registry.validator(active).validate(clean)
        check = self._edit_checks.get(view.record.case.adapter_id)
        problems = [] if check is None else check(view.payload, clean)
        if problems:
            raise EditRefused(problems)
        return None if canonical_json(clean) == canonical_json(view.payload) else clean


def require_feedback(policy: AdapterPolicy, case_id: str, decision: str, feedback: str | None) -> None:
    """FEEDBACK_REQUIRED when the adapter asks for feedback on every decision and there is none."""
    if policy.always_require_feedback and not (feedback or "").strip():
        raise FeedbackRequired(case_id, decision)
