"""Memo's control-plane contract types (domain models), in one module.

The planner's output, the one pending HITL question of a thread, the stored HITL results, the
interpreter's decision, and `TurnState`, the frozen state of a paused turn that is persisted with
the pending item and later handed to the executor.

Conventions:
- Python attributes are snake_case; the wire/JSON names are camelCase (`hitlId`,
  `originStepId`, `pendingHITL`, ...). Both are accepted on input (`populate_by_name`), and
  `model_dump()` / `model_dump_json()` write camelCase, so `Model.model_validate(m.model_dump(mode="json"))`
  round-trips (a test proves it for every model).
- Every model is frozen. Update with `model_copy(update=...)` or the `with_*` helpers of
  `TurnState`, which copy the dictionaries they touch instead of mutating shared ones.
- Datetimes are timezone-aware and serialised as ISO 8601.
- Free-form JSON (step constraints, resolver results, executor args) is `dict[str, Any]` and must
  hold JSON values only.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from memo.text.language import Language

# --- literals -------------------------------------------------------------------------------

HITLKind = Literal["clarification", "approval", "disambiguation"]
# "operator": a reviewer of the case platform asks the user (relayed by memo.operator_review.clarify).
HITLSource = Literal["planner", "entity_resolution", "tool_policy", "operator"]
HITLReason = Literal[
    "intent_unclear",
    "missing_fields",
    "low_confidence_plan",
    "high_risk",
    "needs_approval",
    "confirmation",
    "disambiguation",
    "tool_requires_review",
    "ambiguous_scope",
    "policy_violation",
    "operator_question",
]
HITLExpectedInput = Literal["yes_no", "single_choice", "multi_choice", "free_text"]
HITLPolicySource = Literal["risk_engine", "planner", "tool_policy", "entity_policy"]
HITLReturnNode = Literal["planner", "resolver_router", "entity_resolution", "case"]
HITLReturnMode = Literal["replan", "continue", "apply_selection", "provide_clarification"]
InterpreterDecision = Literal["continue", "continue_with_modifications", "switch_intent", "cancel", "re_ask"]
IntentType = Literal["operation", "conversation", "meta"]
RiskLevel = Literal["low", "medium", "high"]
Capability = Literal["reminders", "notes", "lists", "calendar", "email", "general"]
DisambiguationKind = Literal["pick_one", "pick_many", "recurring_scope", "conflict_override"]

PENDING_HITL_VERSION: Literal[1] = 1


class _Contract(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
        frozen=True,
        extra="forbid",
    )


# --- planner ---------------------------------------------------------------------------------


class PlanStep(_Contract):
    """One step of the plan. `constraints` select/describe the target; `changes` are new values."""

    id: str = Field(min_length=1, max_length=64)
    capability: Capability
    action: str = Field(min_length=1, max_length=64)
    constraints: dict[str, Any] = Field(default_factory=dict)
    changes: dict[str, Any] = Field(default_factory=dict)
    depends_on: list[str] = Field(default_factory=list)

    def fingerprint(self) -> str:
        """Stable sha256 of what the step does (capability, action, constraints, changes)."""
        payload = json.dumps(
            {
                "capability": self.capability,
                "action": self.action,
                "constraints": self.constraints,
                "changes": self.changes,
            },
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
            default=str,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


#: The missing field of a note to save whose text was not said ("save this as a note").
NOTE_TEXT_REQUIRED = "note_text_required"
#: The missing field of a list add whose things were not said ("add it to my list", nothing before).
LIST_ITEMS_REQUIRED = "list_items_required"
#: The missing field of a list add that named no list, when the user has no list or several ("add
#: eggs to the list"): which one is asked, and the answer ("the todo list") names it.
LIST_NAME_REQUIRED = "list_name_required"


class PlannerOutput(_Contract):
    intent_type: IntentType
    confidence: float = Field(ge=0.0, le=1.0)
    risk_level: RiskLevel
    needs_approval: bool = False
    missing_fields: list[str] = Field(default_factory=list)
    plan: list[PlanStep] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_step_ids(self) -> PlannerOutput:
        ids = [step.id for step in self.plan]
        if len(ids) != len(set(ids)):
            raise ValueError("plan step ids must be unique")
        known = set(ids)
        for step in self.plan:
            missing = [dep for dep in step.depends_on if dep not in known or dep == step.id]
            if missing:
                raise ValueError(f"step {step.id} depends on unknown steps {missing}")
        return self

    def step(self, step_id: str) -> PlanStep | None:
        return next((s for s in self.plan if s.id == step_id), None)


class RoutingSuggestion(_Contract):
    """A pattern hint ("this looks like a reminder"), used to word clarification questions."""

    capability: Capability
    action: str | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""


class LatestAction(_Contract):
    """One recently executed action (most recent first), for referential follow-ups."""

    model_config = ConfigDict(extra="ignore")

    created_at: AwareDatetime
    capability: Capability
    action: str
    summary: str
    when: AwareDatetime | None = None
    external_ids: dict[str, str | list[str]] | None = None
    #: "<traceId>:<stepId>": the request and step that did it (`memo.reply.memory`)
    operation_id: str | None = None

    @property
    def request(self) -> str:
        """Which request did it: its traceId, else (an entry without one) its time."""
        return self.operation_id.split(":", 1)[0] if self.operation_id else self.created_at.isoformat()


class RecentMessage(_Contract):
    model_config = ConfigDict(extra="ignore")

    role: Literal["user", "assistant"]
    text: str


# --- HITL ------------------------------------------------------------------------------------

_VALID_RETURNS: frozenset[tuple[str, str]] = frozenset(
    {
        ("planner", "replan"),
        ("planner", "continue"),
        ("resolver_router", "continue"),
        ("entity_resolution", "apply_selection"),
        # An operator's question: the answer goes back to the case (provide_clarification).
        ("case", "provide_clarification"),
    }
)


class HITLReturnTo(_Contract):
    node: HITLReturnNode
    mode: HITLReturnMode

    @model_validator(mode="after")
    def _valid_pair(self) -> HITLReturnTo:
        if (self.node, self.mode) not in _VALID_RETURNS:
            raise ValueError(f"invalid returnTo {self.node}/{self.mode}")
        return self


class PendingHITLOption(_Contract):
    """A machine-controlled option. Labels fit a WhatsApp list row title (24 characters)."""

    id: str = Field(min_length=1, max_length=200)
    label: str = Field(min_length=1, max_length=24)
    description: str | None = Field(default=None, max_length=72)


class DisambiguationCandidate(_Contract):
    """A candidate entity. `id` is the entity's real id, chosen by code, never by an LLM."""

    id: str = Field(min_length=1)
    label: str = Field(min_length=1)
    description: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class Disambiguation(_Contract):
    """Machine-only disambiguation context written by entity resolution (no user-facing text)."""

    resolver_step_id: str
    candidates: list[DisambiguationCandidate] = Field(min_length=1)
    allow_multiple: bool = False
    disambiguation_kind: DisambiguationKind = "pick_one"
    original_args: dict[str, Any] = Field(default_factory=dict)


