"""The item a lost conditional write found, read from the write's own error.

A write sent with `ReturnValuesOnConditionCheckFailure="ALL_OLD"` that loses its condition carries
the item as it stood (`Item` of the `ConditionalCheckFailedException`; in a transaction, the
`Item` of the cancellation reason of that write). An adapter then learns why it lost without a
second request. `memo.aws.dynamo.conditional_write` raises `ConditionFailed` from the botocore
error, so the values are read from the exception's cause.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from memo.aws.dynamo import from_item
from memo.errors import ConditionFailed

ALL_OLD = "ALL_OLD"
CONDITION_CHECK_FAILED = "ConditionalCheckFailed"  # a transaction's cancellation reason code


def old_item(exc: ConditionFailed, *, index: int | None = None) -> dict[str, Any] | None:
    """The item the lost write found (plain values), or None: there was none, or the write did
    not ask for it. `index` picks the write of a transaction."""
    cause = exc.__cause__
    if not isinstance(cause, ClientError):
        return None
    response: dict[str, Any] = dict(cause.response)
    if index is None:
        raw = response.get("Item")
    else:
        reasons = response.get("CancellationReasons") or []
        raw = reasons[index].get("Item") if index < len(reasons) else None
    return from_item(raw) if raw else None


def lost_writes(exc: ConditionFailed) -> set[int]:
    """The positions, in a cancelled transaction, of the writes whose condition failed."""
    cause = exc.__cause__
    if not isinstance(cause, ClientError):
        return set()
    reasons = cause.response.get("CancellationReasons") or []
    return {i for i, reason in enumerate(reasons) if reason.get("Code") == CONDITION_CHECK_FAILED}
