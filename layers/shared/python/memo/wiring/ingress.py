"""Wiring of the webhook Lambda's ingress path (GET/POST /webhook): its settings and adapters.

The webhook Lambda has two paths: the ingress (Meta waits for its 200) and the turn path (SQS FIFO
batches, `memo.wiring.webhook`). A cold start of the ingress reads only what the ingress needs, with
the standard library: the WhatsApp app secret and verify token (or the Secrets Manager secret holding
them), the queue, the body limit and the AWS endpoint. The same variables are read, and validated
again, by the turn path's `WebhookSettings`; the rules here are the same (empty means unset;
`MEMO_MAX_BODY_BYTES` is a whole number of at least 1024, `MEMO_MAX_ID_BYTES` one from 64 to 512).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import NamedTuple

from memo.aws import clients, secrets
from memo.aws.queue import SqsTurnQueue
from memo.errors import ConfigurationError
from memo.ingress.http import WebhookHttp
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES, MAX_ID_BYTES, MIN_ID_BYTES
from memo.wiring import LambdaRuntime

DEFAULT_MAX_BODY_BYTES = 256 * 1024
MIN_BODY_BYTES = 1024


class WhatsAppSecrets(NamedTuple):
    app_secret: str = ""
    verify_token: str = ""

    def __repr__(self) -> str:  # secrets are never logged
        return "WhatsAppSecrets(app_secret='**********', verify_token='**********')"


class IngressSettings(NamedTuple):
    whatsapp: WhatsAppSecrets = WhatsAppSecrets()
    whatsapp_secret_id: str | None = None  # WHATSAPP_SECRET_ID: deployed, the secrets are there
    turn_queue_url: str | None = None
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_id_bytes: int = DEFAULT_MAX_ID_BYTES  # MEMO_MAX_ID_BYTES (memo.ingress.ids)
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> IngressSettings:
        env = {k: v for k, v in environ.items() if v != ""}
        max_body_bytes = _whole_number(
            env, "MEMO_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES, MIN_BODY_BYTES, None, cls.__name__
        )
        max_id_bytes = _whole_number(
            env, "MEMO_MAX_ID_BYTES", DEFAULT_MAX_ID_BYTES, MIN_ID_BYTES, MAX_ID_BYTES, cls.__name__
        )
        return cls(
            whatsapp=WhatsAppSecrets(
                env.get("WHATSAPP_APP_SECRET", ""), env.get("WHATSAPP_VERIFY_TOKEN", "")
            ),
            whatsapp_secret_id=env.get("WHATSAPP_SECRET_ID"),
            turn_queue_url=env.get("TURN_QUEUE_URL"),
            max_body_bytes=max_body_bytes,
            max_id_bytes=max_id_bytes,
            aws_region=env.get("AWS_REGION", "us-east-1"),
            aws_endpoint_url=env.get("AWS_ENDPOINT_URL"),
        )

    @classmethod
    def build(cls) -> None:
        """Nothing to build: these settings are read with the standard library."""


def _whole_number(
    env: Mapping[str, str], name: str, default: int, low: int, high: int | None, model: str
) -> int:
    """A whole-number setting in [low, high] (no upper bound when `high` is None); unset: `default`."""
    raw = env.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise ConfigurationError(
            f"invalid configuration of {model}: {name}: must be a whole number {bound}, not {raw!r}"
        )
    return value


class IngressRuntime(LambdaRuntime[IngressSettings]):
    settings_model = IngressSettings

    @cached_property
    def whatsapp(self) -> WhatsAppSecrets:
        """The app secret and verify token; deployed, from the WHATSAPP_SECRET_ID secret (its JSON
        `app_secret` and `verify_token` over the environment's), looked up on first use."""
        own = self.settings.whatsapp
        if not self.settings.whatsapp_secret_id:
            return own
        values = secrets.secret_json(self.settings.whatsapp_secret_id)
        return WhatsAppSecrets(
            app_secret=values.get("app_secret", own.app_secret),
            verify_token=values.get("verify_token", own.verify_token),
        )

    @cached_property
    def queue(self) -> SqsTurnQueue:
        if not self.settings.turn_queue_url:
            raise ConfigurationError("TURN_QUEUE_URL is not set")
        sqs = clients.client("sqs", self.settings.aws_region, self.settings.aws_endpoint_url)
        return SqsTurnQueue(sqs, self.settings.turn_queue_url)

    @cached_property
    def http(self) -> WebhookHttp:
        """GET/POST /webhook."""
        return WebhookHttp(
            app_secret=lambda: self.whatsapp.app_secret,
            verify_token=lambda: self.whatsapp.verify_token,
            queue=lambda: self.queue,
            max_body_bytes=self.settings.max_body_bytes,
            max_id_bytes=self.settings.max_id_bytes,
        )