class PendingHITLContext(_Contract):
    """Context of a pending question: disambiguation data, or the approved step's fingerprint.

    `awaiting` is `"edit_details"` after the user chose Edit on an approval and was asked what to
    change (the same hitlId, now a free_text question).
    """

    resolver_step_id: str | None = None
    original_args: dict[str, Any] | None = None
    candidates: list[DisambiguationCandidate] | None = None
    allow_multiple: bool | None = None
    disambiguation_kind: DisambiguationKind | None = None
    missing_fields: list[str] | None = None
    step_fingerprint: str | None = None
    # An operator's question (returnTo case): the case platform case it belongs to. Never a task token.
    case_id: str | None = None
    # "retry": the expiry message's "Try again" offer (its state holds the original request).
    awaiting: Literal["answer", "edit_details", "retry"] = "answer"


class PendingHITL(_Contract):
    """The one pending HITL question of a thread (PendingHITL v1)."""

    version: Literal[1] = PENDING_HITL_VERSION
    hitl_id: str = Field(min_length=1)
    kind: HITLKind
    source: HITLSource
    reason: HITLReason
    origin_step_id: str = Field(min_length=1)
    return_to: HITLReturnTo
    expected_input: HITLExpectedInput
    question: str = Field(min_length=1)
    options: list[PendingHITLOption] | None = None
    policy_source: HITLPolicySource | None = None
    expires_at: AwareDatetime
    context: PendingHITLContext | None = None
    created_at: AwareDatetime

    @model_validator(mode="after")
    def _consistent(self) -> PendingHITL:
        if self.expires_at <= self.created_at:
            raise ValueError("expiresAt must be after createdAt")
        if self.expected_input in ("single_choice", "multi_choice") and not self.options:
            raise ValueError(f"{self.expected_input} needs options")
        if self.options is not None:
            ids = [o.id for o in self.options]
            if len(ids) != len(set(ids)):
                raise ValueError("option ids must be unique")
        return self

    def is_live(self, now: datetime) -> bool:
        """Whether the question can still be answered at `now`: the one rule of HITL expiry.

        DynamoDB's TTL deletes late, so every reader of a pending question asks this."""
        return now < self.expires_at


