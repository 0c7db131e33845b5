"""`memo.settings`: every Lambda's settings from the environment, with the fixed configuration names
(`WHATSAPP_APP_SECRET`, `HITL_TTL_SECONDS`, ...); invalid or missing settings are a `ConfigurationError` naming the variable."""

from __future__ import annotations

import pytest

from memo.settings import ConfigurationError, ExecutorSettings, ReplySettings, WebhookSettings


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
    with pytest.raises(ConfigurationError, match="HITL_TTL_SECONDS"):
        WebhookSettings.from_env({"HITL_TTL_SECONDS": "-5"})
    with pytest.raises(ConfigurationError, match="MEMO_LLM_TIMEOUT_SECONDS"):
        WebhookSettings.from_env({"MEMO_LLM_TIMEOUT_SECONDS": "0"})


def test_media_hosts_are_origins_https_by_default_and_http_only_when_written() -> None:
    assert WebhookSettings.from_env({}).media_hosts == ("https://lookaside.fbsbx.com:443",)
    assert WebhookSettings.from_env({}).media_timeout_seconds == 15.0
    settings = WebhookSettings.from_env(
        {"WHATSAPP_MEDIA_HOSTS": " LOOKASIDE.fbsbx.com , cdn.example:8443,http://127.0.0.1:8080/,"}
    )
    assert settings.media_hosts == (
        "https://lookaside.fbsbx.com:443",
        "https://cdn.example:8443",
        "http://127.0.0.1:8080",
    )


@pytest.mark.parametrize(
    "hosts",
    [
        ",",
        "file:///etc",
        "ftp://cdn.example",
        "https://cdn.example/path",
        "https://u@cdn.example",
        "cdn.example:x",
    ],
)
def test_a_media_host_that_is_not_a_host_or_an_origin_is_refused(hosts: str) -> None:
    with pytest.raises(ConfigurationError, match="WHATSAPP_MEDIA_HOSTS"):
        WebhookSettings.from_env({"WHATSAPP_MEDIA_HOSTS": hosts})


@pytest.mark.parametrize("seconds", ["0", "-1", "121"])
def test_the_media_timeout_is_bounded(seconds: str) -> None:
    with pytest.raises(ConfigurationError, match="MEMO_MEDIA_TIMEOUT_SECONDS"):
        WebhookSettings.from_env({"MEMO_MEDIA_TIMEOUT_SECONDS": seconds})


def test_the_note_and_message_limits_default_and_are_read_by_the_webhook_and_the_executor() -> None:
    texts = WebhookSettings.from_env({}).texts
    assert (texts.note_max_chars, texts.message_max_chars, texts.title_max_chars) == (4_000, 5_000, 500)
    env = {"MEMO_NOTE_MAX_CHARS": "20000", "MEMO_MESSAGE_MAX_CHARS": "20200"}
    assert WebhookSettings.from_env(env).texts.message_max_chars == 20_200
    assert ExecutorSettings.from_env(env).texts.note_max_chars == 20_000


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"MEMO_NOTE_MAX_CHARS": "0"}, "MEMO_NOTE_MAX_CHARS"),
        ({"MEMO_TITLE_MAX_CHARS": "0"}, "MEMO_TITLE_MAX_CHARS"),
        # past one template parameter, a delivered reminder could no longer show its whole title
        ({"MEMO_TITLE_MAX_CHARS": "1025"}, "MEMO_TITLE_MAX_CHARS"),
        # past the ceiling, a note would no longer fit Step Functions' payload whatever its letters
        ({"MEMO_NOTE_MAX_CHARS": "20001", "MEMO_MESSAGE_MAX_CHARS": "30000"}, "MEMO_NOTE_MAX_CHARS"),
        ({"MEMO_NOTE_MAX_CHARS": "6000"}, "MEMO_MESSAGE_MAX_CHARS must be at least MEMO_NOTE_MAX_CHARS"),
    ],
)
def test_a_note_limit_that_cannot_hold_is_refused_clearly(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigurationError, match=named):
        WebhookSettings.from_env(env)


