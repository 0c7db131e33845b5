"""A turn's pending-question changes, folded into the one write of the turn (`PendingChange.then`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memo.conversation.pending import PendingChange
from memo.domain import TurnInput, TurnState

NOW = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def state(trace: str) -> TurnState:
    return TurnState(
        trace_id=trace,
        thread_id="972500000001",
        input=TurnInput(message="x", language="en", timezone="UTC", whatsapp_message_id=trace),
    )


def test_an_answer_followed_by_a_new_question_replaces_the_answered_one() -> None:
    new = state("wamid.NEW")
    change = PendingChange.consume("972500000001", "h-old").then(PendingChange.create(new, now=NOW))
    assert change.kind == "replace" and change.expected_hitl_id == "h-old" and change.state is new


def test_a_re_ask_followed_by_a_new_question_still_expects_the_answered_one() -> None:
    first, second = state("wamid.A"), state("wamid.B")
    change = PendingChange.replace(first, expected_hitl_id="h-old").then(
        PendingChange.create(second, now=NOW)
    )
    assert (change.kind, change.expected_hitl_id, change.state) == ("replace", "h-old", second)


def test_an_expired_question_discarded_then_a_new_one_is_a_create() -> None:
    # The create may overwrite the expired leftover it discarded (its id is the condition's), and a
    # discard that found it gone must not fail it.
    new = state("wamid.NEW")
    change = PendingChange.discard("972500000001", "h-expired").then(PendingChange.create(new, now=NOW))
    assert change.kind == "create" and change.state is new and change.expected_hitl_id == "h-expired"
    assert PendingChange.create(new, now=NOW).expected_hitl_id is None  # found none: none may be there


def test_nothing_after_keeps_the_change_and_a_question_cannot_be_consumed_in_its_own_turn() -> None:
    consume = PendingChange.consume("972500000001", "h-1")
    assert consume.then(None) is consume
    with pytest.raises(ValueError, match="cannot be consumed"):
        PendingChange.create(state("wamid.A"), now=NOW).then(consume)
