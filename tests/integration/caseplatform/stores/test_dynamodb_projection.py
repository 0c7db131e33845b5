"""The DynamoDB store's projection on moto: the CASE item (its state, its index keys) and the TERMINAL
guard are a fold of the events; one altered or deleted behind the platform's back is found by the
drift check and restored by the repair, which never writes a fold of events that changed meanwhile."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from caseplatform import statemachine
from caseplatform.errors import AlreadyTerminal
from caseplatform.model import CaseState, Event
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.integration.caseplatform.conftest import TABLE
from tests.integration.caseplatform.steps import ask, decide, reply
from tests.unit.caseplatform.factories import AGENT, DAY_MS, FakeClock, request_id, submit


def _key(case_id: str, sk: str = "CASE") -> dict[str, Any]:
    return {"pk": {"S": f"CASE#{case_id}"}, "sk": {"S": sk}}


def _client() -> Any:
    return boto3.client("dynamodb", region_name="us-east-1")


def _set(case_id: str, expression: str, **values: str) -> None:
    _client().update_item(
        TableName=TABLE,
        Key=_key(case_id),
        UpdateExpression=expression,
        **({"ExpressionAttributeValues": {f":{k}": {"S": v} for k, v in values.items()}} if values else {}),
    )


def _delete(case_id: str, sk: str = "CASE") -> None:
    _client().delete_item(TableName=TABLE, Key=_key(case_id, sk))


def _item(case_id: str, sk: str = "CASE") -> dict[str, Any] | None:
    found: dict[str, Any] | None = _client().get_item(TableName=TABLE, Key=_key(case_id, sk)).get("Item")
    return found


def test_a_lost_case_item_is_restored_from_the_submit_marker_and_the_events(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    case_id = submit(dynamo_service)
    ask(dynamo_service, case_id, "Which map?")
    before = _item(case_id)
    _delete(case_id)
    assert dynamo_service.check_drift().drifted_case_ids == [case_id]
    assert dynamo_service.list_cases().items == []  # no query finds it

    assert dynamo_store.repair_projection(case_id, statemachine.project) == "repaired"
    after = _item(case_id)
    assert after is not None and before is not None
    assert {k: v for k, v in after.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    assert after["open_question"] == {"S": "Which map?"}
    assert dynamo_service.check_drift().drifted is False
    assert reply(dynamo_service, case_id).state_after == "pending"  # the restored case is usable


def _escalation_due(service: CaseService) -> str:
    case_id = submit(service)
    ask(service, case_id)
    return case_id


def _decided(service: CaseService) -> str:
    case_id = submit(service)
    decide(service, case_id)
    return case_id


@pytest.mark.parametrize(
    ("make", "tamper"),
    [
        (submit, lambda c: _set(c, "SET gsi1pk = :s", s="STATE#approved")),  # queued as approved
        (_escalation_due, lambda c: _set(c, "REMOVE gsi4pk, gsi4sk")),  # out of the escalation index
        (_decided, lambda c: _delete(c, "TERMINAL")),  # a second decision could win
        (_decided, lambda c: _set(c, "SET current_state = :s", s="pending")),
    ],
    ids=["state-index", "escalation-index", "terminal-guard", "state"],
)
def test_what_is_derived_from_the_state_is_part_of_the_projection(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore, make: Any, tamper: Any
) -> None:
    case_id, other = make(dynamo_service), submit(dynamo_service)
    clean = _item(case_id)
    tamper(case_id)
    assert dynamo_service.check_drift().drifted_case_ids == [case_id]
    assert dynamo_service.rebuild_projection().drifted_case_ids == [case_id]
    assert dynamo_service.check_drift().drifted is False
    restored = _item(case_id)
    assert restored is not None and clean is not None
    assert {k: v for k, v in restored.items() if k != "version"} == {
        k: v for k, v in clean.items() if k != "version"
    }
    assert dynamo_store.repair_projection(other, statemachine.project) == "clean"


def test_a_restored_terminal_guard_refuses_a_second_decision(dynamo_service: CaseService) -> None:
    case_id = _decided(dynamo_service)
    _delete(case_id, "TERMINAL")
    dynamo_service.rebuild_projection()
    with pytest.raises(AlreadyTerminal):
        decide(dynamo_service, case_id, "rejected")


def test_a_guard_on_an_open_case_is_removed(dynamo_service: CaseService) -> None:
    case_id, decided = submit(dynamo_service), _decided(dynamo_service)
    guard = _item(decided, "TERMINAL")
    assert guard is not None
    _client().put_item(TableName=TABLE, Item={**guard, "pk": {"S": f"CASE#{case_id}"}})
    assert dynamo_service.check_drift().drifted_case_ids == [case_id]
    dynamo_service.rebuild_projection()
    assert _item(case_id, "TERMINAL") is None
    assert decide(dynamo_service, case_id).state_after == "approved"


def test_a_repair_folds_again_when_an_event_is_appended_meanwhile(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    case_id = submit(dynamo_service)
    _set(case_id, "SET gsi1pk = :s", s="STATE#rejected")  # drifted, yet commands still run on it
    folds: list[int] = []

    def fold_while_an_operator_asks(events: list[Event]) -> CaseState | None:
        folds.append(len(events))
        if len(folds) == 1:  # the case moves on between the repair's read and its write
            dynamo_service.request_clarification(
                case_id=case_id, question="Which dock?", notes="", actor=AGENT, request_id=request_id()
            )
        return statemachine.project(events)

    # The command rewrote the whole case item: read and folded again, there is nothing left to repair,
    # and the stale fold (pending) was never written over the new state.
    assert dynamo_store.repair_projection(case_id, fold_while_an_operator_asks) == "clean"
    assert folds == [1, 2]
    assert dynamo_service.get_record(case_id).state.current_state == "needs_clarification"
    assert dynamo_service.check_drift().drifted is False


def test_a_case_whose_envelope_is_lost_everywhere_is_reported_not_invented(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    case_id = submit(dynamo_service)
    submitted = dynamo_service.get_case_history(case_id)[0]
    _delete(case_id)
    _client().delete_item(
        TableName=TABLE, Key={"pk": {"S": f"SUBMIT#{submitted.request_id}"}, "sk": {"S": "SUBMIT"}}
    )
    assert dynamo_store.repair_projection(case_id, statemachine.project) == "unrepairable"
    report = dynamo_service.scan_projection(repair=True, max_cases=10)
    assert (report.unrepairable_case_ids, report.repaired_case_ids) == ([case_id], [])
    assert dynamo_service.check_drift().drifted_case_ids == [case_id]  # still reported


def test_a_case_item_without_events_is_never_deleted(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    case_id = submit(dynamo_service)
    _delete(case_id, "EV#00000001")
    assert dynamo_service.check_drift().drifted_case_ids == [case_id]
    assert dynamo_store.repair_projection(case_id, statemachine.project) == "unrepairable"
    assert _item(case_id) is not None


def test_the_cases_with_events_page_oldest_first(dynamo_store: DynamoCaseStore, clock: FakeClock) -> None:
    service = CaseService(dynamo_store, clock=clock)
    service.ensure_default_adapters()
    ids = []
    for _ in range(3):
        ids.append(submit(service))
        clock.advance(DAY_MS)
    _delete(ids[1])  # a lost case item: its events still name the case
    first = dynamo_store.case_ids(limit=2)
    assert first.items == ids[:2] and first.next_cursor is not None
    rest = dynamo_store.case_ids(limit=2, cursor=first.next_cursor)
    assert (rest.items, rest.next_cursor) == (ids[2:], None)
    assert sorted(dynamo_store.iter_case_ids()) == sorted(ids)


def test_the_rebuild_leaves_a_clean_case_with_its_open_question(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    asked = submit(dynamo_service)
    dynamo_service.request_clarification(
        case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    assert dynamo_service.check_drift().drifted is False
    assert dynamo_service.rebuild_projection().drifted is False
    record = dynamo_store.get_case(asked)
    assert record is not None
    assert record.revision is not None and record.revision["open_question"] == "Which map?"
