"""The answer to a planner question (a clarification or an approval): layer 1 (the fast path and
the narrow readings of `memo.hitl.answer_requests`, `memo.hitl.narrowing`), then layer 2 (the
interpreter), to one transition (`memo.hitl.transitions`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memo.domain import (
    DisambiguationCandidate,
    HITLReply,
    InterpreterOutput,
    InterpreterParsed,
    PendingHITL,
    PlanStep,
    TurnState,
)
from memo.hitl import fastpath, gate, narrowing, templates
from memo.hitl.about_asked import names_another_thing
from memo.hitl.another_day import another_day
from memo.hitl.answer_requests import (
    cancels_another,
    completed_request,
    corrects_with_a_request,
    is_new_request,
    moves_another,
    names_the_list,
    of_several,
    redated_guess,
    retimed_request,
    retitled_request,
    starts_another_list,
    yes_and_more,
)
from memo.hitl.interpreter import Interpreter, InterpreterInput, sanitize_modifications
from memo.hitl.numbered import number_means_two_things, typed_number
from memo.hitl.plan_edits import (
    bare_edit,
    edit_problem,
    fill_answer,
    origin_step,
    outside_the_month_asked,
    timeless_edit,
)
from memo.hitl.reasons import question_for
from memo.hitl.refusals import drops_the_new_item, refusal_rest, rejection_reason
from memo.hitl.retarget import meant_request
from memo.hitl.skip_instead import skip_instead
from memo.hitl.transitions import (
    RAW_LOG_LIMIT,
    ResumeLog,
    ResumeOutcome,
    answer_entry,
    approved,
    back_to_approval,
    cancel,
    continued,
    continued_with_modifications,
    edit_requested,
    kept_all,
    re_ask,
    removes,
    replan_with,
    skips,
    switch_intent,
    with_result,
)
from memo.planner.base import Planner
from memo.planner.lexicon import has_hebrew


@dataclass(frozen=True)
class _Answer:
    """One answer to a planner question, with what reading it needs."""

    state: TurnState
    pending: PendingHITL
    reply: HITLReply
    raw: str
    now: datetime
    log: ResumeLog
    rules: Planner

    @property
    def typed(self) -> bool:
        return self.reply.interactive_id is None

    @property
    def editing(self) -> bool:
        return self.pending.context is not None and self.pending.context.awaiting == "edit_details"

    @property
    def approval(self) -> bool:
        return self.pending.kind == "approval"

    @property
    def asks_for_more(self) -> bool:
        return self.pending.reason == "missing_fields" and not self.approval and self.typed


def resume_planner(
    state: TurnState,
    pending: PendingHITL,
    reply: HITLReply,
    raw: str,
    now: datetime,
    log: ResumeLog,
    interpreter: Interpreter,
    rules: Planner,
) -> ResumeOutcome:
    """Layer 1 in its order (a cancel, a request of its own, the fast path, the items named), then
    the interpreter."""
    answer = _Answer(state, pending, reply, raw, now, log, rules)
    for read in (_before_the_fast_path, _another_day_said, _no_but_only, _by_the_fast_path, _by_the_items):
        outcome = read(answer)
        if outcome is not None:
            return outcome
    return _by_the_interpreter(answer, interpreter)


def _another_day_said(a: _Answer) -> ResumeOutcome | None:
    """ "What time on Sun 29 Nov?" -> "actually monday": the reminder moves to that day and its time
    is asked again, of that day; nothing is set yet."""
    moved = another_day(a.state, a.pending, a.raw, a.now) if a.typed else None
    output = a.state.planner_output
    if moved is None or output is None:
        return None
    plan = [moved if s.id == moved.id else s for s in output.plan]
    said_in = "he" if has_hebrew(a.raw) else a.state.input.language  # a Hebrew answer goes on in Hebrew
    state = a.state.model_copy(
        update={
            "planner_output": output.model_copy(update={"plan": plan}),
            "input": a.state.input.model_copy(update={"language": said_in}),
        }
    )
    question, _ = question_for(state, "missing_fields", moved)
    asked = a.pending.model_copy(update={"question": question})
    a.log.info("HITL_FAST_PATH_MATCH", decision="re_ask", parsed={"via": "another_day"})
    return ResumeOutcome(
        goto="interrupt",
        decision="re_ask",
        state=state.model_copy(update={"pending_hitl": asked}),
        text=question,
        pending=asked,
    )


def _a_way_out(a: _Answer) -> ResumeOutcome | None:
    """ "never mind", "keep it", "leave it"; a plain "no" to a question that is not a yes/no ("what
    time?" -> "no": a yes/no question's "no" is its answer, read by the fast path); "actually delete
    that" to "When should I remind you?" (nothing was set, nothing will be): nothing changes."""
    state, pending, raw = a.state, a.pending, a.raw
    if fastpath.is_way_out(raw) and (pending.expected_input != "yes_no" or not fastpath.is_no(raw)):
        a.log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        return cancel(state, pending, raw, None, a.now, a.log)
    if a.asks_for_more and drops_the_new_item(raw, origin_step(state, pending)):
        a.log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "dropped"})
        return cancel(state, pending, raw, None, a.now, a.log)
    return None


