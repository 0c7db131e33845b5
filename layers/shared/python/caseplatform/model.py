"""Domain model: the case envelope, events, the state projection, refs and adapter schemas.

Times are epoch milliseconds UTC (`int`). Storage rows/items and wire (MCP) shapes are converted
from and to these types explicitly, in the stores and in `answers`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any, Generic, Literal, TypeVar, get_args

# `changes_requested`: a reviewer's edit without a payload sent the case back to its submitter, who
# revises it (`resubmitted`, back to `pending`).
CaseStateName = Literal["pending", "needs_clarification", "changes_requested", "approved", "rejected"]
EventType = Literal[
    "submitted",
    "needs_clarification",
    "clarification_provided",
    "decision_recorded",
    "decision_superseded",
    "escalated",
    "approval_vote",
    "changes_requested",
    "resubmitted",
    "feedback_added",
    "redacted",
]
Decision = Literal["approved", "rejected"]
# The reviewer's structured decision (the decision schema `{decision, feedback, answers}`): approve
# as submitted, edit (approve an edited payload), reject, or respond (send feedback/answers back to
# the submitter without approving what it asked for: the case ends `rejected`, nothing runs).
StructuredDecision = Literal["approve", "edit", "reject", "respond"]
# How far the identity of an event's actor was verified: a JWT checked by API Gateway or by the
# review Lambda (`jwt`); an in-stack Lambda authenticated by its IAM role (`service`); configured on a
# local stdio/CLI process or asserted by an in-process caller, not verified (`local-unverified`, the
# default); the platform itself (`system`).
Assurance = Literal["jwt", "service", "local-unverified", "system"]
ASSURANCES: tuple[str, ...] = get_args(Assurance)
DEFAULT_ASSURANCE: Assurance = "local-unverified"
Priority = Literal["low", "normal", "high", "critical"]
Confidence = Literal["high", "medium", "low"]
ActorKind = Literal["operator", "agent", "system"]
Action = Literal[
    "submit_case",
    "request_clarification",
    "provide_clarification",
    "record_decision",
    "record_approval_vote",
    "escalate",
    "request_changes",
    "resubmit",
    "add_feedback",
    "redact",
]

TERMINAL_STATES: frozenset[str] = frozenset({"approved", "rejected"})
# The states a reviewer acts on (the review queue); `changes_requested` waits on the submitter.
OPEN_STATES: tuple[str, ...] = ("pending", "needs_clarification")
CASE_STATES: tuple[str, ...] = get_args(CaseStateName)
PRIORITIES: tuple[str, ...] = get_args(Priority)
STRUCTURED_DECISIONS: tuple[str, ...] = get_args(StructuredDecision)
PRIORITY_RANK: dict[str, int] = {"critical": 0, "high": 1, "normal": 2, "low": 3}

T = TypeVar("T")


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# The C encoder `JSONEncoder.encode` ends up calling, with the same arguments (a fresh circular-reference
# registry per call, as there); None when the interpreter has no `_json` accelerator.
_C_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)


def canonical_json(value: Any) -> str:
    """The one serialization used for hashes, payload_json and event_json: sorted keys, no spaces
    (one encoder, built once: `json.dumps` with these options builds a new one per call). The C
    encoder is called directly (the same text and errors as `_CANONICAL.encode`, without its
    Python-level steps: a few microseconds on each of the six encodings of a submit+decide cycle)."""
    if _C_ENCODER is None:
        return _CANONICAL.encode(value)
    encode = _C_ENCODER(
        {},
        _CANONICAL.default,
        json.encoder.encode_basestring,
        None,
        ":",
        ",",
        True,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
    return "".join(encode(value, 0))


def _json_value(value: Any) -> str:
    """`canonical_json(value)`, with the scalars of an event written directly (same text)."""
    if value is None:
        return "null"
    kind = type(value)
    if kind is str:
        return _ENCODE_STRING(value)
    if kind is int:
        return int.__repr__(value)
    return canonical_json(value)


_ENCODE_STRING: Any = json.encoder.encode_basestring  # what canonical_json encodes a str with


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_Class = TypeVar("_Class", bound=type)
_NO_VALUE: Any = object()  # a field with a default factory was not given


def _direct_init(cls: _Class) -> _Class:
    """A frozen dataclass's `__init__`, storing the fields in one `__dict__.update`.

    The one `@dataclass(frozen=True)` writes calls `object.__setattr__` once per field (its own
    `__setattr__` refuses). That is about five times slower than a plain assignment, and the model is
    built on every command (two events, two envelopes, three projections, four principals per
    submit+decide cycle: about 14 microseconds of `make bench`'s ~500). The new `__init__` has the
    same parameters, in the same order, with the same defaults and default factories; everything
    else (frozen `__setattr__`, eq, hash, repr, `replace`) stays dataclasses' own. A class with
    anything else in its `__init__` (`__post_init__`, InitVar, keyword-only or init=False fields)
    keeps the generated one.
    """
    fields = dataclasses.fields(cls)
    generated: Any = vars(cls)["__init__"]
    parameters = list(inspect.signature(generated).parameters.values())[1:]
    if (
        hasattr(cls, "__post_init__")
        or [p.name for p in parameters] != [f.name for f in fields]
        or any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters)
    ):
        return cls
    names: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    signature, lines = [], []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            signature.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            signature.append(f"{f.name}=_NO_VALUE")
            lines.append(f"if {f.name} is _NO_VALUE: {f.name} = _factory_{f.name}()")
        else:
            signature.append(f.name)
    lines.append(f"self.__dict__.update({', '.join(f'{f.name}={f.name}' for f in fields)})")
    source = f"def __init__(self, {', '.join(signature)}):\n" + "".join(f"    {line}\n" for line in lines)
    exec(compile(source, f"<{cls.__name__}.__init__>", "exec"), names)  # noqa: S102 - source built from the class's own field names
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = dict(generated.__annotations__)
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning to a method
    return cls


@_direct_init
@dataclass(frozen=True)
class Principal:
    """Who submitted a case or acted on it. `id` is the authoritative principal id when known;
    `name` and `role` are display fields supplied by the caller (identity assurance: caller-asserted)."""

    name: str
    role: str
    kind: ActorKind = "agent"
    id: str | None = None
    team: str | None = None
    # Set by the surface that authenticated the actor, never by the caller; absent on records written
    # before assurance was recorded (so their canonical JSON is unchanged).
    assurance: Assurance | None = None

    @property
    def principal(self) -> str:
        """The key audit queries filter on: the id when present, else the display name."""
        return self.id if self.id else self.name

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "role": self.role,
            "id": self.id,
            "team": self.team,
        }
        if self.assurance is not None:
            data["assurance"] = self.assurance
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Principal:
        return cls(
            kind=data["kind"],
            name=data["name"],
            role=data["role"],
            id=data.get("id"),
            team=data.get("team"),
            assurance=data.get("assurance"),
        )


@_direct_init
@dataclass(frozen=True)
class Ref:
    ref_type: str
    ref_key: str
    ref_value: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@_direct_init
@dataclass(frozen=True)
class Case:
    """The immutable envelope: written once at submission, never updated."""

    case_id: str
    schema_version: int
    adapter_id: str
    case_type: str
    title: str
    summary: str
    payload: dict[str, Any]
    payload_hash_sha256: str
    submitter: Principal
    priority: Priority
    confidence: Confidence | None
    created_at_ms: int
    updated_at_ms: int

    @cached_property
    def payload_json(self) -> str:
        """Serialized once per envelope (the envelope never changes)."""
        return canonical_json(self.payload)


@_direct_init
@dataclass(frozen=True)
class Event:
    """One append-only event. `state_after` and `request_hash` make a retry answerable from the event
    alone; `escalation_*` carry the SLA decision so the projection is a pure fold over events."""

    event_id: str
    case_id: str
    event_type: EventType
    notes: str
    actor: Principal
    created_at_ms: int
    state_after: CaseStateName
    decision_outcome: Decision | None = None
    question: str | None = None
    answer: str | None = None
    supersedes_event_id: str | None = None
    request_id: str | None = None
    request_hash: str | None = None
    escalation_due_at_ms: int | None = None
    escalation_target: str | None = None
    # An approval (vote or decision) with reviewer edits: the payload as approved. Absent otherwise,
    # so events without edits serialize exactly as before.
    approved_payload: dict[str, Any] | None = None
    # The structured decision of a `decision_recorded` / `approval_vote` event (approve, edit, reject,
    # respond), the reviewer's feedback and answers. Absent on events written without them.
    decision: StructuredDecision | None = None
    feedback: str | None = None
    answers: Any = None
    # A `resubmitted` event: the submitter's revised payload (absent on every other event).
    revised_payload: dict[str, Any] | None = None
    # A `redacted` event: the payload fields it blanked and the payload's hash after (the envelope's
    # `payload_hash_sha256` stays the hash of the payload as submitted).
    redacted_fields: tuple[str, ...] | None = None
    payload_hash_after: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = self._base_dict()
        if self.approved_payload is not None:
            data["approved_payload"] = self.approved_payload
        if self.revised_payload is not None:
            data["revised_payload"] = self.revised_payload
        if self.decision is not None:
            data["decision"] = self.decision
        if self.feedback is not None:
            data["feedback"] = self.feedback
        if self.answers is not None:
            data["answers"] = self.answers
        if self.redacted_fields is not None:
            data["redacted_fields"] = list(self.redacted_fields)
        if self.payload_hash_after is not None:
            data["payload_hash_after"] = self.payload_hash_after
        return data

    def _base_dict(self) -> dict[str, Any]:
        return {
            "event_id": self.event_id,
            "case_id": self.case_id,
            "event_type": self.event_type,
            "decision_outcome": self.decision_outcome,
            "notes": self.notes,
            "question": self.question,
            "answer": self.answer,
            "actor": self.actor.to_dict(),
            "supersedes_event_id": self.supersedes_event_id,
            "request_id": self.request_id,
            "request_hash": self.request_hash,
            "state_after": self.state_after,
            "escalation_due_at_ms": self.escalation_due_at_ms,
            "escalation_target": self.escalation_target,
            "created_at_ms": self.created_at_ms,
        }

    @cached_property
    def event_json(self) -> str:
        """Serialized once per event (events never change): `canonical_json(self.to_dict())`, written
        key by key in sorted order (the same text in about half the time; two per command)."""
        j = _json_value
        actor = self.actor
        return (
            ('{"actor":{' if actor.assurance is None else '{"actor":{"assurance":' + j(actor.assurance) + ",")
            + f'"id":{j(actor.id)},"kind":{j(actor.kind)},"name":{j(actor.name)},"role":{j(actor.role)}'
            + f',"team":{j(actor.team)}}},"answer":{j(self.answer)}'
            + ("" if self.answers is None else f',"answers":{j(self.answers)}')
            + ("" if self.approved_payload is None else f',"approved_payload":{j(self.approved_payload)}')
            + f',"case_id":{j(self.case_id)},"created_at_ms":{j(self.created_at_ms)}'
            + ("" if self.decision is None else f',"decision":{j(self.decision)}')
            + f',"decision_outcome":{j(self.decision_outcome)}'
            + f',"escalation_due_at_ms":{j(self.escalation_due_at_ms)}'
            + f',"escalation_target":{j(self.escalation_target)}'
            + f',"event_id":{j(self.event_id)},"event_type":{j(self.event_type)}'
            + ("" if self.feedback is None else f',"feedback":{j(self.feedback)}')
            + f',"notes":{j(self.notes)}'
            + (
                ""
                if self.payload_hash_after is None
                else f',"payload_hash_after":{j(self.payload_hash_after)}'
            )
            + f',"question":{j(self.question)}'
            + ("" if self.redacted_fields is None else f',"redacted_fields":{j(list(self.redacted_fields))}')
            + f',"request_hash":{j(self.request_hash)},"request_id":{j(self.request_id)}'
            + ("" if self.revised_payload is None else f',"revised_payload":{j(self.revised_payload)}')
            + f',"state_after":{j(self.state_after)},"supersedes_event_id":{j(self.supersedes_event_id)}}}'
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        actor = data["actor"]
        return cls(
            event_id=data["event_id"],
            case_id=data["case_id"],
            event_type=data["event_type"],
            decision_outcome=data.get("decision_outcome"),
            notes=data["notes"],
            question=data.get("question"),
            answer=data.get("answer"),
            actor=Principal.from_dict(actor),
            supersedes_event_id=data.get("supersedes_event_id"),
            request_id=data.get("request_id"),
            request_hash=data.get("request_hash"),
            state_after=data["state_after"],
            escalation_due_at_ms=data.get("escalation_due_at_ms"),
            escalation_target=data.get("escalation_target"),
            created_at_ms=int(data["created_at_ms"]),
            approved_payload=data.get("approved_payload"),
            decision=data.get("decision"),
            feedback=data.get("feedback"),
            answers=data.get("answers"),
            revised_payload=data.get("revised_payload"),
            redacted_fields=None if data.get("redacted_fields") is None else tuple(data["redacted_fields"]),
            payload_hash_after=data.get("payload_hash_after"),
        )

    @classmethod
    def from_json(cls, text: str) -> Event:
        return cls.from_dict(json.loads(text))


@_direct_init
@dataclass(frozen=True)
class CaseState:
    """The queue projection of one case (`hitl_state`), always equal to the fold of its events."""

    case_id: str
    current_state: CaseStateName
    updated_at_ms: int
    active_terminal_event_id: str | None = None
    active_decision_outcome: Decision | None = None
    needs_clarification_since_ms: int | None = None
    escalation_due_at_ms: int | None = None
    escalated_at_ms: int | None = None
    escalation_target: str | None = None
    # How many times the submitter revised the case after changes were requested (the latest
    # `resubmitted` event's payload is the one a reviewer decides on).
    resubmissions: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = self._base_dict()
        if self.resubmissions:
            data["resubmissions"] = self.resubmissions
        return data

    def _base_dict(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "current_state": self.current_state,
            "updated_at_ms": self.updated_at_ms,
            "active_terminal_event_id": self.active_terminal_event_id,
            "active_decision_outcome": self.active_decision_outcome,
            "needs_clarification_since_ms": self.needs_clarification_since_ms,
            "escalation_due_at_ms": self.escalation_due_at_ms,
            "escalated_at_ms": self.escalated_at_ms,
            "escalation_target": self.escalation_target,
        }


@_direct_init
@dataclass(frozen=True)
class CaseRecord:
    """A case with its projection: what queue queries return."""

    case: Case
    state: CaseState
    # What the store read (DynamoDB: the CASE item, with its version), so a write later in the same
    # request can start from this read; the write stays conditioned on the case being unchanged.
    # Not part of the record's value.
    revision: Any = field(default=None, compare=False, repr=False)


@_direct_init
@dataclass(frozen=True)
class SchemaRecord:
    adapter_id: str
    schema_version: int
    schema: dict[str, Any]
    is_active: bool
    updated_at_ms: int

    @property
    def schema_json(self) -> str:
        return canonical_json(self.schema)


@_direct_init
@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    next_cursor: str | None = None


@_direct_init
@dataclass(frozen=True)
class Recorded:
    """What a store returns for a mutating call: the event written now, or the earlier event of the
    same request_id (`replayed`), whose request_hash the service compares."""

    event: Event
    replayed: bool = False
    # On a replay, what the store read with the earlier event (None when it did not): the case
    # envelope and the case's approval votes, so the answer needs no further read.
    case: Case | None = field(default=None, compare=False)
    votes: tuple[Event, ...] | None = field(default=None, compare=False)


@_direct_init
@dataclass(frozen=True)
class NewCase:
    case: Case
    event: Event
    state: CaseState
    refs: tuple[Ref, ...] = field(default_factory=tuple)
