"""The transitions of a resumed turn: where an answer sends the turn, and the state it carries.

Every answer to a pending question ends in one `ResumeOutcome` (the table of `memo.hitl.resume`):
continue (to the question's returnTo), continue with modifications, switch intent, cancel, re-ask
(same question), Edit's follow-up question, or the same approval asked again after a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from memo.domain import (
    HITLResultEntry,
    InterpreterDecision,
    InterpreterOutput,
    PendingHITL,
    PendingHITLContext,
    PlanStep,
    TurnState,
)
from memo.hitl import gate, templates
from memo.hitl.plan_edits import apply_modifications, origin_step
from memo.observability import logger, mask_phone
from memo.text.language import detect_language

Goto = Literal["planner", "resolver_router", "entity_resolution", "response", "interrupt", "case"]
OutcomeDecision = InterpreterDecision | Literal["edit_requested", "narrowed"]

RAW_LOG_LIMIT = 200


@dataclass(frozen=True)
class ResumeOutcome:
    """Where the turn goes next.

    - `state`: the updated TurnState (persist it / hand it on; `pendingHITL` is None unless
      goto == "interrupt").
    - `text`: what to send the user now (cancellation, nudge, Edit follow-up), if anything.
    - `pending`: for goto == "interrupt", the pending question to keep (same hitlId); its
      options are the buttons to send with `text`.
    - `selected_ids`: for entity_resolution, the chosen candidates' entity ids, in option order;
      for resolver_router, the subset of an approval's items the answer keeps (empty: all shown).
    - `approved`: the answer approves what it saw (never set for an edit: that is asked again).
    - `keeps_question`: a new request while an operator's question is open: the question stays.
    - `feedback`: the reason given with a rejection.
    - `request`: for switch_intent, the words to plan when they are not the answer's own ("no, the
      milk one" -> "delete the milk reminder").
    """

    goto: Goto
    decision: OutcomeDecision
    state: TurnState
    text: str | None = None
    pending: PendingHITL | None = None
    selected_ids: tuple[str, ...] = field(default_factory=tuple)
    approved: bool = False
    keeps_question: bool = False
    feedback: str | None = None
    request: str | None = None

    @property
    def consumed(self) -> bool:
        """Whether the pending question was answered (delete it with a conditional write)."""
        return self.goto != "interrupt" and not self.keeps_question


def goto_for(pending: PendingHITL) -> Goto:
    node, mode = pending.return_to.node, pending.return_to.mode
    if node == "planner" and mode == "replan":
        return "planner"
    if node == "entity_resolution":
        return "entity_resolution"
    if node == "case":
        return "case"
    return "resolver_router"


class ResumeLog:
    def __init__(self, state: TurnState, pending: PendingHITL) -> None:
        self.base = {
            "traceId": state.trace_id,
            "threadId": mask_phone(state.thread_id),
            "hitlId": pending.hitl_id,
        }

    def info(self, event: str, **fields: Any) -> None:
        logger.info(event, extra={**self.base, **fields})


def approved(outcome: ResumeOutcome) -> ResumeOutcome:
    return ResumeOutcome(goto=outcome.goto, decision=outcome.decision, state=outcome.state, approved=True)


def answer_entry(
    pending: PendingHITL, raw: str, parsed: Any, interpreted: InterpreterOutput | None, now: datetime
) -> HITLResultEntry:
    return HITLResultEntry(
        raw=raw, parsed=parsed, at=now, return_to=pending.return_to, interpreted=interpreted
    )


def with_result(state: TurnState, pending: PendingHITL, entry: HITLResultEntry) -> TurnState:
    return state.model_copy(
        update={"pending_hitl": None, "hitl_results": {**state.hitl_results, pending.hitl_id: entry}}
    )


def continued(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    parsed: Any,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: ResumeLog,
) -> ResumeOutcome:
    goto = goto_for(pending)
    new_state = with_result(state, pending, answer_entry(pending, raw, parsed, interpreted, now))
    log.info(
        "HITL_RESUME_VALID",
        parsedResult=parsed,
        returnTo=pending.return_to.model_dump(mode="json"),
        goto=goto,
    )
    return ResumeOutcome(goto=goto, decision="continue", state=new_state)


def continued_with_modifications(
    state: TurnState,
    pending: PendingHITL,
    step: PlanStep,
    raw: str,
    modifications: dict[str, Any],
    interpreted: InterpreterOutput,
    now: datetime,
    log: ResumeLog,
) -> ResumeOutcome:
    parsed = {"approved": True, "modifications": modifications}
    entry = answer_entry(pending, raw, parsed, interpreted, now)
    new_state = with_result(apply_modifications(state, step, modifications), pending, entry)
    log.info("HITL_CONTINUE_WITH_MODIFICATIONS", modifications=modifications, originStepId=step.id)
    log.info(
        "HITL_RESUME_VALID",
        parsedResult=parsed,
        returnTo=pending.return_to.model_dump(mode="json"),
        goto="resolver_router",
    )
    return ResumeOutcome(goto="resolver_router", decision="continue_with_modifications", state=new_state)


def replan_with(
    state: TurnState, pending: PendingHITL, raw: str, combined: str, log: ResumeLog, now: datetime
) -> ResumeOutcome:
    """Plan `combined` afresh as this request (same traceId): what is still missing is asked again."""
    entry = HITLResultEntry(raw=raw, parsed={"completes": True}, at=now, return_to=None, interpreted=None)
    new_state = _replanned(state, combined, pending.hitl_id, entry)
    log.info("HITL_ANSWER_COMPLETES_REQUEST", rawReply=raw[:RAW_LOG_LIMIT])
    return ResumeOutcome(goto="planner", decision="continue", state=new_state)


def switch_intent(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: ResumeLog,
    *,
    request: str | None = None,
) -> ResumeOutcome:
    """The answer is a request of its own: the turn is planned afresh from it (`request`: the words
    the answer asks for when they are not its own, as "no, the milk one" -> "delete the milk
    reminder")."""
    entry = HITLResultEntry(
        raw=raw, parsed={"switchIntent": True}, at=now, return_to=None, interpreted=interpreted
    )
    new_state = _replanned(state, request or raw, pending.hitl_id, entry)
    log.info("HITL_SWITCH_INTENT", rawReply=raw[:RAW_LOG_LIMIT], **({"planned": request} if request else {}))
    return ResumeOutcome(goto="planner", decision="switch_intent", state=new_state, request=request)


def cancel(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: ResumeLog,
    *,
    feedback: str | None = None,
    text: str | None = None,
) -> ResumeOutcome:
    """The question closed as a no: nothing of it runs. `feedback`: the reason the no gave;
    `text`: the reply, when the cancel says more than "cancelled" (what the answer left)."""
    parsed: dict[str, Any] = {"cancelled": True}
    if feedback:
        parsed["feedback"] = feedback
    entry = answer_entry(pending, raw, parsed, interpreted, now)
    log.info("HITL_CANCELLED", **({"feedback": feedback} if feedback else {}))
    # Said in the answer's own language: a Hebrew "לא" to an English question is answered in Hebrew.
    language = detect_language(raw, state.input.language)
    return ResumeOutcome(
        goto="response",
        decision="cancel",
        state=with_result(state, pending, entry),
        text=text
        or (templates.rejected_with_reason(language) if feedback else templates.cancelled(language)),
        feedback=feedback,
    )


def kept_all(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime, log: ResumeLog
) -> ResumeOutcome:
    """An answer that keeps every item away ("keep grandma", the only one; "not 1 2 3") leaves
    nothing to do: the question is closed as a no, so a "yes" said after it approves nothing (asked
    again instead, a "yes" would have run every item)."""
    log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "kept_all"})
    language = detect_language(raw, state.input.language)
    return cancel(state, pending, raw, None, now, log, text=templates.kept_all(language))


