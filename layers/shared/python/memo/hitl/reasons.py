"""What each HITL reason asks: its kind, where its answer returns to, who required it (approvals),
the input it expects, its options and its question text (words from `memo.hitl.templates`).

An optional `QuestionWriter` (e.g. an LLM) may reword the question text of planner questions and
nothing else (`QuestionDraft`); options are built in code only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memo.domain import (
    LIST_ITEMS_REQUIRED,
    HITLExpectedInput,
    HITLKind,
    HITLPolicySource,
    HITLReason,
    HITLReturnTo,
    HITLSource,
    PendingHITLOption,
    PlanStep,
    TurnState,
)
from memo.hitl import templates
from memo.hitl.plan_edits import same_time_asked
from memo.planner.intents.month_series import MONTH_DAY_REQUIRED, SAID_MONTH
from memo.planner.intents.reminders import SAID_TIME
from memo.planner.match import SHIFT_BY, SHIFT_DIRECTION_REQUIRED, SHIFT_NAMES
from memo.text.language import Language

KIND_BY_REASON: dict[HITLReason, HITLKind] = {
    "intent_unclear": "clarification",
    "missing_fields": "clarification",
    "low_confidence_plan": "clarification",
    "ambiguous_scope": "clarification",
    "high_risk": "approval",
    "needs_approval": "approval",
    "confirmation": "approval",
    "tool_requires_review": "approval",
    "policy_violation": "approval",
    "disambiguation": "disambiguation",
}


@dataclass(frozen=True)
class QuestionDraft:
    """What a `QuestionWriter` may reword: only `default_text` becomes the question."""

    kind: HITLKind
    reason: HITLReason
    language: Language
    default_text: str
    summary: str


#: Rewords a question; returns the new text, or None to keep the template. Must not raise.
QuestionWriter = Callable[[QuestionDraft], str | None]


def return_to_for(source: HITLSource, reason: HITLReason) -> HITLReturnTo:
    """returnTo mapping: planner/intent_unclear -> planner replan; other planner and tool-policy
    reasons -> resolver_router continue; entity_resolution -> entity_resolution apply_selection."""
    if source == "entity_resolution":
        return HITLReturnTo(node="entity_resolution", mode="apply_selection")
    if source == "planner" and reason == "intent_unclear":
        return HITLReturnTo(node="planner", mode="replan")
    return HITLReturnTo(node="resolver_router", mode="continue")


def policy_source_for(source: HITLSource, reason: HITLReason) -> HITLPolicySource | None:
    """Who required an approval (audit); None for clarifications and disambiguation."""
    if KIND_BY_REASON[reason] != "approval":
        return None
    if reason in ("tool_requires_review", "policy_violation") or source == "tool_policy":
        return "tool_policy"
    return "planner"


def expected_input_for(reason: HITLReason) -> HITLExpectedInput:
    if KIND_BY_REASON[reason] == "approval" or reason == "low_confidence_plan":
        return "yes_no"
    return "free_text"


def options_for(reason: HITLReason, language: Language) -> list[PendingHITLOption] | None:
    if KIND_BY_REASON[reason] == "approval":
        return templates.approval_options(language)
    if reason == "low_confidence_plan":
        return templates.yes_no_options(language)
    return None


def question_for(state: TurnState, reason: HITLReason, step: PlanStep | None) -> tuple[str, str]:
    language = state.input.language
    output = state.planner_output
    summary = (
        templates.describe_step(step, language, state.input.timezone)
        if step is not None
        else (templates.describe_plan(output, language, state.input.timezone) if output else "")
    )
    if reason == "intent_unclear":
        return templates.intent_unclear_question(language, state.routing_suggestions), summary
    if reason == "missing_fields":
        missing = output.missing_fields if output else []
        day = step.constraints.get("day") if step is not None else None
        month = step.constraints.get(SAID_MONTH) if step is not None else None
        if MONTH_DAY_REQUIRED in missing and step is not None and isinstance(month, int):
            # "every march at 9": which day of March (and what else was not said).
            time_known, title_known = SAID_TIME in step.constraints, bool(step.constraints.get("title"))
            question = templates.month_day_question(
                language, month, time_known=time_known, title_known=title_known
            )
            return question, summary
        if (
            SHIFT_DIRECTION_REQUIRED in missing
            and step is not None
            and isinstance(step.changes.get(SHIFT_BY), int)
        ):
            # "move it an hour": earlier or later.
            minutes = int(step.changes[SHIFT_BY])
            return templates.shift_direction_question(
                language, minutes, step.constraints.get(SHIFT_NAMES)
            ), summary
        if missing == ["reminder_time_required"] and isinstance(day, str):
            # "remind me to buy a gift on friday": the day was understood, only its time is asked;
            # "on monday and wednesday to call mom": one question names each day the answer sets.
            others = same_time_asked(output, step, missing) if output and step else []
            days = [day, *(str(other.constraints["day"]) for other in others)]
            return templates.time_on_day_question(language, days, state.input.timezone), summary
        if missing == ["reminder_time_required"] and step is not None and step.constraints.get("recurrence"):
            # "on the 1st of every month": the days are known; "tomorrow at 17:00" as the example
            # would invite a day that is no answer to this question.
            return templates.time_of_series_question(language), summary
        if missing == ["target_unclear"] and step is not None and step.action in ("delete", "update"):
            # "stop reminding me" with nothing just set: which reminder (note, item) is meant.
            return templates.which_item_question(language, step), summary
        if missing == [LIST_ITEMS_REQUIRED] and step is not None:
            # "create a packing list", "add to my todo list": which list is known, its items are asked.
            return (
                templates.list_items_question(language, step.constraints.get("listName"), step.action),
                summary,
            )
        return templates.missing_fields_question(language, missing), summary
    if reason == "low_confidence_plan":
        if output is not None and len(output.plan) > 1:
            # "yes" runs the whole plan: the question names every step of it, not only the first.
            summary = templates.describe_plan(output, language, state.input.timezone)
        return templates.low_confidence_question(language, summary), summary
    if reason == "ambiguous_scope":
        return templates.ambiguous_scope_question(language, summary), summary
    return templates.approval_question(language, summary, reason), summary
