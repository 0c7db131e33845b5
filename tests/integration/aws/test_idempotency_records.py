"""The turn's idempotency records (`memo.aws.idempotency`) on moto's DynamoDB: Powertools' claim in a
shorter request, with the same outcome in every case — a new message is claimed; a message being
turned elsewhere (live lock) or already turned is refused and its record returned; an expired record
or an expired in-progress lock is taken over — and records written the released way (Powertools' own
requests, the same key and attribute names) are honoured as they are."""

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


def test_a_new_message_is_claimed_and_a_concurrent_duplicate_is_refused(dynamodb: Any) -> None:
    first, second = _layer(dynamodb), _layer(dynamodb)
    first.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    held = _refused(second)
    assert held is not None and held.status == INPROGRESS
    record = _record(dynamodb)
    assert record["status"] == {"S": INPROGRESS} and record["id"]["S"] == KEY


def test_a_turned_message_is_refused_even_after_its_lock_time(dynamodb: Any) -> None:
    """A completed record keeps the in-progress expiry its run wrote: once that time has passed, the
    claim must still be refused (status COMPLETED), for the record's whole life."""
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS)
    persistence.save_success(data=MESSAGE, result={"outcome": "smalltalk_hello", "sent": True})
    held = _refused(_layer(dynamodb))
    assert held.status == COMPLETED and json.loads(held.response_data)["outcome"] == "smalltalk_hello"


def test_an_expired_in_progress_lock_is_taken_over(dynamodb: Any) -> None:
    """A run that died (Lambda timeout) leaves its record INPROGRESS; once its lock expired, the
    redelivery takes it over."""
    _layer(dynamodb).save_inprogress(data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS)
    _layer(dynamodb).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert int(_record(dynamodb)["in_progress_expiration"]["N"]) > time.time() * 1000 + 20_000


def test_an_expired_record_is_taken_over(dynamodb: Any) -> None:
    # DynamoDB deletes expired items late: one past its expiry is as good as gone.
    past = str(int(time.time()) - 1)
    dynamodb.put_item(
        TableName=TABLE,
        Item={"id": {"S": KEY}, "expiration": {"N": past}, "status": {"S": COMPLETED}, "data": {"S": "{}"}},
    )
    _layer(dynamodb).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert _record(dynamodb)["status"] == {"S": INPROGRESS}


def test_records_the_released_code_wrote_are_honoured(dynamodb: Any) -> None:
    """Before this release the claim and the completion were Powertools' own requests: the record
    they leave (same key, same attributes) refuses a redelivery, whatever state it is in."""
    released = _layer(dynamodb, DynamoDBPersistenceLayer)
    released.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert _refused(_layer(dynamodb)).status == INPROGRESS  # being turned by the released code
    released.save_success(data=MESSAGE, result={"outcome": "hitl_approval", "sent": True})
    stored = _record(dynamodb)
    assert set(stored) == {"id", "expiration", "status", "in_progress_expiration", "data"}
    held = _refused(_layer(dynamodb))
    assert held.status == COMPLETED and json.loads(held.response_data) == {
        "outcome": "hitl_approval",
        "sent": True,
    }


def test_the_released_code_reads_the_records_this_one_writes(dynamodb: Any) -> None:
    """Both ways: a Lambda still on the released code during a deploy refuses what this one claimed."""
    ours = _layer(dynamodb)
    ours.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == INPROGRESS
    ours.save_success(data=MESSAGE, result={"outcome": "smalltalk_hello", "sent": True})
    assert _refused(_layer(dynamodb, DynamoDBPersistenceLayer)).status == COMPLETED


def test_the_turn_completes_its_own_lock_in_its_transaction_and_a_lost_lock_cannot(dynamodb: Any) -> None:
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=LOCK_RAN_OUT_MS)
    completion = persistence.completion_for({"outcome": "hitl_approval", "sent": True})
    _layer(dynamodb).save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)  # taken over
    with pytest.raises(dynamodb.exceptions.TransactionCanceledException):
        dynamodb.transact_write_items(TransactItems=[completion])
    assert _record(dynamodb)["status"] == {"S": INPROGRESS}

    holder = _layer(dynamodb)
    dynamodb.delete_item(TableName=TABLE, Key={"id": {"S": KEY}})
    holder.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    dynamodb.transact_write_items(
        TransactItems=[holder.completion_for({"outcome": "hitl_approval", "sent": True})]
    )
    record = _record(dynamodb)
    assert record["status"] == {"S": COMPLETED}
    assert json.loads(record["data"]["S"]) == {"outcome": "hitl_approval", "sent": True}


def _wire(params: dict[str, Any]) -> int:
    return len(json.dumps(params, separators=(",", ":")))


def test_the_claim_and_the_completion_are_short_on_the_wire(dynamodb: Any) -> None:
    """Per turn: the claim was 711 bytes and the completion in the turn's transaction 538 (this
    result), Powertools' own completion 465, with its long expression and attribute placeholders."""
    recording = _Recording(dynamodb)
    persistence = _layer(recording)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    ((operation, claim),) = recording.requests
    assert operation == "put_item" and _wire(claim) <= 550, claim
    completion = persistence.completion_for({"outcome": "hitl_approval", "sent": True})
    assert _wire(completion) <= 460, completion
    persistence.save_success(data=MESSAGE, result={"outcome": "silent", "sent": False})
    operation, update = recording.requests[-1]
    assert operation == "update_item" and _wire(update) <= 370, update


def test_the_records_expire_by_the_tables_ttl_attribute(dynamodb: Any) -> None:
    """DynamoDB deletes the records by the table's TTL attribute (`memo.tables`, the CDK stack):
    the attribute the claim writes and conditions on must be that one."""
    persistence = _layer(dynamodb)
    persistence.save_inprogress(data=MESSAGE, remaining_time_in_millis=30_000)
    ttl = dynamodb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == tables.IDEMPOTENCY.ttl_attribute == persistence.expiry_attr
    assert int(_record(dynamodb)[ttl["AttributeName"]]["N"]) > time.time() + 7 * 86400
