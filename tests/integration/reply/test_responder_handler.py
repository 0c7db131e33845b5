"""The responder Lambda in-process on moto, replying through the local Graph API sink."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.conversation_table import ACTIONS_SK, latest_actions_of, thread_pk
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.responder_memory import DynamoResponderMemory
from memo.domain import LatestAction
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.reply.memory import LatestActionsConflict, merge_latest_actions
from tests.integration.reminders.conftest import THREAD, LocalAws

CONTEXT = LocalLambdaContext(function_name="responder")


def outcome(step_id: str, *, success: bool = True, **result: Any) -> dict[str, Any]:
    base = {"success": success, "capability": "notes", "action": "save", "data": {"text": f"note {step_id}"}}
    return {"step_id": step_id, "replayed": False, "result": {**base, **result}}


def event(trace_id: str, outcomes: list[Any], *, language: str = "en") -> dict[str, Any]:
    return {
        "trace_id": trace_id,
        "thread_id": THREAD,
        "phone_number_id": "PN1",
        "language": language,
        "timezone": "Asia/Jerusalem",
        "outcomes": outcomes,
    }


def stored_actions(aws: LocalAws) -> list[dict[str, Any]]:
    item = aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    return latest_actions_of(item) if item else []


def test_a_partial_failure_is_sent_remembered_and_only_the_success_becomes_an_action(
    local_aws: LocalAws,
) -> None:
    handler = load_handler("responder")
    nested = [
        [outcome("s1")],
        [
            outcome(
                "s2",
                success=False,
                capability="reminders",
                action="delete",
                error_code="NOT_FOUND",
                data={"target": "dentist"},
            )
        ],
    ]
    result = handler(event("wamid.A", nested, language="he"), CONTEXT)
    assert result["status"] == "partial" and result["sent"]
    [record] = local_aws.sink.messages(to=THREAD)
    assert record.phone_number_id == "PN1"
    assert record.body["text"]["body"] == (
        "עשיתי רק חלק:\n✅ 📝 שמרתי את הפתק „note s1”.\n"
        "❌ לא מצאתי תזכורת שמתאימה ל„dentist”, אז לא יכולתי למחוק את התזכורת."
    )
    [action] = stored_actions(local_aws)
    assert (action["capability"], action["action"], action["operationId"]) == ("notes", "save", "wamid.A:s1")
    snapshot = DynamoConversationStore(local_aws.dynamodb, tables.CONVERSATION.default_name).load(
        THREAD, now=local_aws.clock(), limit=5
    )
    assert snapshot.recent[-1].role == "assistant" and snapshot.recent[-1].text == record.body["text"]["body"]
    assert [a["summary"] for a in snapshot.latest_actions] == ["📝 שמרתי את הפתק „note s1”."]


def test_eleven_actions_keep_ten_newest_first_and_twelve_hours_drop_them(local_aws: LocalAws) -> None:
    handler = load_handler("responder")
    for n in range(11):
        handler(event(f"wamid.{n}", [outcome("s1", summary=f"action {n}")]), CONTEXT)
        local_aws.clock.advance(minutes=1)
    assert [a["summary"] for a in stored_actions(local_aws)] == [f"action {n}" for n in range(10, 0, -1)]
    local_aws.clock.advance(hours=12)
    handler(event("wamid.late", [outcome("s1", summary="late")]), CONTEXT)
    # Appended without a read: the stale ones stay stored until the next merge, but no reader sees them.
    seen = merge_latest_actions(stored_actions(local_aws), [], now=local_aws.clock())
    assert [a["summary"] for a in seen] == ["late"]


def test_a_responder_rerun_does_not_repeat_its_actions(local_aws: LocalAws) -> None:
    handler = load_handler("responder")
    handler(event("wamid.R", [outcome("s1")]), CONTEXT)
    handler(event("wamid.R", [outcome("s1")]), CONTEXT)
    assert len(stored_actions(local_aws)) == 1


def test_a_failed_send_is_logged_with_metas_code_and_memory_is_kept(
    local_aws: LocalAws, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("WHATSAPP_ACCESS_TOKEN", "revoked")
    local_aws.use_clock()
    with caplog.at_level(logging.ERROR):
        result = load_handler("responder")(event("wamid.F", [outcome("s1")]), CONTEXT)
    assert result["sent"] is False and result["meta_error_code"] == 190
    assert any(
        r.getMessage() == "WHATSAPP_SEND_FAILED" and getattr(r, "metaErrorCode", None) == 190
        for r in caplog.records
    )
    assert local_aws.sink.messages(to=THREAD) == []  # the sink refused the revoked token
    assert [a["operationId"] for a in stored_actions(local_aws)] == ["wamid.F:s1"]
    snapshot = DynamoConversationStore(local_aws.dynamodb, tables.CONVERSATION.default_name).load(
        THREAD, now=local_aws.clock(), limit=5
    )
    assert snapshot.recent[-1].text == "📝 Saved your note “note s1”."


class RacingDynamo:
    """Lets another responder write RECENT_ACTIONS between our read and our conditional put."""

    def __init__(self, real: Any, on_first_put: Any) -> None:
        self._real = real
        self._on_first_put = on_first_put
        self.puts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def put_item(self, **kwargs: Any) -> Any:
        self.puts += 1
        if self.puts == 1:
            self._on_first_put()
        return self._real.put_item(**kwargs)


def _entry(aws: LocalAws, op: str) -> dict[str, Any]:
    action = LatestAction(created_at=aws.clock(), capability="notes", action="save", summary=op)
    return {**action.model_dump(mode="json", exclude_none=True), "operationId": op}


def test_two_responders_of_one_thread_never_lose_an_action(local_aws: LocalAws) -> None:
    table = tables.CONVERSATION.default_name
    other = DynamoResponderMemory(local_aws.dynamodb, table, message_ttl_seconds=3600)
    other.record_actions(THREAD, [_entry(local_aws, "first")], now=local_aws.clock())
    racing = RacingDynamo(
        local_aws.dynamodb,
        lambda: other.record_actions(THREAD, [_entry(local_aws, "theirs")], now=local_aws.clock()),
    )
    ours = DynamoResponderMemory(racing, table, message_ttl_seconds=3600)
    ours.record_actions(THREAD, [_entry(local_aws, "ours")], now=local_aws.clock() + timedelta(seconds=1))
    assert racing.puts == 2  # the first conditional put lost, the merge was redone
    assert [a["summary"] for a in stored_actions(local_aws)] == ["ours", "theirs", "first"]


def test_threads_writing_at_once_keep_every_action(local_aws: LocalAws) -> None:
    table = tables.CONVERSATION.default_name
    errors: list[BaseException] = []

    def write(n: int) -> None:
        memory = DynamoResponderMemory(local_aws.dynamodb, table, message_ttl_seconds=3600)
        try:
            memory.record_actions(THREAD, [_entry(local_aws, f"op{n}")], now=local_aws.clock())
        except LatestActionsConflict as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(a["summary"] for a in stored_actions(local_aws)) == ["op0", "op1", "op2", "op3"]


def test_the_reply_claim_is_single_use_and_invisible_to_the_thread_load(local_aws: LocalAws) -> None:
    from datetime import UTC, datetime

    from memo.aws.conversation_thread import DynamoConversationStore

    table = "memo-conversation"
    memory = DynamoResponderMemory(local_aws.dynamodb, table, message_ttl_seconds=3600)
    now = datetime(2026, 11, 22, tzinfo=UTC)
    assert memory.claim_reply("972500000001", "wamid.T9", now=now) is True
    assert memory.claim_reply("972500000001", "wamid.T9", now=now) is False
    memory.release_reply("972500000001", "wamid.T9")
    assert memory.claim_reply("972500000001", "wamid.T9", now=now) is True
    snapshot = DynamoConversationStore(local_aws.dynamodb, table).load("972500000001", now=now, limit=5)
    assert snapshot.recent == [] and snapshot.pending is None and snapshot.profile is None
