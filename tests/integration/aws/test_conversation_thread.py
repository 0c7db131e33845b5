"""The `ConversationStore` port on moto's DynamoDB (`memo.aws.conversation_thread`): a thread is one
consistent query that reads only what the snapshot uses, and drops what has expired."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.dynamo import to_item
from memo.conversation.model import MemoryMessage, UserProfile
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"
AT = TEST_NOW
ASK = "wamid.HBgLE99C5044CFF0434AA0E7075E412D495E"
TTL = 30 * 86400


def test_expired_messages_are_not_read_and_the_newest_are_kept(conversation_db: Any) -> None:
    store = DynamoConversationStore(conversation_db, TABLE)
    store.append(
        THREAD, [MemoryMessage(role="user", text="old", at=AT - timedelta(days=2))], ttl_seconds=86400
    )
    store.append(
        THREAD,
        [MemoryMessage(role="user", text=str(i), at=AT + timedelta(seconds=i)) for i in range(3)],
        ttl_seconds=TTL,
    )
    snapshot = store.load(THREAD, now=AT, limit=2)
    assert [m.text for m in snapshot.recent] == ["1", "2"]
    assert snapshot.profile is None and snapshot.pending is None
    assert [m.text for m in store.load(THREAD, now=AT, limit=10).recent] == ["0", "1", "2"]


def test_the_thread_load_reads_only_what_it_uses(conversation_db: Any) -> None:
    """Every item of the thread repeats its partition key; the pending question's id and the latest
    actions' version are only conditions of their writes: the load's query leaves them out."""
    responses: list[dict[str, Any]] = []

    class Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(conversation_db, name)

        def query(self, **params: Any) -> Any:
            responses.append(conversation_db.query(**params))
            return responses[-1]

    store = DynamoConversationStore(Recording(), TABLE)
    store.save_profile(UserProfile(thread_id=THREAD, language="he", timezone="Asia/Jerusalem", created_at=AT))
    store.append(THREAD, [MemoryMessage(role="user", text="שלום", at=AT, wamid=ASK)], ttl_seconds=TTL)
    conversation_db.put_item(
        TableName=TABLE,
        Item=to_item(
            {"pk": f"THREAD#{THREAD}", "sk": "RECENT_ACTIONS", "actions": [], "version": 3, "ttl": 2**31}
        ),
    )

    snapshot = store.load(THREAD, now=AT, limit=10)
    assert snapshot.profile is not None and snapshot.profile.language == "he"
    assert [m.text for m in snapshot.recent] == ["שלום"] and snapshot.latest_actions == []
    (response,) = responses
    assert len(response["Items"]) == 3
    assert not any({"pk", "version"} & set(item) for item in response["Items"])
