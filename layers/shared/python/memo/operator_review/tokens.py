"""Where a waiting step's Step Functions task token is kept (server-side only), and the port that
answers it (`TaskAnswers`, refused with `TaskGone` once Step Functions no longer knows the token).

One record per case (on the ledger table: `memo.aws.ledger_table.DynamoTokenStore`), holding the
token and the StepTask that waits for the operator (the token is never in the case, its payload, an
API answer or a URL). The StepTask is also the case's only link back to the user: their thread id
(phone number) and the phone number id they wrote to stay here, never in the case, so an operator's
question can be relayed to them (`memo.operator_review.clarify`). `waitsUntil` is when the wait times
out. Only the review submit Lambda writes it; only the review Lambda's decision listener reads and
deletes it (IAM limits both to `REVIEW#` keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memo.errors import MemoError
from memo.executor.contracts import StepTask


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


class TaskGone(MemoError):
    """Step Functions no longer knows the task token (the wait timed out, the execution ended)."""

    code = "REVIEW_TASK_GONE"
    http_status = 410

    def __init__(self, reason: str) -> None:
        super().__init__(f"the task token is gone ({reason})")
        self.reason = reason


class TaskAnswers(Protocol):
    """Answers to a step waiting on a task token; both raise `TaskGone`."""

    def succeed(self, task_token: str, output: str) -> None: ...

    def fail(self, task_token: str, *, error: str, cause: str) -> None: ...
