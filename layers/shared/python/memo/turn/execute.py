"""The end of a decided plan: the execution to start once the turn's write is done, the review wait
of its steps that go to an operator, and what the turn says now (failures, "sent to review").

A plan that cannot be carried out as a whole is refused here, before anything is recorded or run,
with the reason in the user's language: a note longer than the configured limit
(`MEMO_NOTE_MAX_CHARS`), a reminder's title or a list item longer than its own
(`MEMO_TITLE_MAX_CHARS`), more steps than one execution runs, or an input over Step Functions' limit
(`memo.executor.starter`)."""

from __future__ import annotations

from typing import Any

from memo.capabilities.limits import TitledKind, title_too_long
from memo.capabilities.notes import too_long
from memo.conversation.model import MemoryKind
from memo.domain import PendingHITL, TurnState
from memo.executor.contracts import ExecutionInput
from memo.executor.starter import ExecutionInputTooLarge, TooManySteps, execution_payload
from memo.executor.tasks import build_execution
from memo.hitl import templates
from memo.hitl.templates.turn_answers import request_too_large, too_many_steps
from memo.observability import count, logger
from memo.operator_review.waits import ReviewWait
from memo.replies import Reply
from memo.resolution.router import dependency_groups
from memo.text.language import Language
from memo.turn.limits import cap_reached
from memo.turn.outcome import TurnOutcome
from memo.turn.reads import Turn


def execute(
    turn: Turn,
    state: TurnState,
    *,
    user_kind: MemoryKind,
    approved: PendingHITL | None,
    note: str | None = None,
) -> TurnOutcome:
    """Start the executor for every resolved step; steps that failed resolution (not found) are
    answered here, at once, and never reach the executor. A plan that would take the person past a
    cap (`memo.turn.limits`) starts nothing: the turn says which cap."""
    ctx = turn.ctx
    output = state.planner_output
    assert output is not None
    reached = cap_reached(turn, state)
    if reached is not None:
        # Refused whole, before anything runs: never the request's first part up to the cap.
        count("CapsReached")
        logger.info("CAP_REACHED", extra={"cap": reached.cap, "limit": reached.limit, "held": reached.held})
        text = "\n".join(t for t in (note, reached.words(state.input.language)) if t)
        return TurnOutcome(reply=Reply.plain(text), outcome="cap_reached", user_kind=user_kind)
    execution = build_execution(
        state,
        dependency_groups(output.plan),
        phone_number_id=ctx.message.phone_number_id,
        approved=approved,
        review_policy=turn.ports.review_policy,
    )
    refused = _refusal(
        execution,
        state.input.language,
        note_max_chars=turn.ports.note_max_chars,
        title_max_chars=turn.ports.title_max_chars,
    )
    if refused is not None:
        text, outcome = refused
        return TurnOutcome(reply=Reply.plain(text), outcome=outcome, user_kind=user_kind)
    failures = [_failure_text(result) for result in state.execution_results.values()]
    groups = execution.groups if execution is not None else []
    # Kept once the turn's write is done, so "cancel" can withdraw the steps while they wait.
    wait = ReviewWait.for_execution(execution, now=ctx.now) if execution is not None else None
    if wait is not None:
        # The turn says it now; the reply Lambda answers once the operator decided (or it expired).
        logger.info("REVIEW_REQUIRED", extra={"stepIds": list(wait.step_ids)})
        failures.append(templates.sent_to_review(state.input.language))
    text = "\n".join(f for f in [note, *failures] if f)
    outcome = ("awaiting_review" if wait is not None else "executing") if groups else "nothing_to_execute"
    # The execution starts once the turn's write is done (`memo.turn.recorder`): after the answered
    # question is consumed, never for an answer that lost its question.
    if not text:
        if groups:  # the reply Lambda answers when the steps are done
            return TurnOutcome(
                reply=None, outcome=outcome, user_kind=user_kind, start=execution, review_wait=wait
            )
        text = templates.would_do(output, state.input.language, state.input.timezone)
    return TurnOutcome(
        reply=Reply.plain(text), outcome=outcome, user_kind=user_kind, start=execution, review_wait=wait
    )


def _failure_text(result: dict[str, Any]) -> str:
    return str(result.get("error") or "")


#: The note steps whose `text` is what the note will hold.
_NOTE_TEXTS = frozenset({("notes", "save"), ("notes", "update")})


def _titles(capability: str, action: str, args: dict[str, Any]) -> list[tuple[TitledKind, str]]:
    """The reminder title or the list items a step would store."""
    if capability == "reminders" and action in ("create", "update") and isinstance(args.get("title"), str):
        return [("reminder", args["title"])]
    if (capability, action) == ("lists", "add"):
        return [("item", str(item)) for item in args.get("items") or []]
    return []


def _refusal(
    execution: ExecutionInput | None, language: Language, *, note_max_chars: int, title_max_chars: int
) -> tuple[str, str] | None:
    """Why the plan is not carried out at all, with the turn's outcome name; None when it fits."""
    if execution is None:
        return None
    for task in (task for group in execution.groups for task in group):
        text = task.args.get("text")
        if (
            (task.capability, task.action) in _NOTE_TEXTS
            and isinstance(text, str)
            and len(text) > note_max_chars
        ):
            logger.info("NOTE_TOO_LONG", extra={"chars": len(text), "limit": note_max_chars})
            return too_long(language, len(text), note_max_chars), "note_too_long"
        titles = _titles(task.capability, task.action, task.args)
        for kind, title in titles:
            if len(title) > title_max_chars:
                logger.info(
                    "TITLE_TOO_LONG", extra={"kind": kind, "chars": len(title), "limit": title_max_chars}
                )
                words = title_too_long(language, kind, len(title), title_max_chars, among=len(titles))
                return words, "title_too_long"
    try:
        execution_payload(execution)
    except TooManySteps as exc:
        return too_many_steps(language, exc.limit), "too_many_steps"
    except ExecutionInputTooLarge:
        return request_too_large(language), "request_too_large"
    return None
