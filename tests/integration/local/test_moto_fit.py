"""In-process moto as the local stack fits it (`memo.local.moto_fit`) answers what moto answers.

Each part is compared with moto's own: a failed transaction still leaves every item exactly as it
was (moto deep-copied the tables; the fit saves the transaction's items), attribute values read
back as moto's serializer writes them, and a Query answers what moto's table-wide scan answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.dynamodb.models import dynamodb_backends

from memo.local import moto_fit

ACCOUNT = "123456789012"


@pytest.fixture
def client() -> Iterator[Any]:
    moto_fit.fit_moto()
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        dynamodb.create_table(
            TableName="t",
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        dynamodb.create_table(
            TableName="flat",
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        yield dynamodb


def _put(client: Any, sk: str, **attrs: str) -> None:
    item = {"pk": {"S": "p"}, "sk": {"S": sk}} | {name: {"S": value} for name, value in attrs.items()}
    client.put_item(TableName="t", Item=item)


def _everything(client: Any) -> dict[str, Any]:
    items = client.scan(TableName="t")["Items"] + client.scan(TableName="flat")["Items"]
    return {(item.get("sk") or item["id"])["S"]: item for item in items}


def _key(sk: str) -> dict[str, Any]:
    return {"pk": {"S": "p"}, "sk": {"S": sk}}


def _failing_at_the_end(*entries: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries, then a condition that fails: moto applies the entries before it finds out."""
    return [
        *entries,
        {
            "ConditionCheck": {
                "TableName": "t",
                "Key": _key("guard"),
                "ConditionExpression": "v = :no",
                "ExpressionAttributeValues": {":no": {"S": "no"}},
            }
        },
    ]


def test_a_cancelled_transaction_leaves_every_item_as_it_was(client: Any) -> None:
    _put(client, "guard", v="yes")
    _put(client, "updated", v="before", extra="kept")
    _put(client, "replaced", v="before")
    _put(client, "deleted", v="before")
    _put(client, "bystander", v="before")
    client.put_item(TableName="flat", Item={"id": {"S": "flat-updated"}, "v": {"S": "before"}})
    before = _everything(client)

    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(
            TransactItems=_failing_at_the_end(
                {
                    "Update": {
                        "TableName": "t",
                        "Key": _key("updated"),
                        "UpdateExpression": "SET v = :a REMOVE extra",
                        "ExpressionAttributeValues": {":a": {"S": "after"}},
                    }
                },
                {"Put": {"TableName": "t", "Item": {**_key("replaced"), "w": {"S": "after"}}}},
                {"Put": {"TableName": "t", "Item": {**_key("created"), "v": {"S": "after"}}}},
                {"Delete": {"TableName": "t", "Key": _key("deleted")}},
                {
                    "Update": {
                        "TableName": "flat",
                        "Key": {"id": {"S": "flat-updated"}},
                        "UpdateExpression": "SET v = :a",
                        "ExpressionAttributeValues": {":a": {"S": "after"}},
                    }
                },
                {"Put": {"TableName": "flat", "Item": {"id": {"S": "flat-created"}}}},
            )
        )

    assert _everything(client) == before


def test_a_transaction_that_holds_writes_every_entry(client: Any) -> None:
    _put(client, "updated", v="before")
    _put(client, "deleted", v="before")
    client.transact_write_items(
        TransactItems=[
            {
                "Update": {
                    "TableName": "t",
                    "Key": _key("updated"),
                    "UpdateExpression": "SET v = :a",
                    "ConditionExpression": "v = :b",
                    "ExpressionAttributeValues": {":a": {"S": "after"}, ":b": {"S": "before"}},
                }
            },
            {
                "Put": {
                    "TableName": "t",
                    "Item": {**_key("created"), "v": {"S": "after"}},
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            {"Delete": {"TableName": "t", "Key": _key("deleted")}},
        ]
    )
    items = _everything(client)
    assert items["updated"]["v"]["S"] == "after"
    assert items["created"]["v"]["S"] == "after"
    assert "deleted" not in items


def test_moto_refusing_the_transaction_midway_undoes_what_it_had_applied(client: Any) -> None:
    _put(client, "updated", v="before")
    before = _everything(client)
    # Two entries on one item: moto applies the first, then refuses the whole transaction.
    with pytest.raises(client.exceptions.ClientError, match="ValidationException"):
        client.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": "t",
                        "Key": _key("updated"),
                        "UpdateExpression": "SET v = :a",
                        "ExpressionAttributeValues": {":a": {"S": "after"}},
                    }
                },
                {"Put": {"TableName": "t", "Item": {**_key("created")}}},
                {"Delete": {"TableName": "t", "Key": _key("updated")}},
            ]
        )
    assert _everything(client) == before


