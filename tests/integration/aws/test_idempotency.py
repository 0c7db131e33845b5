"""The turn's idempotency records (`memo.aws.idempotency`) on moto's DynamoDB: Powertools' claim costs
no request, and the record is written once, COMPLETED, by the turn's transaction (or Powertools'
completion of a turn that records nothing). A write refused by the record reads it once to say why:
a message already turned raises `AlreadyTurned` with what its run stored, one the released code is
turning (a live INPROGRESS lock) raises Powertools' in-progress error, and an expired record or an
expired lock is taken over by the same write again; of two runs of one message, only the first
write lands. Records written the released way (Powertools' own requests, the same key and attribute
names) are honoured as they are, and the released code honours the records this one writes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyItemAlreadyExistsError,
)
from moto import mock_aws

from memo import tables
from memo.aws.idempotency import COMPLETED, INPROGRESS, TurnIdempotency
from memo.errors import AlreadyTurned

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
RESULT = {"outcome": "hitl_approval", "sent": True}


def _layer(client: Any, layer: type[DynamoDBPersistenceLayer] = TurnIdempotency) -> Any:
    persistence = layer(table_name=TABLE, boto3_client=client)
    persistence.configure(CONFIG, function_name=FUNCTION)
    return persistence


def _claimed(client: Any) -> Any:
    """A run of this release, past Powertools' claim."""
    persistence = _layer(client)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    return persistence


def _record(dynamodb: Any) -> dict[str, Any]:
    (item,) = dynamodb.scan(TableName=TABLE)["Items"]
    return dict(item)


def _refused(persistence: Any, remaining_ms: int = 30_000) -> Any:
    """The released code's claim (Powertools' conditional put), refused with the record."""
    with pytest.raises(IdempotencyItemAlreadyExistsError) as refused:
        persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=remaining_ms)
    return refused.value.old_data_record


def _turned(persistence: Any, dynamodb: Any, result: dict[str, Any]) -> None:
    """The turn's transaction, holding only the record's completion, as the conversation store runs
    it: a refused write asks the layer why, and is written again once when the record was dead."""
    for _ in range(2):
        try:
            dynamodb.transact_write_items(TransactItems=[persistence.completion_for(result)])
        except dynamodb.exceptions.TransactionCanceledException:
            persistence.check()
        else:
            return
    raise AssertionError("written twice and refused twice")


def test_a_new_message_is_claimed_by_its_turns_write_alone(dynamodb: Any) -> None:
    recording = _Recording(dynamodb)
    persistence = _claimed(recording)
    assert recording.requests == []  # no read, no put before the turn
    _turned(persistence, recording, RESULT)
    assert [operation for operation, _ in recording.requests] == ["transact_write_items"]
    record = _record(dynamodb)
    assert record["status"] == {"S": COMPLETED} and record["id"]["S"] == KEY
    # A redelivery turns the message again up to its write, which is refused: it gets the result.
    with pytest.raises(AlreadyTurned) as turned:
        _turned(_claimed(dynamodb), dynamodb, {"outcome": "hitl_stale_reply", "sent": True})
    assert turned.value.result == RESULT
    assert json.loads(_record(dynamodb)["data"]["S"]) == RESULT


