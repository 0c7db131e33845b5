"""The `memo_operation` adapter kept in line with the policy, and the case a waiting step submits."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from memo.executor.contracts import ReviewTicket, StepTask, args_hash
from memo.operator_review.cases import (
    ADAPTER_ID,
    ensure_memo_adapter,
    payload_of,
    submit_case,
    summary_of,
)
from memo.operator_review.policy import AdapterConfig
from tests.unit.caseplatform.factories import FakeClock

THREAD = "972501234567"


def _task(step_id: str = "s1", **args: object) -> StepTask:
    return StepTask(
        trace_id="wamid.1",
        thread_id=THREAD,
        step_id=step_id,
        capability="reminders",
        action="delete_all",
        args=dict(args),
        args_hash=args_hash(dict(args)),
        review=ReviewTicket(rule="bulk_delete", priority="high", timeout_seconds=3600),
    )


@pytest.fixture
def cases(tmp_path: Path) -> CaseService:
    return CaseService(SqliteCaseStore(tmp_path / "cases.db"), clock=FakeClock())


def test_the_case_says_what_will_happen_without_the_users_number() -> None:
    task = _task(reminderIds=["r-1", "r-2"])
    assert summary_of(task) == "Memo will delete all 2 reminders of a user once approved."
    assert summary_of(_task(reminderIds=["r-1"])).endswith("1 reminder of a user once approved.")
    payload = payload_of(task)
    assert payload["rule"] == "bulk_delete" and payload["stepId"] == "s1"
    assert THREAD not in str(payload)


def test_the_titles_the_person_was_shown_never_reach_the_operator() -> None:
    task = _task(reminderIds=["r-1", "r-2"]).model_copy(
        update={"titles": {"r-1": "see dr. cohen", "r-2": "x"}}
    )
    payload = payload_of(task)
    assert "titles" not in payload and "see dr. cohen" not in str(payload)


def test_one_case_per_waiting_step_whatever_the_retries(cases: CaseService) -> None:
    ensure_memo_adapter(cases, AdapterConfig())
    first = submit_case(cases, _task(reminderIds=["r-1"]))
    again = submit_case(cases, _task(reminderIds=["r-1"]))
    other = submit_case(cases, _task("s2", reminderIds=["r-1"]))
    assert first == again != other


def test_the_adapter_gets_a_new_version_only_when_its_configuration_changes(cases: CaseService) -> None:
    first = ensure_memo_adapter(cases, AdapterConfig())
    assert ensure_memo_adapter(cases, AdapterConfig()) == first
    changed = ensure_memo_adapter(cases, AdapterConfig(required_approvers=2))
    assert changed == first + 1
    active = cases.store.active_schema(ADAPTER_ID)
    assert active is not None and active.schema["x-hitl"]["required_approvers"] == 2
