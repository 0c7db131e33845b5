"""A step sent to an operator becomes a case, and its task token is kept until the operator decides."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from memo.executor.contracts import ReviewTicket, StepTask, args_hash
from memo.operator_review.cases import ensure_memo_adapter
from memo.operator_review.policy import AdapterConfig
from memo.operator_review.submit import SubmitRequest, submit_for_review
from memo.operator_review.tokens import WaitingStep
from tests.support.clock import TEST_NOW
from tests.unit.caseplatform.factories import FakeClock


class _Tokens:
    def __init__(self) -> None:
        self.kept: dict[str, tuple[WaitingStep, datetime]] = {}

    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None:
        self.kept[waiting.case_id] = (waiting, expires_at)

    def get(self, case_id: str) -> WaitingStep | None:
        kept = self.kept.get(case_id)
        return kept[0] if kept else None

    def delete(self, case_id: str) -> None:
        self.kept.pop(case_id, None)


def test_the_token_is_kept_with_the_step_until_the_review_times_out(tmp_path: Path) -> None:
    cases = CaseService(SqliteCaseStore(tmp_path / "cases.db"), clock=FakeClock())
    ensure_memo_adapter(cases, AdapterConfig())
    tokens = _Tokens()
    args = {"noteIds": ["n-1", "n-2"]}
    task = StepTask(
        trace_id="wamid.1",
        thread_id="972501234567",
        step_id="s1",
        capability="notes",
        action="delete",
        args=args,
        args_hash=args_hash(args),
        review=ReviewTicket(rule="bulk_delete", timeout_seconds=600),
    )
    result = submit_for_review(
        SubmitRequest(task=task, task_token="token-1"), cases=cases, tokens=tokens, clock=lambda: TEST_NOW
    )
    waiting, expires_at = tokens.kept[result.case_id]
    assert waiting.task == task and waiting.task_token == "token-1"
    assert expires_at == TEST_NOW + timedelta(seconds=600)
    assert "token-1" not in str(cases.store.get_case(result.case_id))
