"""The turn's idempotency records (`memo.aws.idempotency`) on moto's DynamoDB: Powertools' claim is a
read, and the record is written once, COMPLETED, by the turn's transaction (or Powertools' completion
of a turn that records nothing). A message already turned, or being turned by the released code (a
live INPROGRESS lock), is refused with its record; an expired record or an expired lock is taken over;
of two runs that read the same empty key, only the first write lands. Records written the released
way (Powertools' own requests, the same key and attribute names) are honoured as they are, and the
released code honours the records this one writes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer, IdempotencyConfig
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyItemAlreadyExistsError
from moto import mock_aws

from memo import tables
from memo.aws.idempotency import COMPLETED, INPROGRESS, TurnIdempotency

TABLE = tables.IDEMPOTENCY.default_name
# As `memo.turn.consumer` configures it: key = the message's wamid, kept 8 days.
CONFIG = IdempotencyConfig(
    event_key_jmespath="wamid", raise_on_no_idempotency_key=True, expires_after_seconds=8 * 86400
)
FUNCTION = "memo.turn.consumer.turn"
MESSAGE = {"wamid": "wamid.HBgLE99C5044CFF0434AA0E7075E412D495E"}
KEY = "test-func.memo.turn.consumer.turn#" + "0f27b8388216fc7078ebb3e80d5094ac"


class _Recording:
    """The DynamoDB client, recording each request's parameters by operation."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.requests: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute) or name.startswith("_") or name == "meta":
            return attribute

        def call(**params: Any) -> Any:
            self.requests.append((name, params))
            return attribute(**params)

        return call


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**tables.IDEMPOTENCY.create_table_kwargs())
        client.update_time_to_live(  # as the CDK stack and the local stack set it up
            TableName=TABLE,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": str(tables.IDEMPOTENCY.ttl_attribute)},
        )
        yield client


# A run whose Lambda time ran out a second ago: its in-progress lock has already expired.
LOCK_RAN_OUT_MS = -1_000


def _layer(client: Any, layer: type[DynamoDBPersistenceLayer] = TurnIdempotency) -> Any:
    persistence = layer(table_name=TABLE, boto3_client=client)
    persistence.configure(CONFIG, function_name=FUNCTION)
    return persistence


def _record(dynamodb: Any) -> dict[str, Any]:
    (item,) = dynamodb.scan(TableName=TABLE)["Items"]
    return dict(item)


def _refused(persistence: Any, remaining_ms: int = 30_000) -> Any:
    with pytest.raises(IdempotencyItemAlreadyExistsError) as refused:
        persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=remaining_ms)
    return refused.value.old_data_record


def _completed(persistence: Any, dynamodb: Any, result: dict[str, Any]) -> None:
    """The turn's transaction, holding only the record's completion."""
    dynamodb.transact_write_items(TransactItems=[persistence.completion_for(result)])


def test_a_new_message_is_claimed_by_a_read_and_written_once_by_its_turn(dynamodb: Any) -> None:
    recording = _Recording(dynamodb)
    persistence = _layer(recording)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert [operation for operation, _ in recording.requests] == ["get_item"]
    assert recording.requests[0][1]["ConsistentRead"] is True  # a completion just written is seen
    assert dynamodb.scan(TableName=TABLE)["Items"] == []  # nothing held before the turn writes
    _completed(persistence, dynamodb, {"outcome": "hitl_approval", "sent": True})
    record = _record(dynamodb)
    assert record["status"] == {"S": COMPLETED} and record["id"]["S"] == KEY
    held = _refused(_layer(dynamodb))
    assert held.status == COMPLETED and json.loads(held.response_data) == {
        "outcome": "hitl_approval",
        "sent": True,
    }


