"""The answer to the thread's live question: routed by `memo.hitl.resume` (fast path, then the
interpreter) to a transition, then carried on from where the plan paused.

The answer takes the question (single use) in the turn's one write. An approval's answer reads the
items again: if one the question showed changed or went, the turn says what changed and asks again
(never applied from a frozen list). An operator's question is answered on its case (by the recorder,
before the write) and consumed after, so a failed call leaves the question for the redelivered
message. A resumed turn logs under the original request's traceId; a new request sent instead of an
answer, under its own.
"""

from __future__ import annotations

from dataclasses import replace

from memo.conversation.pending import PendingChange
from memo.domain import DisambiguationCandidate, HITLReply, PendingHITL, TurnState
from memo.hitl import affected, fastpath, gate, templates
from memo.hitl.numbered import typed_number
from memo.hitl.resume import ResumeOutcome, quoted_elsewhere, resume
from memo.observability import bind_hitl, bind_turn, logger
from memo.replies import Reply
from memo.resolution.entity import apply_selection
from memo.text.language import Language, detect_language
from memo.turn.outcome import CaseAnswer, Settlement, TurnOutcome
from memo.turn.plan import plan, proceed
from memo.turn.questions import after, question_reply
from memo.turn.reads import Turn


def resumed(turn: Turn, state: TurnState, reply: HITLReply) -> TurnOutcome:
    ctx = turn.ctx
    pending = state.pending_hitl
    assert pending is not None
    bind_hitl(pending.hitl_id)
    if state.input.timezone != ctx.profile.timezone:
        # The answer is read in the zone in force when it comes ("my timezone is London" while the
        # question was open): "at 10am" is 10:00 where the user is now.
        state = state.model_copy(
            update={"input": state.input.model_copy(update={"timezone": ctx.profile.timezone})}
        )
    if _quotes_another_request(turn, state, reply) or _quotes_a_confirmation(turn, pending, reply):
        # "move this to 6pm" quoting "remind me to call mom ..." while "When should I remind you?"
        # waits on the bank: about that request, planned as its own; the question stays open.
        logger.info("HITL_QUOTED_ANOTHER_REQUEST", extra={"quoted": turn.ctx.message.context_id})
        return plan(turn, turn.fresh_state())
    if _quotes_another_message(turn, pending, reply):
        outcome = quoted_elsewhere(state, pending, reply.text or "")
    else:
        outcome = resume(state, reply, now=ctx.now, interpreter=turn.interpreter, rules=turn.ports.rules)
    if outcome.keeps_question:
        # A new request while an operator's question is open, or one that only looks ("what
        # reminders do I have?" while a delete waits for its approval): planned as its own
        # request; the question stays open for the answer that follows.
        bind_turn(ctx.trace_id, ctx.message.thread_id)
        return plan(turn, turn.fresh_state())
    if outcome.goto == "case":
        return _answer_operator(state, outcome, pending)
    # The answer takes the question (single use) in the turn's one write, after what the answer
    # starts: a rerun of a crashed turn finds the question still open and starts the same
    # execution again, which Step Functions runs once (one execution name per traceId).
    answered = (
        PendingChange.consume(state.thread_id, pending.hitl_id)
        if outcome.consumed
        else PendingChange.replace(outcome.state, expected_hitl_id=pending.hitl_id)
    )
    resumed_outcome = _after_resume(turn, outcome, pending)
    if outcome.decision == "switch_intent" and outcome.request is None:  # only a switch says it
        aside = _request_of(state, ctx.profile.language)
        if aside is not None:
            resumed_outcome = _set_aside(resumed_outcome, templates.set_aside(ctx.profile.language, aside))
    return after(answered, resumed_outcome)


def _request_of(state: TurnState, language: Language) -> str | None:
    """What the open question's request would do ("delete all your reminders"), None without a plan."""
    output = state.planner_output
    if output is None or not output.plan:
        return None
    return templates.describe_plan(output, language, state.input.timezone)


