"""`Event.event_json` writes the event key by key: the same text as `canonical_json(event.to_dict())`,
whatever the event holds (stored events, and the text of events stored before, must never change),
and the same errors."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.model import Event, Principal, canonical_json

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
    event_type=st.sampled_from(["submitted", "decision_recorded", "approval_vote", "escalated"]),
    notes=_TEXT,
    actor=_PRINCIPALS,
    created_at_ms=st.integers(),
    state_after=st.sampled_from(["pending", "approved", "rejected"]),
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
def test_examples(fields: dict[str, Any]) -> None:
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
