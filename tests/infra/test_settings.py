"""Context settings: strings from `-c key=value`, JSON values from cdk.json, and refusals."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk import App
from aws_cdk import aws_logs as logs

from infra.settings import SettingsError, StackSettings, load_cdk_json_context


def _settings(context: dict[str, Any]) -> StackSettings:
    return StackSettings.from_context(App(context=context).node)


def test_defaults_without_context() -> None:
    assert _settings({}) == StackSettings()


def test_cdk_json_context_matches_the_defaults() -> None:
    """cdk.json documents the defaults; it must not drift from them."""
    assert _settings(load_cdk_json_context()) == StackSettings()


def test_cli_strings_are_converted() -> None:
    settings = _settings(
        {
            "hitl_ttl_seconds": "900",
            "log_retention_days": "7",
            "webhook_reserved_concurrency": "4",
            "alarm_email": "a@b.c",
        }
    )
    assert settings.hitl_ttl_seconds == 900
    assert settings.log_retention == logs.RetentionDays.ONE_WEEK
    assert settings.webhook_reserved_concurrency == 4
    assert settings.alarm_email == "a@b.c"


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"log_retention_days": "31"}, "log_retention_days"),
        ({"hitl_ttl_seconds": "soon"}, "hitl_ttl_seconds"),
        ({"hitl_ttl_seconds": "5"}, "hitl_ttl_seconds"),
        ({"whatsapp_api_base_url": "http://graph.facebook.com"}, "https"),
        ({"turn_batch_size": "11"}, "turn_batch_size"),
        ({"log_level": "LOUD"}, "log_level"),
    ],
)
def test_bad_values_are_refused_with_the_key_named(context: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        _settings(context)
