"""The rules a request must keep, as configuration (`MEMO_RULE_*`, `memo.settings.LimitsSettings`;
docs/limits.md): a request that breaks one is not carried out. The turn says which rule in the
user's language and asks whether an operator should look at it (HITL reason `policy_violation`,
`memo.turn.approval`); nothing runs without that operator's approval.

- `same_minute_reminders`: at most this many reminders of one request due within a minute of each
  other (the first and the last of them at most 60 seconds apart);
- `max_days_ahead`: no reminder due more than this many days after the request;
- `blocked_words`: no reminder, note or list item whose text holds one of these words or phrases
  (compared case-insensitively, as whole words).

Read from the steps' resolved args only: checking costs no read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

from memo.domain import PlanStep, TurnState
from memo.text.language import Language

RuleName = Literal["same_minute_reminders", "max_days_ahead", "blocked_words"]
WITHIN = timedelta(seconds=60)


@dataclass(frozen=True)
class RequestRules:
    same_minute_reminders: int = 10
    max_days_ahead: int = 365
    blocked_words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Broken:
    """The rule a request breaks, the step that breaks it and the rule's configured limit."""

    rule: RuleName
    step_id: str
    limit: int
    word: str = ""

    def words(self, language: Language) -> str:
        """Why nothing was done, in the user's language."""
        he = language == "he"
        if self.rule == "same_minute_reminders":
            if he:
                return f"אפשר לקבוע עד {self.limit} תזכורות באותה דקה, אז לא קבעתי אותן."
            return f"I can set at most {self.limit} reminders within the same minute, so I haven't set them."
        if self.rule == "max_days_ahead":
            if he:
                return f"אפשר לקבוע תזכורת עד {self.limit} ימים קדימה, אז לא קבעתי אותה."
            return f"I can set reminders up to {self.limit} days ahead, so I haven't set this one."
        if he:
            return f"„{self.word}” הוא דבר שאני לא שומר, אז לא עשיתי כלום."
        return f"“{self.word}” is something I'm not allowed to save, so I haven't done anything."


def broken_rule(rules: RequestRules, state: TurnState, now: datetime) -> Broken | None:
    """The first rule the ready steps of `state` break, or None."""
    ready = _ready(state)
    return _blocked(rules, ready) or _too_far(rules, ready, now) or _same_minute(rules, ready)


def day_too_far(rules: RequestRules, state: TurnState, now: datetime) -> Broken | None:
    """A reminder whose day alone is known ("in 3 years", its time still to ask) that is due past
    `max_days_ahead` whatever its time: the rule is broken before its time is asked."""
    output = state.planner_output
    if output is None:
        return None
    last = (now + timedelta(days=rules.max_days_ahead)).date()
    for step in output.plan:
        day = step.constraints.get("day")
        if step.capability != "reminders" or step.action != "create" or not isinstance(day, str):
            continue
        try:
            # Its earliest moment anywhere is the day before, in the furthest timezone ahead of UTC.
            if date.fromisoformat(day) - timedelta(days=1) > last:
                return Broken("max_days_ahead", step.id, rules.max_days_ahead)
        except ValueError:
            continue
    return None


def _ready(state: TurnState) -> list[tuple[PlanStep, dict[str, Any]]]:
    output = state.planner_output
    if output is None:
        return []
    return [
        (step, state.executor_args[step.id])
        for step in output.plan
        if step.id in state.executor_args and step.id not in state.execution_results
    ]


def _due(step: PlanStep, args: dict[str, Any]) -> datetime | None:
    if step.capability != "reminders" or step.action not in ("create", "update"):
        return None
    when = args.get("when")
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when)
        except ValueError:
            return None
    return when if isinstance(when, datetime) and when.tzinfo is not None else None


def _too_far(
    rules: RequestRules, ready: list[tuple[PlanStep, dict[str, Any]]], now: datetime
) -> Broken | None:
    for step, args in ready:
        due = _due(step, args)
        if due is not None and due - now > timedelta(days=rules.max_days_ahead):
            return Broken("max_days_ahead", step.id, rules.max_days_ahead)
    return None


def _same_minute(rules: RequestRules, ready: list[tuple[PlanStep, dict[str, Any]]]) -> Broken | None:
    due = sorted(
        (when, step.id)
        for step, args in ready
        if step.action == "create" and (when := _due(step, args)) is not None
    )
    limit = rules.same_minute_reminders
    for first in range(len(due)):
        last = first + limit  # the (limit + 1)th reminder counted from `first`
        if last < len(due) and due[last][0] - due[first][0] <= WITHIN:
            return Broken("same_minute_reminders", due[last][1], limit)
    return None


def _texts(step: PlanStep, args: dict[str, Any]) -> list[str]:
    if step.capability == "reminders":
        return [str(args["title"])] if args.get("title") else []
    if step.capability == "notes":
        return [str(args["text"])] if args.get("text") else []
    if step.capability == "lists" and step.action == "add":
        return [str(item) for item in args.get("items") or []]
    return []


def _blocked(rules: RequestRules, ready: list[tuple[PlanStep, dict[str, Any]]]) -> Broken | None:
    if not rules.blocked_words:
        return None
    for step, args in ready:
        if step.action not in ("create", "update", "save", "add"):
            continue
        for text in _texts(step, args):
            for word in rules.blocked_words:
                if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.I):
                    return Broken("blocked_words", step.id, 0, word=word)
    return None
