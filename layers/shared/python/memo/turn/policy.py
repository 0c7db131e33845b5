"""The turn's tool policy: the steps the review policy names, and the requests that break a rule.

- A ready step a rule of the review policy names (`memo.operator_review.policy`) is asked as an
  approval with the HITL reason `tool_requires_review` (source and policySource `tool_policy`); the
  user's yes sends it to an operator (its `ReviewTicket` carries the reason and the policy source
  into the case). A step that no rule names is asked as before.
- A request that breaks a rule of `memo.hitl.request_rules` is not carried out: the reply says which
  rule, in the user's language. When the review policy lists `policy_violation` among its
  `reasons`, the reply asks whether an operator should look at it (an approval of the whole plan,
  reason `policy_violation`, policySource `tool_policy`): only the operator's approval lets it run.
  Otherwise nothing can be asked and the reply only says why.
- A reminder whose day alone is known and already past `max_days_ahead` ("in 3 years") is refused
  before its time is asked (`day_out_of_reach`): no time could keep the rule, and an operator
  cannot approve a reminder with no time. The reply says why; nothing is asked.
"""

from __future__ import annotations

from memo.conversation.model import MemoryKind
from memo.domain import PendingHITL, TurnState
from memo.hitl import gate, templates
from memo.hitl.request_rules import broken_rule, day_too_far
from memo.observability import count, logger
from memo.replies import Reply
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn


def named_by_review(turn: Turn, state: TurnState, step_ids: list[str]) -> bool:
    """Whether a rule of the review policy names one of these steps, as resolved."""
    output = state.planner_output
    if output is None:
        return False
    policy = turn.ports.review_policy
    for step_id in step_ids:
        step, args = output.step(step_id), state.executor_args.get(step_id)
        if step is not None and args is not None and policy.rule_for(step.capability, step.action, args):
            return True
    return False


def first_reviewed(turn: Turn, state: TurnState) -> str | None:
    """The first ready step a rule of the review policy names, or None."""
    output = state.planner_output
    if output is None:
        return None
    ready = [s.id for s in output.plan if s.id in state.executor_args and s.id not in state.execution_results]
    return next((step_id for step_id in ready if named_by_review(turn, state, [step_id])), None)


def rule_broken(
    turn: Turn,
    state: TurnState,
    *,
    approved: PendingHITL | None,
    user_kind: MemoryKind,
    note: str | None,
) -> TurnOutcome | None:
    """The turn's answer to a request that breaks a rule (see the module), or None when it keeps
    them all or its violation was approved for an operator's review in this turn."""
    if approved is not None and approved.reason == "policy_violation":
        return None
    ctx = turn.ctx
    broken = broken_rule(turn.ports.request_rules, state, ctx.now)
    if broken is None:
        return None
    count("PolicyViolations")
    language = state.input.language
    why = broken.words(language)
    if "policy_violation" not in turn.ports.review_policy.reasons:
        logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": False})
        text = "\n".join(t for t in (note, why) if t)
        return TurnOutcome(reply=Reply.plain(text), outcome="policy_violation", user_kind=user_kind)
    logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": True})
    # The whole request is what breaks the rule: the question covers every step of it ("planner").
    checked = gate.request_tool_review(
        state, step_id="planner", reason="policy_violation", now=ctx.now, ttl_seconds=turn.ttl
    )
    checked = gate.reworded(
        checked,
        templates.policy_violation_question(language, why),
        options=[o for o in templates.approval_options(language) if o.id != templates.EDIT_ID],
    )
    return pause(ctx, checked, user_kind=user_kind, note=note)


def day_out_of_reach(turn: Turn, state: TurnState, *, user_kind: MemoryKind) -> TurnOutcome | None:
    """The answer to a reminder whose day is past the rule's reach, said before its time is asked;
    None for any other request."""
    broken = day_too_far(turn.ports.request_rules, state, turn.ctx.now)
    if broken is None:
        return None
    count("PolicyViolations")
    logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": False})
    words = broken.words(state.input.language)
    return TurnOutcome(reply=Reply.plain(words), outcome="policy_violation", user_kind=user_kind)
