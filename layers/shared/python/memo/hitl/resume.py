"""Resume: the routing of a reply to a paused turn, a pure function to the next step of the turn.

`resume(state, reply, now=..., interpreter=...)` reads the live `state.pendingHITL` (the caller
checks `PendingHITL.is_live` first), runs layer 1 (`fastpath`) and, for planner HITLs only, layer 2
(`interpreter`), then applies the decision (layer 3; the plan itself is edited by
`memo.hitl.plan_edits`):

| decision                    | state update                                                        | goto            |
|-----------------------------|---------------------------------------------------------------------|-----------------|
| continue                    | hitlResults[hitlId] written, pendingHITL cleared                    | returnTo        |
| continue_with_modifications | + modifications merged into the origin step's constraints/changes, | resolver_router |
|                             |   that step's resolverResults / executorArgs cleared                |                 |
| switch_intent               | pendingHITL cleared, input.message = reply, plannerOutput and the   | planner         |
|                             |   old plan's caches cleared                                         |                 |
| cancel                      | pendingHITL cleared, hitlResults written; text = cancellation       | response        |
| re_ask                      | nothing changes (same hitlId); text = nudge + question              | interrupt       |

Plus one control outcome: `edit_requested` (the user chose Edit on an approval: the same hitlId
becomes a free_text "what should I change?" question; goto interrupt). returnTo -> goto:
planner/replan -> planner, planner/continue and resolver_router/continue -> resolver_router,
entity_resolution/apply_selection -> entity_resolution.

An operator's question (source operator, returnTo case/provide_clarification, free_text) is
deterministic too: any non-empty text continues with goto `case` (the turn hands the answer to the
case platform); a cancel word consumes the question without answering it (goto response, text: the
operator's question is still open — operators decide, the user cannot reject their own case);
an empty reply re-asks.

Entity disambiguation is deterministic only: an option match continues, a cancel word cancels, a
reply that looks like an answer but fits no option re-asks, anything else is switch_intent.
"all" selects every candidate, also those beyond the rows the list message could show.

Answers can only narrow (see docs/hitl-answers.md). An approval lists the items it covers
(`context.candidates`); a reply that keeps some of them ("only 1 and 3", "not the one for dad",
"yes but only tomorrow's") continues with `selected_ids` = the kept subset; one that narrows but
picks nothing re-asks. `approved` is True only when the answer approves what it saw (a yes, the
Approve button, a narrowed subset); an edit (continue_with_modifications, or a narrowing typed after
Edit) has `approved` False, so the turn resolves the changed plan and asks again. An edit that makes
no sense for the action (a time for a delete) is explained and the same approval is asked again.
A yes with a qualifier the rules cannot map ("yes but only X") re-asks; it never approves the set.
A complete new request while a free-text question (or an operator's question) is open is
switch_intent, planned as its own request; an operator's question stays open (`keeps_question`).
The expiry message's "Try again" (`context.awaiting == "retry"`) re-plans the original request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from memo.conversation import smalltalk
from memo.domain import (
    DisambiguationCandidate,
    HITLReply,
    HITLResultEntry,
    InterpreterDecision,
    InterpreterOutput,
    InterpreterParsed,
    PendingHITL,
    PendingHITLContext,
    PlanStep,
    TurnState,
)
from memo.hitl import fastpath, gate, narrowing, templates
from memo.hitl.by_time import answer_by_time
from memo.hitl.by_words import answer_by_words
from memo.hitl.interpreter import (
    Interpreter,
    InterpreterInput,
    RuleInterpreter,
    is_complete_request,
    sanitize_modifications,
)
from memo.hitl.plan_edits import apply_modifications, bare_edit, edit_problem, fill_answer, origin_step
from memo.observability import logger, mask_phone
from memo.text.language import Language, detect_language

Goto = Literal["planner", "resolver_router", "entity_resolution", "response", "interrupt", "case"]
OutcomeDecision = InterpreterDecision | Literal["edit_requested", "narrowed"]

_RAW_LOG_LIMIT = 200


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


class _Log:
    def __init__(self, state: TurnState, pending: PendingHITL) -> None:
        self.base = {
            "traceId": state.trace_id,
            "threadId": mask_phone(state.thread_id),
            "hitlId": pending.hitl_id,
        }

    def info(self, event: str, **fields: Any) -> None:
        logger.info(event, extra={**self.base, **fields})


def resume(
    state: TurnState,
    reply: HITLReply,
    *,
    now: datetime,
    interpreter: Interpreter | None = None,
) -> ResumeOutcome:
    """Apply the user's reply to the live pending question of `state` (see the module table)."""
    pending = state.pending_hitl
    if pending is None:
        raise ValueError("resume needs state.pendingHITL; with none, use the stale-reply guard")
    if not pending.is_live(now):
        raise ValueError("resume needs a live pendingHITL; an expired one is dropped by the caller")
    log = _Log(state, pending)
    raw = reply.text.strip() or (reply.interactive_id or "")

    if fastpath.is_stale_interactive(pending, reply):
        return _re_ask(state, pending, raw, log)

    if pending.return_to.node == "case":
        return _resume_operator_question(state, pending, raw, now, log)
    if pending.context is not None and pending.context.awaiting == "retry":
        return _resume_retry(state, pending, reply, raw, now, log)
    if pending.kind == "disambiguation":
        return _resume_disambiguation(state, pending, reply, raw, now, log)
    return _resume_planner(state, pending, reply, raw, now, log, interpreter or RuleInterpreter())


