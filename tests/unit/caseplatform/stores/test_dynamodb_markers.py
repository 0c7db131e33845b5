"""What the DynamoDB markers carry so a command is answered from its one read (or from a cancelled
transaction's reason): the SUBMIT marker a copy of the envelope, the TERMINAL guard the winner."""

from __future__ import annotations

from caseplatform import decisions
from caseplatform.model import Event, Principal
from caseplatform.stores import dynamodb_items as layout
from tests.unit.caseplatform.factories import T0
from tests.unit.caseplatform.stores.test_dynamodb_items import ASKED, CASE

OPERATOR = Principal(name="Dana Levi", role="site engineer", kind="operator", id="op:dana")


def _event(event_type: str, **fields: object) -> Event:
    return Event(
        event_id="HEV-1",
        case_id=CASE.case_id,
        event_type=event_type,  # type: ignore[arg-type]
        notes="ok",
        actor=OPERATOR,
        created_at_ms=T0 + 9,
        state_after="approved",
        request_id="r-1",
        request_hash="h",
        **fields,  # type: ignore[arg-type]
    )


def test_a_submit_marker_carries_the_envelope_it_opened() -> None:
    submitted = _event("submitted")
    item = layout.case_item(CASE, ASKED, version=1, event_count=1, open_question=None)

    marker = layout.submit_marker(submitted, item)

    assert layout.event_from_item(marker) == submitted
    assert layout.case_from_item(marker) == CASE
    assert (marker["pk"], marker["sk"]) == ("SUBMIT#r-1", "SUBMIT")
    # The marker is no case item: no projection, no index keys.
    assert not {"current_state", "version", "gsi1pk", "gsi3pk"} & set(marker)


def test_a_marker_written_before_the_copy_still_names_its_event() -> None:
    marker = layout.submit_marker(_event("submitted"))
    assert set(marker) == {"pk", "sk", "event_json"}


def test_the_terminal_guard_names_the_winner_in_full() -> None:
    winner = _event("decision_recorded", decision_outcome="approved")

    guard = layout.terminal_guard(winner)

    assert guard["event_id"] == winner.event_id
    assert decisions.decision_summary(layout.event_from_item(guard)) == {
        "event_id": "HEV-1",
        "decision": "approved",
        "decided_at_ms": T0 + 9,
        "actor": OPERATOR.to_dict(),
        "notes": "ok",
    }
