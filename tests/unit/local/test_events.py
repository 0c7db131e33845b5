"""The events the local runtime hands the handlers have the shapes Lambda delivers: API Gateway's HTTP
API payload v2 (headers lower-cased, query parsed, a binary body base64) and an SQS batch."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st

from memo.local.events import http_api_event, sqs_event


def test_an_http_api_event_is_payload_version_2() -> None:
    event = http_api_event(
        "GET",
        "/webhook",
        query="hub.mode=subscribe&hub.challenge=",
        headers={"User-Agent": "meta", "X-A": "1"},
    )
    assert (event["version"], event["routeKey"], event["rawPath"]) == ("2.0", "GET /webhook", "/webhook")
    assert event["headers"] == {"user-agent": "meta", "x-a": "1"}
    assert event["queryStringParameters"] == {"hub.mode": "subscribe", "hub.challenge": ""}
    assert event["requestContext"]["http"]["method"] == "GET"
    assert event["requestContext"]["http"]["userAgent"] == "meta"
    assert (event["body"], event["isBase64Encoded"]) == (None, False)


def test_without_a_query_the_parameters_are_absent() -> None:
    assert http_api_event("POST", "/webhook", body=b"{}")["queryStringParameters"] is None


@given(st.binary())
def test_a_body_comes_back_as_it_was_sent(body: bytes) -> None:
    event = http_api_event("POST", "/webhook", body=body)
    if event["isBase64Encoded"]:
        assert base64.b64decode(event["body"]) == body
    else:
        assert (event["body"] or "").encode("utf-8") == body


def test_an_sqs_event_keeps_each_messages_fifo_attributes_in_order() -> None:
    received = [
        {
            "MessageId": f"m{n}",
            "ReceiptHandle": f"h{n}",
            "Body": f'{{"n":{n}}}',
            "MD5OfBody": "x",
            "Attributes": {
                "MessageGroupId": "972501234567",
                "SequenceNumber": str(n),
                "ApproximateReceiveCount": "2",
            },
        }
        for n in range(3)
    ]
    event = sqs_event(received, "arn:aws:sqs:eu-west-1:123456789012:memo-turns.fifo", region="eu-west-1")
    assert [r["messageId"] for r in event["Records"]] == ["m0", "m1", "m2"]
    first = event["Records"][0]
    assert (first["receiptHandle"], first["body"], first["eventSource"], first["awsRegion"]) == (
        "h0",
        '{"n":0}',
        "aws:sqs",
        "eu-west-1",
    )
    assert first["attributes"]["MessageGroupId"] == "972501234567"
    assert first["attributes"]["ApproximateReceiveCount"] == "2"
    assert first["eventSourceARN"].endswith(":memo-turns.fifo")


def test_an_sqs_message_without_attributes_reads_as_a_first_delivery() -> None:
    [record] = sqs_event([{"MessageId": "m", "ReceiptHandle": "h", "Body": "{}"}], "arn")["Records"]
    assert record["attributes"]["ApproximateReceiveCount"] == "1"
    assert record["attributes"]["MessageGroupId"] == ""
