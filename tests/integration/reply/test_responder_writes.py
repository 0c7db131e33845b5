"""The responder's DynamoDB requests, on moto.

Three requests for a reply that records actions: the read of RECENT_ACTIONS (to merge), one
transaction of the reply claim with the merged latestActions (before the send), and one
BatchWriteItem after the send (the reply in the recent messages and its quote records). A claim
that is taken already writes nothing; another responder's actions written in between are merged
again, never lost.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from botocore.client import BaseClient

from memo import tables
from memo.aws.conversation_table import ACTIONS_SK, QUOTE_PREFIX, latest_actions_of, thread_pk
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.responder_memory import DynamoResponderMemory
from memo.domain import LatestAction
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
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


def test_a_reply_with_actions_takes_three_requests_and_the_claim_carries_the_actions(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    result = load_handler("responder")(_event("wamid.L1"), CONTEXT)

    assert result["sent"]
    assert [operation for operation, _ in requests] == ["GetItem", "TransactWriteItems", "BatchWriteItem"]
    _, claim = requests[1]
    keys = [write["Put"]["Item"]["sk"]["S"] for write in claim["TransactItems"]]
    assert keys == ["CLAIM#REPLY#wamid.L1", ACTIONS_SK]
    _, after = requests[2]
    written = [r["PutRequest"]["Item"]["sk"]["S"] for r in after["RequestItems"][TABLE]]
    assert written[0].startswith("MSG#") and written[1].startswith(QUOTE_PREFIX)
    # What a later turn sees: the reply, the action, and the quote of the sent message.
    snapshot = DynamoConversationStore(local_aws.dynamodb, TABLE).load(THREAD, now=local_aws.clock(), limit=5)
    assert snapshot.recent[-1].role == "assistant" and "call mom" in snapshot.recent[-1].text
    assert [a["operationId"] for a in snapshot.latest_actions] == ["wamid.L1:s1"]
    (message_id,) = result["message_ids"]
    assert local_aws.item(tables.CONVERSATION, thread_pk(THREAD), f"{QUOTE_PREFIX}{message_id}") is not None


def test_a_taken_claim_writes_no_actions_and_sends_nothing(
    local_aws: LocalAws, requests: list[tuple[str, dict[str, Any]]]
) -> None:
    handler = load_handler("responder")
    handler(_event("wamid.L2"), CONTEXT)
    before = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    requests.clear()

    again = handler(_event("wamid.L2"), CONTEXT)

    assert not again["sent"] and len(local_aws.sink.messages(to=THREAD)) == 1
    assert [operation for operation, _ in requests] == ["GetItem", "TransactWriteItems"]
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


def test_a_claim_that_loses_the_actions_version_merges_again_and_keeps_both(local_aws: LocalAws) -> None:
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

    assert claimed and racing.transactions == 2
    stored = local_aws.item(tables.CONVERSATION, thread_pk(THREAD), ACTIONS_SK)
    assert stored is not None and [a["summary"] for a in latest_actions_of(stored)] == [
        "ours",
        "theirs",
        "first",
    ]
    # The claim went in with the second, successful transaction: a rerun is told it replied.
    assert (
        ours.claim_reply(THREAD, "wamid.L3", now=local_aws.clock(), actions=[_entry(local_aws, "ours")])
        is False
    )
