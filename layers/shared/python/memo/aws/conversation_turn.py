"""The turn's one write on the conversation table: a single TransactWriteItems.

It holds the claim of the turn's reply, the turn's messages, the change of its pending question and
its updated profile. Each item is measured as it is made (`memo.aws.dynamo.guard`): one over
DynamoDB's size limit refuses the whole write before the request (`ItemTooLarge`), and nothing is
written. The claim is the message's Powertools idempotency record, written COMPLETED, when the run
holds its claim (`memo.aws.idempotency`): a rerun of the same message finds it taken
and writes nothing (`AlreadyTurned` is raised, with what the first run stored). Else the claim is a
`CLAIM#TURN#<wamid>` item kept as long as the memory (it sorts below the messages: the thread's load
never reads it), and a rerun gets "already_recorded". A lost pending condition writes nothing either
("pending_conflict").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.conversation_pending import pending_write
from memo.aws.conversation_table import TURN_CLAIM_PREFIX, message_items, profile_item, thread_pk
from memo.aws.dynamo import guard
from memo.aws.faults import cancellation_reasons, fault
from memo.conversation.model import MemoryMessage, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange
from memo.errors import ConditionFailed

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

CONDITION_CHECK_FAILED_REASON = "ConditionalCheckFailed"


class TurnRecords(Protocol):
    """The turn's idempotency record when the turn holds it (`memo.aws.idempotency.TurnIdempotency`)."""

    def completion_for(self, result: Mapping[str, Any]) -> dict[str, Any] | None: ...

    def completed_in_transaction(self) -> None: ...

    def check(self) -> None: ...


def turn_claim(
    table: str, thread_id: str, wamid: str, messages: list[MemoryMessage], ttl_seconds: int
) -> dict[str, Any]:
    """The claim of a turn run outside Powertools' idempotency: a `CLAIM#TURN#<wamid>` item."""
    item = {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": f"{TURN_CLAIM_PREFIX}{wamid}"}}
    if messages:
        item["ttl"] = {"N": str(int(messages[0].at.timestamp()) + ttl_seconds)}
    return {"Put": {"TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(pk)"}}


class TurnTransaction:
    """Writes a turn (`record`), completing its idempotency record when `records` holds one."""

    def __init__(self, dynamodb: DynamoDBClient, table_name: str, records: TurnRecords | None) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._records = records

    def _writes(
        self,
        thread_id: str,
        messages: list[MemoryMessage],
        ttl_seconds: int,
        pending: PendingChange | None,
        profile: UserProfile | None,
    ) -> list[dict[str, Any]]:
        """Every entry of the transaction but its claim, each item measured as it is made."""
        remembered = message_items(thread_id, messages, ttl_seconds=ttl_seconds)
        writes: list[dict[str, Any]] = []
        if pending is not None:
            writes.append(pending_write(self._table, pending))
        if profile is not None:
            writes.append({"Put": {"TableName": self._table, "Item": profile_item(profile)}})
        writes += [{"Put": {"TableName": self._table, "Item": item}} for item in remembered]
        return writes

    def record(
        self,
        thread_id: str,
        wamid: str,
        messages: list[MemoryMessage],
        *,
        ttl_seconds: int,
        result: Mapping[str, Any],
        pending: PendingChange | None = None,
        profile: UserProfile | None = None,
    ) -> TurnRecorded:
        """The turn's one write (see the module doc): "recorded", "already_recorded" or
        "pending_conflict"; `AlreadyTurned` when the message's record says it was turned already."""
        writes = self._writes(thread_id, messages, ttl_seconds, pending, profile)
        for takeover in (False, True):
            completion = self._records.completion_for(result) if self._records is not None else None
            if completion is not None:  # it holds the plan's start
                guard(completion["Put"]["Item"], what="idempotency record")
            claim = completion or turn_claim(self._table, thread_id, wamid, messages, ttl_seconds)
            items = cast("list[TransactWriteItemTypeDef]", [claim, *writes])
            try:
                self._ddb.transact_write_items(TransactItems=items)
            except ClientError as exc:
                reasons = cancellation_reasons(exc)
                if CONDITION_CHECK_FAILED_REASON not in reasons:
                    raise fault(exc) from exc
                if reasons[0] != CONDITION_CHECK_FAILED_REASON:
                    return "pending_conflict"
                if completion is None or self._records is None:
                    return "already_recorded"
                # The message's record stood in the way: turned already (raises), or dead and taken
                # over by the same write again.
                self._records.check()
                if takeover:
                    raise ConditionFailed("the message's dead record was taken by another run") from exc
                continue
            except BotoCoreError as exc:
                raise fault(exc) from exc
            if self._records is not None:
                self._records.completed_in_transaction()
            return "recorded"
        raise AssertionError("unreachable: the second refusal raises")
