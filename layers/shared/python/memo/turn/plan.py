"""A request planned and carried to its outcome: planner -> capability check -> HITL gate
(clarifications) -> resolvers -> entity resolution -> HITL gate (disambiguation, the request rules,
then the approval of the resolved items, or of a step the review policy names) -> the execution."""

from __future__ import annotations

from memo.capabilities.lists import UNNAMED_LIST
from memo.conversation import errands, smalltalk
from memo.conversation.model import MemoryKind, plan_in_flight
from memo.domain import LIST_NAME_REQUIRED, PendingHITL, RecentMessage, TurnState
from memo.hitl import gate, templates
from memo.observability import logger
from memo.planner import PlannerInput
from memo.replies import Reply
from memo.resolution.entity import ON_LISTS, EntityResolution, resolve_entities
from memo.resolution.router import resolve_all
from memo.turn.approval import ask_approval, day_out_of_reach, first_reviewed, rule_broken
from memo.turn.execute import execute
from memo.turn.note_check import checks_a_delete, checks_a_note_update, confirm_note_update, finds_nothing
from memo.turn.outcome import TurnContext, TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn, done_by, latest_actions

UNCONNECTED_CAPABILITIES = frozenset({"calendar", "email"})


def plan(turn: Turn, state: TurnState, *, user_kind: MemoryKind = "message") -> TurnOutcome:
    ctx = turn.ctx
    planned = PlannerInput.for_turn(
        state,
        now=ctx.now,
        recent_messages=[RecentMessage(role=m.role, text=m.text) for m in ctx.snapshot.recent],
        latest_actions=turn.quoted_first(state),
        recurrence_limits=turn.ports.recurrence_limits,
    )
    result = turn.planner.plan(planned)
    quoted = _quoted_request(ctx) if "intent_unclear" in result.output.missing_fields else None
    if quoted is not None and planned.clarification is None:
        # "tomorrow at 10" quoting "remind me to buy a gift" (its "when?" set aside since): that
        # request, with the words that answer it; anything still unclear is asked as before.
        joined = turn.planner.plan(
            planned.model_copy(update={"message": quoted, "clarification": planned.message})
        )
        if "intent_unclear" not in joined.output.missing_fields:
            logger.info("QUOTED_REQUEST_JOINED", extra={"quoted": ctx.message.context_id})
            result = joined
    state = state.with_planner_result(result.output, result.routing_suggestions)
    output = result.output
    conversational = all(step.capability == "general" for step in output.plan)
    if output.intent_type in ("conversation", "meta") and conversational and not output.missing_fields:
        asked_help = any(step.constraints.get("kind") == "help" for step in output.plan)
        return small_talk(ctx, help_asked=asked_help).model_copy(update={"user_kind": user_kind})
    blocked: set[str] = {str(step.capability) for step in output.plan} & UNCONNECTED_CAPABILITIES
    if blocked:
        logger.info("CAPABILITY_BLOCKED", extra={"capabilities": sorted(blocked)})
        return TurnOutcome(
            reply=Reply.plain(templates.connect_account(blocked, state.input.language)),
            outcome="capability_blocked",
            user_kind=user_kind,
        )
    errand = errands.errand(ctx.message.text) if output.missing_fields == ["intent_unclear"] else None
    if errand is not None:  # "book me a table at 8": what Memo can do instead, nothing set
        reply = errands.refusal(errand, state.input.language)
        return TurnOutcome(reply=Reply.plain(reply), outcome="errand_refused", user_kind=user_kind)
    trigger = gate.planner_trigger(output)
    if trigger is not None and trigger.kind != "approval":
        if checks_a_note_update(output, trigger):  # asked over the note it changes, once looked up
            return confirm_note_update(turn, state, user_kind=user_kind)
        if checks_a_delete(output, trigger) and finds_nothing(turn, state):
            return proceed(turn, state, user_kind=user_kind)  # "nothing matched": nothing to confirm
        if checks_a_delete(output, trigger) and output.risk_level == "high":
            # "cancel the oven one": its approval, asked over the items it found ("“check the oven”
            # — Mon 23 Nov, 11:32"), is the check; "delete the reminder “oven”?" named the words said.
            sure = output.model_copy(update={"confidence": max(output.confidence, gate.CONFIDENCE_THRESHOLD)})
            return proceed(turn, state.model_copy(update={"planner_output": sure}), user_kind=user_kind)
        out_of_reach = day_out_of_reach(turn, state, user_kind=user_kind)
        if out_of_reach is not None:  # "in 3 years": refused before its time is asked
            return out_of_reach
        checked = gate.check_planner(state, now=ctx.now, ttl_seconds=turn.ttl)
        if checked.must_pause:
            return pause(ctx, checked, user_kind=user_kind)
    # Approvals are asked after resolution, over the concrete items (resolve, then ask).
    return proceed(turn, state, user_kind=user_kind)