def _before_the_fast_path(a: _Answer) -> ResumeOutcome | None:
    """A way out, or an answer that carries a request of its own (`memo.hitl.answer_requests`)."""
    state, pending, raw, now, log = a.state, a.pending, a.raw, a.now, a.log
    out = _a_way_out(a)
    if out is not None:
        return out
    if names_the_list(pending, raw):
        return None  # "no, the shopping list" to "Which list?": the answer, read by the fast path
    if a.typed and starts_another_list(pending, raw):
        # "let's make a grocery list" to "What should I add to your books list?": its own request.
        return switch_intent(state, pending, raw, None, now, log)
    if a.typed and not a.editing and cancels_another(raw, state, pending, now, a.rules):
        # "cancel the call mom reminder" while "add milk?" is open: that delete, asked as usual.
        return switch_intent(state, pending, raw, None, now, log)
    if a.typed and not a.editing and moves_another(raw, state, pending, now, a.rules):
        # "move the milk to 6pm" while "set “call the bank” for 10:00?" is open: that move.
        return switch_intent(state, pending, raw, None, now, log)
    meant = meant_request(raw, state, pending, now, a.rules) if a.typed and not a.editing else None
    # "skip tomorrow" to a repeating reminder's delete: that skip, asked as usual (the series stays).
    meant = meant or (skip_instead(raw, state, pending, now, a.rules) if a.typed and not a.editing else None)
    if meant is not None:
        # "no, the milk one" to a delete's approval, "actually call dad" to "When?": that request.
        return switch_intent(state, pending, raw, None, now, log, request=meant)
    if a.typed and not a.editing and corrects_with_a_request(raw, state, now, a.rules):
        # "no wait, add napkins instead": the new request takes the open question's place.
        return switch_intent(state, pending, raw, None, now, log)
    if (
        pending.expected_input == "free_text"
        and not a.editing
        and pending.return_to.node != "planner"
        and a.typed
        and is_new_request(raw, state, now, a.rules)
    ):
        # "remind me at noon to eat" while "when?" is open: its own request, not the answer.
        return switch_intent(state, pending, raw, None, now, log)
    if a.typed and pending.expected_input == "yes_no" and yes_and_more(raw, state, pending, now, a.rules):
        # "yes, and remind me to buy milk at 7": the yes would run and the request be lost. One at
        # a time: the question is asked again, saying so; nothing runs.
        return re_ask(state, pending, raw, log, hint=templates.one_at_a_time(state.input.language))
    redated = redated_guess(state, pending, raw, now) if a.typed else None
    if redated is not None and of_several(a.state, a.pending):
        return _which_one_unsaid(a, redated[0])
    if redated is not None:
        # "Just to check — Tue 8 Dec, 10:00?" -> "no, the 15th": that day, not a cancel.
        guessed, mods = redated
        interpreted = InterpreterOutput(
            decision="continue_with_modifications",
            parsed=InterpreterParsed(approved=True, answer=raw, modifications=mods),
        )
        return continued_with_modifications(state, pending, guessed, raw, mods, interpreted, now, log)
    retimed = retimed_request(state, pending, raw, now) if a.asks_for_more else None
    if retimed is not None:
        # "no wait, 7pm" to "What about?": the request at 7pm, its title asked again.
        return replan_with(state, pending, raw, retimed, log, now)
    retitled = retitled_request(state, pending, raw, now) if a.asks_for_more else None
    if retitled is not None:
        # "no, call mom instead (at 6)": the title is replaced before any time in it is taken.
        return replan_with(state, pending, raw, retitled, log, now)
    return None


