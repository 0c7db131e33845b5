"""The escalation Lambda's logic: escalate the cases past their adapter's SLA, reassign the pending
cases that reached one of their escalation tiers (`caseplatform.governance.tiers`), notify each
escalation's target once (with a link to the case), count what was done and log it
(HITL_ESCALATION_SWEEP once per run, HITL_ESCALATED once per escalated case).

Metrics (namespace Memo, dimension service): `HitlCasesPastSla` (needs_clarification cases past
their SLA after the sweep: the past-SLA alarm's metric), `HitlEscalations`, `HitlEscalationReassigned`, and
`HitlEscalationNotifyFailed` (a notice the channel refused; its own alarm), and from the daily drift
job `HitlProjectionDrift` (cases whose stored projection differs from the fold of their events) and
from the rebuild job `HitlProjectionRepaired`.

The drift and rebuild jobs (`{"job": "drift"}`, `{"job": "rebuild"}`, optionally with the `cursor`
an earlier run answered) check the cases page by page and stop before the Lambda's time runs out or
after `max_cases`, answering where to resume (`next_cursor`; `complete` once the last case was
checked). A rebuild is idempotent: a run cut short is resumed, or simply run again.

The retention job (`{"job": "retention"}`, optionally with a `cursor`) applies each adapter's
retention to the decided cases (`caseplatform.governance.retention`), bounded the same way; it
counts `HitlRetentionPurged` and logs HITL_RETENTION_RUN. With the store's job cursors (`JobCursors`:
the DynamoDB store keeps them) a scheduled run without a cursor resumes where the last run stopped,
and records where this one stopped, so a day's bound never keeps later cases from their retention."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caseplatform import answers
from caseplatform.errors import InvalidCursor
from caseplatform.escalation import NO_LINK, Notifier, past_sla, sweep
from caseplatform.governance.retention import Archive, RetentionReport, run_retention
from caseplatform.governance.tiers import sweep_tiers
from caseplatform.service import CaseService
from memo.observability import count, logger


class ProjectionJob(BaseModel):
    """A drift or rebuild run, resumed after `cursor` when given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    job: Literal["drift", "rebuild"]
    cursor: str | None = Field(default=None, min_length=1, max_length=2048)


