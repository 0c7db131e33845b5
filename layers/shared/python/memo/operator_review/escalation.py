"""The escalation Lambda's logic: escalate the cases past their adapter's SLA, and log what was done
(HITL_ESCALATION_SWEEP once per run, HITL_ESCALATED once per escalated case)."""

from __future__ import annotations

from typing import Any

from caseplatform.escalation import sweep
from caseplatform.service import CaseService
from memo.observability import logger


def escalate_overdue(cases: CaseService, *, max_cases: int) -> dict[str, Any]:
    """Sweep at most `max_cases` due cases; the answer names how many were checked and which escalated."""
    result = sweep(cases, max_cases=max_cases)
    escalated = [event.case_id for event in result.escalated]
    logger.info("HITL_ESCALATION_SWEEP", extra={"checked": result.checked, "escalated": len(escalated)})
    for case_event in result.escalated:
        logger.info(
            "HITL_ESCALATED",
            extra={
                "caseId": case_event.case_id,
                "target": case_event.escalation_target,
                "eventId": case_event.event_id,
            },
        )
    return {"checked": result.checked, "escalated": escalated}