# --- disambiguation (deterministic only) ---------------------------------------------------------


def _resume_disambiguation(
    state: TurnState, pending: PendingHITL, reply: HITLReply, raw: str, now: datetime, log: _Log
) -> ResumeOutcome:
    found = fastpath.match(pending, reply)
    candidates = (pending.context.candidates if pending.context else None) or []
    if found is not None and found.option_ids:
        by_option = {str(i): c.id for i, c in enumerate(candidates, start=1)}
        selected = tuple(by_option.get(option_id, option_id) for option_id in found.option_ids)
        if found.via == "multi" and fastpath.normalize(raw) in fastpath.ALL_WORDS:
            selected = tuple(c.id for c in candidates)  # "all" is every match, not the rows shown
        return _chosen(state, pending, raw, {**found.parsed, "candidateIds": list(selected)}, now, log)
    if fastpath.is_cancel(raw):
        log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        return _cancel(state, pending, raw, None, now, log)
    if fastpath.looks_like_hitl_answer(raw):
        return _re_ask(state, pending, raw, log)
    # "the one for dad": the words of one candidate's label (`memo.hitl.by_words`).
    several = bool(pending.context and pending.context.allow_multiple)
    worded = answer_by_words(raw, [c.label for c in candidates], several=several)
    if worded.kind == "picked" and worded.indexes:
        picked = [candidates[i].id for i in worded.indexes]
        return _chosen(state, pending, raw, {"via": "words", "candidateIds": picked}, now, log)
    timed = answer_by_time(
        raw, candidates, now=now, timezone=state.input.timezone, language=state.input.language
    )
    if timed is not None:
        # "the 6pm one", "the later one": the one reminder at that time.
        return _chosen(state, pending, raw, {"via": "time", "candidateIds": [candidates[timed].id]}, now, log)
    if worded.kind == "unclear" or not _is_new_request(raw, state, now, allow_missing=True):
        # "dda", "the blue one": no candidate and no request of its own; the question stays open.
        return _re_ask(state, pending, raw, log)
    return _switch_intent(state, pending, raw, None, now, log)


def _chosen(
    state: TurnState, pending: PendingHITL, raw: str, parsed: dict[str, Any], now: datetime, log: _Log
) -> ResumeOutcome:
    """The disambiguation answered with `parsed["candidateIds"]`: continue with them."""
    selected = tuple(str(i) for i in parsed["candidateIds"])
    log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed=parsed)
    outcome = _continue(state, pending, raw, parsed, None, now, log)
    return ResumeOutcome(goto=outcome.goto, decision="continue", state=outcome.state, selected_ids=selected)


# --- an operator's question ---------------------------------------------------------------------


def _resume_operator_question(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime, log: _Log
) -> ResumeOutcome:
    if fastpath.is_cancel(raw):
        log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        entry = _entry(pending, raw, {"cancelled": True}, None, now)
        log.info("HITL_CANCELLED")
        return ResumeOutcome(
            goto="response",
            decision="cancel",
            state=_with_result(state, pending, entry),
            text=templates.operator_question_declined(state.input.language),
        )
    if not raw:
        return _re_ask(state, pending, raw, log)
    if _is_new_request(raw, state, now):
        switched = _switch_intent(state, pending, raw, None, now, log)
        return ResumeOutcome(
            goto="planner", decision="switch_intent", state=switched.state, keeps_question=True
        )
    log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed={"via": "free_text"})
    return _continue(state, pending, raw, {"answer": raw}, None, now, log)


