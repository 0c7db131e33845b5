"""In-process moto takes one request at a time, so a concurrency test measures Memo, not moto."""

from __future__ import annotations

import contextlib
import threading

import boto3
from moto import mock_aws

from memo.local import moto_fit


def _table(client: object) -> None:
    client.create_table(  # type: ignore[attr-defined]
        TableName="t",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


def test_a_request_waits_while_another_is_inside_moto() -> None:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        _table(client)
        done = threading.Event()

        def put() -> None:
            client.put_item(TableName="t", Item={"pk": {"S": "a"}})
            done.set()

        with moto_fit._MOTO_LOCK:
            worker = threading.Thread(target=put)
            worker.start()
            assert not done.wait(0.3), "moto served a request while another held it"
        worker.join(5)
        assert done.is_set()
        assert client.get_item(TableName="t", Key={"pk": {"S": "a"}})["Item"]["pk"]["S"] == "a"


def test_a_cancelled_transaction_never_erases_a_concurrent_write() -> None:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        _table(client)
        client.put_item(TableName="t", Item={"pk": {"S": "guard"}})

        def cancelled(n: int) -> None:
            for _ in range(20):
                with contextlib.suppress(client.exceptions.TransactionCanceledException):
                    client.transact_write_items(
                        TransactItems=[
                            {"Put": {"TableName": "t", "Item": {"pk": {"S": f"tx{n}"}}}},
                            {
                                "Put": {
                                    "TableName": "t",
                                    "Item": {"pk": {"S": "guard"}},
                                    "ConditionExpression": "attribute_not_exists(pk)",
                                }
                            },
                        ]
                    )

        def writes(n: int) -> None:
            for i in range(20):
                client.put_item(TableName="t", Item={"pk": {"S": f"w{n}-{i}"}})

        threads = [threading.Thread(target=cancelled, args=(n,)) for n in range(3)]
        threads += [threading.Thread(target=writes, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        keys = {item["pk"]["S"] for item in client.scan(TableName="t")["Items"]}
        assert {f"w{n}-{i}" for n in range(3) for i in range(20)} <= keys
        assert not any(key.startswith("tx") for key in keys)


def test_serialising_twice_wraps_once() -> None:
    from moto.core.botocore_stubber import BotocoreStubber

    moto_fit.fit_moto()
    wrapped = BotocoreStubber.process_request
    moto_fit.fit_moto()
    assert BotocoreStubber.process_request is wrapped