def test_of_two_runs_of_one_message_only_the_first_write_lands(dynamodb: Any) -> None:
    first, second = _layer(dynamodb), _layer(dynamodb)
    first.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    second.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)  # both read an empty key
    _completed(second, dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    with pytest.raises(dynamodb.exceptions.TransactionCanceledException):
        _completed(first, dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    assert json.loads(_record(dynamodb)["data"]["S"]) == {"outcome": "smalltalk_hello", "sent": True}


def test_a_turned_message_is_refused_for_the_records_whole_life(dynamodb: Any) -> None:
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS)
    persistence.save_success(data=MESSAGE, result={"outcome": "smalltalk_hello", "sent": True})
    held = _refused(_layer(dynamodb))
    assert held.status == COMPLETED and json.loads(held.response_data)["outcome"] == "smalltalk_hello"


def test_a_message_the_released_code_is_turning_is_refused(dynamodb: Any) -> None:
    """A deploy: the released code claimed the message with Powertools' INPROGRESS put and holds a
    live lock; this one stops there (Powertools then fails the record so SQS redelivers it)."""
    _layer(dynamodb, DynamoDBPersistenceLayer).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert _refused(_layer(dynamodb)).status == INPROGRESS


def test_an_expired_in_progress_lock_is_taken_over(dynamodb: Any) -> None:
    """A run of the released code that died (Lambda timeout) left its record INPROGRESS; once its lock
    expired, the redelivery takes it over and its turn completes it."""
    _layer(dynamodb, DynamoDBPersistenceLayer).save_inprogress(
        data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS
    )
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    _completed(persistence, dynamodb, {"outcome": "hitl_approval", "sent": True})
    assert _record(dynamodb)["status"] == {"S": COMPLETED}


def test_an_expired_record_is_taken_over_and_a_live_one_written_meanwhile_is_not(dynamodb: Any) -> None:
    # DynamoDB deletes expired items late: one past its expiry is as good as gone.
    past = str(int(time.time()) - 1)
    dead = {"id": {"S": KEY}, "expiration": {"N": past}, "status": {"S": COMPLETED}, "data": {"S": "{}"}}
    dynamodb.put_item(TableName=TABLE, Item=dead)
    late, taker = _layer(dynamodb), _layer(dynamodb)
    late.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    taker.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    _completed(taker, dynamodb, {"outcome": "hitl_approval", "sent": True})
    assert _record(dynamodb)["status"] == {"S": COMPLETED}
    with pytest.raises(dynamodb.exceptions.TransactionCanceledException):  # the record lives again
        _completed(late, dynamodb, {"outcome": "hitl_approval", "sent": True})
    assert json.loads(_record(dynamodb)["data"]["S"]) == {"outcome": "hitl_approval", "sent": True}


def test_a_failed_turn_leaves_nothing_behind(dynamodb: Any) -> None:
    """Powertools deletes the claim of a turn that raised: there is none, so nothing is written and
    the redelivery turns the message."""
    recording = _Recording(dynamodb)
    persistence = _layer(recording)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    persistence.delete_record(data=MESSAGE, exception=RuntimeError("boom"))
    assert [operation for operation, _ in recording.requests] == ["get_item"]
    _layer(dynamodb).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)  # not refused


def test_records_the_released_code_wrote_are_honoured(dynamodb: Any) -> None:
    """Before this release the claim and the completion were Powertools' own requests: the record
    they leave (same key, same attributes) refuses a redelivery."""
    released = _layer(dynamodb, DynamoDBPersistenceLayer)
    released.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    released.save_success(data=MESSAGE, result={"outcome": "hitl_approval", "sent": True})
    stored = _record(dynamodb)
    assert set(stored) == {"id", "expiration", "status", "in_progress_expiration", "data"}
    held = _refused(_layer(dynamodb))
    assert held.status == COMPLETED and json.loads(held.response_data) == {
        "outcome": "hitl_approval",
        "sent": True,
    }


def test_the_released_code_refuses_the_records_this_one_writes(dynamodb: Any) -> None:
    """Both ways, during a deploy: a record this release wrote, in a turn's transaction or by
    Powertools' completion, refuses a claim of the released code."""
    ours = _layer(dynamodb)
    ours.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    _completed(ours, dynamodb, {"outcome": "hitl_approval", "sent": True})
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == COMPLETED
    dynamodb.delete_item(TableName=TABLE, Key={"id": {"S": KEY}})
    ours.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    ours.save_success(data=MESSAGE, result={"outcome": "silent", "sent": False})
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == COMPLETED


def _wire(params: dict[str, Any]) -> int:
    return len(json.dumps(params, separators=(",", ":")))


def test_a_turn_writes_its_record_once_and_briefly(dynamodb: Any) -> None:
    """Per turn: Powertools' claim was a 711-byte put and its completion a 465-byte update; the claim
    is now a read, and the record is written once, in the turn's transaction (this result) or by
    Powertools' completion of a turn that records nothing."""
    recording = _Recording(dynamodb)
    persistence = _layer(recording)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    completion = persistence.completion_for({"outcome": "hitl_approval", "sent": True})
    assert _wire(completion) <= 300, completion
    persistence.save_success(data=MESSAGE, result={"outcome": "silent", "sent": False})
    operation, put = recording.requests[-1]
    assert operation == "put_item" and _wire(put) <= 250, put


def test_the_records_expire_by_the_tables_ttl_attribute(dynamodb: Any) -> None:
    """DynamoDB deletes the records by the table's TTL attribute (`memo.tables`, the CDK stack):
    the attribute the record is written with and the claim reads must be that one."""
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    _completed(persistence, dynamodb, {"outcome": "hitl_approval", "sent": True})
    ttl = dynamodb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == tables.IDEMPOTENCY.ttl_attribute == persistence.expiry_attr
    assert int(_record(dynamodb)[ttl["AttributeName"]]["N"]) > time.time() + 7 * 86400
