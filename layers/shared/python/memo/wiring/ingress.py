"""Wiring of the webhook Lambda's ingress path (GET/POST /webhook): its settings and adapters.

The webhook Lambda has two paths: the ingress (Meta waits for its 200) and the turn path (SQS FIFO
batches, `memo.wiring.webhook`). A cold start of the ingress reads only what the ingress needs, with
the standard library: the WhatsApp app secret and verify token (or the Secrets Manager secret holding
them), the queue, the body limit and the AWS endpoint. The same variables are read, and validated
again, by the turn path's `WebhookSettings`; the rules here are the same (empty means unset;
`MEMO_MAX_BODY_BYTES` is a whole number of at least 1024).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import NamedTuple

from memo.aws import clients, secrets
from memo.aws.queue import SqsTurnQueue
from memo.errors import ConfigurationError
from memo.ingress.http import WebhookHttp
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
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> IngressSettings:
        env = {k: v for k, v in environ.items() if v != ""}
        limit = env.get("MEMO_MAX_BODY_BYTES")
        max_body_bytes = DEFAULT_MAX_BODY_BYTES
        if limit is not None:
            try:
                max_body_bytes = int(limit.strip())
            except ValueError:
                max_body_bytes = 0
            if max_body_bytes < MIN_BODY_BYTES:
                raise ConfigurationError(
                    f"invalid configuration of {cls.__name__}: MEMO_MAX_BODY_BYTES: "
                    f"must be a whole number of at least {MIN_BODY_BYTES}, not {limit!r}"
                )
        return cls(
            whatsapp=WhatsAppSecrets(
                env.get("WHATSAPP_APP_SECRET", ""), env.get("WHATSAPP_VERIFY_TOKEN", "")
            ),
            whatsapp_secret_id=env.get("WHATSAPP_SECRET_ID"),
            turn_queue_url=env.get("TURN_QUEUE_URL"),
            max_body_bytes=max_body_bytes,
            aws_region=env.get("AWS_REGION", "us-east-1"),
            aws_endpoint_url=env.get("AWS_ENDPOINT_URL"),
        )

    @classmethod
    def build(cls) -> None:
        """Nothing to build: these settings are read with the standard library."""


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
        )