def re_ask(
    state: TurnState, pending: PendingHITL, raw: str, log: ResumeLog, *, hint: str | None = None
) -> ResumeOutcome:
    log.info("HITL_RE_ASK", rawReply=raw[:RAW_LOG_LIMIT])
    text = f"{hint}\n{pending.question}" if hint else templates.nudge(pending, state.input.language)
    return ResumeOutcome(goto="interrupt", decision="re_ask", state=state, text=text, pending=pending)


def removes(step: PlanStep | None) -> bool:
    return step is not None and step.action in ("delete", "delete_all", "clear", "remove")


def skips(pending: PendingHITL) -> bool:
    """Whether the approval shows times of series skipped (`templates.SKIPPED_ONCE`), not deletes."""
    shown = (pending.context.candidates if pending.context else None) or []
    return bool(shown) and all(c.data.get(templates.SKIPPED_ONCE) for c in shown)


def edit_requested(state: TurnState, pending: PendingHITL, log: ResumeLog, now: datetime) -> ResumeOutcome:
    """Edit on an approval: the same hitlId asks what to change, with a fresh TTL of its own length
    (the user is typing the details now; the first question's clock must not cut them off)."""
    language = state.input.language
    context = (
        pending.context.model_copy(update={"awaiting": "edit_details"})
        if pending.context is not None
        else PendingHITLContext(awaiting="edit_details")
    )
    follow_up = pending.model_copy(
        update={
            "expected_input": "free_text",
            "options": None,
            "question": templates.edit_prompt(
                language, removal=removes(origin_step(state, pending)), skip=skips(pending)
            ),
            "context": context,
            "expires_at": now + (pending.expires_at - pending.created_at),
        }
    )
    log.info("HITL_EDIT_REQUESTED", originStepId=pending.origin_step_id)
    return ResumeOutcome(
        goto="interrupt",
        decision="edit_requested",
        state=state.model_copy(update={"pending_hitl": follow_up}),
        text=follow_up.question,
        pending=follow_up,
    )


