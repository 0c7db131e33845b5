"""A cold start of the webhook's ingress, run in a fresh interpreter: the import and the first signed
POST, against the floor doing the same minimal work with nothing but boto3 and Powertools.

A cold start is the import and the first request: work moved from one to the other is not saved,
so these figures time both. As deployed, the WhatsApp secrets are read from Secrets Manager
(WHATSAPP_SECRET_ID) on the first request, and the message is put on the SQS queue. Both calls are
real up to the wire: the clients are built, the requests serialized and signed; only the HTTP send is
answered here (`_answer_aws`), in both the handler and the floor, so neither waits for a network. This module imports only the standard
library at import: `make bench` times `import benchmarks.coldstart as c; c.handler_first_post()`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from typing import Any

SECRET = "bench-app-secret"  # noqa: S105 - the bench's own, signs its own body
SECRET_ID = "memo/whatsapp"  # noqa: S105 - a secret name, not a secret
QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/123456789012/memo-turns.fifo"
WA_ID = "972500000099"
HANDLER_FILE = "functions/webhook/handler.py"


def _environment() -> None:
    """What the deployed webhook Lambda has in its environment (infra/), with test credentials."""
    os.environ.update(
        {
            "WHATSAPP_SECRET_ID": SECRET_ID,
            "TURN_QUEUE_URL": QUEUE_URL,
            "AWS_REGION": "us-east-1",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_SESSION_TOKEN": "testing",
            "POWERTOOLS_SERVICE_NAME": "memo-webhook",
            "POWERTOOLS_METRICS_NAMESPACE": "Memo",
            "POWERTOOLS_LOG_LEVEL": "INFO",
        }
    )
    for name in (
        "AWS_ENDPOINT_URL",
        "POWERTOOLS_METRICS_DISABLED",
        "WHATSAPP_APP_SECRET",
        "WHATSAPP_VERIFY_TOKEN",
    ):
        os.environ.pop(name, None)


def _body() -> bytes:
    """One text message from one user, as Meta posts it."""
    payload = {
        "object": "whatsapp_business_account",
        "entry": [
            {
                "id": "102290129340398",
                "changes": [
                    {
                        "field": "messages",
                        "value": {
                            "messaging_product": "whatsapp",
                            "metadata": {
                                "display_phone_number": "15550783881",
                                "phone_number_id": "106540352242922",
                            },
                            "contacts": [{"profile": {"name": "Dana"}, "wa_id": WA_ID}],
                            "messages": [
                                {
                                    "from": WA_ID,
                                    "id": "wamid.HBgMOTcyNTAwMDAwMDk5FQIAEhgUM0E",
                                    "timestamp": "1767225600",
                                    "type": "text",
                                    "text": {"body": "remind me to call mom tomorrow at 5pm"},
                                }
                            ],
                        },
                    }
                ],
            }
        ],
    }
    return json.dumps(payload).encode()


def _event(body: bytes) -> dict[str, Any]:
    """API Gateway HTTP API (payload v2) POST /webhook, signed as Meta signs it."""
    signature = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    return {
        "version": "2.0",
        "routeKey": "POST /webhook",
        "rawPath": "/webhook",
        "rawQueryString": "",
        "headers": {"content-type": "application/json", "x-hub-signature-256": signature},
        "requestContext": {
            "http": {"method": "POST", "path": "/webhook", "sourceIp": "173.252.0.1"},
            "requestId": "bench-1",
            "stage": "$default",
        },
        "body": body.decode(),
        "isBase64Encoded": False,
    }


class _Context:
    function_name = "memo-webhook"
    memory_limit_in_mb = 512
    aws_request_id = "bench-1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:memo-webhook"


def _answer_aws() -> list[str]:
    """Answer Secrets Manager's GetSecretValue and SQS's SendMessageBatch (JSON protocols) at the HTTP
    send: everything before the wire runs as deployed. Returns the list each call's operation (and
    number of messages) is appended to."""
    from botocore.awsrequest import AWSResponse
    from botocore.httpsession import URLLib3Session

    calls: list[str] = []

    class _Raw:
        def __init__(self, body: bytes) -> None:
            self._body = body

        def stream(self, *_args: Any, **_kwargs: Any) -> Any:
            yield self._body

    def send(_session: Any, request: Any) -> AWSResponse:
        target = dict(request.headers).get("X-Amz-Target", b"")
        operation = (target.decode() if isinstance(target, bytes) else target).rsplit(".", 1)[-1]
        if operation == "GetSecretValue":
            secret = json.dumps({"app_secret": SECRET, "verify_token": "bench-verify-token"})
            document: dict[str, Any] = {
                "ARN": f"arn:aws:secretsmanager:us-east-1:123456789012:secret:{SECRET_ID}",
                "Name": SECRET_ID,
                "SecretString": secret,
                "VersionId": "v1",
            }
            calls.append(operation)
        else:
            entries = json.loads(request.body)["Entries"]
            calls.append(f"{operation}:{len(entries)}")
            document = {
                "Successful": [
                    {"Id": e["Id"], "MessageId": f"m-{e['Id']}", "MD5OfMessageBody": "0" * 32}
                    for e in entries
                ],
                "Failed": [],
            }
        body = json.dumps(document).encode()
        return AWSResponse(request.url, 200, {"x-amzn-requestid": "bench"}, _Raw(body))  # type: ignore[arg-type]

    setattr(URLLib3Session, "send", send)  # noqa: B010
    return calls


EXPECTED_CALLS = ["GetSecretValue", "SendMessageBatch:1"]


def handler_first_post() -> None:
    """Import the webhook handler as Lambda does, then its first POST: answered 200, one message sent."""
    _environment()
    import importlib.util

    spec = importlib.util.spec_from_file_location("handler", HANDLER_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    calls = _answer_aws()
    answer = module.handler(_event(_body()), _Context())
    if answer["statusCode"] != 200 or calls != EXPECTED_CALLS:
        raise RuntimeError(f"the first POST was not accepted: {answer}, calls {calls}")


def floor_first_post() -> None:
    """The floor doing the ingress's minimal work with boto3 and Powertools only: read the app secret,
    check the signature, read the JSON, log, enqueue the message on the FIFO queue, answer 200."""
    _environment()
    import boto3
    from aws_lambda_powertools import Logger

    logger = Logger(service="memo")
    calls = _answer_aws()
    event = _event(_body())
    session = boto3.session.Session()
    region = os.environ["AWS_REGION"]
    secret = session.client("secretsmanager", region_name=region).get_secret_value(SecretId=SECRET_ID)
    app_secret = json.loads(secret["SecretString"])["app_secret"]
    body = event["body"].encode()
    expected = "sha256=" + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(event["headers"]["x-hub-signature-256"].encode(), expected.encode()):
        raise RuntimeError("signature")
    messages = [
        message
        for entry in json.loads(body)["entry"]
        for change in entry["changes"]
        for message in change["value"].get("messages", [])
    ]
    sqs = session.client("sqs", region_name=region)
    sqs.send_message_batch(
        QueueUrl=os.environ["TURN_QUEUE_URL"],
        Entries=[
            {
                "Id": str(index),
                "MessageBody": json.dumps(message),
                "MessageGroupId": hashlib.sha256(message["from"].encode()).hexdigest(),
                "MessageDeduplicationId": message["id"],
            }
            for index, message in enumerate(messages)
        ],
    )
    logger.info("WEBHOOK_ACCEPTED", extra={"messages": len(messages)})
    answer = {"statusCode": 200, "body": json.dumps({"status": "ok", "enqueued": len(messages)})}
    if answer["statusCode"] != 200 or calls != EXPECTED_CALLS:
        raise RuntimeError(f"the floor's POST was not sent: {calls}")
