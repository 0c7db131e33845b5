"""The DynamoDB table layout without DynamoDB: items map back to the records they were made from,
keys sort by time, and a cursor names the key a page starts after."""

from __future__ import annotations

from dataclasses import replace

import pytest

from caseplatform.errors import InvalidCursor
from caseplatform.model import Case, CaseState, Event, Principal, Ref, SchemaRecord
from caseplatform.stores import cursor as cursors
from caseplatform.stores import dynamodb_items as layout
from tests.unit.caseplatform.factories import DAY_MS, T0, lgv_payload

AGENT = Principal(name="lgv-chatbot", role="agent", kind="agent", id="agent:lgv", team="bots")
CASE = Case(
    case_id="HITL-1",
    schema_version=2,
    adapter_id="lgv_troubleshooting",
    case_type="incident",
    title="LGV-07 navigation fault",
    summary="Reload the reflector map",
    payload=lgv_payload(),
    payload_hash_sha256="abc",
    submitter=AGENT,
    priority="high",
    confidence="low",
    created_at_ms=T0,
    updated_at_ms=T0,
)
ASKED = CaseState(
    case_id="HITL-1",
    current_state="needs_clarification",
    updated_at_ms=T0 + 5,
    needs_clarification_since_ms=T0 + 5,
    escalation_due_at_ms=T0 + 2 * DAY_MS,
)


def test_a_case_item_reads_back_as_its_case_and_projection() -> None:
    item = layout.case_item(CASE, ASKED, version=3, event_count=2, open_question="Which map?")

    record = layout.record_from_item(item, revision=item)

    assert (record.case, record.state, record.revision) == (CASE, ASKED, item)
    assert (item["version"], item["event_count"], item["open_question"]) == (3, 2, "Which map?")


def test_a_case_is_in_the_escalation_index_only_while_an_escalation_is_due() -> None:
    due = layout.case_item(CASE, ASKED, version=1, event_count=1, open_question=None)
    settled = layout.case_item(
        CASE, replace(ASKED, escalation_due_at_ms=None), version=1, event_count=1, open_question=None
    )

    assert due["gsi4sk"] == f"{layout.ts(T0 + 2 * DAY_MS)}#HITL-1"
    assert "gsi4pk" not in settled


def test_time_keys_sort_as_the_times_do() -> None:
    assert layout.ts(999) < layout.ts(1000) < layout.ts(T0)
    assert layout.ts(-5) == layout.ts(0)


def test_a_schema_item_and_its_active_pointer_read_back_as_the_record() -> None:
    record = SchemaRecord("lgv_troubleshooting", 2, {"type": "object"}, is_active=False, updated_at_ms=T0)
    item = layout.schema_item(record)

    pointer = layout.active_item(item, T0 + 1)

    assert layout.schema_from_item(item) == record
    assert layout.schema_from_item(pointer) == replace(record, is_active=True, updated_at_ms=T0 + 1)
    assert pointer["sk"] == "ACTIVE"
    assert "gsi3pk" not in pointer


def test_a_ref_item_reads_back_as_its_ref() -> None:
    ref = Ref("neo4j_node", "lgv_id", "LGV-07")

    assert layout.ref_from_item(layout.ref_item("HITL-1", ref)) == ref


def test_the_event_and_its_markers_carry_the_canonical_event() -> None:
    event = Event(
        event_id="HEV-1",
        case_id="HITL-1",
        event_type="needs_clarification",
        notes="",
        actor=AGENT,
        created_at_ms=T0,
        state_after="needs_clarification",
        question="Which map?",
        request_id="q-1",
    )

    for item in (layout.event_item(event, 2), layout.request_marker(event), layout.submit_marker(event)):
        assert layout.event_from_item(item) == event
    assert layout.event_item(event, 2)["sk"] == "EV#00000002"
    assert layout.request_marker(event)["sk"] == "REQ#q-1"


def test_the_open_question_is_the_last_one_asked_while_the_case_waits_for_it() -> None:
    asked = Event(
        event_id="HEV-2",
        case_id="HITL-1",
        event_type="needs_clarification",
        notes="",
        actor=AGENT,
        created_at_ms=T0,
        state_after="needs_clarification",
        question="Which map version?",
    )
    answered = replace(asked, event_type="clarification_provided", question=None, state_after="pending")

    assert layout.open_question_after(asked, ASKED, "Which map?") == "Which map version?"
    assert layout.open_question_after(answered, replace(ASKED, current_state="pending"), "Which map?") is None


def test_a_cursor_names_the_key_a_page_starts_after() -> None:
    item = {"pk": "CASE#HITL-1", "sk": "CASE", "gsi1pk": "STATE#pending", "gsi1sk": "x", "title": "t"}

    start = layout.start_key(layout.cursor_of(item, "GSI1"))

    assert start == {"pk": "CASE#HITL-1", "sk": "CASE", "gsi1pk": "STATE#pending", "gsi1sk": "x"}


def test_a_cursor_of_another_query_is_refused() -> None:
    with pytest.raises(InvalidCursor):
        layout.start_key(cursors.encode(["2024", "HITL-1"]))
