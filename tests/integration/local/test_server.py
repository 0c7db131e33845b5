"""The local HTTP server: /webhook to the webhook handler as an API Gateway event, the Graph API sink
behind Meta's access-token check, and the outbox readers poll."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from memo.local.server import LocalServer
from memo.local.sink import GraphSink

TOKEN = "local-token"


class Webhook:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        self.events.append(event)
        return {"statusCode": 200, "headers": {"Content-Type": "text/plain"}, "body": "ok"}


@pytest.fixture
def server() -> Iterator[tuple[LocalServer, Webhook]]:
    webhook = Webhook()
    local = LocalServer(host="127.0.0.1", port=0, webhook=webhook, sink=GraphSink(), access_token=TOKEN)
    local.start()
    yield local, webhook
    local.stop()


def _request(url: str, *, body: bytes | None = None, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(
        url, data=body, headers=headers, method="POST" if body is not None else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_a_webhook_post_reaches_the_handler_as_an_http_api_event(server: tuple[LocalServer, Webhook]) -> None:
    local, webhook = server
    assert _request(f"{local.base_url}/webhook?x=1", body=b'{"a":1}') == (200, b"ok")
    [event] = webhook.events
    assert (event["routeKey"], event["body"], event["queryStringParameters"]) == (
        "POST /webhook",
        '{"a":1}',
        {"x": "1"},
    )


def test_the_graph_api_needs_the_token_and_hands_messages_to_the_sink(
    server: tuple[LocalServer, Webhook],
) -> None:
    local, _ = server
    url = f"{local.base_url}/graph/v21.0/100000000000001/messages"
    message = json.dumps({"to": "972501234567", "type": "text", "text": {"body": "hi"}}).encode()
    assert _request(url, body=message)[0] == 401
    status, answer = _request(url, body=message, token=TOKEN)
    [record] = local.sink.messages(to="972501234567")
    assert status == 200 and json.loads(answer)["messages"] == [{"id": record.message_id}]
    status, outbox = _request(f"{local.base_url}/_local/outbox?to=972501234567&after=-1")
    assert json.loads(outbox) == [{"index": 0, "body": json.loads(message)}]
    assert _request(f"{local.base_url}/nowhere")[0] == 404