def _no_but_only(a: _Answer) -> ResumeOutcome | None:
    """ "no, only 1", "no, just tomorrow's", "nope, not the bread", "לא, רק של מחר" to an approval:
    the no refuses the set shown and the rest keeps some of it. The kept items are shown again for
    approval (as a narrowing typed after Edit is), never run on this answer; it was a rejection
    whose "reason" was noted."""
    if not (a.approval and a.typed and not a.editing):
        return None
    rest = refusal_rest(a.raw)
    if not rest or not narrowing.starts_with_a_limit(rest):
        return None  # "no, cancel it", "no, I still need them": a no
    step = origin_step(a.state, a.pending)
    narrowed = narrowing.parse(
        rest,
        (a.pending.context.candidates if a.pending.context else None) or [],
        now=a.now,
        timezone=a.state.input.timezone,
        language=a.state.input.language,
        removal=removes(step) or a.pending.origin_step_id == "planner",
    )
    if narrowed is not None and narrowed.empty:
        # "no, keep them all": a no, with nothing to note as its reason
        a.log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "no_keep_all"})
        return cancel(a.state, a.pending, a.raw, None, a.now, a.log)
    if narrowed is None or narrowed.unresolved:
        return None
    return _narrowed(a.state, a.pending, a.raw, narrowed, True, a.now, a.log)


def _by_the_fast_path(a: _Answer) -> ResumeOutcome | None:
    """A button, a yes/no or a value the fast path reads; an answer that completes the request."""
    state, pending, raw, now, log = a.state, a.pending, a.raw, a.now, a.log
    number = typed_number(raw) if a.typed and not a.editing else None
    if number is not None and number_means_two_things(pending, number):
        # "1" to "delete these 2? 1. … 2. …" shown with numbered buttons: item 1, or Approve?
        label = (pending.options or [])[number - 1].label
        hint = templates.number_item_or_button(state.input.language, number, label)
        return re_ask(state, pending, raw, log, hint=hint)
    if not a.editing:
        found = fastpath.match(pending, a.reply)
        if found is not None:
            if found.option_ids == (templates.EDIT_ID,):
                log.info("HITL_FAST_PATH_MATCH", decision="continue_with_modifications", parsed=found.parsed)
                return edit_requested(state, pending, log, now)
            if found.approved is False:
                log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed=found.parsed)
                return cancel(state, pending, raw, None, now, log)
            filled = fill_answer(state, pending, found.answer, now)
            if filled is not None:
                log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed=found.parsed)
                outcome = continued(filled, pending, raw, found.parsed, None, now, log)
                return approved(outcome) if a.approval else outcome
            # A free-text answer that does not fill the missing field goes to the interpreter.
    if a.asks_for_more:
        completed = completed_request(state, raw, now, a.rules)
        if completed is not None:
            # "remind me tomorrow" -> "what about?" -> "to buy stamps": the answer fills one part,
            # the whole request read again asks only for what is still missing.
            return replan_with(state, pending, raw, completed, log, now)
    return None


