"""The reminders Lambda's runtime: one DynamoDB client for its items, failures and conversation; the
template sender's secret resolved on first use, once."""

from __future__ import annotations

import pytest

from memo.settings import ConfigurationError
from memo.wiring.reminders import RemindersRuntime
from tests.unit.wiring.conftest import Calls


def test_the_tables_share_one_client_built_on_first_use(calls: Calls) -> None:
    runtime = RemindersRuntime.current()
    assert calls.made == []
    assert runtime.items is runtime.items
    assert runtime.unconfirmed is runtime.unconfirmed
    assert runtime.conversation is runtime.conversation
    assert calls.made == ["client:dynamodb"]


def test_the_sender_resolves_the_whatsapp_secret_once(calls: Calls) -> None:
    runtime = RemindersRuntime.current()
    assert runtime.sender is runtime.sender
    assert calls.made == ["secret:memo/whatsapp"]


def test_a_bad_memory_ttl_names_its_variable(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_MEMORY_TTL_SECONDS", "1")
    with pytest.raises(ConfigurationError, match="MEMO_MEMORY_TTL_SECONDS"):
        RemindersRuntime.current()
