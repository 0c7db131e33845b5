"""Requests per mutating call: on DynamoDB one TransactWriteItems and at most one read (one Query of
the case's partition), retries and refusals answered from that read; on SQLite the statements each
command runs. Counts, not times (times are `make bench`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import boto3
import pytest
from moto import mock_aws

from caseplatform.errors import AlreadyTerminal, IdempotencyConflict, PayloadInvalid
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.integration.caseplatform.test_request_reads import CountingClient
from tests.unit.caseplatform.factories import AGENT, OPERATOR, OTHER_OPERATOR, FakeClock, lgv_payload

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

ONE_WRITE = Counter(transact_write_items=1)
ONE_READ_ONE_WRITE = Counter(query=1, transact_write_items=1)
ONE_READ = Counter(query=1)


@pytest.fixture
def counted() -> Iterator[tuple[CaseService, CountingClient]]:
    with mock_aws():
        client = CountingClient(boto3.client("dynamodb", region_name="us-east-1"))
        create_cases_table(client)
        service = CaseService(
            DynamoCaseStore(TABLE, cast("DynamoDBClient", client), sleep=lambda _: None), clock=FakeClock()
        )
        service.ensure_default_adapters()
        yield service, client


def _calls(client: CountingClient, action: Callable[[], Any]) -> Counter[str]:
    client.calls.clear()
    action()
    return Counter(client.calls)


def _submit(service: CaseService, request_id: str, **changes: Any) -> str:
    event, _ = service.submit_case(
        adapter_id="lgv_troubleshooting",
        case_type="incident",
        title="LGV-07 navigation fault",
        summary="Reload the reflector map",
        payload={**lgv_payload(), **changes},
        submitter=AGENT,
        request_id=request_id,
    )
    return event.case_id


def test_each_mutating_call_is_one_transaction_and_at_most_one_read(
    counted: tuple[CaseService, CountingClient],
) -> None:
    service, client = counted
    case_ids: list[str] = []
    assert _calls(client, lambda: case_ids.append(_submit(service, "s"))) == ONE_WRITE
    case_id = case_ids[0]
    # The same submission again: answered from the cancelled transaction (the marker comes back).
    again: list[str] = []
    assert _calls(client, lambda: again.append(_submit(service, "s"))) == ONE_WRITE
    assert again == [case_id]

    def ask() -> None:
        service.request_clarification(
            case_id=case_id, question="Which map?", notes="", actor=OPERATOR, request_id="q"
        )

    def answer() -> None:
        service.provide_clarification(case_id=case_id, answer="v12", notes="", actor=AGENT, request_id="a")

    def approve() -> None:
        service.record_decision(
            case_id=case_id, decision="approved", notes="ok", actor=OPERATOR, request_id="d"
        )

    assert _calls(client, ask) == ONE_READ_ONE_WRITE
    assert _calls(client, ask) == ONE_READ  # a retry: its marker came with the read
    assert _calls(client, answer) == ONE_READ_ONE_WRITE
    assert _calls(client, approve) == ONE_READ_ONE_WRITE
    assert _calls(client, approve) == ONE_READ

    refused: list[AlreadyTerminal] = []

    def reject_late() -> None:
        with pytest.raises(AlreadyTerminal) as caught:
            service.record_decision(
                case_id=case_id, decision="rejected", notes="no", actor=OTHER_OPERATOR, request_id="late"
            )
        refused.append(caught.value)

    assert _calls(client, reject_late) == ONE_READ
    winner = service.get_case_history(case_id)[-1]
    assert refused[0].existing == {
        "event_id": winner.event_id,
        "decision": "approved",
        "decided_at_ms": winner.created_at_ms,
        "actor": winner.actor.to_dict(),
        "notes": "ok",
    }
    assert [e.event_type for e in service.get_case_history(case_id)] == [
        "submitted",
        "needs_clarification",
        "clarification_provided",
        "decision_recorded",
    ]
    assert not service.check_drift().drifted


def test_the_one_read_filters_on_non_key_attributes_only(counted: tuple[CaseService, CountingClient]) -> None:
    """DynamoDB refuses a FilterExpression naming pk or sk (moto does not check it)."""
    service, client = counted
    case_id = _submit(service, "s")
    seen: list[dict[str, Any]] = []
    query = client._client.query

    def recording(**request: Any) -> Any:
        seen.append(request)
        return query(**request)

    client._client.query = recording
    try:
        service.record_decision(
            case_id=case_id, decision="approved", notes="", actor=OPERATOR, request_id="d"
        )
    finally:
        client._client.query = query
    (request,) = seen
    names = request.get("ExpressionAttributeNames", {})
    words = request["FilterExpression"].replace("(", " ").replace(")", " ").replace(",", " ").split()
    filtered = {names.get(word, word) for word in words if word.startswith("#")} | {
        word for word in words if word in ("pk", "sk")
    }
    assert filtered and not filtered & {"pk", "sk"}


def test_a_rejection_and_a_conflicting_retry_read_once(counted: tuple[CaseService, CountingClient]) -> None:
    service, client = counted
    case_id = _submit(service, "s")

    def reject(notes: str) -> Callable[[], Any]:
        return lambda: service.record_decision(
            case_id=case_id, decision="rejected", notes=notes, actor=OPERATOR, request_id="r"
        )

    assert _calls(client, reject("wrong map")) == ONE_READ_ONE_WRITE

    def conflicting() -> None:
        with pytest.raises(IdempotencyConflict):
            reject("another reason")()

    assert _calls(client, conflicting) == ONE_READ
    with pytest.raises(IdempotencyConflict):
        _submit(service, "s", site="Plant Tel Aviv")


def test_two_approvers_each_vote_is_one_read_and_one_write(
    counted: tuple[CaseService, CountingClient],
) -> None:
    service, client = counted
    schema = dict(service.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    service.register_adapter_schema("lgv_troubleshooting", 2, {**schema, "x-hitl": {"required_approvers": 2}})
    service.activate_adapter_schema("lgv_troubleshooting", 2)
    case_id = _submit(service, "s")
    votes: list[Any] = []

    def vote(actor: dict[str, Any], request_id: str) -> Callable[[], None]:
        return lambda: votes.append(
            service.approve(case_id=case_id, notes="", actor=actor, request_id=request_id)
        )

    assert _calls(client, vote(OPERATOR, "v1")) == ONE_READ_ONE_WRITE
    assert _calls(client, vote(OTHER_OPERATOR, "v2")) == ONE_READ_ONE_WRITE
    assert _calls(client, vote(OTHER_OPERATOR, "v2")) == ONE_READ  # the retry, with where it stands
    first, second, replayed = votes
    assert (first.event.event_type, second.event.event_type) == ("approval_vote", "decision_recorded")
    assert [v.event_id for v in second.status.votes] == [first.event.event_id]
    assert replayed.event == second.event
    assert [v.event_id for v in replayed.status.votes] == [first.event.event_id]
    assert replayed.status.required_approvers == 2


def _two_clients() -> Iterator[tuple[CaseService, CaseService, CountingClient]]:
    with mock_aws():
        raw = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(raw)
        client = CountingClient(raw)
        this = CaseService(
            DynamoCaseStore(TABLE, cast("DynamoDBClient", client), sleep=lambda _: None), clock=FakeClock()
        )
        this.ensure_default_adapters()
        other = CaseService(DynamoCaseStore(TABLE, raw, sleep=lambda _: None), clock=FakeClock())
        yield this, other, client


@pytest.fixture
def two_clients() -> Iterator[tuple[CaseService, CaseService, CountingClient]]:
    yield from _two_clients()


def _activate_v2(other: CaseService, **site: Any) -> None:
    schema = dict(other.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    properties = {**schema["properties"], "site": {"type": "string", **site}}
    other.register_adapter_schema("lgv_troubleshooting", 2, {**schema, "properties": properties})
    other.activate_adapter_schema("lgv_troubleshooting", 2)


def test_a_submission_validated_on_a_schema_no_longer_active_is_validated_again(
    two_clients: tuple[CaseService, CaseService, CountingClient],
) -> None:
    this, other, client = two_clients
    _submit(this, "warm")  # this client now decides on version 1 without reading it
    _activate_v2(other, maxLength=5)  # "Plant Haifa" is too long for version 2
    client.calls.clear()
    with pytest.raises(PayloadInvalid) as refused:
        _submit(this, "s")
    assert refused.value.details == [{"path": "$.payload.site", "message": "'Plant Haifa' is too long"}]
    # The write was refused by the active-version check, the new version read once, nothing written.
    assert client.calls == Counter(transact_write_items=1, get_item=1)
    assert this.list_cases().items[0].case.case_id != "s"
    assert len(this.list_cases().items) == 1


def test_a_payload_refused_on_a_cached_schema_is_checked_on_the_live_one(
    two_clients: tuple[CaseService, CaseService, CountingClient],
) -> None:
    this, other, _ = two_clients
    _submit(this, "warm")
    with pytest.raises(PayloadInvalid):
        _submit(this, "long", site="x" * 300)  # version 1: at most 200 characters
    _activate_v2(other, maxLength=500)
    case_id = _submit(this, "long", site="x" * 300)
    assert this.get_record(case_id).case.schema_version == 2


def test_a_decision_on_a_schema_no_longer_active_is_taken_again(
    two_clients: tuple[CaseService, CaseService, CountingClient],
) -> None:
    this, other, _ = two_clients
    case_id = _submit(this, "s")  # this client knows version 1 (one approver)
    schema = dict(other.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    other.register_adapter_schema("lgv_troubleshooting", 2, {**schema, "x-hitl": {"required_approvers": 2}})
    other.activate_adapter_schema("lgv_troubleshooting", 2)
    vote = this.approve(case_id=case_id, notes="", actor=OPERATOR, request_id="v")
    assert (vote.event.event_type, vote.status.required_approvers) == ("approval_vote", 2)
    assert this.get_record(case_id).state.current_state == "pending"


def test_sqlite_statements_per_command(tmp_path: Path) -> None:
    store = SqliteCaseStore(tmp_path / "hitl.db")
    service = CaseService(store, clock=FakeClock())
    service.ensure_default_adapters()
    statements: list[str] = []
    store._conn().set_trace_callback(statements.append)

    def count(action: Callable[[], Any]) -> list[str]:
        statements.clear()
        action()
        return [s.split()[0].upper() for s in statements]

    case_ids: list[str] = []
    # The first submission reads the active schema, then one transaction of two inserts: the case row
    # with its projection, the event.
    assert count(lambda: case_ids.append(_submit(service, "s"))) == [
        "SELECT",
        "BEGIN",
        "INSERT",
        "INSERT",
        "COMMIT",
    ]
    # The next ones decide on that version: the envelope's INSERT writes only while it is still the
    # active one, so no read is needed.
    assert count(lambda: case_ids.append(_submit(service, "s2"))) == ["BEGIN", "INSERT", "INSERT", "COMMIT"]
    decide = count(
        lambda: service.record_decision(
            case_id=case_ids[0], decision="approved", notes="", actor=OPERATOR, request_id="d"
        )
    )
    # One read of the case with its request, votes, winner and active schema; the event; the projection
    # (an UPDATE of the case row).
    assert decide == ["BEGIN", "SELECT", "INSERT", "UPDATE", "COMMIT"]
    # A retry is answered by the read alone (the approval status' policy from the schema read last).
    retry = count(
        lambda: service.record_decision(
            case_id=case_ids[0], decision="approved", notes="", actor=OPERATOR, request_id="d"
        )
    )
    assert retry == ["BEGIN", "SELECT", "COMMIT"]
    store._conn().set_trace_callback(None)
    store.close()
