"""What travels through the executor state machine (Step Functions) — trimmed to what steps need.

The webhook's turn starts one execution per turn through an `ExecutionPort`: name = hash of traceId,
input = `ExecutionInput` (built by `memo.executor.tasks`).
The state machine runs `groups` in order and the steps of a group in parallel (Map); each step task
invokes the executor Lambda with a `StepTask` and yields a `StepOutcome` (a Catch turns an error
into a failed outcome); the responder Lambda gets a `ResponderInput` and writes the reply.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal, Protocol

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memo.capabilities.base import ExecutionResult
from memo.text.language import Language

EXECUTION_NAME_PREFIX = "turn-"
#: Step Functions' limit on an execution's input and on every state's input and output.
MAX_EXECUTION_INPUT_BYTES = 256 * 1024
#: The most a step's outcome may weigh as the executor returns it (`memo.executor.results` holds
#: every outcome to it), and the most steps one execution runs: the responder's input is the turn's
#: addressing and every outcome (the state machine puts the outcomes in place of the steps), so
#: 10 x 24 KiB leaves it under the 256 KiB above whatever the steps carried in.
MAX_STEP_OUTCOME_BYTES = 24 * 1024
MAX_EXECUTION_STEPS = 10


def execution_name(trace_id: str) -> str:
    """Step Functions names are <= 80 chars of [A-Za-z0-9-_]: a hash of the traceId fits."""
    return EXECUTION_NAME_PREFIX + hashlib.sha256(trace_id.encode()).hexdigest()[:64]


def args_hash(args: dict[str, Any]) -> str:
    """Stable hash of resolved args (sorted keys, compact JSON): binds an approval to what it saw."""
    canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


class _Wire(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True)


Priority = Literal["low", "normal", "high", "critical"]


class ReviewTicket(BaseModel):
    """Why a step waits for an operator (`memo.operator_review.policy` decides); travels with the
    StepTask (`StepTask.review`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    priority: Priority = "normal"
    timeout_seconds: int = Field(ge=1, le=365 * 24 * 3600)
    # The HITL reason the step was asked under (`tool_requires_review`: a rule of the policy names
    # it; `policy_violation`: it breaks a rule of the request) and who required it ("tool_policy").
    reason: str | None = None
    policy_source: str | None = None


class Approval(_Wire):
    """What an approval saw: the step runs only if its args still hash to `args_hash`, before expiry."""

    hitl_id: str
    args_hash: str
    expires_at: AwareDatetime
    approved_by: str = "user"  # "user" (WhatsApp) or an operator principal (case platform)
    # When the question was asked: it showed the items as they were then. A delete of pinned items
    # leaves alone any item changed after this moment (`ExecutionContext.unchanged_since`).
    asked_at: AwareDatetime | None = None


class StepTask(_Wire):
    trace_id: str
    thread_id: str
    step_id: str
    capability: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict)
    args_hash: str
    approval: Approval | None = None
    timezone: str = "UTC"
    language: Language = "en"
    phone_number_id: str | None = None
    # Set when the review policy sends the step to an operator: the state machine then waits for the
    # operator's decision (a `.waitForTaskToken` task) and runs the approved StepTask it gets back.
    review: ReviewTicket | None = None
    # The titles the approval showed for the items `args` name, by id (`step_task`): the reply
    # names what was deleted. Not part of `args`: never hashed, never in an operator's payload.
    titles: dict[str, str] | None = None


class StepOutcome(_Wire):
    step_id: str
    result: ExecutionResult
    replayed: bool = False  # the ledger already had it: no side effect this time


class ExecutionInput(_Wire):
    trace_id: str
    thread_id: str
    phone_number_id: str
    language: Language = "en"
    timezone: str = "UTC"
    groups: list[list[StepTask]]  # dependency groups, in order; steps of a group run in parallel


class ResponderInput(_Wire):
    trace_id: str
    thread_id: str
    phone_number_id: str
    language: Language = "en"
    timezone: str = "UTC"
    outcomes: list[StepOutcome]


class ExecutionPort(Protocol):
    """Starts the executor state machine for a turn (one execution per traceId)."""

    def start(self, execution: ExecutionInput) -> Any: ...
