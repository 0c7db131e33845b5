"""The ledger's operation ids and replays: one operation per step of a turn; a replay is the result
without its data, but for the end of an undo window."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from memo.capabilities.base import ExecutionResult
from memo.capabilities.common import UNDO_UNTIL
from memo.executor.ledger import operation_id, replay_of
from tests.support.clock import TEST_NOW


def test_an_operation_is_one_step_of_one_turn() -> None:
    assert operation_id("wamid.1", "s1") == "wamid.1:s1"
    assert operation_id("wamid.1", "s1") != operation_id("wamid.1", "s2")


def test_a_replay_keeps_none_of_the_users_words() -> None:
    until = (TEST_NOW + timedelta(minutes=10)).isoformat()
    done = ExecutionResult(
        success=True,
        capability="notes",
        action="delete",
        data={"notes": ["buy milk"], UNDO_UNTIL: until},
        external_ids={"noteIds": ["n1"]},
        summary="deleted note “buy milk”",
    )

    replay = replay_of(done)

    assert replay.data == {UNDO_UNTIL: until}  # the reply still offers its "Undo"
    assert "milk" not in replay.model_dump_json()
    assert replay.model_copy(update={"data": done.data, "summary": done.summary}) == done


@given(
    counts=st.dictionaries(st.sampled_from(["count", "gone", "minutes"]), st.integers(0, 10**6)),
    texts=st.dictionaries(st.sampled_from(["title", "notes", "changed", "timezone"]), st.text(min_size=1)),
    flag=st.booleans(),
)
def test_a_replay_keeps_the_counts_of_the_data_and_no_text(
    counts: dict[str, int], texts: dict[str, str], flag: bool
) -> None:
    """ "Deleted 3 reminders." is said again from a replay; no text of the data is kept."""
    done = ExecutionResult(
        success=True, capability="reminders", action="delete_all", data={**texts, **counts, "truncated": flag}
    )
    assert replay_of(done).data == counts


def test_a_failure_is_replayed_by_its_code() -> None:
    failed = ExecutionResult(
        success=False,
        capability="reminders",
        action="delete",
        error_code="NOT_FOUND",
        error="No “milk”",
    )
    assert replay_of(failed) == failed.model_copy(update={"error": None})
