"""The responder's DynamoDB requests, on moto.

Two requests for a reply that records actions, whatever came before: one transaction of the reply
claim and the latestActions appended without a read or a condition (before the send), and one
BatchWriteItem after the send (the reply in the recent messages and its quote records). A claim
that is taken already writes nothing; the oldest turn's actions fall off the slots on their own (no
reply ever finds the item full); a turn too large to append is merged after a read; another
responder's actions written in between are kept, never lost, and so are those an earlier release
kept in its `recent` list.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from botocore.client import BaseClient

from memo import tables
from memo.aws.conversation_table import ACTIONS_SK, QUOTE_PREFIX, SLOTS, latest_actions_of, thread_pk
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.dynamo import to_item
from memo.aws.responder_memory import APPEND_MAX_BYTES, DynamoResponderMemory
from memo.domain import LatestAction
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.packing import pack
from tests.integration.reminders.conftest import THREAD, LocalAws

CONTEXT = LocalLambdaContext(function_name="responder")
TABLE = tables.CONVERSATION.default_name


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    made: list[tuple[str, dict[str, Any]]] = []
    original = BaseClient._make_api_call

    def call(client: Any, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb":
            made.append((operation, params))
        return original(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", call)
    return made


def _event(trace_id: str) -> dict[str, Any]:
    outcome = {
        "step_id": "s1",
        "replayed": False,
        "result": {
            "success": True,
            "capability": "reminders",
            "action": "list",
            "data": {"reminders": [{"id": "r1", "title": "call mom", "when": "2026-11-23T15:00:00+00:00"}]},
            "summary": "listed 1 reminder(s)",
        },
    }
    return {
        "trace_id": trace_id,
        "thread_id": THREAD,
        "phone_number_id": "PN1",
        "language": "en",
        "timezone": "Asia/Jerusalem",
        "outcomes": [outcome],
    }


def _entry(aws: LocalAws, op: str) -> dict[str, Any]:
    action = LatestAction(created_at=aws.clock(), capability="notes", action="save", summary=op)
    return {**action.model_dump(mode="json", exclude_none=True), "operationId": op}


def test_a_reply_with_actions_takes_two_requests_and_the_claim_carries_the_actions(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    result = load_handler("responder")(_event("wamid.L1"), CONTEXT)

    assert result["sent"]
    assert [operation for operation, _ in requests] == ["TransactWriteItems", "BatchWriteItem"]
    _, claim = requests[0]
    writes = [
        (kind, write.get("Item", write.get("Key"))["sk"]["S"])
        for w in claim["TransactItems"]
        for kind, write in w.items()
    ]
    # Nothing of the ledger: the step's outcome came in the execution.
    assert writes == [("Put", "CLAIM#REPLY#wamid.L1"), ("Update", ACTIONS_SK)]
    assert {w[kind]["TableName"] for w in claim["TransactItems"] for kind in w} == {TABLE}
    _, after = requests[1]
    written = [r["PutRequest"]["Item"]["sk"]["S"] for r in after["RequestItems"][TABLE]]
    assert written[0].startswith("MSG#") and written[1].startswith(QUOTE_PREFIX)
    # What a later turn sees: the reply, the action, and the quote of the sent message.
    snapshot = DynamoConversationStore(local_aws.dynamodb, TABLE).load(THREAD, now=local_aws.clock(), limit=5)
    assert snapshot.recent[-1].role == "assistant" and "call mom" in snapshot.recent[-1].text
    assert [a["operationId"] for a in snapshot.latest_actions] == ["wamid.L1:s1"]
    (message_id,) = result["message_ids"]
    assert local_aws.item(tables.CONVERSATION, thread_pk(THREAD), f"{QUOTE_PREFIX}{message_id}") is not None


def test_every_reply_is_one_request_and_the_oldest_turn_falls_off(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    memory = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)
    for n in range(len(SLOTS) + 3):
        assert memory.claim_reply(
            THREAD, f"wamid.M{n}", now=local_aws.clock(), actions=[_entry(local_aws, f"m{n}")]
        )
        local_aws.clock.advance(seconds=1)

    # No append finds the item full: one transaction per reply, never a second one.
    assert [operation for operation, _ in requests] == ["TransactWriteItems"] * (len(SLOTS) + 3)
    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None and set(SLOTS) <= set(stored)
    # The 10 latest, newest first; the three oldest fell off.
    assert [a["summary"] for a in latest_actions_of(stored)] == [f"m{n}" for n in range(12, 2, -1)]


def test_fewer_slots_keep_fewer_turns(local_aws: LocalAws) -> None:
    memory = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600, appends=2)
    for n in range(3):
        assert memory.claim_reply(
            THREAD, f"wamid.M{n}", now=local_aws.clock(), actions=[_entry(local_aws, f"m{n}")]
        )
        local_aws.clock.advance(seconds=1)

    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None and "r2" not in stored
    assert [a["summary"] for a in latest_actions_of(stored)] == ["m2", "m1"]


def test_the_actions_an_earlier_release_appended_are_still_read_after_an_append(local_aws: LocalAws) -> None:
    """An earlier release appended to a `recent` list and merged into `actions`: both stay readable
    next to the slots (they leave the 12-hour scope, or the next merge folds them in)."""
    old = [
        pack(
            f'[{{"createdAt":"{local_aws.clock().isoformat()}","capability":"notes","action":"save",'
            f'"summary":"{s}","operationId":"{s}"}}]'
        )
        for s in ("recent1", "recent0")
    ]
    merged = pack(
        f'[{{"createdAt":"{local_aws.clock().isoformat()}","capability":"notes","action":"save",'
        '"summary":"merged","operationId":"merged"}]'
    )
    local_aws.dynamodb.put_item(
        TableName=TABLE,
        Item=to_item(
            {"pk": thread_pk(THREAD), "sk": ACTIONS_SK, "recent": old, "actions": merged, "version": 3}
        ),
    )
    local_aws.clock.advance(seconds=1)
    memory = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)

    assert memory.claim_reply(THREAD, "wamid.N", now=local_aws.clock(), actions=[_entry(local_aws, "new")])

    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None
    assert [a["summary"] for a in latest_actions_of(stored)] == ["new", "recent1", "recent0", "merged"]
    assert int(stored["version"]) == 4  # a merge that read before this append loses and reads again


def _many_ids(aws: LocalAws, count: int) -> dict[str, Any]:
    """A turn's entry naming `count` random ids: about 12 bytes each once packed."""
    return {
        **_entry(aws, f"many{count}"),
        "externalIds": {"noteIds": [os.urandom(10).hex() for _ in range(count)]},
    }


