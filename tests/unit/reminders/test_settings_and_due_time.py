from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memo.local.ticker import due_time
from memo.settings import ConfigurationError, RemindersSettings


def test_at_expressions_are_read_in_their_timezone() -> None:
    # 09:00 in Jerusalem (UTC+3 in June) is 06:00 UTC.
    assert due_time("at(2025-06-03T09:00:00)", "Asia/Jerusalem") == datetime(2025, 6, 3, 6, 0, tzinfo=UTC)
    assert due_time("at(2025-06-03T09:00:00)", None) == datetime(2025, 6, 3, 9, 0, tzinfo=UTC)
    assert due_time("rate(5 minutes)", "UTC") is None
    assert due_time("at(2025-06-03T09:00:00)", "Mars/Olympus") is None


def test_reminder_settings_from_the_environment() -> None:
    settings = RemindersSettings.from_env(
        {
            "WHATSAPP_REMINDER_TEMPLATE": "reminder_v3",
            "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES": "en=en_US, he=he",
            "ITEMS_TABLE_NAME": "items-x",
            "WHATSAPP_API_BASE_URL": "http://sink/v1/",
        }
    )
    assert settings.template_name == "reminder_v3"
    assert settings.template_languages == {"en": "en_US", "he": "he"}
    assert settings.items_table == "items-x"
    assert settings.whatsapp.api_base_url == "http://sink/v1"
    assert RemindersSettings.from_env({}).template_languages == {"en": "en", "he": "he"}
    with pytest.raises(ConfigurationError, match="WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"):
        RemindersSettings.from_env({"WHATSAPP_REMINDER_TEMPLATE_LANGUAGES": "en"})