def test_the_failed_entry_is_reported_with_the_item_as_it_stood(client: Any) -> None:
    _put(client, "guard", v="yes")
    with pytest.raises(client.exceptions.TransactionCanceledException) as failed:
        client.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": "t", "Item": {**_key("created")}}},
                {
                    "ConditionCheck": {
                        "TableName": "t",
                        "Key": _key("guard"),
                        "ConditionExpression": "v = :no",
                        "ExpressionAttributeValues": {":no": {"S": "no"}},
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
            ]
        )
    reasons = failed.value.response["CancellationReasons"]
    assert [reason["Code"] for reason in reasons] == ["None", "ConditionalCheckFailed"]
    assert reasons[1]["Item"]["v"] == {"S": "yes"}


def test_no_table_is_copied_to_roll_back(client: Any) -> None:
    backend = dynamodb_backends[ACCOUNT]["us-east-1"]
    table = backend.tables["t"]
    _put(client, "guard", v="yes")
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(
            TransactItems=_failing_at_the_end({"Put": {"TableName": "t", "Item": _key("x")}})
        )
    client.transact_write_items(TransactItems=[{"Put": {"TableName": "t", "Item": _key("y")}}])
    assert backend.tables["t"] is table
    assert set(_everything(client)) == {"guard", "y"}


def test_installing_twice_wraps_once() -> None:
    from moto.dynamodb.models import DynamoDBBackend

    moto_fit.fit_moto()
    wrapped = DynamoDBBackend.transact_write_items
    moto_fit.fit_moto()
    assert DynamoDBBackend.transact_write_items is wrapped


# --- attribute values answered as stored ------------------------------------------------------------

EVERY_KIND = {
    "pk": {"S": "p"},
    "sk": {"S": "every kind"},
    "text": {"S": "שלום — “quoted” \u2028 and emoji 🙂"},
    "empty": {"S": ""},
    "number": {"N": "-12.50"},
    "binary": {"B": b"\x00\x01\xff zlib"},
    "yes": {"BOOL": True},
    "no": {"BOOL": False},
    "nothing": {"NULL": True},
    "strings": {"SS": ["a", "b"]},
    "numbers": {"NS": ["1", "2.5"]},
    "binaries": {"BS": [b"x", b"\xfe"]},
    "map": {
        "M": {
            "list": {"L": [{"S": "x"}, {"N": "3"}, {"B": b"\x02"}, {"M": {}}, {"L": []}]},
            "flag": {"BOOL": False},
        }
    },
}


def _answered_by_member(monkeypatch: pytest.MonkeyPatch) -> None:
    from moto.core.serialize import BaseJSONSerializer

    by_member = BaseJSONSerializer._serialize_type_structure._memo_by_member  # type: ignore[attr-defined]
    monkeypatch.setattr(BaseJSONSerializer, "_serialize_type_structure", by_member)


def _reads(client: Any) -> list[Any]:
    key = {"pk": {"S": "p"}, "sk": {"S": "every kind"}}
    return [
        client.get_item(TableName="t", Key=key)["Item"],
        client.query(
            TableName="t", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}}
        )["Items"],
        client.scan(TableName="t")["Items"],
        client.batch_get_item(RequestItems={"t": {"Keys": [key]}})["Responses"],
        client.update_item(
            TableName="t",
            Key=key,
            UpdateExpression="SET #n = #n",
            ExpressionAttributeNames={"#n": "number"},
            ReturnValues="ALL_NEW",
        )["Attributes"],
    ]


