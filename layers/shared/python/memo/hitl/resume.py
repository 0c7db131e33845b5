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

The scope question of a broad delete (`ambiguous_scope`, `memo.hitl.affected`) is read as a pick is.
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

from dataclasses import replace
from datetime import datetime
from typing import Any

from memo.conversation import smalltalk
from memo.domain import HITLReply, PendingHITL, TurnState
from memo.hitl import affected, fastpath, narrowing, templates
from memo.hitl.answer_requests import is_new_request
from memo.hitl.by_time import answer_by_time
from memo.hitl.by_words import answer_by_words, scope_picked
from memo.hitl.complete_request import default_rules, only_looks
from memo.hitl.interpreter import Interpreter, RuleInterpreter
from memo.hitl.planner_answers import resume_planner
from memo.hitl.transitions import (
    RAW_LOG_LIMIT,
    ResumeLog,
    ResumeOutcome,
    answer_entry,
    cancel,
    continued,
    re_ask,
    switch_intent,
    with_result,
)
from memo.observability import logger, mask_phone
from memo.planner.base import Planner
from memo.text.language import Language, detect_language

__all__ = ["ResumeOutcome", "quoted_elsewhere", "resume", "stale_reply_guard"]


def resume(
    state: TurnState,
    reply: HITLReply,
    *,
    now: datetime,
    interpreter: Interpreter | None = None,
    rules: Planner | None = None,
) -> ResumeOutcome:
    """Apply the user's reply to the live pending question of `state` (see the module table).
    `rules` is the rule planner that reads whether an answer is a request of its own."""
    pending = state.pending_hitl
    if pending is None:
        raise ValueError("resume needs state.pendingHITL; with none, use the stale-reply guard")
    if not pending.is_live(now):
        raise ValueError("resume needs a live pendingHITL; an expired one is dropped by the caller")
    log = ResumeLog(state, pending)
    raw = reply.text.strip() or (reply.interactive_id or "")
    rules = rules or default_rules()

    if fastpath.is_stale_interactive(pending, reply):
        return re_ask(state, pending, raw, log)
    if reply.reaction:
        # A 👍 on "Just to check — …?": a guess is confirmed in words, never by a reaction.
        hint = templates.reaction_to_a_guess(state.input.language)
        return re_ask(state, pending, raw, log, hint=hint)

    if pending.return_to.node == "case":
        return _resume_operator_question(state, pending, raw, now, log, rules)
    if pending.context is not None and pending.context.awaiting == "retry":
        return _resume_retry(state, pending, reply, raw, now, log)
    if pending.kind == "disambiguation":
        outcome = _resume_disambiguation(state, pending, reply, raw, now, log, rules)
    elif pending.reason == "ambiguous_scope":
        # "All 7 reminders, or which ones?": answered as a pick is (`memo.hitl.affected`).
        outcome = affected.answered(
            _resume_disambiguation(state, pending, reply, raw, now, log, rules), pending
        )
    else:
        outcome = resume_planner(
            state, pending, reply, raw, now, log, interpreter or RuleInterpreter(rules), rules
        )
    return _kept_while_looking(outcome, state, raw, now, rules)


def _kept_while_looking(
    outcome: ResumeOutcome, state: TurnState, raw: str, now: datetime, rules: Planner
) -> ResumeOutcome:
    """A new request that only looks ("what reminders do I have?" while a delete waits for its
    approval): answered as its own, and the question stays open for the answer that follows."""
    if outcome.decision != "switch_intent" or outcome.request is not None or outcome.keeps_question:
        return outcome
    language = detect_language(raw, state.input.language)
    if not only_looks(raw, now=now, timezone=state.input.timezone, language=language, rules=rules):
        return outcome
    return replace(outcome, keeps_question=True)


# --- disambiguation (deterministic only) ---------------------------------------------------------