def _set_aside(outcome: TurnOutcome, line: str) -> TurnOutcome:
    """A new request instead of an answer closes the question: a reply that answers the request
    ends by saying the question's request was not done. A new question needs no such line (it is
    what is open now), and a request that only starts its steps has no reply of its own (the reply
    Lambda answers; one message gets one reply): a "yes" after it is told then (`memo.turn.fresh`)."""
    reply = outcome.reply
    if reply is None or outcome.reply_kind == "hitl_question" or reply.choices:
        return outcome
    return outcome.model_copy(update={"reply": reply.model_copy(update={"text": f"{reply.text}\n{line}"})})


def _quotes_another_request(turn: Turn, state: TurnState, reply: HITLReply) -> bool:
    """A typed answer that quotes one of the user's own messages (their messages' ids are kept) that
    is neither the open question's request nor an answer to it: about that message, not this
    question."""
    quoted = turn.ctx.message.context_id
    if not quoted or reply.interactive_id or quoted == state.trace_id:
        return False
    own = next((m for m in turn.ctx.snapshot.recent if m.role == "user" and m.wamid == quoted), None)
    if own is None or own.started == state.trace_id:
        return False
    # An answer that started nothing ("tomorrow" -> "What time on Tue?") is taken as this question's:
    # which question it answered is not kept.
    return not (own.kind == "hitl_reply" and own.started is None)


def _quotes_a_confirmation(turn: Turn, pending: PendingHITL, reply: HITLReply) -> bool:
    """A typed change that quotes one of Memo's confirmations ("move this to 11" quoting "⏰ Reminder
    set: “buy milk” ...") while an approval or a pick is open: about what that confirmation named
    (its `CTX#` record; a question keeps none). A bare yes, no or number is still asked again."""
    text = reply.text or ""
    if not _quotes_another_message(turn, pending, reply) or fastpath.parse_yes_no(text) is not None:
        return False
    return typed_number(text) is None and bool(turn.quote_named())


def _quotes_another_message(turn: Turn, pending: PendingHITL, reply: HITLReply) -> bool:
    """A typed answer to an approval or a pick that quotes one of Memo's messages. The
    question's own WhatsApp id is not kept (it is known only after the send, and keeping it
    would cost the turn a write), so the quoted message may be an earlier question or a
    confirmation, and the answer may be about that: it answers nothing here, and the open
    question is asked again, saying so. A button tap names its own question."""
    quoted = turn.ctx.message.context_id
    return bool(quoted) and not reply.interactive_id and pending.kind in ("approval", "disambiguation")


def _answer_operator(state: TurnState, outcome: ResumeOutcome, pending: PendingHITL) -> TurnOutcome:
    """The user answered an operator's question: the answer goes to the case (the recorder's call,
    request id per question, so a redelivered message replays, never answers twice), then the
    question is consumed; a conflict on the case sends nothing and leaves the question."""
    language = state.input.language
    case_id = pending.context.case_id if pending.context is not None else None
    consume = PendingChange.consume(state.thread_id, pending.hitl_id)
    too_late = TurnOutcome(
        reply=Reply.plain(templates.operator_answer_too_late(language)),
        outcome="hitl_operator_too_late",
        user_kind="hitl_reply",
        pending_change=consume,
    )
    if not case_id:
        return too_late
    passed_on = TurnOutcome(
        reply=Reply.plain(templates.operator_answer_passed_on(language)),
        outcome="hitl_operator_passed_on",
        user_kind="hitl_reply",
        pending_change=consume,
    )
    conflict = TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind="hitl_reply")
    call = CaseAnswer(
        case_id=case_id,
        answer=outcome.state.hitl_results[pending.hitl_id].raw,
        request_id=f"memo:clarification:{pending.hitl_id}",
        requester_ref=f"memo:requester:{state.trace_id}",
    )
    return TurnOutcome(
        reply=None,
        outcome="hitl_operator_answer",
        user_kind="hitl_reply",
        settle=Settlement(
            call=call, outcomes={"passed_on": passed_on, "too_late": too_late, "conflict": conflict}
        ),
    )