def _by_the_items(a: _Answer) -> ResumeOutcome | None:
    """An approval's answer that keeps some of its items; a "just to check" that keeps some items."""
    state, pending, raw, now = a.state, a.pending, a.raw, a.now
    step = origin_step(state, pending)
    if a.approval and a.typed:
        shown = (pending.context.candidates if pending.context else None) or []
        narrowed = narrowing.parse(
            raw,
            shown,
            now=now,
            timezone=state.input.timezone,
            language=state.input.language,
            # A combined approval ("planner") takes items away in each of its steps.
            removal=removes(step) or pending.origin_step_id == "planner",
        )
        if (
            narrowed is not None
            and narrowed.unresolved
            and narrowing.names_by_its_action(raw)
            and names_another_thing(step, pending, raw)
        ):
            return None  # "delete call mom" while "delete call dad?" is open: not about its items
        if narrowed is not None:
            return _narrowed(state, pending, raw, narrowed, a.editing, now, a.log)
    if pending.reason == "low_confidence_plan" and step is not None and a.typed:
        return _kept_items(state, pending, step, raw, now, a.log)
    return None


def _by_the_interpreter(a: _Answer, interpreter: Interpreter) -> ResumeOutcome:
    """Layer 2: the interpreter's decision, applied."""
    state, pending, raw, now, log = a.state, a.pending, a.raw, a.now, a.log
    step = origin_step(state, pending)
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
    if a.editing and interpreted.decision in ("re_ask", "continue") and not interpreted.has_modifications:
        edit = bare_edit(raw, step, state, now)
        if edit is not None:
            interpreted = InterpreterOutput(
                decision="continue_with_modifications",
                parsed=InterpreterParsed(approved=True, answer=raw, modifications=edit),
            )
    log.info("HITL_INTERPRETER_RESULT", decision=interpreted.decision, hasMods=interpreted.has_modifications)
    decision = interpreted.decision
    if decision == "cancel":
        return cancel(state, pending, raw, interpreted, now, log)
    if decision == "switch_intent":
        return switch_intent(state, pending, raw, interpreted, now, log)
    if decision == "continue_with_modifications":
        return _modified(a, step, interpreted)
    if decision == "continue":
        return _continued(a, interpreted)
    return re_ask(state, pending, raw, log)


def _modified(a: _Answer, step: PlanStep | None, interpreted: InterpreterOutput) -> ResumeOutcome:
    """The interpreter's changes, applied to the origin step (an approval's that make no sense for
    its action are explained, and the same approval asked again)."""
    state, pending, raw, now, log = a.state, a.pending, a.raw, a.now, a.log
    mods = sanitize_modifications(interpreted.parsed.modifications if interpreted.parsed else None)
    if step is None or not mods or outside_the_month_asked(step, mods, state.input.timezone):
        return re_ask(state, pending, raw, log)
    if of_several(a.state, a.pending):
        return _which_one_unsaid(a, step)
    if a.approval:
        problem = edit_problem(step, mods)
        if problem:
            log.info("HITL_EDIT_NOT_APPLICABLE", fields=problem, originStepId=step.id)
            skip = step.action == "delete" and skips(pending)
            note = templates.edit_not_applicable(step, problem, state.input.language, skip=skip)
            return back_to_approval(state, pending, note, now, log)
    timeless = timeless_edit(step, mods)
    if timeless:
        # "change eggs to 12 eggs" to "Just to check — add 2 more eggs?": "12" was read as noon, and
        # the yes in it used to add the eggs as they were.
        log.info("HITL_EDIT_NOT_APPLICABLE", fields=timeless, originStepId=step.id)
        note = templates.no_time_to_change(step, state.input.language)
        if a.approval:
            return back_to_approval(state, pending, note, now, log)
        return re_ask(state, pending, raw, log, hint=note)
    return continued_with_modifications(state, pending, step, raw, mods, interpreted, now, log)


def _which_one_unsaid(a: _Answer, step: PlanStep) -> ResumeOutcome:
    """ "make it 8pm" to "Just to check — call mom at 17:00, then call dad at 19:00?": which one is
    not said, and a change never runs unseen. The question is asked again; nothing runs."""
    a.log.info("HITL_EDIT_UNCLEAR", originStepId=step.id)
    return re_ask(a.state, a.pending, a.raw, a.log, hint=templates.which_one_changes(a.state.input.language))