def test_every_limit_is_configured_with_its_documented_default() -> None:
    """The limits of docs/limits.md: each read from its MEMO_* name, each default as documented."""
    defaults = WebhookSettings.from_env({}).limits
    assert (defaults.rate_burst, defaults.rate_per_minute) == (20, 30.0)
    assert (defaults.max_reminders, defaults.max_repeating_reminders) == (500, 50)
    assert (defaults.max_list_add_items, defaults.max_list_items) == (50, 500)
    assert (defaults.group_replies, defaults.group_reply_window_seconds) == (3, 3600)
    assert defaults.zone_move_listed == 5
    assert (defaults.rule_same_minute_reminders, defaults.rule_max_days_ahead) == (10, 365)
    assert defaults.blocked_words == ()
    assert WebhookSettings.from_env({}).llm.max_retries == 0  # the model asked once per message
    names = {
        "MEMO_RATE_BURST": "5",
        "MEMO_RATE_PER_MINUTE": "6",
        "MEMO_MAX_REMINDERS": "7",
        "MEMO_MAX_REPEATING_REMINDERS": "8",
        "MEMO_MAX_LIST_ADD_ITEMS": "9",
        "MEMO_MAX_LIST_ITEMS": "10",
        "MEMO_GROUP_MAX_REPLIES": "11",
        "MEMO_GROUP_REPLY_WINDOW_SECONDS": "12",
        "MEMO_ZONE_MOVE_MAX_LISTED": "4",
        "MEMO_RULE_SAME_MINUTE_REMINDERS": "13",
        "MEMO_RULE_MAX_DAYS_AHEAD": "14",
    }
    configured = WebhookSettings.from_env(
        {**names, "MEMO_RULE_BLOCKED_WORDS": " casino, wire money ,"}
    ).limits
    numbers = {k: v for k, v in configured.model_dump().items() if k != "rule_blocked_words"}
    assert [float(v) for v in numbers.values()] == [float(v) for v in names.values()]
    assert configured.blocked_words == ("casino", "wire money")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MEMO_RATE_BURST", "0"),
        ("MEMO_RATE_PER_MINUTE", "0"),
        ("MEMO_MAX_LIST_ITEMS", "0"),
        ("MEMO_MAX_REMINDERS", "x"),
        ("MEMO_ZONE_MOVE_MAX_LISTED", "0"),
        ("MEMO_ZONE_MOVE_MAX_LISTED", "11"),
    ],
)
def test_a_limit_that_cannot_be_one_is_refused(name: str, value: str) -> None:
    with pytest.raises(ConfigurationError, match=name):
        WebhookSettings.from_env({name: value})


@pytest.mark.parametrize(("value", "appends"), [(None, 10), ("1", 1), ("10", 10)])
def test_the_latest_actions_appends_default_and_bounds(value: str | None, appends: int) -> None:
    """Turns appended to RECENT_ACTIONS before a merge: 10 by default, from 1 to 10 (at most 10
    latest actions are ever kept, so more appends would only grow the item)."""
    env = {} if value is None else {"MEMO_LATEST_ACTIONS_APPENDS": value}
    assert ReplySettings.from_env(env).latest_actions_appends == appends


@pytest.mark.parametrize("value", ["0", "11"])
def test_latest_actions_appends_past_their_bounds_are_refused(value: str) -> None:
    with pytest.raises(ConfigurationError, match="MEMO_LATEST_ACTIONS_APPENDS"):
        ReplySettings.from_env({"MEMO_LATEST_ACTIONS_APPENDS": value})


@pytest.mark.parametrize(("value", "limit"), [(None, 16_384), ("1", 1), ("32768", 32_768)])
def test_the_latest_actions_append_limit_defaults_and_bounds(value: str | None, limit: int) -> None:
    env = {} if value is None else {"MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES": value}
    assert ReplySettings.from_env(env).latest_actions_append_max_bytes == limit


@pytest.mark.parametrize("value", ["0", "32769"])
def test_an_append_limit_past_its_bounds_is_refused(value: str) -> None:
    """Ten appends of 32 KiB still leave most of DynamoDB's 400 KB item to the merged actions."""
    with pytest.raises(ConfigurationError, match="MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES"):
        ReplySettings.from_env({"MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES": value})
