"""The thread's requests waiting for an operator, on the conversation table (`ReviewWaits`,
`memo.operator_review.withdraw`): one `AWAIT#REVIEWS` item per thread (below `MSG#`: the thread load
never reads it), so the user can withdraw one."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.conversation_table import REVIEW_WAITS_SK, thread_pk
from memo.aws.dynamo import from_item, to_item
from memo.aws.faults import call
from memo.operator_review.waits import ReviewWait

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _wait_of(entry: dict[str, Any]) -> ReviewWait | None:
    """A stored entry as a `ReviewWait`; None for one that cannot be read."""
    try:
        return ReviewWait(
            trace_id=str(entry["traceId"]),
            step_ids=tuple(str(i) for i in entry["stepIds"]),
            until=datetime.fromisoformat(str(entry["until"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


class DynamoReviewWaits:
    """`ReviewWaits`: one item per thread holding its waits (a list, appended to; entries past their
    end are dropped on read, and the item's TTL is the latest end)."""

    def __init__(self, dynamodb: DynamoDBClient, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _key(self, thread_id: str) -> dict[str, Any]:
        return to_item({"pk": thread_pk(thread_id), "sk": REVIEW_WAITS_SK})

    def remember(self, thread_id: str, wait: ReviewWait) -> None:
        entry = {"traceId": wait.trace_id, "stepIds": list(wait.step_ids), "until": wait.until.isoformat()}
        call(
            self._ddb.update_item,
            TableName=self._table,
            Key=self._key(thread_id),
            UpdateExpression="SET waits = list_append(if_not_exists(waits, :none), :new), #ttl = :ttl",
            ExpressionAttributeNames={"#ttl": "ttl"},
            ExpressionAttributeValues=to_item(
                {":none": [], ":new": [entry], ":ttl": int(wait.until.timestamp())}
            ),
        )

    def _load(self, thread_id: str) -> list[dict[str, Any]]:
        raw = call(
            self._ddb.get_item, TableName=self._table, Key=self._key(thread_id), ConsistentRead=True
        ).get("Item")
        return list(from_item(raw).get("waits", [])) if raw else []

    def live(self, thread_id: str, *, now: datetime) -> list[ReviewWait]:
        waits = [wait for wait in map(_wait_of, self._load(thread_id)) if wait is not None]
        return list(reversed([wait for wait in waits if wait.until > now]))

    def forget(self, thread_id: str, trace_id: str) -> None:
        kept = [entry for entry in self._load(thread_id) if entry.get("traceId") != trace_id]
        if kept:
            call(
                self._ddb.update_item,
                TableName=self._table,
                Key=self._key(thread_id),
                UpdateExpression="SET waits = :kept",
                ExpressionAttributeValues=to_item({":kept": kept}),
            )
        else:
            call(self._ddb.delete_item, TableName=self._table, Key=self._key(thread_id))