def _is_new_request(raw: str, state: TurnState, now: datetime, *, allow_missing: bool = False) -> bool:
    """A message that is a complete request on its own, read in its own language (`allow_missing`:
    or a request that still lacks a detail, such as "remind me tomorrow")."""
    return is_complete_request(
        raw,
        now=now,
        timezone=state.input.timezone,
        language=detect_language(raw, state.input.language),
        allow_missing=allow_missing,
    )


# --- the expiry message's "Try again" -------------------------------------------------------------


def _resume_retry(
    state: TurnState, pending: PendingHITL, reply: HITLReply, raw: str, now: datetime, log: _Log
) -> ResumeOutcome:
    found = fastpath.match(pending, reply)
    if (found is not None and found.option_ids == (templates.RETRY_ID,)) or fastpath.parse_yes_no(
        raw
    ) is True:
        log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed={"retry": True})
        entry = _entry(pending, raw, {"retry": True}, None, now)
        return ResumeOutcome(goto="planner", decision="continue", state=_with_result(state, pending, entry))
    if fastpath.is_cancel(raw) or fastpath.parse_yes_no(raw) is False:
        log.info("HITL_CANCELLED")
        entry = _entry(pending, raw, {"cancelled": True}, None, now)
        return ResumeOutcome(
            goto="response",
            decision="cancel",
            state=_with_result(state, pending, entry),
            text=templates.retry_declined(state.input.language),
        )
    if reply.interactive_id is not None or fastpath.looks_like_hitl_answer(raw):
        return _re_ask(state, pending, raw, log)
    return _switch_intent(state, pending, raw, None, now, log)


# --- planner HITL -------------------------------------------------------------------------------------


