"""The DynamoDB ledger: conditional claim, completion with its result item, release, TTLs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.ledger_table import DynamoLedger
from memo.capabilities.base import ExecutionResult
from memo.executor.ledger import ClaimLost, OperationAlreadyClaimed, result_hash
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


def test_complete_stores_a_pii_safe_entry_and_the_full_result_apart(
    ledger: DynamoLedger, dynamodb: Any
) -> None:
    held = claim(ledger)
    ledger.complete(held, RESULT, at=T0 + timedelta(seconds=2))

    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.success is True
    assert entry.result_hash == result_hash(RESULT)
    assert entry.external_ids == {"reminderId": "r-1", "scheduleNames": ["reminder-r-1"]}
    assert ledger.result(OP) == RESULT

    stored = items(dynamodb)
    assert "call mom" not in str(stored["LEDGER"])
    assert set(stored["LEDGER"]) >= {"capability", "argsHash", "at", "status", "ttl", "resultHash"}
    assert entry.step_id == OP.rsplit(":", 1)[1]  # not stored: the operation's id ends with it
    assert int(stored["LEDGER"]["ttl"]["N"]) == int((T0 + timedelta(days=14)).timestamp())
    assert int(stored["RESULT"]["ttl"]["N"]) == int((T0 + timedelta(days=2, seconds=2)).timestamp())


def test_a_claim_completes_only_once(ledger: DynamoLedger) -> None:
    held = claim(ledger)
    ledger.complete(held, RESULT, at=T0)
    with pytest.raises(ClaimLost):
        ledger.complete(held, RESULT.model_copy(update={"summary": "other"}), at=T0)
    assert ledger.result(OP) == RESULT


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


def test_no_entry_and_no_result_read_as_none(ledger: DynamoLedger) -> None:
    assert ledger.get("nope:s1") is None
    assert ledger.result("nope:s1") is None


def test_a_result_too_large_for_its_item_is_kept_without_its_data(
    ledger: DynamoLedger, dynamodb: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The executor holds results far smaller (`memo.executor.results`); should one still not fit
    DynamoDB's item limit, its data stays out of the ledger, and the log says so."""
    held = claim(ledger)
    huge = RESULT.model_copy(update={"data": {"notes": ["x" * 300_000, "y" * 300_000]}})
    ledger.complete(held, huge, at=T0 + timedelta(seconds=2))

    stored = ledger.result(OP)
    assert stored is not None and stored.data == {"truncated": True}
    assert stored.summary == RESULT.summary and stored.external_ids == RESULT.external_ids
    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed"
    assert "ITEM_TOO_LARGE" in caplog.text and "LEDGER_RESULT_KEPT_WITHOUT_DATA" in caplog.text
