"""Every clock time as people write it, with the days it is said with, read by `extract_when`: the
local time it means is worked out from its parts, never by the parser (tests/support/clock_phrases.py).

The grid: every hour and minute in each clock form ("6:15pm", "6:15 PM", "6.15pm", "18:15",
"ב-18:15", "בשעה 18:15", "6:15" with no am/pm), the forms said in words for every hour ("quarter past
six", "half 7", "twenty to seven", "at six fifteen", "שש ורבע", "בשש וחצי", "בשמונה ועשרים", "רבע
לשבע"), noon, midnight and lunchtime, each before or after the title and with no day, today,
tomorrow, a weekday, "saturday night" or a date; "in N minutes"; and the days the clocks change, in
Asia/Jerusalem and America/New_York, from `TEST_NOW` and from the Saturday morning after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest

from memo.planner.base import PlannerInput
from memo.planner.rules import RulePlanner
from memo.planner.timeparse import extract_when
from tests.support.clock_phrases import GRIDS, ZONES, Case, every_case

Grid = Callable[[str], Iterator[Case]]


def _wrong(case: Case) -> str | None:
    """What the parser got wrong about `case`, or None."""
    parsed = extract_when(case.text, now=case.now, timezone=case.zone, language=case.language)
    if isinstance(case.expected, datetime):
        right = parsed.problem is None and parsed.when is not None
        right = right and parsed.when is not None and parsed.when.isoformat() == case.expected.isoformat()
        meant = case.expected.isoformat()
    else:
        right = parsed.problem == case.expected and parsed.when is None
        meant = case.expected
    if right and parsed.remainder == case.title:
        return None
    got = parsed.problem or (parsed.when.isoformat() if parsed.when else None) or parsed.day
    return f"{case.text!r} ({case.now:%a %d %b %H:%M}): {meant}, got {got}, titled {parsed.remainder!r}"


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("grid", GRIDS, ids=lambda grid: grid.__name__)
def test_every_clock_time_is_the_time_it_means(grid: Grid, zone: str) -> None:
    cases = list(grid(zone))
    wrong = [found for found in map(_wrong, cases) if found is not None]
    assert not wrong, f"{len(wrong)} of {len(cases)} wrong:\n" + "\n".join(wrong[:40])


def test_the_grid_is_thousands_of_cases() -> None:
    assert len(every_case()) >= 5000


def _request(case: Case) -> str:
    """ "remind me to call bob at 6:15pm tomorrow", "תזכיר לי ברבע לשבע ביום שני להתקשר לבוב"."""
    before = len(case.words) % 2
    if case.language == "he":
        return f"תזכיר לי {case.words} {case.title}" if before else f"תזכיר לי {case.title} {case.words}"
    return f"remind me {case.words} to {case.title}" if before else f"remind me to {case.title} {case.words}"


@pytest.mark.parametrize("zone", ZONES)
def test_the_rule_planner_sets_one_reminder_at_the_time_meant(zone: str) -> None:
    # One case in three of the grid, said as a request: one reminder, its title and its time (the
    # planner splits a message in two at "and", a full stop, a Hebrew "ו": never inside a time).
    planner, wrong = RulePlanner(), []
    cases = [case for grid in GRIDS for case in grid(zone) if isinstance(case.expected, datetime)][::3]
    for case in cases:
        message = _request(case)
        now = case.now.astimezone(UTC)  # as Memo's clock gives it
        plan = planner.plan(PlannerInput(message=message, now=now, timezone=zone, language=case.language))
        got = [(step.constraints.get("title"), step.constraints.get("when")) for step in plan.output.plan]
        assert isinstance(case.expected, datetime)
        if got != [(case.title, case.expected.isoformat())] or plan.output.missing_fields:
            wrong.append(f"{message!r} ({case.now:%a %d %b %H:%M}): {case.expected.isoformat()}, got {got}")
    assert not wrong, f"{len(wrong)} of {len(cases)} wrong:\n" + "\n".join(wrong[:40])
