"""`Withdrawals` on fakes: the paths the webhook tests cannot time (a case not submitted yet, a token
Step Functions no longer knows)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from caseplatform.model import Page
from memo.operator_review.tokens import TaskGone
from memo.operator_review.waits import ReviewWait
from memo.operator_review.withdraw import REVIEW_WITHDRAWN, Withdrawals, withdraw_reply

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
THREAD = "972501234567"
WAIT = ReviewWait(trace_id="wamid.t1", step_ids=("s1",), until=NOW + timedelta(hours=1))


class Waits:
    def __init__(self, *waits: ReviewWait) -> None:
        self.waits = list(waits)

    def remember(self, thread_id: str, wait: ReviewWait) -> None:
        self.waits.append(wait)

    def live(self, thread_id: str, *, now: datetime) -> list[ReviewWait]:
        return [w for w in reversed(self.waits) if w.until > now]

    def forget(self, thread_id: str, trace_id: str) -> None:
        self.waits = [w for w in self.waits if w.trace_id != trace_id]


class Cases:
    def __init__(self, case_ids: list[str]) -> None:
        self.case_ids = case_ids
        self.decisions: list[dict[str, Any]] = []

    def cases_by_ref(self, ref_type: str, ref_key: str, ref_value: str, *, limit: int) -> Page[str]:
        assert (ref_type, ref_key, ref_value) == ("memo_step", "operationId", "wamid.t1:s1")
        return Page(items=list(self.case_ids))

    def record_decision(self, **kwargs: Any) -> None:
        self.decisions.append(kwargs)


class Waiting:
    task_token = "tok-1"


class Tokens:
    def __init__(self) -> None:
        self.deleted: list[str] = []

    def get(self, case_id: str) -> Waiting:
        return Waiting()

    def delete(self, case_id: str) -> None:
        self.deleted.append(case_id)


class Tasks:
    def __init__(self, gone: bool = False) -> None:
        self.failed: list[tuple[str, str]] = []
        self.gone = gone

    def fail(self, task_token: str, *, error: str, cause: str) -> None:
        if self.gone:
            raise TaskGone("TaskTimedOut")
        self.failed.append((task_token, error))


def _withdrawals(waits: Waits, cases: Cases, tokens: Tokens, tasks: Tasks) -> Withdrawals:
    return Withdrawals(waits=waits, cases=lambda: cases, tokens=lambda: tokens, tasks=lambda: tasks)  # type: ignore[arg-type, return-value]


def test_a_waiting_case_is_rejected_as_the_requester_and_its_task_failed_as_withdrawn() -> None:
    waits, cases, tokens, tasks = Waits(WAIT), Cases(["HITL-1"]), Tokens(), Tasks()
    withdrawals = _withdrawals(waits, cases, tokens, tasks)
    assert withdrawals.waiting(THREAD, now=NOW) == WAIT
    assert withdrawals.withdraw(THREAD, WAIT) == "withdrawn"
    (decision,) = cases.decisions
    assert decision["decision"] == "rejected" and decision["actor"]["role"] == "requester"
    assert decision["request_id"] == "memo:withdraw:wamid.t1:s1"
    assert tasks.failed == [("tok-1", REVIEW_WITHDRAWN)] and tokens.deleted == ["HITL-1"]
    assert waits.waits == [] and withdraw_reply("withdrawn", "en") is None  # the responder tells


def test_a_case_not_submitted_yet_keeps_the_wait_and_asks_to_try_again() -> None:
    waits = Waits(WAIT)
    withdrawals = _withdrawals(waits, Cases([]), Tokens(), Tasks())
    assert withdrawals.withdraw(THREAD, WAIT) == "not_submitted_yet"
    assert waits.waits == [WAIT]
    assert (
        withdraw_reply("not_submitted_yet", "he")
        == "אני עדיין מעביר את הבקשה למפעיל — כתוב „בטל” שוב בעוד רגע."
    )


def test_a_token_step_functions_no_longer_knows_still_closes_the_case() -> None:
    waits, cases, tokens = Waits(WAIT), Cases(["HITL-1"]), Tokens()
    assert _withdrawals(waits, cases, tokens, Tasks(gone=True)).withdraw(THREAD, WAIT) == "withdrawn"
    assert tokens.deleted == ["HITL-1"] and len(cases.decisions) == 1


def test_an_ended_wait_is_not_withdrawn() -> None:
    withdrawals = _withdrawals(Waits(WAIT), Cases(["HITL-1"]), Tokens(), Tasks())
    assert withdrawals.waiting(THREAD, now=WAIT.until) is None
