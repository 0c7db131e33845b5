"""The thread's requests waiting for an operator: what a withdrawal ("cancel that") looks for.

The turn remembers a wait once its write has landed, before it starts an execution with steps the
review policy sends to an operator (and again when the message is redelivered, from its stored start);
`memo.operator_review.withdraw` reads and forgets them. Kept apart from the withdrawal so the
turn path imports no case platform code until a withdrawal happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from memo.executor.contracts import ExecutionInput


@dataclass(frozen=True)
class ReviewWait:
    """A turn whose steps wait for an operator, until the operator's wait ends."""

    trace_id: str
    step_ids: tuple[str, ...]
    until: datetime

    @classmethod
    def for_execution(cls, execution: ExecutionInput, *, now: datetime) -> ReviewWait | None:
        """The wait of an execution's reviewed steps, until the longest operator wait ends; None
        when no step waits for an operator."""
        tickets = [(t.step_id, t.review) for g in execution.groups for t in g if t.review is not None]
        if not tickets:
            return None
        timeout = max(review.timeout_seconds for _, review in tickets)
        return cls(execution.trace_id, tuple(i for i, _ in tickets), now + timedelta(seconds=timeout))


class ReviewWaits(Protocol):
    """The thread's requests waiting for an operator (`memo.aws.conversation_table.DynamoReviewWaits`)."""

    def remember(self, thread_id: str, wait: ReviewWait) -> None: ...

    def live(self, thread_id: str, *, now: datetime) -> list[ReviewWait]:
        """The waits not yet over, newest first."""

    def forget(self, thread_id: str, trace_id: str) -> None: ...
