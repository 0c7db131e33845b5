"""Escalation: the sweep appends an escalation event to a case past its SLA."""

from __future__ import annotations

from caseplatform import decisions
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Stamp
from caseplatform.errors import EscalationNotDue
from caseplatform.model import CaseState, Event
from caseplatform.ports import CaseSnapshot, Transition


class EscalationCommand(CommandPipeline):
    def escalate(self, state: CaseState, now_ms: int) -> Event | None:
        """Append an escalation event to one due case; None when it is no longer due (a racing sweep or
        an operator got there first). Idempotent per (case, due time)."""
        due = state.escalation_due_at_ms
        if due is None:
            return None
        intent = decisions.escalation_intent(state.case_id, due)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.escalate(
                snap, stamp, intent=intent, due=due, policy=self._decision_policy, redact=self._redact
            )

        try:
            recorded = self._run(intent, decide, clock=lambda: now_ms)
        except EscalationNotDue:
            return None
        return None if recorded.replayed else recorded.event