def test_of_two_runs_of_one_message_only_the_first_write_lands(dynamodb: Any) -> None:
    first, second = _claimed(dynamodb), _claimed(dynamodb)
    _turned(second, dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    with pytest.raises(AlreadyTurned):
        _turned(first, dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    assert json.loads(_record(dynamodb)["data"]["S"]) == {"outcome": "smalltalk_hello", "sent": True}


def test_a_turned_message_is_refused_for_the_records_whole_life(dynamodb: Any) -> None:
    persistence = _claimed(dynamodb)
    persistence.save_success(data=MESSAGE, result={"outcome": "smalltalk_hello", "sent": True})
    with pytest.raises(AlreadyTurned) as turned:
        _claimed(dynamodb).check()  # before a side effect no write of the turn claims
    assert turned.value.result["outcome"] == "smalltalk_hello"
    with pytest.raises(AlreadyTurned):
        _turned(_claimed(dynamodb), dynamodb, RESULT)


def test_a_message_the_released_code_is_turning_is_refused(dynamodb: Any) -> None:
    """A deploy: the released code claimed the message with Powertools' INPROGRESS put and holds a
    live lock; this one stops there (the consumer fails the record so SQS redelivers it)."""
    _layer(dynamodb, DynamoDBPersistenceLayer).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    with pytest.raises(IdempotencyAlreadyInProgressError):
        _turned(_claimed(dynamodb), dynamodb, RESULT)
    with pytest.raises(IdempotencyAlreadyInProgressError):
        _claimed(dynamodb).check()
    assert _record(dynamodb)["status"] == {"S": INPROGRESS}


def test_an_expired_in_progress_lock_is_taken_over(dynamodb: Any) -> None:
    """A run of the released code that died (Lambda timeout) left its record INPROGRESS; once its lock
    expired, the redelivery's turn takes it over."""
    _layer(dynamodb, DynamoDBPersistenceLayer).save_inprogress(
        data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS
    )
    recording = _Recording(dynamodb)
    _turned(_claimed(recording), recording, RESULT)
    assert [operation for operation, _ in recording.requests] == [
        "transact_write_items",  # refused by the dead lock
        "get_item",  # which says why
        "transact_write_items",  # taken over
    ]
    assert _record(dynamodb)["status"] == {"S": COMPLETED}


def test_an_expired_record_is_taken_over_and_a_live_one_written_meanwhile_is_not(dynamodb: Any) -> None:
    # DynamoDB deletes expired items late: one past its expiry is as good as gone.
    past = str(int(time.time()) - 1)
    dead = {"id": {"S": KEY}, "expiration": {"N": past}, "status": {"S": COMPLETED}, "data": {"S": "{}"}}
    dynamodb.put_item(TableName=TABLE, Item=dead)
    late, taker = _claimed(dynamodb), _claimed(dynamodb)
    _claimed(dynamodb).check()  # dead: nothing to stop at
    _turned(taker, dynamodb, RESULT)
    assert _record(dynamodb)["status"] == {"S": COMPLETED}
    with pytest.raises(AlreadyTurned):  # the record lives again
        _turned(late, dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    assert json.loads(_record(dynamodb)["data"]["S"]) == RESULT


def test_a_failed_turn_leaves_nothing_behind(dynamodb: Any) -> None:
    """Powertools deletes the claim of a turn that raised: there is none, so nothing is written and
    the redelivery turns the message."""
    recording = _Recording(dynamodb)
    persistence = _claimed(recording)
    persistence.delete_record(data=MESSAGE, exception=RuntimeError("boom"))
    assert recording.requests == []
    _turned(_claimed(dynamodb), dynamodb, RESULT)
    assert _record(dynamodb)["status"] == {"S": COMPLETED}


def test_records_the_released_code_wrote_are_honoured(dynamodb: Any) -> None:
    """Before this release the claim and the completion were Powertools' own requests: the record
    they leave (same key, same attributes) refuses a redelivery."""
    released = _layer(dynamodb, DynamoDBPersistenceLayer)
    released.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    released.save_success(data=MESSAGE, result=RESULT)
    stored = _record(dynamodb)
    assert set(stored) == {"id", "expiration", "status", "in_progress_expiration", "data"}
    with pytest.raises(AlreadyTurned) as turned:
        _turned(_claimed(dynamodb), dynamodb, {"outcome": "smalltalk_hello", "sent": True})
    assert turned.value.result == RESULT


def test_the_released_code_refuses_the_records_this_one_writes(dynamodb: Any) -> None:
    """Both ways, during a deploy: a record this release wrote, in a turn's transaction or by
    Powertools' completion, refuses a claim of the released code."""
    _turned(_claimed(dynamodb), dynamodb, RESULT)
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == COMPLETED
    dynamodb.delete_item(TableName=TABLE, Key={"id": {"S": KEY}})
    _claimed(dynamodb).save_success(data=MESSAGE, result={"outcome": "silent", "sent": False})
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == COMPLETED


def _wire(params: dict[str, Any]) -> int:
    return len(json.dumps(params, separators=(",", ":")))


def test_a_turn_writes_its_record_once_and_briefly(dynamodb: Any) -> None:
    """Per turn: Powertools' claim was a 711-byte put and its completion a 465-byte update; the claim
    is now no request, and the record is written once, in the turn's transaction (this result) or by
    Powertools' completion of a turn that records nothing."""
    recording = _Recording(dynamodb)
    persistence = _claimed(recording)
    completion = persistence.completion_for(RESULT)
    assert _wire(completion) <= 300, completion
    persistence.save_success(data=MESSAGE, result={"outcome": "silent", "sent": False})
    ((operation, put),) = recording.requests
    # Its condition (never over a live record) is on the silent paths only, not on a question's.
    assert operation == "put_item" and _wire(put) <= 400, put


def test_the_records_expire_by_the_tables_ttl_attribute(dynamodb: Any) -> None:
    """DynamoDB deletes the records by the table's TTL attribute (`memo.tables`, the CDK stack):
    the attribute the record is written with and a refused write reads must be that one."""
    persistence = _claimed(dynamodb)
    _turned(persistence, dynamodb, RESULT)
    ttl = dynamodb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == tables.IDEMPOTENCY.ttl_attribute == persistence.expiry_attr
    assert int(_record(dynamodb)[ttl["AttributeName"]]["N"]) > time.time() + 7 * 86400


def test_a_turn_that_records_nothing_never_overwrites_a_live_record(dynamodb: Any) -> None:
    """A redelivered reaction whose question is gone by now takes the silent path: Powertools'
    completion must leave the record the first run wrote (with its start) as it is."""
    first = {"start": "AXj5packed"}
    _turned(_claimed(dynamodb), dynamodb, first)
    _claimed(dynamodb).save_success(data=MESSAGE, result={})
    assert json.loads(_record(dynamodb)["data"]["S"]) == first


class _Context:
    """The Lambda context Powertools reads the remaining time from."""

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def test_powertools_public_idempotency_drives_the_layer(dynamodb: Any) -> None:
    """The contract with Powertools: `idempotent_function` claims through `_put_record` (no request),
    completes through `_update_record` (nothing when the turn's transaction wrote the record) and,
    for a turn that raised, `_delete_record` (nothing); the turn's own errors reach the caller."""
    recording = _Recording(dynamodb)
    persistence = TurnIdempotency(table_name=TABLE, boto3_client=recording)
    config = IdempotencyConfig(event_key_jmespath="wamid", raise_on_no_idempotency_key=True)
    config.register_lambda_context(_Context())

    started: list[int] = []  # the requests made when each run of the turn starts

    @idempotent_function(data_keyword_argument="message", persistence_store=persistence, config=config)
    def turn(message: dict[str, Any]) -> dict[str, Any]:
        started.append(len(recording.requests))
        _turned(persistence, recording, RESULT)
        persistence.completed_in_transaction()
        return RESULT

    assert turn(message=MESSAGE) == RESULT
    assert [operation for operation, _ in recording.requests] == ["transact_write_items"]
    with pytest.raises(AlreadyTurned) as again:
        turn(message=MESSAGE)  # a redelivery: turned up to its write, which is refused
    assert again.value.result == RESULT
    assert started == [0, 1]  # neither claim cost a request
    assert [operation for operation, _ in recording.requests][1:] == ["transact_write_items", "get_item"]
    assert json.loads(_record(dynamodb)["data"]["S"]) == RESULT
