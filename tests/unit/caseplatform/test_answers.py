"""The wire shapes of answers: errors by type (an unknown case is `not_found`), transition answers
built from the event alone, event history without the internal request hash, the case as read with
its refs and projection, lists with their count and cursor."""

from __future__ import annotations

from caseplatform import answers
from caseplatform.errors import CaseNotFound, IdempotencyConflict
from caseplatform.model import Case, CaseRecord, CaseState, Event, Page, Principal, Ref, SchemaRecord
from caseplatform.queries import CaseView

T0 = 1_700_000_000_000
AGENT = Principal("lgv-chatbot", "agent", "agent", "agent:lgv", assurance="service")
CASE = Case(
    case_id="HITL-1",
    schema_version=1,
    adapter_id="lgv_troubleshooting",
    case_type="incident",
    title="LGV-07 stops",
    summary="reload the map",
    payload={"lgv_id": "LGV-07"},
    payload_hash_sha256="ab" * 32,
    submitter=AGENT,
    priority="high",
    confidence=None,
    created_at_ms=T0,
    updated_at_ms=T0,
)
STATE = CaseState("HITL-1", "needs_clarification", T0 + 5, needs_clarification_since_ms=T0 + 5)


def _event(**fields: object) -> Event:
    base: dict[str, object] = {
        "event_id": "HEV-1",
        "case_id": "HITL-1",
        "event_type": "needs_clarification",
        "notes": "",
        "actor": AGENT,
        "created_at_ms": T0 + 5,
        "state_after": "needs_clarification",
        "request_id": "q-1",
        "request_hash": "cd" * 32,
    }
    return Event(**{**base, **fields})  # type: ignore[arg-type]


def test_errors_by_type_and_an_unknown_case_as_not_found() -> None:
    assert answers.error_answer(CaseNotFound("HITL-9")) == {"status": "not_found", "case_id": "HITL-9"}
    assert answers.error_answer(IdempotencyConflict("d-1")) == {
        "status": "error",
        "code": "IDEMPOTENCY_CONFLICT",
        "message": "request_id d-1 was already used with a different payload",
        "request_id": "d-1",
    }


def test_a_transition_answer_names_only_what_the_event_holds() -> None:
    asked = answers.transition_answer(_event(question="Which map?"))
    assert asked == {
        "status": "success",
        "case_id": "HITL-1",
        "event_id": "HEV-1",
        "event_type": "needs_clarification",
        "current_state": "needs_clarification",
        "created_at_ms": T0 + 5,
        "question": "Which map?",
    }
    decided = answers.transition_answer(
        _event(event_type="decision_recorded", state_after="approved", decision_outcome="approved")
    )
    assert decided["decision"] == "approved" and "question" not in decided


def test_a_submit_answer_names_the_adapter_version() -> None:
    answer = answers.submit_answer(_event(event_type="submitted", state_after="pending"), CASE)
    assert answer == {
        "status": "success",
        "case_id": "HITL-1",
        "event_id": "HEV-1",
        "current_state": "pending",
        "adapter_id": "lgv_troubleshooting",
        "schema_version": 1,
        "created_at_ms": T0 + 5,
    }


def test_history_leaves_out_the_request_hash() -> None:
    event = _event()
    history = answers.history_answer("HITL-1", [event])
    assert (history["case_id"], history["count"], history["next_cursor"]) == ("HITL-1", 1, None)
    (item,) = history["items"]
    assert "request_hash" not in item
    assert item == {k: v for k, v in event.to_dict().items() if k != "request_hash"}
    assert event.request_hash is not None  # the event itself is unchanged


def test_the_case_answer_is_the_case_as_read() -> None:
    view = CaseView(
        CaseRecord(CASE, STATE),
        [Ref("ticket", "jira", "OPS-1")],
        {"vehicle_id": "LGV-07"},
        read_as_schema_version=2,
    )
    answer = answers.case_answer(view)
    case = answer["case"]
    assert (case["schema_version"], case["read_as_schema_version"]) == (1, 2)
    assert case["payload"] == {"vehicle_id": "LGV-07"}  # upcast, not as stored
    assert case["submitter"] == {
        "name": "lgv-chatbot",
        "role": "agent",
        "id": "agent:lgv",
        "team": None,
        "assurance": "service",
    }
    assert case["refs"] == [{"ref_type": "ticket", "ref_key": "jira", "ref_value": "OPS-1"}]
    assert answer["state"] == STATE.to_dict()


def test_a_page_answer_counts_renders_and_passes_the_cursor() -> None:
    page = Page([CaseRecord(CASE, STATE)], next_cursor="abc")
    answer = answers.page_answer(page, answers.case_summary)
    assert (answer["status"], answer["count"], answer["next_cursor"]) == ("success", 1, "abc")
    summary = answer["items"][0]
    assert (summary["case_id"], summary["current_state"], summary["updated_at_ms"]) == (
        "HITL-1",
        "needs_clarification",
        T0 + 5,
    )
    assert summary["needs_clarification_since_ms"] == T0 + 5


def test_the_schema_answer_names_the_previous_version_only_on_activation() -> None:
    record = SchemaRecord("it_ops", 2, {"type": "object"}, is_active=True, updated_at_ms=T0)
    assert "previous_version" not in answers.schema_answer(record)
    activated = answers.schema_answer(record, None, activated=True)
    assert activated == {
        "status": "success",
        "adapter_id": "it_ops",
        "schema_version": 2,
        "is_active": True,
        "updated_at_ms": T0,
        "previous_version": None,
    }
