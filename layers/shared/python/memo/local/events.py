"""Build the events AWS would deliver: API Gateway HTTP API (payload v2) and SQS batches."""

from __future__ import annotations

import base64
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl


def http_api_event(
    method: str, path: str, *, query: str = "", headers: dict[str, str] | None = None, body: bytes = b""
) -> dict[str, Any]:
    try:
        text, is_base64 = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, is_base64 = base64.b64encode(body).decode(), True
    lowered = {k.lower(): v for k, v in (headers or {}).items()}
    params = dict(parse_qsl(query, keep_blank_values=True))
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": query,
        "headers": lowered,
        "queryStringParameters": params or None,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": "127.0.0.1",
            "domainPrefix": "local",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "127.0.0.1",
                "userAgent": lowered.get("user-agent", "local"),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": f"{method} {path}",
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime()),
            "timeEpoch": int(time.time() * 1000),
        },
        "body": text or None,
        "isBase64Encoded": is_base64,
    }


def sqs_event(messages: list[dict[str, Any]], queue_arn: str, region: str = "us-east-1") -> dict[str, Any]:
    """An SQS event as Lambda's event source mapping delivers it, from `receive_message` results."""
    records = []
    for message in messages:
        attributes = message.get("Attributes", {})
        records.append(
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": {
                    "ApproximateReceiveCount": attributes.get("ApproximateReceiveCount", "1"),
                    "SentTimestamp": attributes.get("SentTimestamp", str(int(time.time() * 1000))),
                    "SenderId": attributes.get("SenderId", "local"),
                    "ApproximateFirstReceiveTimestamp": attributes.get(
                        "ApproximateFirstReceiveTimestamp", str(int(time.time() * 1000))
                    ),
                    "MessageGroupId": attributes.get("MessageGroupId", ""),
                    "MessageDeduplicationId": attributes.get("MessageDeduplicationId", ""),
                    "SequenceNumber": attributes.get("SequenceNumber", "0"),
                },
                "messageAttributes": {},
                "md5OfBody": message.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": region,
            }
        )
    return {"Records": records}
