"""Context settings: strings from `-c key=value`, JSON values from cdk.json, and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk import App
from aws_cdk import aws_logs as logs

from infra.settings import (
    EXECUTION_WORK_SECONDS,
    MAX_EXECUTION_SECONDS,
    SettingsError,
    StackSettings,
    execution_timeout_seconds,
    load_cdk_json_context,
)


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


def test_the_escalation_reservation_is_a_flag_off_by_default() -> None:
    assert StackSettings().escalation_reserve_concurrency is False
    assert _settings({"escalation_reserve_concurrency": "true"}).escalation_reserve_concurrency is True
    assert _settings({"escalation_reserve_concurrency": False}).escalation_reserve_concurrency is False
    with pytest.raises(SettingsError, match="escalation_reserve_concurrency"):
        _settings({"escalation_reserve_concurrency": "1x"})


@pytest.mark.parametrize(
    ("key", "at_the_limit", "past_it"),
    [
        ("reminder_retry_attempts", ["0", "185"], ["-1", "186"]),
        ("reminder_max_event_age_seconds", ["60", "86400"], ["59", "86401"]),
    ],
)
def test_the_reminder_retry_policy_is_within_the_schedulers_bounds(
    key: str, at_the_limit: list[str], past_it: list[str]
) -> None:
    for value in at_the_limit:
        assert getattr(_settings({key: value}), key) == int(value)
    for value in past_it:
        with pytest.raises(SettingsError, match=key):
            _settings({key: value})


def test_the_review_wait_leaves_the_execution_within_step_functions_year() -> None:
    """The executor's TimeoutSeconds is the review wait plus an hour of work; Step Functions ends an
    execution after a year whatever it says, so a longer wait is refused at synthesis."""
    year = 365 * 24 * 3600

    def policy(seconds: int) -> dict[str, Any]:
        return {"review_policy": json.dumps({"timeout_seconds": seconds})}

    assert StackSettings().review_wait_seconds == 24 * 3600
    assert execution_timeout_seconds(StackSettings().review_wait_seconds) == 25 * 3600
    settings = _settings(policy(year - EXECUTION_WORK_SECONDS))
    assert execution_timeout_seconds(settings.review_wait_seconds) == year == MAX_EXECUTION_SECONDS
    with pytest.raises(SettingsError, match="review_policy: timeout_seconds must be at most"):
        _settings(policy(year - EXECUTION_WORK_SECONDS + 1))