class InterpreterParsed(_Contract):
    approved: bool | None = None
    answer: str | None = None
    modifications: dict[str, Any] | None = None


class InterpreterOutput(_Contract):
    decision: InterpreterDecision
    parsed: InterpreterParsed | None = None

    @property
    def has_modifications(self) -> bool:
        return bool(self.parsed and self.parsed.modifications)


class HITLResultEntry(_Contract):
    raw: str
    parsed: Any = None
    at: AwareDatetime
    return_to: HITLReturnTo | None = None
    interpreted: InterpreterOutput | None = None


class HITLReply(_Contract):
    """The user's answer: typed text and, for a WhatsApp button/list reply, the reply id;
    `reaction`: a reaction on the question's own message (`memo.turn.events.reaction_answer`), its
    emoji as `text`."""

    text: str = ""
    interactive_id: str | None = None
    reaction: bool = False


# --- turn state ------------------------------------------------------------------------------


class TurnInput(_Contract):
    message: str
    language: Language = "en"
    timezone: str = "UTC"
    whatsapp_message_id: str | None = None


class TurnState(_Contract):
    """The frozen state of one turn, persisted with the pending item and handed to the executor.

    `traceId` is the WhatsApp message id that started the turn and never changes across resumes
    (`model_copy` cannot change it: `with_*` helpers keep it, and `resume` never touches it).
    `threadId` is the user (WhatsApp phone number); mask it before logging.
    `resolverResults`, `executorArgs` and `executionResults` are keyed by plan step id and hold the
    JSON shapes of the resolver / entity resolution / executor; `hitlResults` is keyed by hitlId.
    """

    trace_id: str = Field(min_length=1)
    thread_id: str = Field(min_length=1)
    input: TurnInput
    planner_output: PlannerOutput | None = None
    routing_suggestions: list[RoutingSuggestion] = Field(default_factory=list)
    resolver_results: dict[str, dict[str, Any]] = Field(default_factory=dict)
    executor_args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    disambiguation: Disambiguation | None = None
    pending_hitl: PendingHITL | None = Field(default=None, alias="pendingHITL")
    # The approval question answered "approve" in this turn, kept so the executor can bind it to
    # the resolved args even when a disambiguation question came in between.
    approved_hitl: PendingHITL | None = Field(default=None, alias="approvedHITL")
    hitl_results: dict[str, HITLResultEntry] = Field(default_factory=dict)
    execution_results: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def with_planner_result(
        self, output: PlannerOutput, routing_suggestions: list[RoutingSuggestion]
    ) -> TurnState:
        return self.model_copy(
            update={"planner_output": output, "routing_suggestions": list(routing_suggestions)}
        )

    def with_resolver_result(self, step_id: str, result: dict[str, Any]) -> TurnState:
        return self.model_copy(update={"resolver_results": {**self.resolver_results, step_id: result}})

    def with_executor_args(self, step_id: str, args: dict[str, Any]) -> TurnState:
        return self.model_copy(update={"executor_args": {**self.executor_args, step_id: args}})

    def with_execution_result(self, step_id: str, result: dict[str, Any]) -> TurnState:
        return self.model_copy(update={"execution_results": {**self.execution_results, step_id: result}})

    def with_disambiguation(self, disambiguation: Disambiguation | None) -> TurnState:
        return self.model_copy(update={"disambiguation": disambiguation})

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, raw: str | bytes) -> TurnState:
        return cls.model_validate_json(raw)


def hitl_result_for_replan(results: dict[str, HITLResultEntry]) -> HITLResultEntry | None:
    """The most recent HITL result that returned to the planner to re-plan (intent_unclear)."""
    candidates = [
        entry
        for entry in results.values()
        if entry.return_to is not None
        and entry.return_to.node == "planner"
        and entry.return_to.mode == "replan"
    ]
    if not candidates:
        return None
    # Entries are kept in the order they were answered: of two answered at the same instant, the later.
    return max(enumerate(candidates), key=lambda pair: (pair[1].at, pair[0]))[1]
