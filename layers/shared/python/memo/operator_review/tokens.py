"""Where a waiting step's Step Functions task token is kept: server-side only.

One item per case on the ledger table (`memo.tables.LEDGER`): `pk = REVIEW#<case id>`,
`sk = TASK_TOKEN`, holding the token and the StepTask that waits for the operator (the token is never
in the case, its payload, an API answer or a URL). The StepTask is also the case's only link back to
the user: their thread id (phone number) and the phone number id they wrote to stay here, never in
the case, so an operator's question can be relayed to them (`memo.operator_review.clarify`). `waitsUntil` is
when the wait times out. Only the review submit Lambda writes it; only
the review Lambda's decision listener reads and deletes it (IAM limits both to `REVIEW#` keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from memo.aws.dynamo import from_item, to_item
from memo.executor.contracts import StepTask

KEY_PREFIX = "REVIEW#"
TOKEN_SK = "TASK_TOKEN"  # noqa: S105 - a sort key name, not a secret
# Kept a day past the wait's timeout (DynamoDB TTL deletes late; readers do not depend on it).
GRACE = timedelta(days=1)


@dataclass(frozen=True)
class WaitingStep:
    case_id: str
    task_token: str
    task: StepTask
    waits_until: datetime | None = None  # None for items written before it was stored


class TokenStore(Protocol):
    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None: ...

    def get(self, case_id: str) -> WaitingStep | None: ...

    def delete(self, case_id: str) -> None: ...


def token_key(case_id: str) -> dict[str, Any]:
    return to_item({"pk": KEY_PREFIX + case_id, "sk": TOKEN_SK})


class DynamoTokenStore:
    def __init__(self, client: Any, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None:
        """Unconditional: a retried submit (a new attempt of the wait task) brings a new token for the
        same case, and only the newest one can still be answered."""
        self._db.put_item(
            TableName=self._table,
            Item=to_item(
                {
                    "pk": KEY_PREFIX + waiting.case_id,
                    "sk": TOKEN_SK,
                    "taskToken": waiting.task_token,
                    "task": waiting.task.model_dump_json(exclude_none=True),
                    "waitsUntil": expires_at.isoformat(),
                    "ttl": int((expires_at + GRACE).timestamp()),
                }
            ),
        )

    def get(self, case_id: str) -> WaitingStep | None:
        item = self._db.get_item(TableName=self._table, Key=token_key(case_id), ConsistentRead=True).get(
            "Item"
        )
        if item is None:
            return None
        values = from_item(item)
        waits_until = values.get("waitsUntil")
        return WaitingStep(
            case_id=case_id,
            task_token=str(values["taskToken"]),
            task=StepTask.model_validate_json(str(values["task"])),
            waits_until=datetime.fromisoformat(str(waits_until)) if waits_until else None,
        )

    def delete(self, case_id: str) -> None:
        self._db.delete_item(TableName=self._table, Key=token_key(case_id))
