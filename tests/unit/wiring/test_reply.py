"""The responder Lambda's runtime: its sender and memory built on first use, once, each from its own
setting (the WhatsApp secret, the conversation table)."""

from __future__ import annotations

import pytest

from memo.settings import ConfigurationError
from memo.wiring.reply import ReplyRuntime
from tests.unit.wiring.conftest import Calls


def test_adapters_are_built_on_first_use_and_once(calls: Calls) -> None:
    runtime = ReplyRuntime.current()
    assert runtime.memory is runtime.memory
    assert calls.made == ["client:dynamodb"]
    assert runtime.sender is runtime.sender
    assert calls.made == ["client:dynamodb", "secret:memo/whatsapp"]


def test_without_a_secret_id_the_sender_uses_the_environments_token(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WHATSAPP_SECRET_ID")
    monkeypatch.setenv("WHATSAPP_ACCESS_TOKEN", "local-token")
    assert ReplyRuntime.current().sender is not None
    assert calls.made == []


def test_a_bad_memory_ttl_names_its_variable(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_MEMORY_TTL_SECONDS", "5")
    with pytest.raises(ConfigurationError, match="MEMO_MEMORY_TTL_SECONDS"):
        ReplyRuntime.current()
