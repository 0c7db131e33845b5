"""The median and the 90th percentile of a report, against their definitions, for every sample."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from caseplatform.governance.metrics import Distribution


@given(st.lists(st.integers(min_value=0, max_value=10**12), min_size=1, max_size=200))
def test_median_and_p90_follow_their_definitions(durations: list[int]) -> None:
    found = Distribution.of(durations)
    assert found.count == len(durations)
    assert found.median_ms == int(statistics.median(durations) // 1)
    assert found.p90_ms in durations
    at_or_below = sum(d <= found.p90_ms for d in durations)
    below = sum(d < found.p90_ms for d in durations)
    assert at_or_below * 10 >= 9 * len(durations) > below * 10


def test_nothing_measured_has_no_median() -> None:
    assert Distribution.of([]).to_dict() == {"count": 0, "median_ms": None, "p90_ms": None}


def test_small_samples() -> None:
    assert Distribution.of([10, 20]).to_dict() == {"count": 2, "median_ms": 15, "p90_ms": 20}
    assert Distribution.of([7]).to_dict() == {"count": 1, "median_ms": 7, "p90_ms": 7}
