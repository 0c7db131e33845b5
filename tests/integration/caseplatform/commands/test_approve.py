"""Two approvers deciding at the same moment on a two-approver case (threads and processes, both
stores): one approval is counted as a vote, the other completes the case; never two votes leaving
it open, never two decisions. Plus the mixed race: approvers and a rejecter at once end with exactly
one terminal outcome."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
import pytest

from caseplatform.errors import AlreadyTerminal, DuplicateApprover
from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.integration.caseplatform.test_concurrency import moto_endpoint  # noqa: F401 - fixture
from tests.unit.caseplatform.factories import submit

TWO_PERSON: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["action"],
    "properties": {"action": {"type": "string"}},
    "x-hitl": {"required_approvers": 2},
}


def _setup(service: CaseService) -> str:
    service.ensure_default_adapters()
    if service.store.active_schema("two_person") is None:
        service.register_adapter_schema("two_person", 1, TWO_PERSON)
        service.activate_adapter_schema("two_person", 1)
    return submit(service, adapter_id="two_person", case_type="op", payload={"action": "wipe"})


def _act(store: CaseStore, case_id: str, who: str) -> tuple[str, str]:
    """approve (as `op:<who>`), or reject when `who` starts with 'no': the event type written, or
    the refusal."""
    service = CaseService(store)
    actor = {"name": who, "role": "reviewer", "id": f"op:{who}", "kind": "operator"}
    try:
        if who.startswith("no"):
            event = service.record_decision(
                case_id=case_id, decision="rejected", notes="no", actor=actor, request_id=f"r-{who}"
            )
        else:
            event = service.approve(case_id=case_id, notes="", actor=actor, request_id=f"a-{who}").event
    except AlreadyTerminal:
        return "already_terminal", who
    except DuplicateApprover:
        return "duplicate", who
    return event.event_type + ("" if event.decision_outcome is None else f":{event.decision_outcome}"), who


def _check(
    service: CaseService, case_id: str, outcomes: list[tuple[str, str]], *, with_rejecter: bool
) -> None:
    history = service.get_case_history(case_id)
    decisions = [e for e in history if e.event_type == "decision_recorded"]
    assert len(decisions) == 1, outcomes
    state = service.get_case(case_id).record.state
    assert state.current_state == decisions[0].decision_outcome
    assert not service.check_drift().drifted
    kinds = sorted(kind for kind, _ in outcomes)
    if not with_rejecter:
        assert kinds == ["approval_vote", "decision_recorded:approved"], outcomes
    else:
        terminal = [k for k in kinds if k.startswith("decision_recorded")]
        assert len(terminal) == 1, outcomes
        if terminal == ["decision_recorded:approved"]:  # both approvals landed before the rejection
            assert kinds.count("approval_vote") == 1 and "already_terminal" in kinds


@pytest.mark.parametrize("who", [["ann", "ben"], ["ann", "ben", "no-cal"]], ids=["approvers", "mixed"])
def test_threads_two_approvers_at_once(store_factory: Callable[[], CaseStore], who: list[str]) -> None:
    service = CaseService(store_factory())
    for _ in range(3):
        case_id = _setup(service)
        barrier = threading.Barrier(len(who))

        def racer(name: str, case_id: str = case_id, barrier: threading.Barrier = barrier) -> tuple[str, str]:
            store = store_factory()
            barrier.wait()
            return _act(store, case_id, name)

        with ThreadPoolExecutor(len(who)) as pool:
            outcomes = list(pool.map(racer, who))
        _check(service, case_id, outcomes, with_rejecter=len(who) == 3)


def _process_racer(kind: str, where: str, case_id: str, who: str, start: Any, results: Any) -> None:
    if kind == "sqlite":
        store: CaseStore = SqliteCaseStore(where)
    else:
        client = boto3.client(
            "dynamodb",
            endpoint_url=where,
            region_name="us-east-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
        )
        store = DynamoCaseStore(TABLE, client)
    start.wait()
    results.put(_act(store, case_id, who))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "dynamodb"])
def test_processes_two_approvers_at_once(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if kind == "sqlite":
        where = str(tmp_path / "hitl.db")
        store: CaseStore = SqliteCaseStore(where)
    else:
        where = request.getfixturevalue("moto_endpoint")
        client = boto3.client("dynamodb", endpoint_url=where, region_name="us-east-1")
        create_cases_table(client)
        store = DynamoCaseStore(TABLE, client)
    service = CaseService(store)
    case_id = _setup(service)
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    processes = [
        context.Process(target=_process_racer, args=(kind, where, case_id, who, start, results))
        for who in ("ann", "ben")
    ]
    for process in processes:
        process.start()
    start.set()
    outcomes = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    _check(service, case_id, outcomes, with_rejecter=False)
