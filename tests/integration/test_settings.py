"""Deployed configuration: secrets come from Secrets Manager through Powertools parameters."""

from __future__ import annotations

import json
from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from memo.settings import LlmSettings, WebhookSettings, WhatsAppSettings


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


def test_whatsapp_secrets_are_read_from_secrets_manager(aws: None) -> None:
    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    arn = secrets.create_secret(
        Name="memo/whatsapp",
        SecretString=json.dumps({"app_secret": "from-sm", "verify_token": "vt", "access_token": "at"}),
    )["ARN"]
    resolved = WhatsAppSettings.from_env({"WHATSAPP_SECRET_ID": arn}).resolved()
    assert resolved.app_secret.get_secret_value() == "from-sm"
    assert resolved.verify_token.get_secret_value() == "vt"
    assert resolved.access_token.get_secret_value() == "at"


def test_the_openai_key_is_read_from_secrets_manager_only_when_not_given(aws: None) -> None:
    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    secrets.create_secret(Name="memo/openai", SecretString=json.dumps({"api_key": "sk-from-sm"}))
    from_sm = LlmSettings.from_env({"OPENAI_SECRET_ID": "memo/openai"}).resolved()
    assert from_sm.enabled and from_sm.openai_api_key is not None
    assert from_sm.openai_api_key.get_secret_value() == "sk-from-sm"
    explicit = LlmSettings.from_env(
        {"OPENAI_SECRET_ID": "memo/openai", "OPENAI_API_KEY": "sk-env"}
    ).resolved()
    assert explicit.openai_api_key is not None and explicit.openai_api_key.get_secret_value() == "sk-env"


def test_design_configuration_names_are_honoured() -> None:
    settings = WebhookSettings.from_env(
        {
            "WHATSAPP_APP_SECRET": "a",
            "WHATSAPP_VERIFY_TOKEN": "v",
            "WHATSAPP_ACCESS_TOKEN": "t",
            "WHATSAPP_API_BASE_URL": "http://sink.local/v21.0/",
            "OPENAI_API_KEY": "k",
            "OPENAI_BASE_URL": "http://llm.local/v1",
            "MEMO_PLANNER_MODEL": "planner-x",
            "MEMO_INTERPRETER_MODEL": "interp-y",
            "HITL_TTL_SECONDS": "120",
            "AWS_ENDPOINT_URL": "http://aws.local:4566",
        }
    )
    assert settings.whatsapp.api_base_url == "http://sink.local/v21.0"
    assert settings.llm.planner_model == "planner-x" and settings.llm.interpreter_model == "interp-y"
    assert settings.llm.openai_base_url == "http://llm.local/v1" and settings.llm.enabled
    assert settings.hitl_ttl_seconds == 120
    assert settings.aws.aws_endpoint_url == "http://aws.local:4566"


def test_invalid_configuration_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="HITL_TTL_SECONDS"):
        WebhookSettings.from_env({"HITL_TTL_SECONDS": "-5"})