def back_to_approval(
    state: TurnState, pending: PendingHITL, note: str, now: datetime, log: ResumeLog
) -> ResumeOutcome:
    """The same approval (same hitlId, same items), asked again after `note` explained why."""
    step = origin_step(state, pending)
    language = state.input.language
    context = pending.context or PendingHITLContext()
    items = list(context.candidates or [])
    question = (
        templates.approval_items_question(
            language,
            gate.as_resolved(state, step),
            items,
            pending.reason,
            state.input.timezone,
            along=gate.along(state, {step.id}),
        )
        if step is not None
        else pending.question
    )
    again = pending.model_copy(
        update={
            "expected_input": "yes_no",
            "options": templates.approval_options(language),
            "question": question,
            "context": context.model_copy(update={"awaiting": "answer"}),
        }
    )
    log.info("HITL_RE_ASK", rawReply="", reason="edit_not_applicable")
    return ResumeOutcome(
        goto="interrupt",
        decision="re_ask",
        state=state.model_copy(update={"pending_hitl": again}),
        text=f"{note}\n{question}",
        pending=again,
    )


def _replanned(state: TurnState, message: str, hitl_id: str, entry: HITLResultEntry) -> TurnState:
    """The turn's state planned afresh from `message`: the plan, its resolution and its open question
    dropped, the answer recorded under the question it answered."""
    return state.model_copy(
        update={
            "input": state.input.model_copy(update={"message": message}),
            "planner_output": None,
            "routing_suggestions": [],
            "resolver_results": {},
            "executor_args": {},
            "disambiguation": None,
            "execution_results": {},
            "pending_hitl": None,
            "hitl_results": {**state.hitl_results, hitl_id: entry},
        }
    )