def _after_resume(turn: Turn, outcome: ResumeOutcome, answered: PendingHITL) -> TurnOutcome:
    ctx = turn.ctx
    state = outcome.state
    if outcome.goto == "interrupt":
        assert outcome.pending is not None
        return TurnOutcome(
            reply=question_reply(outcome.pending, state.input.language, outcome.text),
            outcome=f"hitl_{outcome.decision}",
            reply_kind="hitl_question",
            user_kind="hitl_reply",
        )
    if outcome.goto == "response":
        text = outcome.text or templates.cancelled(state.input.language)
        return TurnOutcome(
            reply=Reply.plain(text), outcome=f"hitl_{outcome.decision}", user_kind="hitl_reply"
        )
    if outcome.goto == "planner":
        if outcome.decision == "switch_intent":
            # A request of its own: its own traceId, read and answered in its own language.
            bind_turn(ctx.trace_id, ctx.message.thread_id)
            return plan(turn, turn.fresh_state(outcome.request), user_kind="hitl_reply")
        # Planned again from the person's latest words, so answered in their language: a Hebrew
        # "what would you like me to do?" answered "add bread to my todo list" is answered in English.
        state = state.model_copy(
            update={"input": state.input.model_copy(update={"language": ctx.profile.language})}
        )
        if answered.context is not None and answered.context.awaiting == "retry":
            original = TurnState(trace_id=state.trace_id, thread_id=state.thread_id, input=state.input)
            return plan(turn, original, user_kind="hitl_reply")
        return plan(turn, state, user_kind="hitl_reply")
    outcome = _in_the_answers_hebrew(outcome, ctx.message.text or "")
    state = outcome.state
    if outcome.goto == "entity_resolution":
        changed = _changed(turn, state, answered, outcome.selected_ids)
        if changed is not None:
            return proceed(turn, _unresolved(state, answered), user_kind="hitl_reply", note=changed)
        state = apply_selection(state, outcome.selected_ids, pending=answered)
        return proceed(turn, state, user_kind="hitl_reply", approved=state.approved_hitl)
    return _to_resolution(turn, outcome, answered)


def _in_the_answers_hebrew(outcome: ResumeOutcome, answer: str) -> ResumeOutcome:
    """An answer in Hebrew to a question asked in English ("כן" to "Before I go ahead ..."): what
    follows (what was done, the next question) is said in Hebrew. An answer with no Hebrew ("ok",
    "2", 👍) keeps the request's language: people who write Hebrew type those too."""
    state = outcome.state
    if state.input.language == "he" or detect_language(answer, state.input.language) != "he":
        return outcome
    hebrew = state.model_copy(update={"input": state.input.model_copy(update={"language": "he"})})
    return replace(outcome, state=hebrew)


def _to_resolution(turn: Turn, outcome: ResumeOutcome, answered: PendingHITL) -> TurnOutcome:
    """resolver_router: the plan goes on to resolution, approval and execution."""
    state = outcome.state
    if outcome.selected_ids:
        state = _narrowed(state, answered, outcome.selected_ids)
    if outcome.approved and answered.kind == "approval":
        changed = _changed(turn, state, answered, outcome.selected_ids)
        if changed is not None:
            # Never apply from a frozen list: resolve again, say what changed, ask again.
            return proceed(turn, _unresolved(state, answered), user_kind="hitl_reply", note=changed)
        state = state.model_copy(update={"approved_hitl": answered})
    # An edit (changed or narrowed after Edit) is resolved again and shown again for approval.
    # An approval answered earlier in this turn stays bound to the steps it approved.
    return proceed(turn, state, user_kind="hitl_reply", approved=state.approved_hitl)


def _changed(turn: Turn, state: TurnState, answered: PendingHITL, kept: tuple[str, ...]) -> str | None:
    """What happened meanwhile to the items the answer applies to (deleted, renamed), as the
    sentence to say before asking again; None when they are as shown."""
    context = answered.context
    output = state.planner_output
    if context is None or not context.candidates or output is None:
        return None
    if context.disambiguation_kind == "recurring_scope":
        return None  # "this one / the whole series" names a part, not items (memo.resolution.recurring)
    if answered.origin_step_id == "planner":
        return _plan_changed(turn, state, answered, kept)
    step = output.step(context.resolver_step_id or answered.origin_step_id)
    if step is None:
        return None
    shown = [c for c in context.candidates if not kept or c.id in set(kept)]
    args = {**(context.original_args or {}), **state.executor_args.get(step.id, {})}
    changes = affected.changes_since(shown, turn.current_items(state, step, args))
    return _said_changed(state, answered, [changes])