def _resume_planner(
    state: TurnState,
    pending: PendingHITL,
    reply: HITLReply,
    raw: str,
    now: datetime,
    log: _Log,
    interpreter: Interpreter,
) -> ResumeOutcome:
    editing = pending.context is not None and pending.context.awaiting == "edit_details"
    approval = pending.kind == "approval"
    if fastpath.is_cancel(raw) or (
        pending.reason == "intent_unclear" and fastpath.parse_yes_no(raw) is False
    ):
        # "What would you like me to do?" -> "no": nothing (it was read as a request with "no" in it).
        log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        return _cancel(state, pending, raw, None, now, log)

    if (
        pending.expected_input == "free_text"
        and not editing
        and pending.return_to.node != "planner"
        and reply.interactive_id is None
        and _is_new_request(raw, state, now)
    ):
        # "remind me at noon to eat" while "when?" is open: its own request, not the answer.
        return _switch_intent(state, pending, raw, None, now, log)

    if (
        reply.interactive_id is None
        and pending.expected_input == "yes_no"
        and _yes_and_more(raw, state, pending, now)
    ):
        # "yes, and remind me to buy milk at 7": the yes would run and the request be lost. One at
        # a time: the question is asked again, saying so; nothing runs.
        return _re_ask(state, pending, raw, log, hint=templates.one_at_a_time(state.input.language))

    redated = _redated_guess(state, pending, raw, now) if reply.interactive_id is None else None
    if redated is not None:
        # "Just to check — Tue 8 Dec, 10:00?" -> "no, the 15th": that day, not a cancel.
        guessed, mods = redated
        interpreted = InterpreterOutput(
            decision="continue_with_modifications",
            parsed=InterpreterParsed(approved=True, answer=raw, modifications=mods),
        )
        return _continue_with_modifications(state, pending, guessed, raw, mods, interpreted, now, log)

    asks_for_more = pending.reason == "missing_fields" and not approval and reply.interactive_id is None
    retitled = _retitled_request(state, pending, raw) if asks_for_more else None
    if retitled is not None:
        # "no, call mom instead (at 6)": the title is replaced before any time in it is taken.
        return _replan_with(state, pending, raw, retitled, log, now)

    if not editing:
        found = fastpath.match(pending, reply)
        if found is not None:
            if found.option_ids == (templates.EDIT_ID,):
                log.info("HITL_FAST_PATH_MATCH", decision="continue_with_modifications", parsed=found.parsed)
                return _edit_requested(state, pending, log, now)
            if found.approved is False:
                log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed=found.parsed)
                return _cancel(state, pending, raw, None, now, log)
            filled = fill_answer(state, pending, found.answer, now)
            if filled is not None:
                log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed=found.parsed)
                outcome = _continue(filled, pending, raw, found.parsed, None, now, log)
                return _approved(outcome) if approval else outcome
            # A free-text answer that does not fill the missing field goes to the interpreter.

    if asks_for_more:
        completed = _completed_request(state, raw, now)
        if completed is not None:
            # "remind me tomorrow" -> "what about?" -> "to buy stamps": the answer fills one part,
            # the whole request read again asks only for what is still missing.
            return _replan_with(state, pending, raw, completed, log, now)

    step = origin_step(state, pending)
    if approval and reply.interactive_id is None:
        shown = (pending.context.candidates if pending.context else None) or []
        narrowed = narrowing.parse(
            raw,
            shown,
            now=now,
            timezone=state.input.timezone,
            language=state.input.language,
            # A combined approval ("planner") takes items away in each of its steps.
            removal=_removes(step) or pending.origin_step_id == "planner",
        )
        if narrowed is not None:
            return _narrowed(state, pending, raw, narrowed, editing, now, log)
    if pending.reason == "low_confidence_plan" and step is not None and reply.interactive_id is None:
        kept = _kept_items(state, pending, step, raw, now, log)
        if kept is not None:
            return kept

    interpreted = interpreter.interpret(
        InterpreterInput(
            pending=pending,
            reply=raw,
            language=state.input.language,
            timezone=state.input.timezone,
            now=now,
            origin_step=step,
        )
    )
    if editing and interpreted.decision in ("re_ask", "continue") and not interpreted.has_modifications:
        edit = bare_edit(raw, step, state, now)
        if edit is not None:
            interpreted = InterpreterOutput(
                decision="continue_with_modifications",
                parsed=InterpreterParsed(approved=True, answer=raw, modifications=edit),
            )
    log.info(
        "HITL_INTERPRETER_RESULT",
        decision=interpreted.decision,
        hasMods=interpreted.has_modifications,
    )
    parsed_value = interpreted.parsed.model_dump(mode="json", exclude_none=True) if interpreted.parsed else {}
    decision = interpreted.decision
    if decision == "cancel":
        return _cancel(state, pending, raw, interpreted, now, log)
    if decision == "switch_intent":
        return _switch_intent(state, pending, raw, interpreted, now, log)
    if decision == "continue_with_modifications":
        mods = sanitize_modifications(interpreted.parsed.modifications if interpreted.parsed else None)
        if step is None or not mods:
            return _re_ask(state, pending, raw, log)
        if approval:
            problem = edit_problem(step, mods)
            if problem:
                log.info("HITL_EDIT_NOT_APPLICABLE", fields=problem, originStepId=step.id)
                note = templates.edit_not_applicable(step, problem, state.input.language)
                return _back_to_approval(state, pending, note, now, log)
        return _continue_with_modifications(state, pending, step, raw, mods, interpreted, now, log)
    if decision == "continue":
        if editing:
            # "go ahead" after choosing Edit: the user changed their mind and approves as is.
            if narrowing.has_qualifier(raw):
                return _re_ask(state, pending, raw, log)
            return _approved(_continue(state, pending, raw, parsed_value, interpreted, now, log))
        if interpreted.parsed is not None and interpreted.parsed.approved is False:
            return _cancel(state, pending, raw, interpreted, now, log, feedback=_rejection_reason(raw))
        if pending.expected_input == "yes_no" and narrowing.has_qualifier(raw):
            # "yes but only X" that no rule could map, to an approval or a "just to check": asking
            # again is the only safe answer.
            return _re_ask(state, pending, raw, log)
        answer = (interpreted.parsed.answer if interpreted.parsed else None) or raw
        filled = fill_answer(state, pending, answer if pending.expected_input == "free_text" else None, now)
        if filled is None:
            return _re_ask(state, pending, raw, log)
        outcome = _continue(filled, pending, raw, parsed_value, interpreted, now, log)
        return _approved(outcome) if approval else outcome
    return _re_ask(state, pending, raw, log)


