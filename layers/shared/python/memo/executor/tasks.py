"""The executor's input built from a turn: one `StepTask` per resolved step, in dependency groups.

A step runs only once its args are resolved (`state.executorArgs`) and it has no result yet (a step
that failed resolution is answered by the turn at once). An approval answered in this turn is bound
to exactly the resolved args it saw and to its own expiry; the review policy may send a step to an
operator first (`StepTask.review`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from memo.domain import PendingHITL, PlanStep, TurnState
from memo.executor.contracts import Approval, ExecutionInput, ReviewTicket, StepTask, args_hash
from memo.text.language import Language


class ReviewPolicy(Protocol):
    """Which steps wait for an operator (`memo.operator_review.policy.ReviewPolicy`)."""

    def ticket(
        self, capability: str, action: str, args: dict[str, Any], *, approved_reason: str | None = None
    ) -> ReviewTicket | None: ...


def build_execution(
    state: TurnState,
    groups: Iterable[Iterable[PlanStep]],
    *,
    phone_number_id: str,
    approved: PendingHITL | None,
    review_policy: ReviewPolicy,
) -> ExecutionInput | None:
    """The execution of the ready steps of `groups` (dependency groups, in order); None if no step
    is ready."""
    ready: list[list[StepTask]] = []
    for group in groups:
        tasks = [
            step_task(
                state, step, phone_number_id=phone_number_id, approved=approved, review_policy=review_policy
            )
            for step in group
            if step.id in state.executor_args and step.id not in state.execution_results
        ]
        if tasks:
            ready.append(tasks)
    if not ready:
        return None
    return ExecutionInput(
        trace_id=state.trace_id,
        thread_id=state.thread_id,
        phone_number_id=phone_number_id,
        language=state.input.language,
        timezone=state.input.timezone,
        groups=ready,
    )


def step_task(
    state: TurnState,
    step: PlanStep,
    *,
    phone_number_id: str,
    approved: PendingHITL | None,
    review_policy: ReviewPolicy,
) -> StepTask:
    """The task of one resolved step, with the approval that covers it (if any) and its review."""
    args = state.executor_args[step.id]
    digest = args_hash(args)
    approval = None
    if approved is not None and approved.origin_step_id in (step.id, "planner"):
        # The approval is bound to exactly these resolved args and to its own expiry: the
        # executor refuses the step if either no longer holds when it actually runs; and to the
        # moment it was asked: an item changed since is not deleted on its strength.
        approval = Approval(
            hitl_id=approved.hitl_id,
            args_hash=digest,
            expires_at=approved.expires_at,
            asked_at=approved.created_at,
        )
    bound_reason = approved.reason if approval is not None and approved is not None else None
    titles = shown_titles(step, args, approved) if approval is not None else None
    review = review_policy.ticket(step.capability, step.action, args, approved_reason=bound_reason)
    return StepTask(
        trace_id=state.trace_id,
        thread_id=state.thread_id,
        step_id=step.id,
        capability=step.capability,
        action=step.action,
        args=args,
        args_hash=digest,
        approval=approval,
        timezone=state.input.timezone,
        language=state.input.language,
        phone_number_id=phone_number_id,
        review=review,
        titles=titles,
    )


#: Up to this many items shown, their titles go along with the step, so the reply names them.
NAMED_MAX = 10


def shown_titles(step: PlanStep, args: dict[str, Any], approved: PendingHITL | None) -> dict[str, str] | None:
    """The titles an approval showed for the reminders a delete of several (`delete_all`) deletes,
    by id; None for any other step, or past `NAMED_MAX` of them (the reply counts instead)."""
    if (step.capability, step.action) != ("reminders", "delete_all") or approved is None:
        return None
    ids = args.get("reminderIds")
    shown = approved.context.candidates if approved.context is not None else None
    if not isinstance(ids, list) or not shown or len(ids) > NAMED_MAX:
        return None
    labels = {c.id: c.label for c in shown}
    titles = {str(i): labels[str(i)] for i in ids if str(i) in labels}
    return titles if len(titles) == len(ids) else None


def one_step_execution(
    *,
    trace_id: str,
    thread_id: str,
    phone_number_id: str,
    language: Language,
    timezone: str,
    step_id: str,
    capability: str,
    action: str,
    args: dict[str, Any],
) -> ExecutionInput:
    """An execution of a single step that needs no approval nor review (a tap on Undo, Done,
    Snooze): the ledger runs it at most once per traceId."""
    task = StepTask(
        trace_id=trace_id,
        thread_id=thread_id,
        step_id=step_id,
        capability=capability,
        action=action,
        args=args,
        args_hash=args_hash(args),
        timezone=timezone,
        language=language,
        phone_number_id=phone_number_id,
    )
    return ExecutionInput(
        trace_id=trace_id,
        thread_id=thread_id,
        phone_number_id=phone_number_id,
        language=language,
        timezone=timezone,
        groups=[[task]],
    )
