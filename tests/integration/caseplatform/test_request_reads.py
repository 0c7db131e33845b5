"""A command reads the case once per request and passes it down (`seen`); the store's write still
decides and guards on the live case, so a stale read can never win. Schema documents are kept per
service; the active version is read every time on SQLite, and on DynamoDB a command decides on the
store's cached copy whose version its write checks. On both stores; request counts on DynamoDB."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import boto3
import pytest
from moto import mock_aws

from caseplatform.errors import AlreadyTerminal, DuplicateApprover, IdempotencyConflict
from caseplatform.ports import CaseStore
from caseplatform.review.approvals import ReviewService
from caseplatform.review.auth import principal_from_claims
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.integration.caseplatform.review.harness import seed_adapters
from tests.unit.caseplatform.factories import OPERATOR, OTHER_OPERATOR, FakeClock, submit

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

THIRD_OPERATOR = {"name": "Tal Bar", "role": "site engineer", "id": "op:tal", "kind": "operator"}


def _two_clients(store_factory: Callable[[], CaseStore]) -> tuple[CaseService, CaseService]:
    one = CaseService(store_factory(), clock=FakeClock())
    one.ensure_default_adapters()
    return one, CaseService(store_factory(), clock=FakeClock())


def _two_person(service: CaseService) -> None:
    schema = dict(service.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    service.register_adapter_schema("lgv_troubleshooting", 2, {**schema, "x-hitl": {"required_approvers": 2}})
    service.activate_adapter_schema("lgv_troubleshooting", 2)


def test_a_decision_on_a_stale_read_loses_to_the_live_winner(store_factory: Callable[[], CaseStore]) -> None:
    service, other = _two_clients(store_factory)
    case_id = submit(service)
    stale = service.get_record(case_id)
    winner = other.record_decision(
        case_id=case_id, decision="approved", notes="", actor=OTHER_OPERATOR, request_id="w"
    )
    with pytest.raises(AlreadyTerminal) as caught:
        service.record_decision(
            case_id=case_id, decision="rejected", notes="", actor=OPERATOR, request_id="l", seen=stale
        )
    assert caught.value.existing["event_id"] == winner.event_id
    with pytest.raises(AlreadyTerminal):
        service.approve(case_id=case_id, notes="", actor=OPERATOR, request_id="a", seen=stale)
    events = service.get_case_history(case_id)
    assert [e.event_type for e in events] == ["submitted", "decision_recorded"]
    assert service.get_record(case_id).state.active_terminal_event_id == winner.event_id
    assert not service.check_drift().drifted


def test_a_refusal_on_a_stale_read_is_decided_again_on_the_live_case(
    store_factory: Callable[[], CaseStore],
) -> None:
    service, other = _two_clients(store_factory)
    case_id = submit(service)
    question = "Which reflector map version is loaded?"
    service.request_clarification(
        case_id=case_id, question=question, notes="", actor=OPERATOR, request_id="q"
    )
    stale = service.get_record(case_id)  # needs_clarification, this very question open
    other.provide_clarification(case_id=case_id, answer="v12", notes="", actor=OPERATOR, request_id="a")
    asked_again = service.request_clarification(
        case_id=case_id, question=question, notes="", actor=OPERATOR, request_id="q2", seen=stale
    )
    assert (asked_again.event_type, asked_again.state_after) == ("needs_clarification", "needs_clarification")
    assert len(service.get_case_history(case_id)) == 4


def test_votes_written_after_the_read_count(store_factory: Callable[[], CaseStore]) -> None:
    service, other = _two_clients(store_factory)
    _two_person(service)
    case_id = submit(service)
    stale = service.get_record(case_id)
    vote = other.approve(case_id=case_id, notes="", actor=OTHER_OPERATOR, request_id="v")
    assert (vote.event.event_type, vote.status.required_approvers, len(vote.status.votes)) == (
        "approval_vote",
        2,
        1,
    )
    with pytest.raises(DuplicateApprover):
        service.approve(case_id=case_id, notes="", actor=OTHER_OPERATOR, request_id="v2", seen=stale)
    done = service.approve(case_id=case_id, notes="", actor=THIRD_OPERATOR, request_id="d", seen=stale)
    assert (done.event.event_type, done.event.decision_outcome) == ("decision_recorded", "approved")
    assert [v.event_id for v in done.status.votes] == [vote.event.event_id]
    replayed = service.approve(case_id=case_id, notes="", actor=THIRD_OPERATOR, request_id="d", seen=stale)
    assert replayed.event == done.event
    assert [v.event_id for v in replayed.status.votes] == [vote.event.event_id]
    with pytest.raises(IdempotencyConflict):
        service.approve(case_id=case_id, notes="other", actor=THIRD_OPERATOR, request_id="d", seen=stale)
    assert not service.check_drift().drifted


def test_an_activation_by_another_client_is_seen_at_once(store_factory: Callable[[], CaseStore]) -> None:
    service, other = _two_clients(store_factory)
    case_id = submit(service)
    assert service.get_case(case_id).read_as_schema_version == 1  # the warm client knows version 1
    _two_person(other)
    assert service.get_case(case_id).read_as_schema_version == 2
    vote = service.record_approval(case_id=case_id, notes="", actor=OPERATOR, request_id="v")
    assert vote.event_type == "approval_vote"
    assert service.approval_status(case_id).required_approvers == 2


class CountingClient:
    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attribute(*args, **kwargs)

        return call


def test_an_approval_through_the_review_service_reads_the_case_once() -> None:
    reviewer = principal_from_claims(
        {"sub": "ann", "name": "Ann", "cognito:groups": ["reviewers:two_person"]}, "dev_jwt"
    )
    agent = principal_from_claims(
        {"sub": "bot", "name": "Bot", "cognito:groups": ["agents:two_person"]}, "dev_jwt"
    )
    with mock_aws():
        client = CountingClient(boto3.client("dynamodb", region_name="us-east-1"))
        create_cases_table(client)
        cases = CaseService(
            DynamoCaseStore(TABLE, cast("DynamoDBClient", client), sleep=lambda _: None), clock=FakeClock()
        )
        seed_adapters(cases)
        review = ReviewService(cases)
        payload = {"action": "delete_notes", "count": 3}
        submitted = review.submit(
            agent,
            request_id="s",
            adapter_id="two_person",
            case_type="op",
            title="t",
            summary="s",
            payload=payload,
        )
        review.case(reviewer, submitted["case_id"])  # the schema documents are known from here on
        client.calls.clear()
        answer = review.approve(reviewer, submitted["case_id"], request_id="1")
        assert (answer["event_type"], answer["approvals"]) == (
            "approval_vote",
            {"required": 2, "recorded": 1},
        )
        # The case (authorization and the write's snapshot), the votes, the write; the active schema
        # comes from the store's cache, its version checked by the write.
        assert client.calls == Counter(get_item=1, query=1, transact_write_items=1)