_LEAVE_OUT = re.compile(
    r"^(?:(?:please\s+)?(?:remove|drop|take\s+out|take\s+off|cross\s+off|leave\s+out|scratch)|"
    r"(?:תוריד|תורידי|תמחק|תמחקי|תוציא|תוציאי)(?:\s+את)?)\s+",
    re.I,
)


def _kept_items(
    state: TurnState, pending: PendingHITL, step: PlanStep, raw: str, now: datetime, log: _Log
) -> ResumeOutcome | None:
    """ "Just to check — add toilet paper, dish soap to your shopping list?" answered "yes but not the
    dish soap", "just the toilet paper" or "without the soap": the items kept are added, and only
    they. None when the answer does not single out items (it goes on to the interpreter)."""
    items = step.changes.get("items")
    if not (
        step.capability == "lists" and step.action == "add" and isinstance(items, list) and len(items) > 1
    ):
        return None
    shown = [DisambiguationCandidate(id=str(index), label=str(item)) for index, item in enumerate(items)]
    language = state.input.language
    # "remove the dish soap", "take out the soap": said of what is about to be added, it leaves it out.
    answer = _LEAVE_OUT.sub("without ", raw.strip(), count=1)
    narrowed = narrowing.parse(answer, shown, now=now, timezone=state.input.timezone, language=language)
    if narrowed is None:
        return None
    if narrowed.unresolved or narrowed.empty:
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:_RAW_LOG_LIMIT], empty=narrowed.empty)
        hint = (
            templates.narrowing_empty(language) if narrowed.empty else templates.narrowing_unclear(language)
        )
        return _re_ask(state, pending, raw, log, hint=hint)
    kept = [items[int(index)] for index in narrowed.ids]
    log.info("HITL_NARROWED", kept=len(kept), approved=True)
    interpreted = InterpreterOutput(
        decision="continue_with_modifications",
        parsed=InterpreterParsed(approved=True, answer=raw, modifications={"items": kept}),
    )
    return _continue_with_modifications(state, pending, step, raw, {"items": kept}, interpreted, now, log)


def _approved(outcome: ResumeOutcome) -> ResumeOutcome:
    return ResumeOutcome(goto=outcome.goto, decision=outcome.decision, state=outcome.state, approved=True)


def _narrowed(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    narrowed: narrowing.Narrowing,
    editing: bool,
    now: datetime,
    log: _Log,
) -> ResumeOutcome:
    """An answer that keeps some of the approval's items: approved as is, or (typed after Edit)
    applied and shown again for approval. Nothing kept, or nothing understood: asked again."""
    language = state.input.language
    if narrowed.unresolved or narrowed.empty:
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:_RAW_LOG_LIMIT], empty=narrowed.empty)
        hint = (
            templates.narrowing_empty(language) if narrowed.empty else templates.narrowing_unclear(language)
        )
        return _re_ask(state, pending, raw, log, hint=hint)
    shown = (pending.context.candidates if pending.context else None) or []
    listed = {str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in shown}
    if gate.along(state, listed if pending.origin_step_id == "planner" else {pending.origin_step_id}):
        # "only the bread" to a question that also sets a reminder: only the bread, or the bread and
        # the reminder? Never guessed either way.
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:_RAW_LOG_LIMIT], along=True)
        return _re_ask(state, pending, raw, log, hint=templates.narrowing_with_the_rest(language))
    parsed = {"approved": not editing, "keptIds": list(narrowed.ids)}
    new_state = _with_result(state, pending, _entry(pending, raw, parsed, None, now))
    log.info("HITL_NARROWED", kept=len(narrowed.ids), approved=not editing)
    log.info(
        "HITL_RESUME_VALID",
        parsedResult=parsed,
        returnTo=pending.return_to.model_dump(mode="json"),
        goto="resolver_router",
    )
    return ResumeOutcome(
        goto="resolver_router",
        decision="narrowed",
        state=new_state,
        selected_ids=narrowed.ids,
        approved=not editing,
    )


