"""The webhook's ingress runtime: its settings read with the standard library (same variables and rules
as the turn path's `WebhookSettings`), its secrets and queue built on first use, its two routes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from memo.aws import clients, secrets
from memo.errors import ConfigurationError
from memo.ingress.http import WebhookHttp
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES
from memo.ingress.messages import QueuedMessage
from memo.ingress.webhook import sign
from memo.local.events import http_api_event
from memo.settings import WebhookSettings
from memo.wiring import reset_runtime
from memo.wiring.ingress import DEFAULT_MAX_BODY_BYTES, IngressRuntime, IngressSettings


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every AWS client or secret the runtime builds is recorded (and none reaches AWS)."""
    seen: list[str] = []

    def client(service: str, region: str, endpoint_url: str | None) -> Any:
        seen.append(f"client:{service}:{region}:{endpoint_url}")
        return object()

    def secret_json(secret_id: str) -> dict[str, str]:
        seen.append(f"secret:{secret_id}")
        return {"app_secret": "from-secrets-manager", "verify_token": "token-from-secrets-manager"}

    monkeypatch.setattr(clients, "client", client)
    monkeypatch.setattr(secrets, "secret_json", secret_json)
    reset_runtime()
    yield seen
    reset_runtime()


def test_the_ingress_reads_what_the_turn_paths_settings_read() -> None:
    env = {
        "WHATSAPP_APP_SECRET": "app-secret-value",
        "WHATSAPP_VERIFY_TOKEN": "verify-token-value",
        "WHATSAPP_SECRET_ID": "memo/whatsapp",
        "TURN_QUEUE_URL": "https://sqs/q.fifo",
        "MEMO_MAX_BODY_BYTES": "4096",
        "MEMO_MAX_ID_BYTES": "300",
        "AWS_REGION": "eu-west-1",
        "AWS_ENDPOINT_URL": "http://127.0.0.1:5000",
    }
    ingress, webhook = IngressSettings.from_env(env), WebhookSettings.from_env(env)
    assert (ingress.whatsapp.app_secret, ingress.whatsapp.verify_token) == (
        webhook.whatsapp.app_secret.get_secret_value(),
        webhook.whatsapp.verify_token.get_secret_value(),
    )
    assert (ingress.whatsapp_secret_id, ingress.turn_queue_url, ingress.max_body_bytes) == (
        webhook.whatsapp.secret_id,
        webhook.turn_queue_url,
        webhook.max_body_bytes,
    )
    assert ingress.max_id_bytes == webhook.max_id_bytes == 300
    assert (ingress.aws_region, ingress.aws_endpoint_url) == (
        webhook.aws.aws_region,
        webhook.aws.aws_endpoint_url,
    )
    assert "secret-value" not in repr(ingress) and "token-value" not in repr(ingress)  # never logged


def test_empty_means_unset_and_the_defaults_are_the_turn_paths() -> None:
    env = {"TURN_QUEUE_URL": "", "MEMO_MAX_BODY_BYTES": "", "MEMO_MAX_ID_BYTES": "", "AWS_REGION": ""}
    ingress, webhook = IngressSettings.from_env(env), WebhookSettings.from_env(env)
    assert ingress.turn_queue_url is None and webhook.turn_queue_url is None
    assert ingress.max_body_bytes == webhook.max_body_bytes == DEFAULT_MAX_BODY_BYTES
    assert ingress.max_id_bytes == webhook.max_id_bytes == DEFAULT_MAX_ID_BYTES
    assert ingress.aws_region == webhook.aws.aws_region == "us-east-1"


@pytest.mark.parametrize("limit", ["63", "513", "0", "-5", "lots", "1.5"])
def test_an_id_limit_out_of_its_range_names_its_variable_like_the_turn_paths_settings(limit: str) -> None:
    with pytest.raises(ConfigurationError, match="MEMO_MAX_ID_BYTES"):
        IngressSettings.from_env({"MEMO_MAX_ID_BYTES": limit})
    with pytest.raises(ConfigurationError, match="MEMO_MAX_ID_BYTES"):
        WebhookSettings.from_env({"MEMO_MAX_ID_BYTES": limit})


@pytest.mark.parametrize("limit", ["64", "512"])
def test_the_id_limit_takes_both_ends_of_its_range(limit: str) -> None:
    assert IngressSettings.from_env({"MEMO_MAX_ID_BYTES": limit}).max_id_bytes == int(limit)
    assert WebhookSettings.from_env({"MEMO_MAX_ID_BYTES": limit}).max_id_bytes == int(limit)


