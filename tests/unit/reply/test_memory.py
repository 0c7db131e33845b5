"""latestActions: FIFO of 10, 12-hour scope, newest first, one entry per successful step."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from memo.domain import LatestAction
from memo.reply.memory import current_actions, latest_action_entries, merge_latest_actions
from tests.unit.reply.factories import NOW, failed, ok, reminder_created


def entry(n: int, *, age: timedelta = timedelta(0)) -> dict:
    created = NOW - age
    return {
        "createdAt": created.isoformat(),
        "capability": "notes",
        "action": "save",
        "summary": f"note {n}",
        "operationId": f"t{n}:s1",
    }


def test_eleven_actions_keep_the_ten_newest_newest_first() -> None:
    stored: list[dict] = []
    for n in range(11):
        stored = merge_latest_actions(stored, [entry(n, age=timedelta(minutes=11 - n))], now=NOW)
    assert [e["summary"] for e in stored] == [f"note {n}" for n in range(10, 0, -1)]


def test_actions_older_than_twelve_hours_are_dropped() -> None:
    stored = [entry(1, age=timedelta(hours=11, minutes=59)), entry(2, age=timedelta(hours=12, minutes=1))]
    assert [e["summary"] for e in merge_latest_actions(stored, [], now=NOW)] == ["note 1"]


def test_an_operation_already_remembered_is_not_added_again() -> None:
    stored = merge_latest_actions([], [entry(1)], now=NOW)
    again = merge_latest_actions(stored, [entry(1)], now=NOW + timedelta(seconds=5))
    assert again == stored


def test_one_entry_per_successful_step_last_step_first() -> None:
    outcomes = [
        reminder_created("s1"),
        failed("s2", "notes", "delete", "NOT_FOUND"),
        ok("s3", "lists", "add", data={"list_name": "shopping", "items": ["milk"]}),
    ]
    entries = latest_action_entries(outcomes, ["a", "b", "Added milk"], trace_id="T", now=NOW)
    assert [e["operationId"] for e in entries] == ["T:s3", "T:s1"]
    first = LatestAction.model_validate(entries[0])
    assert (first.capability, first.action, first.summary) == ("lists", "add", "Added milk")
    reminder = LatestAction.model_validate(entries[1])
    assert reminder.summary == "reminder “call mom”"
    assert reminder.when is not None and reminder.external_ids == {"reminderId": "r-s1"}
    assert reminder.created_at == NOW


def test_a_result_of_an_unknown_capability_is_skipped() -> None:
    entries = latest_action_entries([ok("s1", "weather", "get")], ["x"], trace_id="T", now=NOW)
    assert entries == []


def test_readers_see_the_three_newest_in_scope() -> None:
    stored = [entry(n, age=timedelta(minutes=n)) for n in range(5)] + [entry(9, age=timedelta(hours=13))]
    assert [a.summary for a in current_actions(stored, now=NOW)] == ["note 0", "note 1", "note 2"]


@given(st.lists(st.integers(min_value=0, max_value=24 * 60), max_size=30))
def test_merge_invariants(ages: list[int]) -> None:
    stored: list[dict] = []
    for n, minutes in enumerate(ages):
        stored = merge_latest_actions(stored, [entry(n, age=timedelta(minutes=minutes))], now=NOW)
    created = [e["createdAt"] for e in stored]
    assert len(stored) <= 10
    assert created == sorted(created, reverse=True)
    assert all(NOW - timedelta(hours=12) < LatestAction.model_validate(e).created_at for e in stored)
    in_scope = sorted(m for m in ages if m < 12 * 60)
    assert len(stored) == min(10, len(in_scope))
