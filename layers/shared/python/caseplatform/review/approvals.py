"""The review logic: the case platform's commands and queries, as an authenticated principal, with
per-adapter authorization. The HTTP API, MCP over HTTP and the web page all go through here.

Every command checks the caller's right on the case's adapter before anything is written, acts as
the principal (never a caller-supplied actor) and scopes the caller's request_id by the principal's
id, so one reviewer's retry can never replay another reviewer's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from caseplatform import answers
from caseplatform.errors import EnvelopeInvalid
from caseplatform.governance import access
from caseplatform.governance.metrics_tools import metrics_answer
from caseplatform.governance.retention_tools import redaction_answer
from caseplatform.human_input import HUMAN_INPUT_ADAPTER as HUMAN_INPUT_ADAPTER  # re-exported: infra names it
from caseplatform.human_input import ensure_human_input_adapter, human_input_case
from caseplatform.model import OPEN_STATES, CaseRecord, Event
from caseplatform.queries import ApprovalStatus
from caseplatform.query_tools import run_query
from caseplatform.redaction import apply_redactions
from caseplatform.review.auth import AGENT, REVIEWER, VIEWER, Forbidden, Principal, Role
from caseplatform.service import CaseService
from caseplatform.views import ViewProvider, build_view

QueueState = Literal["open", "pending", "needs_clarification", "changes_requested", "approved", "rejected"]
MINUTE_MS = 60_000
WAIT_HINT = (
    "call wait_for_case(case_id) (or get_case) until current_state is approved, rejected or changes_requested"
)


@dataclass(frozen=True)
class QueueQuery:
    state: QueueState = "open"
    adapter_id: str | None = None
    priority: str | None = None
    min_age_minutes: int | None = None
    limit: int = 50
    cursor: str | None = None


def ensure_review_adapters(cases: CaseService) -> list[str]:
    """Register and activate version 1 of `human_input` (request_human_input's question cases) when it
    has no active schema yet; returns the adapters it added."""
    return ensure_human_input_adapter(cases)


def scoped_request_id(who: Principal, request_id: str) -> str:
    """The request_id the case platform stores: the caller's id scoped by the principal, as
    `<len(sub)>:<sub>:<request_id>`. The length prefix makes the split unambiguous when a sub (or the
    request_id) contains ':' (`a:b` + `c` and `a` + `b:c` are different keys)."""
    return f"{len(who.sub)}:{who.sub}:{request_id}"


def decision_of(events: list[Event]) -> dict[str, Any] | None:
    """The terminal decision of a case, for pollers: outcome, who, when, notes, approved payload."""
    for event in events:
        if event.event_type == "decision_recorded":
            return {
                "event_id": event.event_id,
                "decision": event.decision_outcome,
                "decided_at_ms": event.created_at_ms,
                "actor": {"name": event.actor.name, "id": event.actor.id, "kind": event.actor.kind},
                "notes": event.notes,
                "approved_payload": event.approved_payload,
                "structured_decision": event.decision,
                "feedback": event.feedback,
                "answers": event.answers,
            }
    return None


class ReviewService:
    def __init__(self, cases: CaseService, *, views: Mapping[str, ViewProvider] | None = None) -> None:
        """`views`: per adapter, a client's read-time addition to the case view (`caseplatform.views`)."""
        self.cases = cases
        self._views = dict(views or {})

    # ------------------------------------------------------------------ reads
    def readable(self, who: Principal, adapter_id: str) -> bool:
        return who.may(REVIEWER, adapter_id) or who.may(AGENT, adapter_id) or who.may(VIEWER, adapter_id)

    def _hidden(self, who: Principal, adapter_id: str) -> tuple[str, ...]:
        """The payload fields hidden from this caller: the adapter's sensitive fields for a viewer
        who neither reviews nor submits its cases, else none."""
        if who.may(REVIEWER, adapter_id) or who.may(AGENT, adapter_id):
            return ()
        return access.sensitive_fields(self.cases.store.active_schema(adapter_id))

    def _case(self, who: Principal, case_id: str, *roles: Role) -> CaseRecord:
        """The case as stored, once the caller may act on its adapter in one of `roles`. Commands
        pass it down (`seen`), so the request reads the case once; their writes stay guarded."""
        record = self.cases.get_record(case_id)
        adapter = record.case.adapter_id
        if not any(who.may(role, adapter) for role in roles):
            raise Forbidden(f"{who.sub} may not act on {adapter} cases")
        return record

    def queue(self, who: Principal, query: QueueQuery) -> dict[str, Any]:
        """Open cases most urgent first (state open/pending/needs_clarification), or decided cases
        newest first with a cursor. Only adapters the caller may read; filtering by another adapter
        is Forbidden."""
        if query.adapter_id is not None and not self.readable(who, query.adapter_id):
            raise Forbidden(f"{who.sub} may not read {query.adapter_id} cases")
        max_created = None
        if query.min_age_minutes is not None:
            max_created = self.cases.clock() - query.min_age_minutes * MINUTE_MS

        def keep(record: CaseRecord) -> bool:
            return self.readable(who, record.case.adapter_id) and (
                max_created is None or record.case.created_at_ms <= max_created
            )

        if query.state == "open" or query.state in OPEN_STATES:
            found = self.cases.list_review_queue(
                adapter_id=query.adapter_id,
                priority=query.priority,
                state=None if query.state == "open" else query.state,
                limit=200,
            )
            return answers.items_answer([r for r in found if keep(r)][: query.limit], self._summary_for(who))
        page = self.cases.list_cases(
            state=query.state,
            adapter_id=query.adapter_id,
            priority=query.priority,
            limit=query.limit,
            cursor=query.cursor,
        )
        return answers.items_answer(
            [r for r in page.items if keep(r)], self._summary_for(who), page.next_cursor
        )

    def _summary_for(self, who: Principal) -> Callable[[CaseRecord], dict[str, Any]]:
        """A list item as this caller may read it: a viewer is shown the title instead of a summary
        line built from a payload with hidden fields."""
        hidden: dict[str, tuple[str, ...]] = {}

        def summary(record: CaseRecord) -> dict[str, Any]:
            item = answers.case_summary(record)
            adapter = record.case.adapter_id
            if adapter not in hidden:
                hidden[adapter] = self._hidden(who, adapter)
            if hidden[adapter]:
                item["summary_line"] = record.case.title
            return item

        return summary

    def case(self, who: Principal, case_id: str) -> dict[str, Any]:
        """The case, its history, its terminal decision and where it stands on the approver policy."""
        record = self._case(who, case_id, REVIEWER, AGENT, VIEWER)
        detail = self.cases.get_case_detail(case_id, seen=record)
        view, history, status = detail.view, detail.history, detail.status
        answer = answers.case_answer(view)
        answer["history"] = [answers.event_dict(e) for e in history]
        answer["decision"] = decision_of(history)
        answer["approvals"] = {
            "required": status.required_approvers,
            "votes": [
                {
                    "event_id": v.event_id,
                    "actor": {"name": v.actor.name, "id": v.actor.id},
                    "at_ms": v.created_at_ms,
                    "edited": v.approved_payload is not None,
                }
                for v in status.votes
            ],
        }
        answer["may_review"] = who.may(REVIEWER, view.record.case.adapter_id)
        answer["allowed_decisions"] = list(self.cases.allowed_decisions(record))
        answer["own_case"] = record.case.submitter.principal == who.sub
        hidden = self._hidden(who, record.case.adapter_id)
        answer["view"] = build_view(view.record, access.mask_payload(view.payload, hidden), self._views)
        active = self.cases.store.active_schema(record.case.adapter_id)
        answer["adapter_schema"] = active.schema if active is not None else None  # live edit validation
        decided = answer["decision"]
        answer["final_payload"] = (
            (apply_redactions(decided.get("approved_payload"), history) or view.payload)
            if decided is not None and decided["decision"] == "approved"
            else None
        )
        return access.mask_case_answer(answer, hidden)

    def history(self, who: Principal, case_id: str) -> dict[str, Any]:
        record = self._case(
            who, case_id, REVIEWER, AGENT, VIEWER
        )  # the case exists: its events are all to read
        history = answers.history_answer(case_id, self.cases.store.list_events(case_id))
        return access.mask_case_answer(history, self._hidden(who, record.case.adapter_id))

    # ------------------------------------------------------------------ reviewer commands
    def approve(
        self,
        who: Principal,
        case_id: str,
        *,
        request_id: str,
        notes: str = "",
        payload: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        record = self._case(who, case_id, REVIEWER)
        approval = self.cases.approve(
            case_id=case_id,
            notes=notes,
            actor=who.actor("operator"),
            request_id=scoped_request_id(who, request_id),
            edited_payload=payload,
            seen=record,
        )
        return self._decision_answer(approval.event, approval.status)

    def reject(self, who: Principal, case_id: str, *, request_id: str, reason: str) -> dict[str, Any]:
        if not reason.strip():
            raise EnvelopeInvalid([{"path": "$.reason", "message": "a rejection needs a reason"}])
        record = self._case(who, case_id, REVIEWER)
        event = self.cases.record_decision(
            case_id=case_id,
            decision="rejected",
            notes=reason,
            actor=who.actor("operator"),
            request_id=scoped_request_id(who, request_id),
            seen=record,
        )
        return self._decision_answer(event, self.cases.approval_status(case_id, seen=record))

    def decide(
        self,
        who: Principal,
        case_id: str,
        *,
        request_id: str,
        decision: str,
        feedback: str = "",
        answers: Any = None,
        payload: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The structured decision `{decision: approve|edit|reject|respond, feedback, answers}`
        (`CaseService.decide`), within the case's allowed decisions."""
        record = self._case(who, case_id, REVIEWER)
        done = self.cases.decide(
            case_id=case_id,
            decision=decision,
            feedback=feedback,
            answers=answers,
            payload=payload,
            actor=who.actor("operator"),
            request_id=scoped_request_id(who, request_id),
            seen=record,
        )
        if isinstance(done, Event):
            return self._decision_answer(done, self.cases.approval_status(case_id, seen=record))
        return self._decision_answer(done.event, done.status)

    def clarify(
        self, who: Principal, case_id: str, *, request_id: str, question: str, notes: str = ""
    ) -> dict[str, Any]:
        record = self._case(who, case_id, REVIEWER)
        event = self.cases.request_clarification(
            case_id=case_id,
            question=question,
            notes=notes,
            actor=who.actor("operator"),
            request_id=scoped_request_id(who, request_id),
            seen=record,
        )
        return answers.transition_answer(event)

    def _decision_answer(self, event: Event, status: ApprovalStatus) -> dict[str, Any]:
        answer = answers.transition_answer(event)
        answer["approvals"] = {
            "required": status.required_approvers,
            "recorded": len(status.votes) + (1 if event.decision_outcome == "approved" else 0),
        }
        if event.approved_payload is not None:
            answer["approved_payload"] = event.approved_payload
        # `decision` stays the outcome (approved/rejected); the reviewer's structured decision is
        # `structured_decision` (approve/edit/reject/respond), with its feedback and answers.
        for name, key in (
            ("decision", "structured_decision"),
            ("feedback", "feedback"),
            ("answers", "answers"),
        ):
            value = getattr(event, name)
            if value is not None:
                answer[key] = value
        return answer

    # ------------------------------------------------------------------ the cross-case queries
    def query(self, who: Principal, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """One of the cross-case queries (`caseplatform.query_tools`). They span every adapter (audit,
        stats, principals), so they need the right to review every adapter (`reviewers:*`)."""
        if not who.may(REVIEWER, "*"):
            raise Forbidden(f"{who.sub} may not run cross-adapter queries (needs reviewers:*)")
        return run_query(self.cases, name, args)

    # ------------------------------------------------------------------ governance
    def redact(
        self, who: Principal, case_id: str, *, fields: list[str], reason: str, request_id: str
    ) -> dict[str, Any]:
        """Blank payload fields of a case, recorded as a `redacted` event by the reviewer (reviewers of
        the case's adapter only: a viewer or agent may not rewrite what a case holds)."""
        self._case(who, case_id, REVIEWER)
        event = self.cases.redact_case(
            case_id=case_id,
            fields=fields,
            reason=reason,
            actor=who.actor("operator"),
            request_id=scoped_request_id(who, request_id),
        )
        return redaction_answer(event)

    def metrics(
        self, who: Principal, *, from_ms: Any, to_ms: Any, period_ms: Any = None, adapter_id: Any = None
    ) -> dict[str, Any]:
        """Review latency and clarification turnaround (`caseplatform.governance.metrics`): of one
        adapter the caller may read, or of every adapter for a reviewer of all (`reviewers:*`)."""
        if adapter_id is None and not who.may(REVIEWER, "*"):
            raise Forbidden(f"{who.sub} may not read every adapter's metrics (name an adapter_id)")
        if isinstance(adapter_id, str) and not self.readable(who, adapter_id):
            raise Forbidden(f"{who.sub} may not read {adapter_id} cases")
        return metrics_answer(
            self.cases, from_ms=from_ms, to_ms=to_ms, period_ms=period_ms, adapter_id=adapter_id
        )

    # ------------------------------------------------------------------ agent commands
    def submit(self, who: Principal, *, request_id: str, **case: Any) -> dict[str, Any]:
        who.require(AGENT, case["adapter_id"])
        event, created = self.cases.submit_case(
            **case,
            submitter={"name": who.name, "role": "agent", "id": who.sub, "assurance": "jwt"},
            request_id=scoped_request_id(who, request_id),
        )
        return answers.submit_answer(event, created)

    def provide_clarification(
        self, who: Principal, case_id: str, *, request_id: str, answer: str, notes: str = ""
    ) -> dict[str, Any]:
        record = self._case(who, case_id, AGENT)
        event = self.cases.provide_clarification(
            case_id=case_id,
            answer=answer,
            notes=notes,
            actor=who.actor("agent"),
            request_id=scoped_request_id(who, request_id),
            seen=record,
        )
        return answers.transition_answer(event)

    def resubmit(
        self, who: Principal, case_id: str, *, request_id: str, payload: dict[str, Any], notes: str = ""
    ) -> dict[str, Any]:
        """The submitter's revision of a case sent back with `changes_requested` (agents)."""
        self._case(who, case_id, AGENT)
        event = self.cases.resubmit_case(
            case_id=case_id,
            payload=payload,
            notes=notes,
            actor=who.actor("agent"),
            request_id=scoped_request_id(who, request_id),
        )
        return answers.transition_answer(event)

    def leave_feedback(
        self, who: Principal, case_id: str, *, request_id: str, feedback: str
    ) -> dict[str, Any]:
        """Feedback on an open case through the feedback tool, where its adapter enables it (agents)."""
        self._case(who, case_id, AGENT)
        event = self.cases.leave_feedback(
            case_id=case_id,
            feedback=feedback,
            actor=who.actor("agent"),
            request_id=scoped_request_id(who, request_id),
        )
        return answers.transition_answer(event)

    def request_human_input(
        self,
        who: Principal,
        *,
        questions: list[str],
        request_id: str,
        allowed_decisions: list[str] | None = None,
        title: str | None = None,
        prompt: str | None = None,
        context: dict[str, Any] | None = None,
        priority: str = "normal",
    ) -> dict[str, Any]:
        """Open a question case (adapter `human_input`); the agent waits on it (wait_for_case)."""
        case = human_input_case(
            questions=questions,
            allowed_decisions=allowed_decisions,
            title=title,
            prompt=prompt,
            context=context,
            priority=priority,
        )
        answer = self.submit(who, request_id=request_id, **case)
        answer["poll"] = WAIT_HINT
        return answer