def proceed(
    turn: Turn,
    state: TurnState,
    *,
    user_kind: MemoryKind,
    approved: PendingHITL | None = None,
    note: str | None = None,
) -> TurnOutcome:
    """Resolvers (cached per step) -> entity resolution -> disambiguation -> approval of the
    resolved items -> executor. `note` (what changed meanwhile) is said before what comes next."""
    ctx = turn.ctx
    state = resolve_all(state)
    resolution = resolve_entities(
        state,
        turn.items,
        ctx.now,
        latest_actions=latest_actions(ctx),
        quoted=turn.quoted(state),
        in_flight=plan_in_flight(ctx.snapshot.recent, ctx.snapshot.latest_actions, now=ctx.now) is not None,
    )
    which_list = _which_list(turn, state, resolution, user_kind=user_kind, note=note)
    if which_list is not None:
        return which_list
    state = resolution.state
    if resolution.needs_hitl:
        checked = gate.check_disambiguation(state, now=ctx.now, ttl_seconds=turn.ttl)
        if checked.must_pause:
            return pause(ctx, checked, user_kind=user_kind, note=note)
    refused = rule_broken(turn, state, approved=approved, user_kind=user_kind, note=note)
    if refused is not None:
        return refused
    if approved is None:
        trigger = gate.approval_trigger(state.planner_output)
        if trigger is not None:
            return ask_approval(turn, state, trigger.reason, user_kind=user_kind, note=note)
        reviewed = first_reviewed(turn, state)
        if reviewed is not None:
            # A step the review policy names is asked first, even when nothing else would be.
            return ask_approval(
                turn, state, "tool_requires_review", user_kind=user_kind, note=note, origin=reviewed
            )
    return execute(turn, state, user_kind=user_kind, approved=approved, note=note)


def _which_list(
    turn: Turn, state: TurnState, resolution: EntityResolution, *, user_kind: MemoryKind, note: str | None
) -> TurnOutcome | None:
    """ "add eggs to the list" when the user has no list or several: which one is asked as a
    clarification (the answer "the todo list" names it, `memo.hitl.plan_edits`), never guessed and
    never answered as if the request had failed. None for anything else."""
    output = state.planner_output
    if output is None or len(output.plan) != 1 or output.missing_fields:
        return None
    step = output.plan[0]
    failed = resolution.state.execution_results.get(step.id) or {}
    # "remove batteries" with batteries on two lists: which list is asked too ("packing" answers it).
    on_lists = (failed.get("data") or {}).get(ON_LISTS)
    if (
        step.capability != "lists"
        or (step.action != "add" and not on_lists)
        or step.constraints.get("listName") != UNNAMED_LIST
        or step.id not in resolution.not_found
    ):
        return None
    asked = state.model_copy(
        update={"planner_output": output.model_copy(update={"missing_fields": [LIST_NAME_REQUIRED]})}
    )
    checked = gate.check_planner(asked, now=turn.ctx.now, ttl_seconds=turn.ttl)
    if failed.get("error"):  # "Which list should I add eggs to? You have: …": the lists named
        checked = gate.reworded(checked, str(failed["error"]))
    return pause(turn.ctx, checked, user_kind=user_kind, note=note)


def small_talk(ctx: TurnContext, *, help_asked: bool = False) -> TurnOutcome:
    """Friendly small talk, honest about what it did not understand; a question about Memo the
    planner read ("how do I delete a reminder?": `help_asked`) is answered with what Memo does."""
    language = ctx.profile.language
    kind = smalltalk.classify(ctx.message.text) or ("how_to" if help_asked else None)
    if kind is None:
        return TurnOutcome(reply=Reply.plain(smalltalk.not_understood(language)), outcome="not_understood")
    text = smalltalk.reply(kind, language=language, local_now=ctx.local_now, name=ctx.profile.name)
    return TurnOutcome(reply=Reply.plain(text), outcome=f"smalltalk_{kind}")


def _quoted_request(ctx: TurnContext) -> str | None:
    """The words of the user's own earlier message this one quotes, when that message did nothing
    (a request whose question was set aside); None otherwise."""
    message = ctx.message
    if not message.context_id or message.reply_id:
        return None
    quoted = next(
        (m for m in ctx.snapshot.recent if m.role == "user" and m.wamid == message.context_id), None
    )
    if (
        quoted is None
        or quoted.text.strip() == (message.text or "").strip()
        or done_by(ctx, quoted.wamid or "")
    ):
        return None
    return quoted.text
