"""The case platform's domain model.

- `canonical_json` calls the C encoder directly: the same text as `json.dumps` with the canonical
  options, and the same errors, for any JSON value (hashes and stored JSON must never change).
- `Event.event_json` writes the event key by key: the same text as `canonical_json(event.to_dict())`,
  whatever the event holds, reads back as the same event, and fails with the same errors.
- The frozen dataclasses get a faster `__init__` (one `__dict__.update`): the same parameters,
  defaults and factories as the one `dataclasses` writes, and the objects are the same frozen values
  (equality, hash, repr, `replace`, pickling); a class it cannot reproduce keeps its own.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import math
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform import model
from caseplatform.model import (
    Case,
    CaseRecord,
    CaseState,
    Event,
    NewCase,
    Page,
    Principal,
    Recorded,
    Ref,
    SchemaRecord,
    _direct_init,
    canonical_json,
)

# ---------------------------------------------------------------------------- canonical_json
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@given(_VALUES)
def test_the_text_is_json_dumps_with_the_canonical_options(value: Any) -> None:
    assert canonical_json(value) == _dumps(value)


def _circular() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    return loop


@pytest.mark.parametrize(
    "value",
    [{"x": math.nan}, [math.inf], {"x": {1, 2}}, {1: "a", "b": 2}, _circular()],
    ids=["nan", "infinity", "set", "mixed-keys", "circular"],
)
def test_the_errors_are_json_dumps_errors(value: Any) -> None:
    with pytest.raises(Exception) as expected:  # noqa: PT011 - compared with json's own below
        _dumps(value)
    with pytest.raises(type(expected.value)) as got:
        canonical_json(value)
    assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------------------- Event.event_json
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
_TEXT = st.text()  # quotes, backslashes, control characters, every plane
_MAYBE_TEXT = st.none() | _TEXT
_MAYBE_INT = st.none() | st.integers()

_PRINCIPALS = st.builds(
    Principal,
    name=_TEXT,
    role=_TEXT,
    kind=st.sampled_from(["operator", "agent", "system"]),
    id=_MAYBE_TEXT,
    team=_MAYBE_TEXT,
    assurance=st.none() | st.sampled_from(["jwt", "service", "local-unverified", "system"]),
)
_EVENTS = st.builds(
    Event,
    event_id=_TEXT,
    case_id=_TEXT,
    event_type=st.sampled_from(["submitted", "decision_recorded", "approval_vote", "escalated", "redacted"]),
    notes=_TEXT,
    actor=_PRINCIPALS,
    created_at_ms=st.integers(),
    state_after=st.sampled_from(["pending", "changes_requested", "approved", "rejected"]),
    decision_outcome=st.none() | st.sampled_from(["approved", "rejected"]),
    question=_MAYBE_TEXT,
    answer=_MAYBE_TEXT,
    supersedes_event_id=_MAYBE_TEXT,
    request_id=_MAYBE_TEXT,
    request_hash=_MAYBE_TEXT,
    escalation_due_at_ms=_MAYBE_INT,
    escalation_target=_MAYBE_TEXT,
    approved_payload=st.none() | st.dictionaries(st.text(max_size=6), _JSON, max_size=3),
    decision=st.none() | st.sampled_from(["approve", "edit", "reject", "respond"]),
    feedback=_MAYBE_TEXT,
    answers=_JSON,
    revised_payload=st.none() | st.dictionaries(st.text(max_size=6), _JSON, max_size=3),
    redacted_fields=st.none() | st.lists(_TEXT, max_size=3).map(tuple),
    payload_hash_after=_MAYBE_TEXT,
)


@given(_EVENTS)
def test_the_text_is_the_canonical_json_of_the_event(event: Event) -> None:
    assert event.event_json == canonical_json(event.to_dict())


@given(_EVENTS)
def test_the_text_reads_back_as_the_same_event(event: Event) -> None:
    assert Event.from_json(event.event_json).to_dict() == event.to_dict()


def _event(**fields: Any) -> Event:
    return Event(
        **{
            "event_id": "HEV-1",
            "case_id": "HITL-1",
            "event_type": "decision_recorded",
            "notes": 'a "quoted" \\ note\n',
            "actor": Principal("דנה", "engineer", "operator", "op:dana"),
            "created_at_ms": 1_700_000_000_000,
            "state_after": "approved",
            **fields,
        }
    )


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"decision": "approve", "decision_outcome": "approved", "request_id": "d-1", "request_hash": "ab"},
        {"approved_payload": {"z": 1, "a": [True, None, 2.5]}, "decision": "edit", "feedback": "ok"},
        {"answers": [], "feedback": ""},
        {"answers": {"ש": "כן"}, "question": "why?", "answer": "because"},
        {"notes": "\ud800 lone surrogate", "feedback": "\x00\u2028"},
        # Values of other types than the fields declare are still written as canonical_json does.
        {"created_at_ms": True, "escalation_due_at_ms": 2.5, "notes": None},
    ],
    ids=["plain", "decision", "edit", "empty-answers", "hebrew", "surrogate", "odd-types"],
)
def test_event_json_examples(fields: dict[str, Any]) -> None:
    event = _event(**fields)
    assert event.event_json == canonical_json(event.to_dict())


@pytest.mark.parametrize(
    "fields",
    [{"answers": {"x": math.nan}}, {"approved_payload": {"x": {1, 2}}}, {"created_at_ms": 10**5000}],
    ids=["nan", "set", "huge-int"],
)
def test_the_errors_are_canonical_json_errors(fields: dict[str, Any]) -> None:
    event = _event(**fields)
    with pytest.raises(Exception) as expected:  # noqa: PT011 - compared with canonical_json's own below
        canonical_json(event.to_dict())
    with pytest.raises(type(expected.value)) as got:
        _ = event.event_json
    assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------------------- the direct __init__
_MODEL = [Principal, Ref, Case, Event, CaseState, CaseRecord, SchemaRecord, Page, Recorded, NewCase]


def _reference(cls: type) -> Any:
    """The class as `dataclass(frozen=True)` alone makes it (its own `__init__`)."""
    namespace = {"__annotations__": dict(cls.__annotations__), "__module__": cls.__module__}
    for f in dataclasses.fields(cls):
        options: dict[str, Any] = {"compare": f.compare, "repr": f.repr, "hash": f.hash}
        if f.default is not dataclasses.MISSING:
            options["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            options["default_factory"] = f.default_factory
        namespace[f.name] = field(**options)
    return dataclass(frozen=True)(type(cls.__name__, (), namespace))


def _values(cls: type) -> dict[str, Any]:
    return {f.name: f"value-of-{f.name}" for f in dataclasses.fields(cls)}


def test_every_model_class_has_the_direct_init() -> None:
    for cls in _MODEL:
        assert vars(cls)["__init__"].__code__.co_filename == f"<{cls.__name__}.__init__>", cls


@pytest.mark.parametrize("cls", _MODEL, ids=lambda cls: cls.__name__)
def test_the_parameters_and_defaults_are_the_dataclass_ones(cls: type) -> None:
    ours = inspect.signature(cls).parameters
    theirs = inspect.signature(_reference(cls)).parameters
    assert list(ours) == list(theirs)
    for name, parameter in ours.items():
        assert parameter.kind == theirs[name].kind
        if theirs[name].default is inspect.Parameter.empty:
            assert parameter.default is inspect.Parameter.empty
        elif dataclasses.fields(cls)[list(ours).index(name)].default_factory is dataclasses.MISSING:
            assert parameter.default is theirs[name].default


@pytest.mark.parametrize("cls", _MODEL, ids=lambda cls: cls.__name__)
def test_the_object_is_the_dataclass_one(cls: type) -> None:
    values = _values(cls)
    ours, theirs = cls(**values), _reference(cls)(**values)
    positional = cls(*values.values())
    for name, value in values.items():
        assert getattr(ours, name) == getattr(positional, name) == getattr(theirs, name) == value
    assert ours == positional
    assert repr(ours).removeprefix(cls.__name__) == repr(theirs).removeprefix(cls.__name__)
    assert vars(ours) == vars(theirs)
    hashable = [f.name for f in dataclasses.fields(cls) if f.compare]
    assert hash(ours) == hash(cls(**values)) == hash(tuple(values[name] for name in hashable))


@pytest.mark.parametrize("cls", _MODEL, ids=lambda cls: cls.__name__)
def test_it_stays_frozen_and_copyable(cls: type) -> None:
    made = cls(**_values(cls))
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(FrozenInstanceError):
        setattr(made, name, "changed")
    changed = dataclasses.replace(made, **{name: "changed"})
    assert getattr(changed, name) == "changed"
    assert getattr(made, name) == f"value-of-{name}"
    assert pickle.loads(pickle.dumps(made)) == made  # noqa: S301 - our own object
    assert copy.deepcopy(made) == made


def test_defaults_and_factories() -> None:
    state = CaseState("HITL-1", "pending", 5)
    assert (state.active_terminal_event_id, state.escalation_target) == (None, None)
    principal = Principal("Dana", "engineer")
    assert (principal.kind, principal.id, principal.assurance) == ("agent", None, None)
    first = NewCase(None, None, None)  # type: ignore[arg-type]
    second = NewCase(None, None, None)  # type: ignore[arg-type]
    assert first.refs == () and second.refs == ()
    recorded = Recorded(first)  # type: ignore[arg-type]
    assert (recorded.replayed, recorded.case, recorded.votes) == (False, None, None)


def test_wrong_calls_fail_as_before() -> None:
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'updated_at_ms'"):
        CaseState("HITL-1", "pending")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Principal("Dana", "engineer", colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'name'"):
        Principal("Dana", "engineer", name="Dana")  # type: ignore[misc]
    with pytest.raises(TypeError, match="takes from 3 to 7 positional arguments"):
        Principal("a", "b", "agent", None, None, None, "extra")  # type: ignore[call-arg]


def test_a_default_factory_is_called_for_each_object() -> None:
    @_direct_init
    @dataclass(frozen=True)
    class Bag:
        items: list[int] = field(default_factory=list)

    first, second = Bag(), Bag()
    assert first.items == [] and first.items is not second.items
    assert Bag([1]).items == [1]


def test_a_class_it_cannot_reproduce_keeps_its_own_init() -> None:
    @dataclass(frozen=True)
    class WithPostInit:
        x: int

        def __post_init__(self) -> None:
            object.__setattr__(self, "x", self.x + 1)

    @dataclass(frozen=True)
    class KeywordOnly:
        x: int = field(kw_only=True)

    @dataclass(frozen=True)
    class WithInitVar:
        x: int
        y: dataclasses.InitVar[int]

    @dataclass(frozen=True)
    class NotInInit:
        x: int
        y: int = field(init=False, default=3)

    for cls in (WithPostInit, KeywordOnly, WithInitVar, NotInInit):
        own = vars(cls)["__init__"]
        assert _direct_init(cls) is cls and vars(cls)["__init__"] is own
    assert WithPostInit(1).x == 2
    assert NotInInit(1).y == 3


def test_the_event_json_cache_still_works() -> None:
    event = Event("HEV-1", "HITL-1", "submitted", "", Principal("a", "b"), 1, "pending")
    assert event.event_json is event.event_json
    assert model.canonical_json(event.to_dict()) == event.event_json
