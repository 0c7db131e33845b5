"""The DynamoDB ledger: conditional claim, completion with the step's replay, release, TTL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.ledger_table import DynamoLedger
from memo.capabilities.base import ExecutionResult
from memo.executor.ledger import ClaimLost, OperationAlreadyClaimed, replay_of
from tests.unit.executor.fakes import T0

OP = "wamid.T1:s1"
RESULT = ExecutionResult(
    success=True,
    capability="reminders",
    action="create",
    data={"title": "call mom"},
    external_ids={"reminderId": "r-1", "scheduleNames": ["reminder-r-1"]},
    summary="reminder “call mom”",
    when=T0 + timedelta(hours=9),
)


def items(dynamodb: Any) -> dict[str, dict[str, Any]]:
    scanned = dynamodb.scan(TableName=tables.LEDGER.default_name)["Items"]
    return {item["sk"]["S"]: item for item in scanned}


def claim(ledger: DynamoLedger):
    return ledger.claim(OP, capability="reminders", step_id="s1", args_hash="abc", at=T0)


def test_only_the_first_claim_wins(ledger: DynamoLedger) -> None:
    claim(ledger)
    with pytest.raises(OperationAlreadyClaimed):
        claim(ledger)

    entry = ledger.get(OP)
    assert entry is not None and entry.status == "in_progress" and entry.at == T0


def test_complete_keeps_the_replay_in_the_entry_without_the_data(ledger: DynamoLedger, dynamodb: Any) -> None:
    held = claim(ledger)
    ledger.complete(held, RESULT, at=T0 + timedelta(seconds=2))

    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.success is True
    assert entry.replay == replay_of(RESULT)
    assert entry.replay.external_ids == {"reminderId": "r-1", "scheduleNames": ["reminder-r-1"]}

    stored = items(dynamodb)
    assert set(stored) == {"LEDGER"}  # one item: no result kept apart
    assert "title" not in str(stored["LEDGER"])  # the result's data stays out
    assert set(stored["LEDGER"]) == {
        "pk",
        "sk",
        "capability",
        "argsHash",
        "at",
        "status",
        "attempt",
        "ttl",
        "replay",
    }
    assert entry.step_id == OP.rsplit(":", 1)[1]  # not stored: the operation's id ends with it
    assert int(stored["LEDGER"]["ttl"]["N"]) == int((T0 + timedelta(days=14)).timestamp())


def test_a_completion_is_one_update_of_the_entry(ledger: DynamoLedger, dynamodb: Any) -> None:
    held = claim(ledger)
    sent: list[str] = []
    dynamodb.meta.events.register("before-call.dynamodb.*", lambda model, **_: sent.append(model.name))

    ledger.complete(held, RESULT, at=T0)

    assert sent == ["UpdateItem"]


def test_a_claim_completes_only_once(ledger: DynamoLedger) -> None:
    held = claim(ledger)
    ledger.complete(held, RESULT, at=T0)
    with pytest.raises(ClaimLost):
        ledger.complete(held, RESULT.model_copy(update={"summary": "other"}), at=T0)
    assert ledger.get(OP).replay == replay_of(RESULT)  # type: ignore[union-attr]


def test_release_frees_the_operation_only_for_its_own_attempt(ledger: DynamoLedger) -> None:
    first = claim(ledger)
    ledger.release(first)
    assert ledger.get(OP) is None

    second = claim(ledger)
    with pytest.raises(ClaimLost):
        ledger.release(first)  # a stale attempt cannot free someone else's claim
    with pytest.raises(ClaimLost):
        ledger.complete(first, RESULT, at=T0)
    ledger.complete(second, RESULT, at=T0)
    assert ledger.get(OP).status == "completed"  # type: ignore[union-attr]


def test_no_entry_reads_as_none(ledger: DynamoLedger) -> None:
    assert ledger.get("nope:s1") is None


def test_an_entry_completed_without_a_replay_reads_without_one(ledger: DynamoLedger, dynamodb: Any) -> None:
    """An entry an earlier release completed (it kept the result in an item apart): no replay, so a
    re-run answers "already ran" (`memo.executor.step`), never runs it again."""
    held = claim(ledger)
    dynamodb.update_item(
        TableName=tables.LEDGER.default_name,
        Key={"pk": {"S": OP}, "sk": {"S": "LEDGER"}},
        UpdateExpression="SET #s = :c, success = :t",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":c": {"S": "completed"}, ":t": {"BOOL": True}},
    )
    del held

    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.replay is None


def test_a_claim_completed_by_the_steps_own_transaction_holds_no_attempt(
    ledger: DynamoLedger, dynamodb: Any
) -> None:
    """Completed at once, the entry is no attempt's: no `attempt`, and its `at` (when it was claimed,
    to the second) is its ttl less the ledger's retention."""
    pending = ledger.pending_claim(OP, capability="reminders", step_id="s1", args_hash="abc", at=T0)
    pending.completed_as(lambda _written: RESULT)
    dynamodb.transact_write_items(TransactItems=[pending.entry_for(["r-1"])])
    pending.sent()

    stored = items(dynamodb)["LEDGER"]
    assert pending.was_completed and not {"at", "attempt"} & set(stored)
    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.replay == replay_of(RESULT)
    assert entry.at == T0.replace(microsecond=0) and entry.args_hash == "abc"
    with pytest.raises(OperationAlreadyClaimed) as lost:
        claim(ledger)
    assert lost.value.entry is not None and lost.value.entry.at == entry.at