def _plan_changed(turn: Turn, state: TurnState, answered: PendingHITL, kept: tuple[str, ...]) -> str | None:
    """`_changed` of a combined approval: the kept items of each of its steps, read again."""
    output = state.planner_output
    assert output is not None and answered.context is not None
    by_step: dict[str, list[DisambiguationCandidate]] = {}
    for c in answered.context.candidates or []:
        if not kept or c.id in set(kept):
            by_step.setdefault(str((c.data or {}).get(gate.PLAN_STEP_KEY, "")), []).append(c)
    found = []
    for step_id, shown in by_step.items():
        step = output.step(step_id)
        if step is None:
            continue  # left out by the answer: none of its items are kept
        args = state.executor_args.get(step.id, {})
        found.append(affected.changes_since(shown, turn.current_items(state, step, args)))
    return _said_changed(state, answered, found)


def _said_changed(state: TurnState, answered: PendingHITL, found: list[affected.Changes]) -> str | None:
    gone = [c for changes in found for c in changes.gone]
    renamed = [pair for changes in found for pair in changes.renamed]
    if not gone and not renamed:
        return None
    logger.info(
        "HITL_CANDIDATES_CHANGED",
        extra={"hitlId": answered.hitl_id, "gone": len(gone), "renamed": len(renamed)},
    )
    return templates.items_changed(
        [c.label for c in gone], [(old.label, new.label) for old, new in renamed], state.input.language
    )


def _unresolved(state: TurnState, answered: PendingHITL) -> TurnState:
    """The state with the answered step's entity resolution undone, so it is resolved again (each
    step's, for a combined approval)."""
    step_ids = {(answered.context.resolver_step_id if answered.context else None) or answered.origin_step_id}
    if answered.origin_step_id == "planner" and answered.context is not None:
        step_ids = {
            str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in answered.context.candidates or []
        }
    return state.model_copy(
        update={
            "executor_args": {k: v for k, v in state.executor_args.items() if k not in step_ids},
            "execution_results": {k: v for k, v in state.execution_results.items() if k not in step_ids},
            "disambiguation": None,
            "approved_hitl": None,
        }
    )


def _narrowed(state: TurnState, answered: PendingHITL, kept: tuple[str, ...]) -> TurnState:
    """The approved step's args narrowed to the items the answer kept (always a subset of the shown)."""
    output = state.planner_output
    shown = (answered.context.candidates if answered.context else None) or []
    if not set(kept) <= {c.id for c in shown} or output is None:
        raise ValueError("a narrowed answer must keep items the approval showed")
    if answered.origin_step_id == "planner":
        return _narrowed_plan(state, shown, kept)
    step = output.step(answered.origin_step_id)
    if step is None or step.id not in state.executor_args:
        raise ValueError("a narrowed answer must keep items of the approved step it showed")
    return state.with_executor_args(step.id, affected.with_ids(step, state.executor_args[step.id], kept))


def _narrowed_plan(
    state: TurnState, shown: list[DisambiguationCandidate], kept: tuple[str, ...]
) -> TurnState:
    """A combined approval kept to some of its items: each step that takes items away keeps its
    own kept ones; a step with none kept leaves the plan (and any step's wait on it), so it runs
    nothing. The plan's other steps (named under the items) go on as approved."""
    output = state.planner_output
    assert output is not None
    step_of = {c.id: str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in shown}
    dropped: set[str] = set()
    for step_id in dict.fromkeys(step_of.values()):
        step = output.step(step_id)
        if step is None or step.id not in state.executor_args:
            raise ValueError(f"step {step_id} of a combined approval has no args")
        own = [i for i in kept if step_of[i] == step.id]
        if own:
            state = state.with_executor_args(
                step.id, affected.with_ids(step, state.executor_args[step.id], own)
            )
        else:
            dropped.add(step.id)
    if not dropped:
        return state
    plan_steps = [
        s.model_copy(update={"depends_on": [d for d in s.depends_on if d not in dropped]})
        for s in output.plan
        if s.id not in dropped
    ]
    args = {k: v for k, v in state.executor_args.items() if k not in dropped}
    return state.model_copy(
        update={"planner_output": output.model_copy(update={"plan": plan_steps}), "executor_args": args}
    )
