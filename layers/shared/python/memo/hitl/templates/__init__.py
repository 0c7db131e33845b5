"""User-facing HITL texts in English and Hebrew, and the machine-built option sets.

Everything a user reads about a pending question comes from this package, one module per job:
- `plan_description`: what a plan step would do, as a verb phrase (also the truthful "what I would
  do" reply while the executor does not exist yet);
- `approval`: Approve / Edit / Reject and the approval question naming the items a step touches;
- `approval_answers`: what is said back to an approval answer that cannot run as said;
- `disambiguation`: the "which one do you mean?" picker;
- `clarification`: questions for a missing or unclear detail, and the yes/no check;
- `open_question`: the re-ask nudge, expiry, cancellation, the stale-reply answer and a
  button that no longer works;
- `operator`: an operator's question relayed to the user;
- `turn_answers`: the turn's own answers and the label of a question's list button.

An LLM may word the question text only, through the `QuestionWriter` hook of `memo.hitl.gate`;
options (ids, labels, count, order) are always built here, in code.
"""

from __future__ import annotations

from memo.hitl.templates.approval import (
    APPROVAL_ITEMS_SHOWN,
    APPROVE_ID,
    EDIT_ID,
    GOES_ON,
    NEXT_TIME,
    REJECT_ID,
    SKIP_TIMES,
    SKIPPED_ONCE,
    along_line,
    approval_items_question,
    approval_options,
    approval_question,
    approval_steps_question,
    count_items,
    item_lines,
    policy_violation_question,
)
from memo.hitl.templates.approval_answers import (
    edit_not_applicable,
    edit_prompt,
    items_changed,
    kept_all,
    limit_unclear,
    names_not_found,
    narrowing_empty,
    narrowing_unclear,
    narrowing_with_the_rest,
    no_time_to_change,
    number_item_or_button,
    one_time_of_a_series,
    rejected_with_reason,
    series_left_out,
)
from memo.hitl.templates.clarification import (
    NO_ID,
    YES_ID,
    ambiguous_scope_question,
    intent_unclear_question,
    list_items_question,
    low_confidence_question,
    missing_fields_question,
    month_day_question,
    scope_question,
    shift_direction_question,
    time_of_series_question,
    time_on_day_question,
    which_item_question,
    yes_no_options,
)
from memo.hitl.templates.disambiguation import (
    MAX_OPTIONS,
    ROW_DESCRIPTION_MAX,
    ROW_TITLE_MAX,
    candidate_options,
    disambiguation_question,
)
from memo.hitl.templates.open_question import (
    RETRY_ID,
    button_gone,
    cancelled,
    existing_question,
    expired,
    nudge,
    one_at_a_time,
    quoted_elsewhere,
    reaction_to_a_guess,
    retry_declined,
    retry_options,
    set_aside,
    stale_reply,
    which_one_changes,
)
from memo.hitl.templates.operator import (
    operator_answer_passed_on,
    operator_answer_too_late,
    operator_question,
    operator_question_declined,
)
from memo.hitl.templates.plan_description import day_said, describe_plan, describe_step, note_change, would_do
from memo.hitl.templates.turn_answers import connect_account, sent_to_review

__all__ = [
    "APPROVAL_ITEMS_SHOWN",
    "APPROVE_ID",
    "EDIT_ID",
    "GOES_ON",
    "MAX_OPTIONS",
    "NEXT_TIME",
    "NO_ID",
    "REJECT_ID",
    "RETRY_ID",
    "ROW_DESCRIPTION_MAX",
    "ROW_TITLE_MAX",
    "SKIPPED_ONCE",
    "SKIP_TIMES",
    "YES_ID",
    "along_line",
    "ambiguous_scope_question",
    "approval_items_question",
    "approval_options",
    "approval_question",
    "approval_steps_question",
    "button_gone",
    "cancelled",
    "candidate_options",
    "connect_account",
    "count_items",
    "day_said",
    "describe_plan",
    "describe_step",
    "disambiguation_question",
    "edit_not_applicable",
    "edit_prompt",
    "existing_question",
    "expired",
    "intent_unclear_question",
    "item_lines",
    "items_changed",
    "kept_all",
    "limit_unclear",
    "list_items_question",
    "low_confidence_question",
    "missing_fields_question",
    "month_day_question",
    "names_not_found",
    "narrowing_empty",
    "narrowing_unclear",
    "narrowing_with_the_rest",
    "no_time_to_change",
    "note_change",
    "nudge",
    "number_item_or_button",
    "one_at_a_time",
    "one_time_of_a_series",
    "operator_answer_passed_on",
    "operator_answer_too_late",
    "operator_question",
    "operator_question_declined",
    "policy_violation_question",
    "quoted_elsewhere",
    "reaction_to_a_guess",
    "rejected_with_reason",
    "retry_declined",
    "retry_options",
    "scope_question",
    "sent_to_review",
    "series_left_out",
    "set_aside",
    "shift_direction_question",
    "stale_reply",
    "time_of_series_question",
    "time_on_day_question",
    "which_item_question",
    "which_one_changes",
    "would_do",
    "yes_no_options",
]
