"""`memo.aws.secrets`: deployed, the WhatsApp and OpenAI secrets come from Secrets Manager through
Powertools parameters (moto here)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo.aws.secrets import resolve_llm, resolve_whatsapp
from memo.settings import ConfigurationError, LlmSettings, WhatsAppSettings


@pytest.fixture
def secrets() -> Iterator[Any]:
    with mock_aws():
        yield boto3.client("secretsmanager", region_name="us-east-1")


def test_whatsapp_secrets_are_read_from_secrets_manager(secrets: Any) -> None:
    arn = secrets.create_secret(
        Name="memo/whatsapp",
        SecretString=json.dumps({"app_secret": "from-sm", "verify_token": "vt", "access_token": "at"}),
    )["ARN"]
    resolved = resolve_whatsapp(WhatsAppSettings.from_env({"WHATSAPP_SECRET_ID": arn}))
    assert resolved.app_secret.get_secret_value() == "from-sm"
    assert resolved.verify_token.get_secret_value() == "vt"
    assert resolved.access_token.get_secret_value() == "at"


def test_whatsapp_settings_without_a_secret_id_are_used_as_they_are() -> None:
    settings = WhatsAppSettings.from_env({"WHATSAPP_APP_SECRET": "env-secret"})
    assert resolve_whatsapp(settings) is settings  # no Secrets Manager call (no moto here)


def test_the_openai_key_is_read_from_secrets_manager_only_when_not_given(secrets: Any) -> None:
    secrets.create_secret(Name="memo/openai", SecretString=json.dumps({"api_key": "sk-from-sm"}))
    from_sm = resolve_llm(LlmSettings.from_env({"OPENAI_SECRET_ID": "memo/openai"}))
    assert from_sm.enabled and from_sm.openai_api_key is not None
    assert from_sm.openai_api_key.get_secret_value() == "sk-from-sm"
    explicit = resolve_llm(
        LlmSettings.from_env({"OPENAI_SECRET_ID": "memo/openai", "OPENAI_API_KEY": "sk-env"})
    )
    assert explicit.openai_api_key is not None and explicit.openai_api_key.get_secret_value() == "sk-env"


def test_a_secret_that_is_not_a_json_object_is_a_configuration_error(secrets: Any) -> None:
    secrets.create_secret(Name="memo/list", SecretString=json.dumps(["not", "an", "object"]))
    with pytest.raises(ConfigurationError, match="memo/list"):
        resolve_llm(LlmSettings.from_env({"OPENAI_SECRET_ID": "memo/list"}))
