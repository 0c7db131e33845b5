"""Conversation domain: the thread's profile, recent messages and what a turn loads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from memo.conversation.pace import Pace
from memo.text.language import Language

MemoryKind = Literal["message", "hitl_question", "hitl_reply", "reminder"]


class UserProfile(BaseModel):
    thread_id: str
    language: Language = "en"
    timezone: str = "UTC"
    #: where `timezone` came from: the deployment's default, the phone number's country, or the user
    #: ("my timezone is London"); only the user's own choice is never replaced.
    timezone_source: Literal["default", "phone", "user"] = "default"
    wa_id: str | None = None
    user_id: str | None = None
    name: str | None = None
    created_at: datetime


class MemoryMessage(BaseModel):
    role: Literal["user", "assistant"]
    text: str
    at: datetime
    kind: MemoryKind = "message"
    wamid: str | None = None
    # A user message that started a plan holds its traceId (`started`); the responder's reply to
    # that plan holds it too (`finished`): between the two, the plan is still running.
    started: str | None = None
    finished: str | None = None
    # A delivered reminder, or Memo's "How much later?" about one (kind "reminder"): which one, so
    # "done" / "snooze 15 min" typed right after it is about it (`memo.reminders.buttons.typed_button`).
    reminder_id: str | None = None
    # A user message Memo turned: its sender's pace after it (`memo.conversation.pace`), kept on the
    # message the turn writes anyway, read back with the thread.
    pace: Pace | None = None


# How long a started plan without its reply is taken to be still running: longer than a plan's
# steps take (Step Functions retries included), far shorter than an operator's review.
PLAN_IN_FLIGHT = timedelta(minutes=2)


def question_set_aside(recent: Sequence[MemoryMessage]) -> bool:
    """Whether the person's last message was a new request sent instead of answering Memo's open
    question: remembered as an answer (`hitl_reply`) that started a plan of its own (its traceId is
    its own message id; an answer that approves starts the question's plan, under the question's
    traceId). A "yes" now has no question to answer, and the one it may mean was closed undone."""
    last = next((m for m in reversed(recent) if m.role == "user"), None)
    return (
        last is not None
        and last.kind == "hitl_reply"
        and last.started is not None
        and last.started == last.wamid
    )


def plan_in_flight(
    recent: Sequence[MemoryMessage], latest_actions: Sequence[Mapping[str, Any]], *, now: datetime
) -> str | None:
    """The traceId of a plan a recent request started that is still running: no reply of the
    responder for it, no latest action of it, and started less than `PLAN_IN_FLIGHT` ago. "Delete
    it" sent then may mean the item that plan is making, not the one before it. (Messages of one
    instant have no order, so every recent request is looked at, not only the last one.)"""
    finished = {m.finished for m in recent if m.finished}
    done = {str(entry.get("operationId", "")).split(":", 1)[0] for entry in latest_actions}
    for message in reversed(recent):
        trace_id = message.started
        if message.role != "user" or trace_id is None or now - message.at > PLAN_IN_FLIGHT:
            continue
        if trace_id not in finished and trace_id not in done:
            return trace_id
    return None


# What `ConversationStore.record_turn` did: wrote the turn, found it written by an earlier run of
# the same message, lost the condition of the pending question's change, or found an item the
# answered question showed changed (the last three write nothing).
TurnRecorded = Literal["recorded", "already_recorded", "pending_conflict"]


class ThreadSnapshot(BaseModel):
    """Everything a turn needs about its thread, loaded with one consistent query."""

    thread_id: str
    profile: UserProfile | None = None
    recent: list[MemoryMessage] = Field(default_factory=list)  # oldest first
    pending: dict[str, Any] | None = None  # the pendingHITL item as loaded (its `state`, `ttl`), if any
    latest_actions: list[dict[str, Any]] = Field(default_factory=list)  # most recent first

    @property
    def pace(self) -> Pace | None:
        """The sender's pace as their latest turned message left it: of the paces the loaded messages
        keep, the furthest (a pace only moves on, and a run's notice keeps the instant of the message
        before it); None when none keeps one: a pace at rest."""
        kept = [m.pace for m in self.recent if m.role == "user" and m.pace is not None]
        return max(kept, key=lambda p: (p.full_at, p.warned), default=None)