@pytest.mark.parametrize("limit", ["1023", "0", "-5", "lots", "1.5"])
def test_a_bad_body_limit_names_its_variable_like_the_turn_paths_settings(limit: str) -> None:
    with pytest.raises(ConfigurationError, match="MEMO_MAX_BODY_BYTES"):
        IngressSettings.from_env({"MEMO_MAX_BODY_BYTES": limit})
    with pytest.raises(ConfigurationError, match="MEMO_MAX_BODY_BYTES"):
        WebhookSettings.from_env({"MEMO_MAX_BODY_BYTES": limit})


def test_the_runtime_builds_nothing_until_a_request_needs_it(
    made: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WHATSAPP_SECRET_ID", "memo/whatsapp")
    monkeypatch.setenv("TURN_QUEUE_URL", "https://sqs/q.fifo")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    runtime = IngressRuntime.current()
    assert runtime.http is runtime.http
    assert made == []
    assert runtime.whatsapp.app_secret == "from-secrets-manager"  # the secret over the environment
    assert runtime.queue is runtime.queue
    assert made == ["secret:memo/whatsapp", "client:sqs:eu-west-1:None"]
    assert IngressRuntime.current() is runtime


def test_a_missing_queue_is_named_at_the_first_post(made: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TURN_QUEUE_URL", raising=False)
    monkeypatch.setenv("WHATSAPP_APP_SECRET", "k")
    monkeypatch.delenv("WHATSAPP_SECRET_ID", raising=False)
    body = json.dumps({"object": "whatsapp_business_account", "entry": [{"id": "1"}]}).encode()
    event = http_api_event("POST", "/webhook", headers={"X-Hub-Signature-256": sign(body, "k")}, body=body)
    answer = IngressRuntime.current().http(event)
    assert answer["statusCode"] == 500
    assert json.loads(answer["body"])["error"]["code"] == "CONFIGURATION_ERROR"
    assert "TURN_QUEUE_URL" in json.loads(answer["body"])["error"]["message"]


class _Queue:
    def __init__(self) -> None:
        self.sent: list[QueuedMessage] = []

    def enqueue(self, messages: list[QueuedMessage]) -> None:
        self.sent.extend(messages)


def _http(queue: _Queue) -> WebhookHttp:
    return WebhookHttp(
        app_secret=lambda: "k", verify_token=lambda: "tok", queue=lambda: queue, max_body_bytes=10_000
    )


@pytest.mark.parametrize(("method", "path"), [("PUT", "/webhook"), ("GET", "/other"), ("POST", "/webhook/x")])
def test_any_other_route_is_a_json_404_and_touches_nothing(method: str, path: str) -> None:
    queue = _Queue()
    answer = _http(queue)(http_api_event(method, path))
    assert answer["statusCode"] == 404
    assert answer["headers"] == {"Content-Type": "application/json"}
    assert json.loads(answer["body"]) == {"statusCode": 404, "message": "Not found"}
    assert queue.sent == []


def test_the_answers_have_the_http_api_shape() -> None:
    answer = _http(_Queue())(
        http_api_event("GET", "/webhook", query="hub.mode=subscribe&hub.verify_token=tok&hub.challenge=7")
    )
    assert answer == {
        "statusCode": 200,
        "body": "7",
        "isBase64Encoded": False,
        "headers": {"Content-Type": "text/plain"},
        "cookies": [],
    }
    refused = _http(_Queue())(http_api_event("POST", "/webhook", body=b"{}"))
    assert (refused["statusCode"], refused["headers"]["Content-Type"]) == (401, "application/json")
    assert json.loads(refused["body"])["error"]["code"] == "SIGNATURE_MISSING"


def test_the_first_posts_clients_share_one_boto3_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """Secrets Manager (through Powertools) and SQS are built on one boto3 Session: each Session
    reads botocore's endpoint and partition data again (most of the first request's time). Counted
    as Sessions made, which holds whatever the test run has already cached of botocore's data."""
    import boto3.session

    from memo.aws.secrets import _provider

    made: list[object] = []
    original = boto3.session.Session.__init__

    def init(session: boto3.session.Session, *args: Any, **kwargs: Any) -> None:
        made.append(session)
        original(session, *args, **kwargs)

    monkeypatch.setattr(boto3.session.Session, "__init__", init)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    clients.reset_clients()
    try:
        provider = _provider(clients.session())
        sqs = clients.client("sqs", "us-east-1", None)
        assert provider.client.meta.region_name == sqs.meta.region_name == "us-east-1"
        assert len(made) == 1
        assert clients.client("sqs", "us-east-1", None) is sqs
    finally:
        clients.reset_clients()
