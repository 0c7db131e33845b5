"""Configuration: one pydantic settings model per function, read once from the environment.

Logic never reads `os.environ`; handlers call `WebhookSettings.load()` (cached) and pass values down.
The configuration names of DESIGN.md are fixed (tests outside the repo rely on them):
WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN, WHATSAPP_ACCESS_TOKEN, WHATSAPP_API_BASE_URL,
OPENAI_API_KEY, OPENAI_BASE_URL, MEMO_PLANNER_MODEL, MEMO_INTERPRETER_MODEL, HITL_TTL_SECONDS,
AWS_ENDPOINT_URL.

Deployed, the secrets are not in the environment: `WHATSAPP_SECRET_ID` / `OPENAI_SECRET_ID` name
Secrets Manager secrets (JSON) that are fetched through Powertools parameters and cached.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from memo import tables

SECRET_CACHE_SECONDS = 300


class _EnvModel(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        # Empty strings count as unset, as in most twelve-factor tooling.
        return cls.model_validate({k: v for k, v in environ.items() if v != ""})


class AwsSettings(_EnvModel):
    aws_endpoint_url: str | None = Field(default=None, alias="AWS_ENDPOINT_URL")
    aws_region: str = Field(default="us-east-1", alias="AWS_REGION")


class WhatsAppSettings(_EnvModel):
    app_secret: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_APP_SECRET")
    verify_token: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_VERIFY_TOKEN")
    access_token: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_ACCESS_TOKEN")
    api_base_url: str = Field(default="https://graph.facebook.com/v21.0", alias="WHATSAPP_API_BASE_URL")
    secret_id: str | None = Field(default=None, alias="WHATSAPP_SECRET_ID")
    send_max_attempts: int = Field(default=4, alias="WHATSAPP_SEND_MAX_ATTEMPTS", ge=1, le=10)
    send_timeout_seconds: float = Field(default=10.0, alias="WHATSAPP_SEND_TIMEOUT_SECONDS", gt=0)

    @model_validator(mode="after")
    def _strip_trailing_slash(self) -> Self:
        object.__setattr__(self, "api_base_url", self.api_base_url.rstrip("/"))
        return self

    def resolved(self) -> WhatsAppSettings:
        """Fill the secrets from Secrets Manager when deployed (WHATSAPP_SECRET_ID), cached."""
        if not self.secret_id:
            return self
        values = _secret_json(self.secret_id)
        return self.model_copy(
            update={
                "app_secret": SecretStr(values.get("app_secret", self.app_secret.get_secret_value())),
                "verify_token": SecretStr(values.get("verify_token", self.verify_token.get_secret_value())),
                "access_token": SecretStr(values.get("access_token", self.access_token.get_secret_value())),
            }
        )


class LlmSettings(_EnvModel):
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    planner_model: str = Field(default="gpt-4o-mini", alias="MEMO_PLANNER_MODEL")
    interpreter_model: str = Field(default="gpt-4o-mini", alias="MEMO_INTERPRETER_MODEL")
    timeout_seconds: float = Field(default=8.0, alias="MEMO_LLM_TIMEOUT_SECONDS", gt=0)
    max_retries: int = Field(default=1, alias="MEMO_LLM_MAX_RETRIES", ge=0, le=5)
    secret_id: str | None = Field(default=None, alias="OPENAI_SECRET_ID")

    @property
    def enabled(self) -> bool:
        return self.openai_api_key is not None and bool(self.openai_api_key.get_secret_value())

    def resolved(self) -> LlmSettings:
        if not self.secret_id or self.enabled:
            return self
        values = _secret_json(self.secret_id)
        key = values.get("api_key")
        return self.model_copy(update={"openai_api_key": SecretStr(key)}) if key else self


class FunctionSettings(_EnvModel):
    """The settings of one function: its own fields, read from the environment, and the shared groups
    it declares as fields (`aws: AwsSettings`, `whatsapp: WhatsAppSettings`, `llm: LlmSettings`), each
    read from the same environment.

    The WhatsApp secrets are resolved on first use (`WhatsAppSettings.resolved()`), unless the
    function sets `resolve_whatsapp_on_load` (it sends on every invocation).
    """

    resolve_whatsapp_on_load: ClassVar[bool] = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        env = {k: v for k, v in environ.items() if v != ""}
        nested: dict[str, Any] = {}
        for name, field in cls.model_fields.items():
            group = field.annotation
            if isinstance(group, type) and issubclass(group, _EnvModel):
                settings = group.from_env(env)
                if cls.resolve_whatsapp_on_load and isinstance(settings, WhatsAppSettings):
                    settings = settings.resolved()
                nested[name] = settings
        return cls.model_validate({**env, **nested})


class WebhookSettings(FunctionSettings):
    """Settings of the webhook Lambda (ingress path and turn path)."""

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    llm: LlmSettings
    hitl_ttl_seconds: int = Field(default=300, alias="HITL_TTL_SECONDS", ge=10, le=7 * 24 * 3600)
    default_timezone: str = Field(default="UTC", alias="MEMO_DEFAULT_TIMEZONE")
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    idempotency_table: str = Field(default=tables.IDEMPOTENCY.default_name, alias="IDEMPOTENCY_TABLE_NAME")
    turn_queue_url: str | None = Field(default=None, alias="TURN_QUEUE_URL")
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME")
    executor_state_machine_arn: str | None = Field(default=None, alias="EXECUTOR_STATE_MACHINE_ARN")
    max_body_bytes: int = Field(default=256 * 1024, alias="MEMO_MAX_BODY_BYTES", ge=1024)
    # Longer than Meta's 7-day retry window, so a very late redelivery is still a duplicate.
    idempotency_expiry_seconds: int = Field(default=8 * 24 * 3600, alias="MEMO_IDEMPOTENCY_EXPIRY_SECONDS")
    memory_ttl_seconds: int = Field(default=30 * 24 * 3600, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    recent_messages_limit: int = Field(default=20, alias="MEMO_RECENT_MESSAGES", ge=1, le=100)
    # Operator review (memo.operator_review.policy): the policy document or file, and the wait's timeout.
    review_policy_source: str | None = Field(default=None, alias="MEMO_REVIEW_POLICY")
    review_timeout_seconds: int | None = Field(default=None, alias="MEMO_REVIEW_TIMEOUT_SECONDS", ge=1)
    # The user's answer to an operator's question goes to the case (memo.operator_review.clarify).
    cases_table: str = Field(default=tables.CASES.default_name, alias="CASES_TABLE_NAME", min_length=3)
    cases_redact: str = Field(default="none", alias="HITL_REDACT")

    @classmethod
    def load(cls) -> WebhookSettings:
        return _load_webhook_settings()


@lru_cache(maxsize=1)
def _load_webhook_settings() -> WebhookSettings:
    return WebhookSettings.from_env(os.environ)


def reset_settings_cache() -> None:
    """Tests and the local stack change the environment between runs."""
    _load_webhook_settings.cache_clear()


def _secret_json(secret_id: str) -> dict[str, str]:
    from aws_lambda_powertools.utilities import parameters

    value = parameters.get_secret(secret_id, transform="json", max_age=SECRET_CACHE_SECONDS)
    if not isinstance(value, dict):
        raise ValueError(f"secret {secret_id} is not a JSON object")
    return {str(k): str(v) for k, v in value.items()}