def test_a_turn_too_large_to_append_is_merged_at_once(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    memory = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)
    assert memory.claim_reply(THREAD, "wamid.B0", now=local_aws.clock(), actions=[_many_ids(local_aws, 1000)])
    assert memory.claim_reply(THREAD, "wamid.B1", now=local_aws.clock(), actions=[_many_ids(local_aws, 2000)])

    # At the limit (packed under APPEND_MAX_BYTES) appended; past it, read and merged: the appends
    # that merges leave room for can never push the item past DynamoDB's limit.
    operations = [operation for operation, _ in requests]
    assert operations == ["TransactWriteItems", "GetItem", "TransactWriteItems"]
    first, second = (params["TransactItems"][1] for _, params in requests if "TransactItems" in params)
    assert len(first["Update"]["ExpressionAttributeValues"][":a"]["B"]) <= APPEND_MAX_BYTES
    assert "Put" in second
    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None and "r0" not in stored and len(latest_actions_of(stored)) == 2


def test_a_taken_claim_writes_no_actions_and_sends_nothing(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    handler = load_handler("responder")
    handler(_event("wamid.L2"), CONTEXT)
    before = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    requests.clear()

    again = handler(_event("wamid.L2"), CONTEXT)

    assert not again["sent"] and len(local_aws.sink.messages(to=THREAD)) == 1
    assert [operation for operation, _ in requests] == ["TransactWriteItems"]
    assert local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK) == before


class RacingDynamo:
    """Another responder writes RECENT_ACTIONS between our read and our claim transaction."""

    def __init__(self, real: Any, on_first_transaction: Any) -> None:
        self._real = real
        self._on_first = on_first_transaction
        self.transactions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def transact_write_items(self, **kwargs: Any) -> Any:
        self.transactions += 1
        if self.transactions == 1:
            self._on_first()
        return self._real.transact_write_items(**kwargs)


def test_a_claim_racing_another_writer_keeps_both(local_aws: LocalAws) -> None:
    other = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)
    other.record_actions(THREAD, [_entry(local_aws, "first")], now=local_aws.clock())
    racing = RacingDynamo(
        local_aws.dynamodb,
        lambda: other.record_actions(THREAD, [_entry(local_aws, "theirs")], now=local_aws.clock()),
    )
    ours = DynamoResponderMemory(racing, TABLE, message_ttl_seconds=3600)

    claimed = ours.claim_reply(
        THREAD, "wamid.L3", now=local_aws.clock() + timedelta(seconds=1), actions=[_entry(local_aws, "ours")]
    )

    # An append reads nothing, so the other writer's merge in between costs it nothing.
    assert claimed and racing.transactions == 1
    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None and [a["summary"] for a in latest_actions_of(stored)] == [
        "ours",
        "theirs",
        "first",
    ]
    # The claim went in with the actions: a rerun is told it replied.
    assert (
        ours.claim_reply(THREAD, "wamid.L3", now=local_aws.clock(), actions=[_entry(local_aws, "ours")])
        is False
    )


def test_an_append_racing_another_responders_keeps_both(local_aws: LocalAws) -> None:
    """Another responder appends just before ours: both are shifted in, neither reads."""
    other = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)
    other.record_actions(THREAD, [_entry(local_aws, "first")], now=local_aws.clock())
    appending = DynamoResponderMemory(local_aws.dynamodb, TABLE, message_ttl_seconds=3600)
    racing = RacingDynamo(
        local_aws.dynamodb,
        lambda: appending.claim_reply(
            THREAD, "wamid.T", now=local_aws.clock(), actions=[_entry(local_aws, "theirs")]
        ),
    )
    ours = DynamoResponderMemory(racing, TABLE, message_ttl_seconds=3600)

    later = local_aws.clock() + timedelta(seconds=1)
    assert ours.claim_reply(THREAD, "wamid.L5", now=later, actions=[_entry(local_aws, "ours")])

    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None
    assert sorted(a["summary"] for a in latest_actions_of(stored)) == ["first", "ours", "theirs"]
