"""Both halves of a withdrawal on fakes: the turn's `Withdrawals` (the case rejected as the requester
and handed over; a case not submitted yet) and the review Lambda's `WithdrawnSteps` (the token failed
once; a token Step Functions no longer knows; a notice naming a case nobody withdrew)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from caseplatform.model import Page
from memo.operator_review.tokens import TaskGone
from memo.operator_review.waits import ReviewWait
from memo.operator_review.withdraw import (
    REVIEW_WITHDRAWN,
    Withdrawals,
    WithdrawnSteps,
    notice_case_id,
    withdraw_reply,
)

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


class Notices:
    def __init__(self) -> None:
        self.withdrawn_cases: list[str] = []

    def withdrawn(self, case_id: str) -> None:
        self.withdrawn_cases.append(case_id)


class Task:
    step_id = "s1"


class Waiting:
    task_token = "tok-1"
    task = Task()


class Tokens:
    def __init__(self, *case_ids: str) -> None:
        self.case_ids = list(case_ids)
        self.deleted: list[str] = []

    def get(self, case_id: str) -> Waiting | None:
        return Waiting() if case_id in self.case_ids else None

    def delete(self, case_id: str) -> None:
        self.case_ids.remove(case_id)
        self.deleted.append(case_id)


class Tasks:
    def __init__(self, gone: bool = False) -> None:
        self.failed: list[tuple[str, str]] = []
        self.gone = gone

    def fail(self, task_token: str, *, error: str, cause: str) -> None:
        if self.gone:
            raise TaskGone("TaskTimedOut")
        self.failed.append((task_token, error))


class Decision:
    def __init__(self, outcome: str, request_id: str) -> None:
        self.event_type = "decision_recorded"
        self.decision_outcome = outcome
        self.request_id = request_id


class History:
    def __init__(self, *events: Decision) -> None:
        self.events = list(events)

    def get_case_history(self, case_id: str) -> list[Decision]:
        return self.events


WITHDRAWN = Decision("rejected", "memo:withdraw:wamid.t1:s1")


def _withdrawals(waits: Waits, cases: Cases, notices: Notices) -> Withdrawals:
    return Withdrawals(waits=waits, cases=lambda: cases, notices=lambda: notices)  # type: ignore[arg-type, return-value]


def _steps(history: History, tokens: Tokens, tasks: Tasks) -> WithdrawnSteps:
    return WithdrawnSteps(cases=history, tokens=tokens, tasks=tasks)  # type: ignore[arg-type]


def test_a_waiting_case_is_rejected_as_the_requester_and_handed_to_the_review_lambda() -> None:
    waits, cases, notices = Waits(WAIT), Cases(["HITL-1"]), Notices()
    withdrawals = _withdrawals(waits, cases, notices)
    assert withdrawals.waiting(THREAD, now=NOW) == WAIT
    assert withdrawals.withdraw(THREAD, WAIT) == "withdrawn"
    (decision,) = cases.decisions
    assert decision["decision"] == "rejected" and decision["actor"]["role"] == "requester"
    assert decision["request_id"] == "memo:withdraw:wamid.t1:s1"
    assert notices.withdrawn_cases == ["HITL-1"]  # the turn answers no task token itself
    assert waits.waits == [] and withdraw_reply("withdrawn", "en") is None  # the responder tells


def test_a_case_not_submitted_yet_keeps_the_wait_and_asks_to_try_again() -> None:
    waits, notices = Waits(WAIT), Notices()
    withdrawals = _withdrawals(waits, Cases([]), notices)
    assert withdrawals.withdraw(THREAD, WAIT) == "not_submitted_yet"
    assert waits.waits == [WAIT] and notices.withdrawn_cases == []
    assert (
        withdraw_reply("not_submitted_yet", "he")
        == "אני עדיין מעביר את הבקשה למפעיל — כתוב „בטל” שוב בעוד רגע."
    )


def test_a_hand_over_that_fails_fails_the_turn_and_keeps_the_wait() -> None:
    class Refused(Notices):
        def withdrawn(self, case_id: str) -> None:
            raise OSError("the queue refused")

    waits = Waits(WAIT)
    with pytest.raises(OSError, match="the queue refused"):
        _withdrawals(waits, Cases(["HITL-1"]), Refused()).withdraw(THREAD, WAIT)
    assert waits.waits == [WAIT]  # the redelivered turn records again (replayed) and hands over


def test_the_review_lambda_fails_the_withdrawn_steps_token_once() -> None:
    tokens, tasks = Tokens("HITL-1"), Tasks()
    steps = _steps(History(WITHDRAWN), tokens, tasks)
    assert steps.end_wait("HITL-1") == "ended"
    assert tasks.failed == [("tok-1", REVIEW_WITHDRAWN)] and tokens.deleted == ["HITL-1"]
    assert steps.end_wait("HITL-1") == "no_token"  # a notice delivered twice answers nothing more
    assert tasks.failed == [("tok-1", REVIEW_WITHDRAWN)]


def test_a_token_step_functions_no_longer_knows_is_deleted() -> None:
    tokens = Tokens("HITL-1")
    assert _steps(History(WITHDRAWN), tokens, Tasks(gone=True)).end_wait("HITL-1") == "token_gone"
    assert tokens.deleted == ["HITL-1"]


@pytest.mark.parametrize(
    "history",
    [
        History(),
        History(Decision("rejected", "r-operator")),
        History(Decision("approved", "memo:withdraw:x")),
    ],
    ids=["undecided", "rejected-by-an-operator", "approved"],
)
def test_a_notice_for_a_case_nobody_withdrew_answers_no_token(history: History) -> None:
    tokens, tasks = Tokens("HITL-1"), Tasks()
    assert _steps(history, tokens, tasks).end_wait("HITL-1") == "not_withdrawn"
    assert tasks.failed == [] and tokens.deleted == []


@pytest.mark.parametrize("body", ["{}", '{"case_id": ""}', '["HITL-1"]', '{"case_id": 7}', "not json"])
def test_a_notice_naming_no_case_is_refused(body: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - json's own message, or ours
        notice_case_id(body)
    assert notice_case_id('{"case_id": "HITL-1"}') == "HITL-1"


def test_an_ended_wait_is_not_withdrawn() -> None:
    withdrawals = _withdrawals(Waits(WAIT), Cases(["HITL-1"]), Notices())
    assert withdrawals.waiting(THREAD, now=WAIT.until) is None