def test_attribute_values_are_answered_as_moto_serializes_them(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.put_item(TableName="t", Item=EVERY_KIND)
    as_stored = _reads(client)
    _answered_by_member(monkeypatch)
    assert _reads(client) == as_stored
    assert as_stored[0] == EVERY_KIND


def test_a_failed_condition_returns_the_item_as_moto_serializes_it(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.put_item(TableName="t", Item=EVERY_KIND)

    def refused() -> Any:
        with pytest.raises(client.exceptions.ConditionalCheckFailedException) as failed:
            client.put_item(
                TableName="t",
                Item=EVERY_KIND,
                ConditionExpression="attribute_not_exists(pk)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        return failed.value.response["Item"]

    as_stored = refused()
    _answered_by_member(monkeypatch)
    assert refused() == as_stored == EVERY_KIND


# --- a Query reads its partition --------------------------------------------------------------------


def _queries(client: Any) -> list[Any]:
    def pages(**kwargs: Any) -> list[Any]:
        answers, start = [], None
        while True:
            answer = client.query(TableName="t", **kwargs, **({"ExclusiveStartKey": start} if start else {}))
            answers.append(
                (answer["Items"], answer.get("LastEvaluatedKey"), answer["Count"], answer["ScannedCount"])
            )
            start = answer.get("LastEvaluatedKey")
            if start is None:
                return answers

    mine = {":p": {"S": "p"}}
    return [
        pages(KeyConditionExpression="pk = :p", ExpressionAttributeValues=mine),
        pages(
            KeyConditionExpression="pk = :p", ExpressionAttributeValues=mine, ScanIndexForward=False, Limit=3
        ),
        pages(
            KeyConditionExpression="pk = :p AND begins_with(sk, :m)",
            ExpressionAttributeValues={**mine, ":m": {"S": "MSG#"}},
            ScanIndexForward=False,
            Limit=4,
        ),
        pages(
            KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
            FilterExpression="v <> :odd",
            ProjectionExpression="sk, v",
            ExpressionAttributeValues={
                **mine,
                ":a": {"S": "MSG#03"},
                ":b": {"S": "MSG#08"},
                ":odd": {"S": "1"},
            },
        ),
        pages(KeyConditionExpression="pk = :q", ExpressionAttributeValues={":q": {"S": "nobody"}}),
    ]


def test_a_query_answers_what_moto_answers_scanning_the_table(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moto.dynamodb.models.table import Table

    for partition in ("p", "other", "third"):
        for n in range(10):
            client.put_item(
                TableName="t",
                Item={"pk": {"S": partition}, "sk": {"S": f"MSG#{n:02d}"}, "v": {"S": str(n % 2)}},
            )
        client.put_item(TableName="t", Item={"pk": {"S": partition}, "sk": {"S": "PROFILE"}})
    one_partition = _queries(client)
    monkeypatch.setattr(Table, "query", Table.query._memo_whole_table)  # type: ignore[attr-defined]
    assert _queries(client) == one_partition
    assert [item["sk"]["S"] for item in one_partition[1][0][0]] == ["PROFILE", "MSG#09", "MSG#08"]


def test_a_receive_checks_the_retention_period_as_moto_does() -> None:
    """A message within the queue's retention period is received; one past it is not: the same
    answer as moto's own check, which read every attribute of the queue to find the period."""
    from moto.sqs.models import sqs_backends

    moto_fit.fit_moto()
    with mock_aws():
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="q", Attributes={"MessageRetentionPeriod": "60"})["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="m")
        backend = sqs_backends[ACCOUNT]["us-east-1"]
        fitted: Any = type(backend).is_message_valid_based_on_retention_period
        message: Any
        (message,) = backend.get_queue("q")._messages
        sent = message.sent_timestamp
        for age_ms in (0, 59_000, 61_000):
            message.sent_timestamp = sent - age_ms
            assert fitted(backend, "q", message) is fitted._memo_every_attribute(backend, "q", message)
        message.sent_timestamp = sent
        assert [m["Body"] for m in sqs.receive_message(QueueUrl=url)["Messages"]] == ["m"]
        sqs.send_message(QueueUrl=url, MessageBody="old")
        old: Any = backend.get_queue("q")._messages[-1]
        old.sent_timestamp -= 61_000
        assert sqs.receive_message(QueueUrl=url).get("Messages", []) == []


def test_a_send_counts_no_messages_and_the_queue_still_counts_them() -> None:
    """Sends read none of the queue's message counts (they walked every message queued); the counts
    a caller asks for are moto's."""
    moto_fit.fit_moto()
    with mock_aws():
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(
            QueueName="q.fifo", Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"}
        )["QueueUrl"]
        for n in range(3):
            sqs.send_message(QueueUrl=url, MessageBody=f"m{n}", MessageGroupId="g")
        sqs.send_message(QueueUrl=url, MessageBody="m0", MessageGroupId="g")  # deduplicated by content
        sqs.send_message_batch(
            QueueUrl=url, Entries=[{"Id": "b", "MessageBody": "m3", "MessageGroupId": "g"}]
        )
        counts = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        assert counts["ApproximateNumberOfMessages"] == "4"
        received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        assert [m["Body"] for m in received] == ["m0", "m1", "m2", "m3"]
        counts = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        assert counts["ApproximateNumberOfMessagesNotVisible"] == "4"