def _resume_disambiguation(
    state: TurnState,
    pending: PendingHITL,
    reply: HITLReply,
    raw: str,
    now: datetime,
    log: ResumeLog,
    rules: Planner,
) -> ResumeOutcome:
    found = fastpath.match(pending, reply)
    candidates = (pending.context.candidates if pending.context else None) or []
    if found is not None and found.option_ids:
        by_option = {str(i): c.id for i, c in enumerate(candidates, start=1)}
        selected = tuple(by_option.get(option_id, option_id) for option_id in found.option_ids)
        if found.via == "multi" and fastpath.normalize(raw) in fastpath.ALL_WORDS:
            selected = tuple(c.id for c in candidates)  # "all" is every match, not the rows shown
        return _chosen(state, pending, raw, {**found.parsed, "candidateIds": list(selected)}, now, log)
    if fastpath.is_way_out(raw):
        # "no", "leave it", "never mind" to "which one?": none of them, nothing changes.
        log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        return cancel(state, pending, raw, None, now, log)
    part = scope_picked(raw, [c.id for c in candidates]) or narrowing.this_time_by_day(
        raw, candidates, now=now, timezone=state.input.timezone, language=state.input.language
    )
    if part is not None:
        # "just this one", "the whole series" to "this one or the whole series?"
        return _chosen(state, pending, raw, {"via": "scope", "candidateIds": [part]}, now, log)
    if fastpath.looks_like_hitl_answer(raw):
        return re_ask(state, pending, raw, log)
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
    # Words no candidate has that read as a request, even one the planner only guesses at ("delete
    # the dentist" while "this one or the whole series?" is open), are that request: its own turn
    # asks its approval or confirms the guess before anything runs.
    if worded.kind == "unclear" or not is_new_request(
        raw, state, now, rules, allow_missing=True, allow_guess=True
    ):
        # "dda", "the blue one": no candidate and no request of its own; the question stays open.
        return re_ask(state, pending, raw, log)
    return switch_intent(state, pending, raw, None, now, log)


def _chosen(
    state: TurnState, pending: PendingHITL, raw: str, parsed: dict[str, Any], now: datetime, log: ResumeLog
) -> ResumeOutcome:
    """The disambiguation answered with `parsed["candidateIds"]`: continue with them."""
    selected = tuple(str(i) for i in parsed["candidateIds"])
    log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed=parsed)
    outcome = continued(state, pending, raw, parsed, None, now, log)
    return ResumeOutcome(goto=outcome.goto, decision="continue", state=outcome.state, selected_ids=selected)


# --- an operator's question ---------------------------------------------------------------------


def _resume_operator_question(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime, log: ResumeLog, rules: Planner
) -> ResumeOutcome:
    if fastpath.is_cancel(raw):
        log.info("HITL_FAST_PATH_MATCH", decision="cancel", parsed={"via": "cancel_word"})
        entry = answer_entry(pending, raw, {"cancelled": True}, None, now)
        log.info("HITL_CANCELLED")
        return ResumeOutcome(
            goto="response",
            decision="cancel",
            state=with_result(state, pending, entry),
            text=templates.operator_question_declined(state.input.language),
        )
    if not raw:
        return re_ask(state, pending, raw, log)
    if is_new_request(raw, state, now, rules):
        switched = switch_intent(state, pending, raw, None, now, log)
        return ResumeOutcome(
            goto="planner", decision="switch_intent", state=switched.state, keeps_question=True
        )
    log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed={"via": "free_text"})
    return continued(state, pending, raw, {"answer": raw}, None, now, log)


# --- the expiry message's "Try again" -------------------------------------------------------------


def _resume_retry(
    state: TurnState, pending: PendingHITL, reply: HITLReply, raw: str, now: datetime, log: ResumeLog
) -> ResumeOutcome:
    found = fastpath.match(pending, reply)
    if (found is not None and found.option_ids == (templates.RETRY_ID,)) or fastpath.parse_yes_no(
        raw
    ) is True:
        log.info("HITL_FAST_PATH_MATCH", decision="continue", parsed={"retry": True})
        entry = answer_entry(pending, raw, {"retry": True}, None, now)
        return ResumeOutcome(goto="planner", decision="continue", state=with_result(state, pending, entry))
    if fastpath.is_cancel(raw) or fastpath.parse_yes_no(raw) is False:
        log.info("HITL_CANCELLED")
        entry = answer_entry(pending, raw, {"cancelled": True}, None, now)
        return ResumeOutcome(
            goto="response",
            decision="cancel",
            state=with_result(state, pending, entry),
            text=templates.retry_declined(state.input.language),
        )
    if reply.interactive_id is not None or fastpath.looks_like_hitl_answer(raw):
        return re_ask(state, pending, raw, log)
    return switch_intent(state, pending, raw, None, now, log)


def quoted_elsewhere(state: TurnState, pending: PendingHITL, raw: str) -> ResumeOutcome:
    """A typed answer quoting another of Memo's messages while `pending` is open: it is not taken
    as this question's answer (it may be about that message); the open question is asked again,
    saying so."""
    log = ResumeLog(state, pending)
    log.info("HITL_QUOTED_ANOTHER_MESSAGE")
    return re_ask(state, pending, raw, log, hint=templates.quoted_elsewhere(state.input.language))


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
        "HITL_STALE_REPLY", extra={"threadId": mask_phone(thread_id), "rawUserMessage": raw[:RAW_LOG_LIMIT]}
    )
    return templates.stale_reply(language)
