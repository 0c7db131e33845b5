"""Review metrics from the events, the same on SQLite and DynamoDB (moto): latency per adapter and
period, the clarification round measured from its first question, the window's edges."""

from __future__ import annotations

import pytest

from caseplatform.errors import EnvelopeInvalid
from caseplatform.governance.metrics import Window, review_metrics
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, DAY_MS, OPERATOR, T0, FakeClock, request_id, submit

HOUR_MS = 3600 * 1000


def _it_ops(service: CaseService) -> None:
    service.register_adapter_schema("it_ops", 1, {"type": "object"})
    service.activate_adapter_schema("it_ops", 1)


def _decide(service: CaseService, case_id: str, decision: str = "rejected") -> None:
    service.record_decision(
        case_id=case_id, decision=decision, notes="", actor=OPERATOR, request_id=request_id("decide")
    )


def _ask(service: CaseService, case_id: str, question: str) -> None:
    service.request_clarification(
        case_id=case_id, question=question, notes="", actor=OPERATOR, request_id=request_id("ask")
    )


def _answer(service: CaseService, case_id: str) -> None:
    service.provide_clarification(
        case_id=case_id, answer="map v12", notes="", actor=AGENT, request_id=request_id("answer")
    )


def test_latency_and_turnaround_per_adapter(service: CaseService, clock: FakeClock) -> None:
    _it_ops(service)
    lgv = [submit(service) for _ in range(3)]
    ops = submit(service, adapter_id="it_ops", payload={"host": "db1"})
    _ask(service, lgv[0], "Which map?")
    clock.advance(HOUR_MS)
    _ask(service, lgv[0], "Which map version exactly?")  # a revision: the round still starts at T0
    clock.advance(3 * HOUR_MS)
    _answer(service, lgv[0])  # turnaround 4 h
    for hours, case_id in zip((1, 2, 5), (lgv[1], lgv[2], lgv[0]), strict=True):
        clock.now = T0 + hours * HOUR_MS
        _decide(service, case_id)
    clock.now = T0 + 10 * HOUR_MS
    _decide(service, ops, "approved")

    rows = review_metrics(service.store, Window(T0, T0 + DAY_MS))

    assert [r.to_dict() for r in rows] == [
        {
            "adapter_id": "it_ops",
            "period_start_ms": T0,
            "review_latency": {"count": 1, "median_ms": 10 * HOUR_MS, "p90_ms": 10 * HOUR_MS},
            "clarification_turnaround": {"count": 0, "median_ms": None, "p90_ms": None},
        },
        {
            "adapter_id": "lgv_troubleshooting",
            "period_start_ms": T0,
            "review_latency": {"count": 3, "median_ms": 2 * HOUR_MS, "p90_ms": 5 * HOUR_MS},
            "clarification_turnaround": {"count": 1, "median_ms": 4 * HOUR_MS, "p90_ms": 4 * HOUR_MS},
        },
    ]
    only_ops = review_metrics(service.store, Window(T0, T0 + DAY_MS), adapter_id="it_ops")
    assert [r.adapter_id for r in only_ops] == ["it_ops"]


def test_periods_and_the_edges_of_the_window(service: CaseService, clock: FakeClock) -> None:
    first, second, third = submit(service), submit(service), submit(service)
    clock.now = T0 + DAY_MS - 1
    _decide(service, first)  # the last ms of day one
    clock.now = T0 + DAY_MS
    _decide(service, second)  # the first ms of day two
    clock.now = T0 + 2 * DAY_MS
    _decide(service, third)  # the window's end: excluded

    rows = review_metrics(service.store, Window(T0, T0 + 2 * DAY_MS, DAY_MS))

    assert [(r.period_start_ms, r.review_latency.count, r.review_latency.median_ms) for r in rows] == [
        (T0, 1, DAY_MS - 1),
        (T0 + DAY_MS, 1, DAY_MS),
    ]
    assert review_metrics(service.store, Window(T0 + 2 * DAY_MS + 1, T0 + 3 * DAY_MS)) == []


def test_an_unanswered_round_or_one_ended_by_a_decision_is_not_a_turnaround(
    service: CaseService, clock: FakeClock
) -> None:
    waiting, decided = submit(service), submit(service)
    _ask(service, waiting, "Which map?")
    _ask(service, decided, "Which dock?")
    clock.advance(HOUR_MS)
    _decide(service, decided)

    rows = review_metrics(service.store, Window(T0, T0 + DAY_MS))

    assert [(r.review_latency.count, r.clarification_turnaround.count) for r in rows] == [(1, 0)]


@pytest.mark.parametrize(
    ("from_ms", "to_ms", "period_ms", "path"),
    [
        (T0, T0, None, "$.to_ms"),
        (T0, T0 - 1, None, "$.to_ms"),
        (T0, T0 + 1000, 0, "$.period_ms"),
        (T0, T0 + 1000, -5, "$.period_ms"),
        (T0, T0 + 1001, 1, "$.period_ms"),  # 1001 periods: one past the limit
    ],
)
def test_a_window_it_cannot_measure_is_refused(
    from_ms: int, to_ms: int, period_ms: int | None, path: str
) -> None:
    with pytest.raises(EnvelopeInvalid) as refused:
        Window(from_ms, to_ms, period_ms)
    assert refused.value.details[0]["path"] == path


def test_the_period_limit_is_reachable() -> None:
    assert Window(T0, T0 + 1000, 1).period_of(T0 + 999) == T0 + 999