class RetentionJob(BaseModel):
    """A retention run, resumed after `cursor` when given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    job: Literal["retention"]
    cursor: str | None = Field(default=None, min_length=1, max_length=2048)


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
    tiers = sweep_tiers(cases, max_cases=max_cases, notifier=notifier, link=link)
    reassigned = [event.case_id for event in tiers.reassigned]
    escalated = [event.case_id for event in result.escalated]
    overdue = past_sla(cases)
    count("HitlEscalations", len(escalated))
    count("HitlCasesPastSla", overdue)
    count("HitlEscalationReassigned", len(reassigned))
    count("HitlEscalationNotifyFailed", len(result.failed_notifications) + len(tiers.failed_notifications))
    logger.info(
        "HITL_ESCALATION_SWEEP",
        extra={
            "checked": result.checked,
            "escalated": len(escalated),
            "reassigned": len(reassigned),
            "notified": len(result.notified) + len(tiers.notified),
            "notifyFailed": len(result.failed_notifications) + len(tiers.failed_notifications),
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
        "reassigned": reassigned,
        "notified": [notice.case_id for notice in [*result.notified, *tiers.notified]],
        "notify_failed": result.failed_notifications + tiers.failed_notifications,
        "past_sla": overdue,
    }


def run_projection_job(
    cases: CaseService, event: dict[str, Any], *, max_cases: int, time_left: Callable[[], bool]
) -> dict[str, Any]:
    """Check (`drift`) or repair (`rebuild`) at most `max_cases` cases from the event's cursor, no
    new page once `time_left()` is False. An event that is not a job of these writes nothing and is
    answered JOB_INVALID; a cursor this store did not issue is INVALID_CURSOR."""
    try:
        job = ProjectionJob.model_validate(event)
    except ValidationError as invalid:
        return _invalid(invalid, "not a drift or rebuild job")
    try:
        report = cases.scan_projection(
            repair=job.job == "rebuild", max_cases=max_cases, cursor=job.cursor, time_left=time_left
        )
    except InvalidCursor as error:
        return answers.error_answer(error)
    count("HitlProjectionDrift", len(report.drifted_case_ids))
    if job.job == "rebuild":
        count("HitlProjectionRepaired", len(report.repaired_case_ids))
    logger.info(
        "HITL_PROJECTION_DRIFT" if report.drifted_case_ids else "HITL_PROJECTION_OK",
        extra={
            "job": job.job,
            "checked": report.checked,
            "drifted": len(report.drifted_case_ids),
            "repaired": len(report.repaired_case_ids),
            "unrepairable": report.unrepairable_case_ids[:50],
            "caseIds": report.drifted_case_ids[:50],
            "complete": report.complete,
            "stoppedBy": report.stopped_by,
        },
    )
    return answers.success(
        job=job.job,
        checked=report.checked,
        drifted=bool(report.drifted_case_ids),
        drifted_case_ids=report.drifted_case_ids,
        repaired_case_ids=report.repaired_case_ids,
        unrepairable_case_ids=report.unrepairable_case_ids,
        next_cursor=report.next_cursor,
        complete=report.complete,
        stopped_by=report.stopped_by,
    )


def _invalid(invalid: ValidationError, message: str) -> dict[str, Any]:
    details = [{"path": ".".join(str(p) for p in e["loc"]), "message": e["msg"]} for e in invalid.errors()]
    logger.warning("HITL_PROJECTION_JOB_INVALID", extra={"details": details})
    return {"status": "error", "code": "JOB_INVALID", "message": message, "details": details}


class JobCursors(Protocol):
    """Where a scheduled job resumes (`caseplatform.stores.dynamodb_jobs`)."""

    def job_cursor(self, name: str) -> str | None: ...

    def save_job_cursor(self, name: str, cursor: str | None, now_ms: int) -> None: ...


def run_retention_job(
    cases: CaseService,
    event: dict[str, Any],
    *,
    archive: Archive | None,
    max_cases: int,
    time_left: Callable[[], bool],
    cursors: JobCursors | None = None,
) -> dict[str, Any]:
    """Apply the adapters' retention to at most `max_cases` decided cases from the event's cursor (or,
    without one, where the last run stopped), no new page once `time_left()` is False. An event that
    is not a retention job writes nothing and is answered JOB_INVALID; a cursor this job did not
    issue is INVALID_CURSOR (a stored one is dropped: the run starts from the first case)."""
    try:
        job = RetentionJob.model_validate(event)
    except ValidationError as invalid:
        return _invalid(invalid, "not a retention job")
    stored = cursors.job_cursor("retention") if cursors is not None and job.cursor is None else None
    try:
        report = _retention(cases, archive, max_cases, job.cursor or stored, time_left)
    except InvalidCursor as error:
        if job.cursor is not None:
            return answers.error_answer(error)
        logger.warning("HITL_RETENTION_CURSOR_DROPPED", extra={"cursor": stored})
        stored = None
        report = _retention(cases, archive, max_cases, None, time_left)
    if cursors is not None:
        cursors.save_job_cursor("retention", report.next_cursor, cases.clock())
    count("HitlRetentionPurged", len(report.purged_case_ids))
    logger.info(
        "HITL_RETENTION_RUN",
        extra={
            "checked": report.checked,
            "purged": len(report.purged_case_ids),
            "archived": len(report.archived),
            "unarchived": report.unarchived_case_ids[:50],
            "complete": report.complete,
            "stoppedBy": report.stopped_by,
        },
    )
    return answers.success(
        job="retention",
        resumed_from=job.cursor or stored,
        checked=report.checked,
        purged_case_ids=report.purged_case_ids,
        archived=report.archived,
        unarchived_case_ids=report.unarchived_case_ids,
        next_cursor=report.next_cursor,
        complete=report.complete,
        stopped_by=report.stopped_by,
    )


def _retention(
    cases: CaseService,
    archive: Archive | None,
    max_cases: int,
    cursor: str | None,
    time_left: Callable[[], bool],
) -> RetentionReport:
    return run_retention(
        cases, now_ms=cases.clock(), archive=archive, max_cases=max_cases, cursor=cursor, time_left=time_left
    )


def run_job(
    cases: CaseService,
    event: dict[str, Any],
    *,
    archive: Archive | None,
    projection_max_cases: int,
    retention_max_cases: int,
    time_left: Callable[[], bool],
    cursors: JobCursors | None = None,
) -> dict[str, Any]:
    """An event with a `job`: the retention job, else the drift or rebuild job (which answers
    JOB_INVALID for any other)."""
    if event.get("job") == "retention":
        return run_retention_job(
            cases, event, archive=archive, max_cases=retention_max_cases, time_left=time_left, cursors=cursors
        )
    return run_projection_job(cases, event, max_cases=projection_max_cases, time_left=time_left)