def _back_to_approval(
    state: TurnState, pending: PendingHITL, note: str, now: datetime, log: _Log
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


_REJECT_LEAD = re.compile(
    r"^(?:no|nope|nah|reject(?:ed)?|don'?t|do not|לא|דחייה|תדחה|תדחי|אל תעשה|אל תעשי)\b[\s,.:;!-]*"
    r"(?:because|since|as|cause|'cause|כי|מכיוון ש|בגלל ש)?\s*",
    re.I,
)


def _rejection_reason(raw: str) -> str | None:
    """The reason a rejection gives ("no, I still need them" -> "I still need them"), if any."""
    match = _REJECT_LEAD.match(raw.strip())
    if match is None:
        return None
    reason = raw.strip()[match.end() :].strip(" .,!")
    if not reason or fastpath.parse_yes_no(reason) is not None:
        return None
    return reason[:_RAW_LOG_LIMIT]


# --- transitions ----------------------------------------------------------------------------------


def _entry(
    pending: PendingHITL, raw: str, parsed: Any, interpreted: InterpreterOutput | None, now: datetime
) -> HITLResultEntry:
    return HITLResultEntry(
        raw=raw, parsed=parsed, at=now, return_to=pending.return_to, interpreted=interpreted
    )


def _with_result(state: TurnState, pending: PendingHITL, entry: HITLResultEntry) -> TurnState:
    return state.model_copy(
        update={"pending_hitl": None, "hitl_results": {**state.hitl_results, pending.hitl_id: entry}}
    )


def _continue(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    parsed: Any,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: _Log,
) -> ResumeOutcome:
    goto = goto_for(pending)
    new_state = _with_result(state, pending, _entry(pending, raw, parsed, interpreted, now))
    log.info(
        "HITL_RESUME_VALID",
        parsedResult=parsed,
        returnTo=pending.return_to.model_dump(mode="json"),
        goto=goto,
    )
    return ResumeOutcome(goto=goto, decision="continue", state=new_state)


def _continue_with_modifications(
    state: TurnState,
    pending: PendingHITL,
    step: PlanStep,
    raw: str,
    modifications: dict[str, Any],
    interpreted: InterpreterOutput,
    now: datetime,
    log: _Log,
) -> ResumeOutcome:
    parsed = {"approved": True, "modifications": modifications}
    entry = _entry(pending, raw, parsed, interpreted, now)
    new_state = _with_result(apply_modifications(state, step, modifications), pending, entry)
    log.info("HITL_CONTINUE_WITH_MODIFICATIONS", modifications=modifications, originStepId=step.id)
    log.info(
        "HITL_RESUME_VALID",
        parsedResult=parsed,
        returnTo=pending.return_to.model_dump(mode="json"),
        goto="resolver_router",
    )
    return ResumeOutcome(goto="resolver_router", decision="continue_with_modifications", state=new_state)


_NO_THEN = re.compile(r"^\W*(?:no|nope|nah|not\s+that(?:\s+one)?|לא)\b[\s,!.:-]+(?P<rest>\S.*)$", re.I)
#: "no, the one after", "the week after", "לא, בשבוע שאחרי": the same day a week later.
_WEEK_LATER = re.compile(
    r"^(?:the\s+)?(?:one|week|tuesday|wednesday|thursday|friday|saturday|sunday|monday)\s+after(?:\s+that)?|"
    r"^(?:a\s+week\s+later|next\s+week(?:'?s)?(?:\s+one)?)|^(?:ב?שבוע\s+שאחרי|ב?שבוע\s+הבא|זה\s+שאחרי|שבוע\s+אחרי)",
    re.I,
)


_YES_AND = re.compile(
    r"^\W*(?:yes|yeah|yep|sure|ok(?:ay)?|go\s+ahead|approve[d]?|כן|בטח|אוקיי?|סבבה|מאשר[ת]?)\b[\s,!.;:-]*"
    r"(?:(?:(?:and|also|plus|then|&)\s+)+|ו(?:גם\s+)?(?=\S)|גם\s+)?(?P<rest>\S.*)$",
    re.I,
)


def _yes_and_more(raw: str, state: TurnState, pending: PendingHITL, now: datetime) -> bool:
    """A yes with a request of its own after it ("yes, and remind me to call mom at 5", "yes, and
    add eggs too", even one Memo would confirm first, and "yes, and also delete the mom one" when
    that reminder was not shown); not a yes that says the approved removal again with some of the
    items shown ("yes, delete the call mom reminder": a narrowing, `narrowing.parse`)."""
    from memo.planner.base import PlannerInput
    from memo.planner.rules import RulePlanner

    found = _YES_AND.match(raw.strip())
    if found is None:
        return False
    rest = found.group("rest")
    language = detect_language(rest, state.input.language)
    output = (
        RulePlanner()
        .plan(PlannerInput(message=rest, now=now, timezone=state.input.timezone, language=language))
        .output
    )
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return False  # "yes, thanks", "yes please do": no request of its own
    step = origin_step(state, pending)
    # Only a removal is narrowed by naming its items; any other request after a yes is one more.
    narrows = (
        step is not None
        and _removes(step)
        and all(p.capability == step.capability and _removes(p) for p in output.plan)
    )
    if not narrows:
        return True
    # The removal said again narrows only with what was shown; naming anything else is one more
    # removal ("yes and also delete the mom one"), which the yes would silently leave undone.
    shown = (pending.context.candidates if pending.context else None) or []
    named = narrowing.parse(
        rest, shown, now=now, timezone=state.input.timezone, language=language, removal=True
    )
    return named is None or named.unresolved or not named.ids


def _redated_guess(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime
) -> tuple[PlanStep, dict[str, Any]] | None:
    """ "Just to check — a reminder for Tue 8 Dec, 10:00?" answered "no, the 15th" or "no, the one
    after": the new time of the reminder to create (only its time changes); None for anything else
    (a plain "no" cancels)."""
    said = _NO_THEN.match(raw.strip())
    step = origin_step(state, pending)
    if (
        said is None
        or pending.reason != "low_confidence_plan"
        or step is None
        or (step.capability, step.action) != ("reminders", "create")
        or not isinstance(step.constraints.get("when"), str)
    ):
        return None
    rest = said.group("rest").strip(" .!")
    if _WEEK_LATER.match(rest):
        guessed = datetime.fromisoformat(str(step.constraints["when"]))
        return step, {"when": (guessed + timedelta(days=7)).isoformat()}
    mods = bare_edit(rest, step, state, now)
    if not mods or set(mods) - {"when"}:
        return None
    return step, mods


def _retitled_request(state: TurnState, pending: PendingHITL, raw: str) -> str | None:
    """ "remind me to call dad" -> "When?" -> "no, call mom instead" (or "i meant call mom
    tomorrow"): the request with its title replaced by the answer's words, when the answer says it
    replaces and the request says the title word for word; None otherwise."""
    from memo.planner.intents.followups import replacement_title

    step = origin_step(state, pending)
    new = replacement_title(raw.strip(), with_time=True)
    if step is None or new is None or (step.capability, step.action) != ("reminders", "create"):
        return None
    old = step.constraints.get("title")
    message = state.input.message
    if not isinstance(old, str) or not old or old not in message:
        return None
    return message.replace(old, new, 1)


def _completed_request(state: TurnState, raw: str, now: datetime) -> str | None:
    """The original request with the answer appended, when that reads as the same operation with
    fewer missing parts than before, or as many but more known ("remind me to stretch" -> "When?"
    -> "every sunday": it repeats, the time is still asked); None otherwise (the interpreter
    decides)."""
    from memo.planner.base import PlannerInput
    from memo.planner.intents.reminders import after_remind_words
    from memo.planner.rules import RulePlanner

    before = state.planner_output
    if before is None or not before.plan or not raw.strip():
        return None
    # "remind me tomorrow" -> "what about?" -> "remind me to buy stamps": the answer's own
    # "remind me" is not part of the title.
    combined = f"{state.input.message.strip()} {after_remind_words(raw)}"
    output = (
        RulePlanner()
        .plan(
            PlannerInput(
                message=combined, now=now, timezone=state.input.timezone, language=state.input.language
            )
        )
        .output
    )
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return None
    same = [(p.capability, p.action) for p in output.plan] == [(p.capability, p.action) for p in before.plan]
    if not same or len(output.missing_fields) > len(before.missing_fields):
        return None
    fewer = len(output.missing_fields) < len(before.missing_fields)
    more_known = any(
        set(new.constraints) > set(old.constraints) for new, old in zip(output.plan, before.plan, strict=True)
    )
    return combined if fewer or more_known else None


def _replan_with(
    state: TurnState, pending: PendingHITL, raw: str, combined: str, log: _Log, now: datetime
) -> ResumeOutcome:
    """Plan `combined` afresh as this request (same traceId): what is still missing is asked again."""
    entry = HITLResultEntry(raw=raw, parsed={"completes": True}, at=now, return_to=None, interpreted=None)
    new_state = state.model_copy(
        update={
            "input": state.input.model_copy(update={"message": combined}),
            "planner_output": None,
            "routing_suggestions": [],
            "resolver_results": {},
            "executor_args": {},
            "disambiguation": None,
            "execution_results": {},
            "pending_hitl": None,
            "hitl_results": {**state.hitl_results, pending.hitl_id: entry},
        }
    )
    log.info("HITL_ANSWER_COMPLETES_REQUEST", rawReply=raw[:_RAW_LOG_LIMIT])
    return ResumeOutcome(goto="planner", decision="continue", state=new_state)


def _switch_intent(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: _Log,
) -> ResumeOutcome:
    entry = HITLResultEntry(
        raw=raw, parsed={"switchIntent": True}, at=now, return_to=None, interpreted=interpreted
    )
    new_state = state.model_copy(
        update={
            "input": state.input.model_copy(update={"message": raw}),
            "planner_output": None,
            "routing_suggestions": [],
            "resolver_results": {},
            "executor_args": {},
            "disambiguation": None,
            "execution_results": {},
            "pending_hitl": None,
            "hitl_results": {**state.hitl_results, pending.hitl_id: entry},
        }
    )
    log.info("HITL_SWITCH_INTENT", rawReply=raw[:_RAW_LOG_LIMIT])
    return ResumeOutcome(goto="planner", decision="switch_intent", state=new_state)


def _cancel(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    interpreted: InterpreterOutput | None,
    now: datetime,
    log: _Log,
    *,
    feedback: str | None = None,
) -> ResumeOutcome:
    parsed: dict[str, Any] = {"cancelled": True}
    if feedback:
        parsed["feedback"] = feedback
    entry = _entry(pending, raw, parsed, interpreted, now)
    log.info("HITL_CANCELLED", **({"feedback": feedback} if feedback else {}))
    language = state.input.language
    return ResumeOutcome(
        goto="response",
        decision="cancel",
        state=_with_result(state, pending, entry),
        text=templates.rejected_with_reason(language) if feedback else templates.cancelled(language),
        feedback=feedback,
    )


def _re_ask(
    state: TurnState, pending: PendingHITL, raw: str, log: _Log, *, hint: str | None = None
) -> ResumeOutcome:
    log.info("HITL_RE_ASK", rawReply=raw[:_RAW_LOG_LIMIT])
    text = f"{hint}\n{pending.question}" if hint else templates.nudge(pending, state.input.language)
    return ResumeOutcome(goto="interrupt", decision="re_ask", state=state, text=text, pending=pending)


def _removes(step: PlanStep | None) -> bool:
    return step is not None and step.action in ("delete", "delete_all", "clear", "remove")


def quoted_elsewhere(state: TurnState, pending: PendingHITL, raw: str) -> ResumeOutcome:
    """A typed answer quoting another of Memo's messages while `pending` is open: it is not taken
    as this question's answer (it may be about that message); the open question is asked again,
    saying so."""
    log = _Log(state, pending)
    log.info("HITL_QUOTED_ANOTHER_MESSAGE")
    return _re_ask(state, pending, raw, log, hint=templates.quoted_elsewhere(state.input.language))


def _edit_requested(state: TurnState, pending: PendingHITL, log: _Log, now: datetime) -> ResumeOutcome:
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
            "question": templates.edit_prompt(language, removal=_removes(origin_step(state, pending))),
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


def stale_reply_guard(reply: HITLReply, *, thread_id: str, language: Language) -> str | None:
    """With no live pending question: a bare confirmation or choice ("yes", "2", "כן", a button)
    gets the "not waiting on a question" text (HITL_STALE_REPLY is logged); anything else returns
    None: an acknowledgement ("ok", "👍", "thanks") gets small talk, the rest is a fresh request."""
    if reply.interactive_id is None and smalltalk.acknowledgement(reply.text) is not None:
        return None  # "ok", "👍", "thanks": a friendly acknowledgement, not a stale answer
    if not fastpath.looks_like_hitl_answer(reply.text, reply.interactive_id):
        return None
    raw = reply.text.strip() or (reply.interactive_id or "")
    logger.info(
        "HITL_STALE_REPLY", extra={"threadId": mask_phone(thread_id), "rawUserMessage": raw[:_RAW_LOG_LIMIT]}
    )
    return templates.stale_reply(language)
