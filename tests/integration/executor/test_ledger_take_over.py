"""The DynamoDB ledger's take-over of a crashed attempt's claim (moto): one conditional write, won by
one re-run only, and never a resurrection of an entry that was completed or released meanwhile."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memo.aws.ledger_table import DynamoLedger
from memo.capabilities.base import ExecutionResult
from memo.executor.ledger import ClaimLost, OperationAlreadyClaimed, replay_of
from tests.unit.executor.fakes import T0

OP = "wamid.T1:s1"
LATER = T0 + timedelta(seconds=91)
RESULT = ExecutionResult(success=True, capability="reminders", action="create", summary="reminder")


def crashed(ledger: DynamoLedger):
    held = ledger.claim(OP, capability="reminders", step_id="s1", args_hash="abc", at=T0)
    entry = ledger.get(OP)
    assert entry is not None
    return held, entry


def test_a_take_over_restarts_the_lease_and_counts_the_rerun(ledger: DynamoLedger, dynamodb: Any) -> None:
    held, entry = crashed(ledger)

    taken = ledger.take_over(entry, at=LATER)

    now = ledger.get(OP)
    assert now is not None and now.status == "in_progress" and now.at == LATER and now.reruns == 1
    assert now.attempt_id == taken.attempt_id != held.attempt_id
    assert now.args_hash == "abc" and now.capability == "reminders"  # the rest of the entry is kept
    with pytest.raises(ClaimLost):
        ledger.complete(held, RESULT, at=LATER)  # the crashed attempt, if it ever wakes, records nothing
    ledger.complete(taken, RESULT, at=LATER)
    assert ledger.get(OP).replay == replay_of(RESULT)  # type: ignore[union-attr]


def test_of_two_take_overs_of_the_same_crash_only_one_wins(ledger: DynamoLedger) -> None:
    _, entry = crashed(ledger)
    first = ledger.take_over(entry, at=LATER)

    with pytest.raises(OperationAlreadyClaimed) as lost:
        ledger.take_over(entry, at=LATER)

    assert lost.value.entry is not None and lost.value.entry.attempt_id == first.attempt_id
    assert lost.value.entry.reruns == 1


def test_a_completed_entry_is_never_taken_over(ledger: DynamoLedger) -> None:
    held, entry = crashed(ledger)
    ledger.complete(held, RESULT, at=T0)

    with pytest.raises(OperationAlreadyClaimed) as lost:
        ledger.take_over(entry, at=LATER)

    assert lost.value.entry is not None and lost.value.entry.status == "completed"


def test_a_released_entry_is_not_recreated_by_a_take_over(ledger: DynamoLedger) -> None:
    held, entry = crashed(ledger)
    ledger.release(held)

    with pytest.raises(OperationAlreadyClaimed) as lost:
        ledger.take_over(entry, at=LATER)

    assert lost.value.entry is None and ledger.get(OP) is None
