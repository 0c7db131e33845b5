"""The escalation Lambda's logic: escalate the cases past their adapter's SLA, notify each
escalation's target once (with a link to the case), count what was done and log it
(HITL_ESCALATION_SWEEP once per run, HITL_ESCALATED once per escalated case).

Metrics (namespace Memo, dimension service): `HitlCasesPastSla` (needs_clarification cases past
their SLA after the sweep: the past-SLA alarm's metric), `HitlEscalations`, and
`HitlEscalationNotifyFailed` (a notice the channel refused; its own alarm), and from the daily drift
job `HitlProjectionDrift` (cases whose stored projection differs from the fold of their events)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from caseplatform.escalation import NO_LINK, Notifier, past_sla, sweep
from caseplatform.service import CaseService
from memo.observability import count, logger


def escalate_overdue(
    cases: CaseService,
    *,
    max_cases: int,
    notifier: Notifier | None = None,
    link: Callable[[str], str | None] = NO_LINK,
) -> dict[str, Any]:
    """Sweep at most `max_cases` due cases; the answer names how many were checked, which escalated,
    which were notified and how many cases are past their SLA."""
    result = sweep(cases, max_cases=max_cases, notifier=notifier, link=link)
    escalated = [event.case_id for event in result.escalated]
    overdue = past_sla(cases)
    count("HitlEscalations", len(escalated))
    count("HitlCasesPastSla", overdue)
    count("HitlEscalationNotifyFailed", len(result.failed_notifications))
    logger.info(
        "HITL_ESCALATION_SWEEP",
        extra={
            "checked": result.checked,
            "escalated": len(escalated),
            "notified": len(result.notified),
            "notifyFailed": len(result.failed_notifications),
            "pastSla": overdue,
        },
    )
    for case_event in result.escalated:
        logger.info(
            "HITL_ESCALATED",
            extra={
                "caseId": case_event.case_id,
                "target": case_event.escalation_target,
                "eventId": case_event.event_id,
            },
        )
    return {
        "checked": result.checked,
        "escalated": escalated,
        "notified": [notice.case_id for notice in result.notified],
        "notify_failed": result.failed_notifications,
        "past_sla": overdue,
    }


def check_projection(cases: CaseService) -> dict[str, Any]:
    """The scheduled drift check on the DynamoDB store: compare the live projection with the one
    recomputed from the events, count and log the drifted cases (repair is `hitl rebuild`-style and
    deliberate, never automatic)."""
    report = cases.check_drift()
    count("HitlProjectionDrift", len(report.drifted_case_ids))
    logger.info(
        "HITL_PROJECTION_DRIFT" if report.drifted else "HITL_PROJECTION_OK",
        extra={"drifted": len(report.drifted_case_ids), "caseIds": report.drifted_case_ids[:50]},
    )
    return {
        "drifted": report.drifted,
        "drifted_case_ids": report.drifted_case_ids,
        "live_hash": report.live_hash,
        "recomputed_hash": report.recomputed_hash,
    }
