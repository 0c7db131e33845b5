"""The thread's requests waiting for an operator: what a withdrawal ("cancel that") looks for.

The turn remembers a wait when it starts an execution with steps the review policy sends to an
operator; `memo.operator_review.withdraw` reads and forgets them. Kept apart from the withdrawal so the
turn path imports no case platform code until a withdrawal happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class ReviewWait:
    """A turn whose steps wait for an operator, until the operator's wait ends."""

    trace_id: str
    step_ids: tuple[str, ...]
    until: datetime


class ReviewWaits(Protocol):
    """The thread's requests waiting for an operator (`memo.aws.conversation_table.DynamoReviewWaits`)."""

    def remember(self, thread_id: str, wait: ReviewWait) -> None: ...

    def live(self, thread_id: str, *, now: datetime) -> list[ReviewWait]:
        """The waits not yet over, newest first."""

    def forget(self, thread_id: str, trace_id: str) -> None: ...
