"""What a turn is about and what it decided, as data: the decisions return it, the recorder applies it.

A turn's decisions (`memo.turn.control` and the modules it calls) read the thread as loaded and
the user's items through read-only ports, and write nothing. They return one `TurnOutcome`: the reply,
how the turn is remembered, the pending question's change (stored by the turn's one conditional
write), the execution to start and the review wait to keep once that write landed, and — for the
two answers that depend on another system's answer (a case's clarification, a withdrawal) — the
call to make and the outcome for each of its results. `memo.turn.recorder` applies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict

from memo.conversation.model import MemoryKind, ThreadSnapshot, UserProfile
from memo.conversation.pace import Pace, PaceLimits
from memo.conversation.pending import PendingChange
from memo.executor.contracts import ExecutionInput
from memo.ingress.inbound import InboundMessage
from memo.operator_review.waits import ReviewWait
from memo.replies import Reply


@dataclass(frozen=True)
class TurnContext:
    """What the turn's decisions see: the message, who sent it, and the thread as loaded."""

    message: InboundMessage
    trace_id: str
    profile: UserProfile
    snapshot: ThreadSnapshot
    now: datetime
    #: the sender's pace after this message, kept on the message the turn writes (`memo.conversation.pace`)
    pace: Pace | None = None

    @property
    def local_now(self) -> datetime:
        return self.now.astimezone(_zone(self.profile.timezone))


class CaseAnswer(BaseModel):
    """The user's answer to an operator's question, to record on its case (idempotent per question:
    `request_id`); its result ("passed_on", "too_late", "conflict") picks the turn's outcome."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    answer: str
    request_id: str
    requester_ref: str


class Withdrawal(BaseModel):
    """The newest request waiting for an operator, to withdraw (idempotent per step); its result
    ("withdrawn", "already_decided", "not_submitted_yet") picks the turn's outcome."""

    model_config = ConfigDict(frozen=True)

    thread_id: str
    wait: ReviewWait


class Settlement(BaseModel):
    """A call to another system whose answer picks what the turn says and records. It is made by
    the recorder before the turn's write, so a failed call leaves the turn to its redelivery."""

    call: CaseAnswer | Withdrawal
    outcomes: dict[str, TurnOutcome]


class TurnOutcome(BaseModel):
    """What the turn decided: the reply, how it is remembered, and what the recorder writes and issues."""

    reply: Reply | None  # None: nothing to say (a lost race must not send a second answer)
    outcome: str
    reply_kind: MemoryKind = "message"
    #: with `reply_kind` "reminder": the reminder the reply is about ("How much later?")
    reply_reminder_id: str | None = None
    user_kind: MemoryKind = "message"
    # The pending question's change, committed with the turn's memory (`ConversationStore.record_turn`).
    pending_change: PendingChange | None = None
    # The plan to run, started once that write is done (one execution per traceId).
    start: ExecutionInput | None = None
    # The plan's steps that wait for an operator, remembered once that write is done (so "cancel"
    # can withdraw them); a redelivered message keeps it again from its stored start.
    review_wait: ReviewWait | None = None
    # A call whose answer picks the outcome (see `Settlement`); None for every other turn.
    settle: Settlement | None = None

    def without_writes(self) -> TurnOutcome:
        """The outcome with nothing left to write or issue but its memory and its reply."""
        return self.model_copy(
            update={"pending_change": None, "start": None, "review_wait": None, "settle": None}
        )


Settlement.model_rebuild()


class TurnHandler(Protocol):
    """Decides one actionable turn: what to answer (or nothing) and how to remember it."""

    def handle(self, ctx: TurnContext) -> TurnOutcome: ...

    def zone_changed(self, ctx: TurnContext, previous: str) -> TurnOutcome:
        """What to say when the message set the user's timezone (the profile in `ctx` has the new
        one, `previous` is the one it replaces)."""
        ...

    def lost_race(self, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
        """What to answer instead of `outcome` when its pending change lost its condition (the
        question changed under the turn); the answer changes no pending question."""
        ...


class TurnResult(BaseModel):
    trace_id: str
    thread_id: str
    outcome: str
    reply_text: str
    sent: bool


@dataclass(frozen=True)
class EngineConfig:
    default_timezone: str
    memory_ttl_seconds: int
    recent_messages_limit: int
    #: how many of one sender's messages are turned (`MEMO_RATE_BURST`, `MEMO_RATE_PER_MINUTE`)
    pace: PaceLimits = field(default_factory=PaceLimits)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")
