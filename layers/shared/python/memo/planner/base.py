"""The planner port: what a planner gets (`PlannerInput`) and returns (`PlannerResult`).

Two planners implement `Planner`: `RulePlanner` (deterministic, English + Hebrew; the default with
no OpenAI key and the fallback when the LLM fails) and `OpenAIPlanner`. Build one with
`memo.planner.build_planner(settings)`.

Plan step conventions (what resolvers can rely on), per capability/action:
- reminders/create: constraints {title, when (ISO, aware)} or {title, day (ISO date)} when the
  time is missing (then missingFields has `reminder_time_required`).
- reminders/list: constraints {} or {day}.
- reminders/update: constraints {target} (text that selects the reminder) and/or
  {targetRef: "latest_action"} for "it/that"; changes {when} and/or {title}.
- reminders/delete: constraints {target} or {targetRef}, plus {plural: true} when the words name
  several ("the call reminders"): entity resolution then offers a multi choice. reminders/delete_all: constraints {}.
- notes/save: changes {text}. notes/search: constraints {query} ("" lists all).
  notes/delete: constraints {target} or {targetRef}. notes/delete_all: constraints {}.
- lists/add, lists/remove: constraints {listName}, changes {items: [..]}.
  lists/update: constraints {listName, target}, changes {text} ("change eggs to 12 eggs").
  lists/show: constraints {listName}. lists/clear: constraints {listName}. lists/show_all: {}
  ("what lists do I have?"). A listName is the user's own words; the items table folds synonyms
  and languages into one list (`memo.capabilities.items.list_key`).
- Several requests in one message are several steps ("s1", "s2", ...), in the order written.
- calendar/*, email/*: constraints {text}: there is no adapter; the capability check refuses them.
- general/reply: constraints {kind: greeting|thanks|smalltalk|help} (conversation/meta intents).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AwareDatetime, BaseModel, ConfigDict, field_validator

from memo.domain import (
    HITLResultEntry,
    LatestAction,
    PlannerOutput,
    RecentMessage,
    RoutingSuggestion,
    TurnState,
    hitl_result_for_replan,
)
from memo.text.language import Language
from memo.text.recurrence_limits import RecurrenceLimits

#: Latest actions shown to a planner: the last three, most recent first.
LATEST_ACTIONS_LIMIT = 3


#: Characters a message carries that nobody sees: the direction marks a Hebrew keyboard puts around
#: digits and words (U+200E/U+200F, U+202A-U+202E, U+2066-U+2069), zero-width spaces pasted from
#: other apps (U+200B, U+2060, U+FEFF), soft hyphens: Unicode's format characters (category Cf). A
#: planner reads the text without them, so none ends up inside a title or splits a word a matcher
#: looks for. The zero-width joiner (U+200D) and the tag characters (U+E0020-U+E007F) stay: they
#: build emoji ("👩‍💻", a subdivision flag) and mean something only inside one.
_KEPT_FORMAT = frozenset({"\u200d", *map(chr, range(0xE0020, 0xE0080))})


def without_invisible(text: str) -> str:
    """`text` without the format characters nobody sees (above)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if ch in _KEPT_FORMAT or unicodedata.category(ch) != "Cf")


class PlannerInput(BaseModel):
    """Everything a planner may look at. `clarification` is the user's answer to an
    `intent_unclear` question when re-planning; `message` stays the original request."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message: str
    recent_messages: tuple[RecentMessage, ...] = ()
    latest_actions: tuple[LatestAction, ...] = ()
    now: AwareDatetime
    timezone: str = "UTC"
    language: Language = "en"
    clarification: str | None = None
    #: how far a repetition may reach (`MEMO_RECURRENCE_MAX_YEARS`, `MEMO_RECURRENCE_MAX_COUNT`)
    recurrence_limits: RecurrenceLimits = RecurrenceLimits()

    @field_validator("message", "clarification")
    @classmethod
    def _visible(cls, value: str | None) -> str | None:
        return None if value is None else without_invisible(value)

    @field_validator("timezone")
    @classmethod
    def _iana(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown IANA timezone {value!r}") from exc
        return value

    @field_validator("latest_actions")
    @classmethod
    def _last_three(cls, value: tuple[LatestAction, ...]) -> tuple[LatestAction, ...]:
        return tuple(value[:LATEST_ACTIONS_LIMIT])

    @classmethod
    def for_turn(
        cls,
        state: TurnState,
        *,
        now: datetime,
        recent_messages: tuple[RecentMessage, ...] | list[RecentMessage] = (),
        latest_actions: tuple[LatestAction, ...] | list[LatestAction] = (),
        recurrence_limits: RecurrenceLimits | None = None,
    ) -> PlannerInput:
        """Build the input from the turn state; picks up the re-plan clarification, if any."""
        replan: HITLResultEntry | None = hitl_result_for_replan(state.hitl_results)
        return cls(
            message=state.input.message,
            recent_messages=tuple(recent_messages),
            latest_actions=tuple(latest_actions),
            now=now,
            timezone=state.input.timezone,
            language=state.input.language,
            clarification=replan.raw if replan is not None else None,
            recurrence_limits=recurrence_limits or RecurrenceLimits(),
        )


@dataclass(frozen=True)
class PlannerResult:
    """A plan and the routing hints. `source` says which planner produced it; `fallback_reason`
    is set when the LLM planner failed and the rule planner answered instead."""

    output: PlannerOutput
    routing_suggestions: list[RoutingSuggestion] = field(default_factory=list)
    source: Literal["rules", "llm"] = "rules"
    fallback_reason: str | None = None


class Planner(Protocol):
    def plan(self, inp: PlannerInput) -> PlannerResult: ...


#: Actions that delete one entity / everything of a kind.
DELETE_ACTIONS = frozenset({"delete"})
BULK_DELETE_ACTIONS = frozenset({"delete_all", "clear"})


def enforce_risk_policy(output: PlannerOutput) -> PlannerOutput:
    """Deletes are high risk; bulk deletes are high risk and need approval, whatever a planner said."""
    actions = {step.action for step in output.plan}
    risk = output.risk_level
    approval = output.needs_approval
    if actions & (DELETE_ACTIONS | BULK_DELETE_ACTIONS):
        risk = "high"
    if actions & BULK_DELETE_ACTIONS:
        approval = True
    if risk == output.risk_level and approval == output.needs_approval:
        return output
    return output.model_copy(update={"risk_level": risk, "needs_approval": approval})