def _continued(a: _Answer, interpreted: InterpreterOutput) -> ResumeOutcome:
    """The interpreter's "continue": a yes (or a no, a rejection), or the value asked for."""
    state, pending, raw, now, log = a.state, a.pending, a.raw, a.now, a.log
    parsed_value = interpreted.parsed.model_dump(mode="json", exclude_none=True) if interpreted.parsed else {}
    if a.editing:
        # "go ahead" after choosing Edit: the user changed their mind and approves as is.
        if narrowing.has_qualifier(raw):
            return re_ask(state, pending, raw, log)
        return approved(continued(state, pending, raw, parsed_value, interpreted, now, log))
    if interpreted.parsed is not None and interpreted.parsed.approved is False:
        return cancel(state, pending, raw, interpreted, now, log, feedback=rejection_reason(raw))
    if pending.expected_input == "yes_no" and narrowing.has_qualifier(raw):
        # "yes but only X" that no rule could map, to an approval or a "just to check": asking
        # again is the only safe answer.
        return re_ask(state, pending, raw, log)
    answer = (interpreted.parsed.answer if interpreted.parsed else None) or raw
    filled = fill_answer(state, pending, answer if pending.expected_input == "free_text" else None, now)
    if filled is None:
        return re_ask(state, pending, raw, log)
    outcome = continued(filled, pending, raw, parsed_value, interpreted, now, log)
    return approved(outcome) if a.approval else outcome


_LEAVE_OUT = re.compile(
    r"^(?:(?:please\s+)?(?:remove|drop|take\s+out|take\s+off|cross\s+off|leave\s+out|scratch)|"
    r"(?:תוריד|תורידי|תמחק|תמחקי|תוציא|תוציאי)(?:\s+את)?)\s+",
    re.I,
)


def _kept_items(
    state: TurnState, pending: PendingHITL, step: PlanStep, raw: str, now: datetime, log: ResumeLog
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
    if narrowed.empty:
        return kept_all(state, pending, raw, now, log)
    if narrowed.unresolved:
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:RAW_LOG_LIMIT])
        return re_ask(state, pending, raw, log, hint=templates.narrowing_unclear(language))
    kept = [items[int(index)] for index in narrowed.ids]
    log.info("HITL_NARROWED", kept=len(kept), approved=True)
    interpreted = InterpreterOutput(
        decision="continue_with_modifications",
        parsed=InterpreterParsed(approved=True, answer=raw, modifications={"items": kept}),
    )
    return continued_with_modifications(state, pending, step, raw, {"items": kept}, interpreted, now, log)


def _narrowed(
    state: TurnState,
    pending: PendingHITL,
    raw: str,
    narrowed: narrowing.Narrowing,
    editing: bool,
    now: datetime,
    log: ResumeLog,
) -> ResumeOutcome:
    """An answer that keeps some of the approval's items: approved as is, or (typed after Edit)
    applied and shown again for approval. Every item kept away ("keep grandma", the only one): a no.
    Nothing understood: asked again."""
    language = state.input.language
    if narrowed.empty:
        return kept_all(state, pending, raw, now, log)
    shown = (pending.context.candidates if pending.context else None) or []
    if narrowed.unresolved:
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:RAW_LOG_LIMIT])
        one_time = narrowing.a_time_of_a_series(
            raw, shown, now=now, timezone=state.input.timezone, language=language
        )
        hint = templates.one_time_of_a_series if one_time else templates.narrowing_unclear
        return re_ask(state, pending, raw, log, hint=hint(language))
    listed = {str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in shown}
    if gate.along(state, listed if pending.origin_step_id == "planner" else {pending.origin_step_id}):
        # "only the bread" to a question that also sets a reminder: only the bread, or the bread and
        # the reminder? Never guessed either way.
        log.info("HITL_NARROWING_UNCLEAR", rawReply=raw[:RAW_LOG_LIMIT], along=True)
        return re_ask(state, pending, raw, log, hint=templates.narrowing_with_the_rest(language))
    parsed = {"approved": not editing, "keptIds": list(narrowed.ids)}
    new_state = with_result(state, pending, answer_entry(pending, raw, parsed, None, now))
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
