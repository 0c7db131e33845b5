from __future__ import annotations

import pytest

from memo.reply.join import flatten_outcomes, join, responder_input
from tests.unit.reply.factories import failed, ok, reminder_created, request


def _dump(outcome):
    return outcome.model_dump(mode="json")


def test_nested_per_group_outcomes_are_read_in_plan_order() -> None:
    a, b, c = reminder_created("s1"), reminder_created("s2"), failed("s3", "notes", "delete", "NOT_FOUND")
    event = {**request().model_dump(mode="json"), "outcomes": [[_dump(a), _dump(b)], [{"Payload": _dump(c)}]]}
    parsed = responder_input(event)
    assert [o.step_id for o in parsed.outcomes] == ["s1", "s2", "s3"]
    assert parsed.outcomes[2].result.error_code == "NOT_FOUND"


def test_flat_outcomes_and_a_payload_wrapped_event_are_accepted() -> None:
    a = reminder_created("s1")
    flat = request(a).model_dump(mode="json")
    assert responder_input(flat).outcomes == [a]
    assert responder_input({"Payload": flat}).outcomes == [a]


def test_an_event_without_the_required_fields_is_refused() -> None:
    with pytest.raises(ValueError, match="thread_id"):
        responder_input({"trace_id": "t", "outcomes": []})


def test_flatten_drops_nulls_of_skipped_branches() -> None:
    assert flatten_outcomes([[None], [], [{"step_id": "x"}]]) == [{"step_id": "x"}]


@pytest.mark.parametrize(
    ("outcomes", "status"),
    [
        ([], "empty"),
        ([reminder_created("s1"), reminder_created("s2")], "complete"),
        ([reminder_created("s1"), failed("s2", "notes", "delete", "NOT_FOUND")], "partial"),
        ([failed("s1", "notes", "delete", "NOT_FOUND")], "failed"),
    ],
)
def test_join_status(outcomes, status) -> None:
    assert join(outcomes).status == status


def test_a_step_delivered_twice_counts_once_with_its_last_outcome() -> None:
    first = failed("s1", "reminders", "create", "STEP_FAILED")
    joined = join([first, ok("s2", "lists", "show"), reminder_created("s1")])
    assert [o.step_id for o in joined.outcomes] == ["s1", "s2"]
    assert joined.status == "complete"
