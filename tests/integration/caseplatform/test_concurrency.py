"""record_decision from several threads and several processes at once: exactly one terminal
decision; every other caller gets ALREADY_TERMINAL naming the winner. On both stores."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
import pytest

from caseplatform.errors import AlreadyTerminal
from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.integration.caseplatform.motoserver import moto_dynamodb_server
from tests.unit.caseplatform.factories import OPERATOR, submit

WORKERS = 6


def _decide(store: CaseStore, case_id: str, index: int) -> tuple[str, str]:
    """One racer: returns ("won", event_id) or ("lost", the winner's event_id)."""
    service = CaseService(store)
    decision = "approved" if index % 2 == 0 else "rejected"
    try:
        event = service.record_decision(
            case_id=case_id,
            decision=decision,
            notes=f"racer {index}",
            actor={**OPERATOR, "id": f"op:{index}"},
            request_id=f"racer-{index}",
        )
    except AlreadyTerminal as lost:
        return "lost", str(lost.existing["event_id"])
    return "won", event.event_id


def _assert_one_winner(results: list[tuple[str, str]], service: CaseService, case_id: str) -> None:
    winners = [event_id for outcome, event_id in results if outcome == "won"]
    assert len(winners) == 1, results
    assert all(event_id == winners[0] for _, event_id in results)
    decisions = [e for e in service.get_case_history(case_id) if e.event_type == "decision_recorded"]
    assert [e.event_id for e in decisions] == winners
    state = service.get_case(case_id).record.state
    assert state.active_terminal_event_id == winners[0]
    assert state.current_state == decisions[0].decision_outcome
    assert not service.check_drift().drifted


def test_threads_race_to_decide(store_factory: Callable[[], CaseStore]) -> None:
    service = CaseService(store_factory())
    service.ensure_default_adapters()
    for _ in range(3):
        case_id = submit(service)
        barrier = threading.Barrier(WORKERS)

        def racer(
            index: int, case_id: str = case_id, barrier: threading.Barrier = barrier
        ) -> tuple[str, str]:
            store = store_factory()
            barrier.wait()
            return _decide(store, case_id, index)

        with ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(racer, range(WORKERS)))
        _assert_one_winner(results, service, case_id)


# ---------------------------------------------------------------------------- processes
def _process_racer(kind: str, where: str, case_id: str, index: int, start: Any, results: Any) -> None:
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
    results.put(_decide(store, case_id, index))


@pytest.fixture
def moto_endpoint() -> Iterator[str]:
    """A moto server that handles one request at a time (DynamoDB's per-request atomicity; see
    SerializedClient), reachable from other processes."""
    with moto_dynamodb_server() as endpoint:
        yield endpoint


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "dynamodb"])
def test_processes_race_to_decide(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if kind == "sqlite":
        where = str(tmp_path / "hitl.db")
        store: CaseStore = SqliteCaseStore(where)
    else:
        where = request.getfixturevalue("moto_endpoint")
        client = boto3.client("dynamodb", endpoint_url=where, region_name="us-east-1")
        create_cases_table(client)
        store = DynamoCaseStore(TABLE, client)
    service = CaseService(store)
    service.ensure_default_adapters()
    case_id = submit(service)

    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    processes = [
        context.Process(target=_process_racer, args=(kind, where, case_id, index, start, results))
        for index in range(WORKERS)
    ]
    for process in processes:
        process.start()
    start.set()
    outcomes = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    _assert_one_winner(outcomes, service, case_id)
