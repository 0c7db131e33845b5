"""The review Lambda's runtime: its case store (DynamoDB, or SQLite locally), the decision listeners
(the relay of operators' questions before the task-token bridge), the WhatsApp secret resolved only
when a question is relayed, and a missing table named."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.notifications import EventBridgeSink, NotifyingListener
from caseplatform.stores.sqlite import SqliteCaseStore
from memo.operator_review.clarify import ClarificationRelay
from memo.operator_review.listener import TaskTokenBridge
from memo.settings import ConfigurationError
from memo.wiring.review import ReviewRuntime
from tests.unit.wiring.conftest import Calls


def test_a_missing_cases_table_is_named_unless_the_store_is_sqlite(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CASES_TABLE_NAME")
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        ReviewRuntime.current()
    monkeypatch.setenv("REVIEW_STORE", "sqlite")
    assert ReviewRuntime.current().settings.store == "sqlite"


def test_the_sqlite_store_is_at_the_configured_path(
    calls: Calls, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("REVIEW_STORE", "sqlite")
    monkeypatch.setenv("HITL_DB_PATH", str(tmp_path / "hitl.db"))
    store = ReviewRuntime.current().store
    assert isinstance(store, SqliteCaseStore)
    assert (tmp_path / "hitl.db").exists()
    assert calls.made == []


def test_the_relay_hears_a_decision_before_the_bridge_and_no_secret_is_read(calls: Calls) -> None:
    runtime = ReviewRuntime.current()
    relay, bridge = runtime.listeners
    assert isinstance(relay, ClarificationRelay) and isinstance(bridge, TaskTokenBridge)
    assert runtime.listeners is runtime.listeners
    assert sorted(calls.made) == ["client:dynamodb", "client:stepfunctions"]


def test_with_an_event_bus_agents_are_told_after_memos_own_listeners(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HITL_EVENT_BUS_NAME", "hitl-cases")
    relay, bridge, notify = ReviewRuntime.current().listeners
    assert isinstance(relay, ClarificationRelay) and isinstance(bridge, TaskTokenBridge)
    assert isinstance(notify, NotifyingListener) and isinstance(notify.sinks[0], EventBridgeSink)
    assert sorted(calls.made) == ["client:dynamodb", "client:events", "client:stepfunctions"]


def test_the_api_is_built_without_building_the_review_service(calls: Calls) -> None:
    runtime = ReviewRuntime.current()
    assert runtime.app is runtime.app
    assert calls.made == []
