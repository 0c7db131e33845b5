"""The bound on the ids a webhook body carries, before any of them becomes a key.

A message's id, its sender, the message it quotes (`context.id`), the message a reaction, an edit
or a revoke names, a button or list reply's id, a status's message id: each ends up in a DynamoDB
key (a sort key holds at most 1,024 bytes, a partition key 2,048), an SQS deduplication id or a log
line. Meta's own ids are far shorter (a wamid is about 60 characters); an id longer than
`MEMO_MAX_ID_BYTES` (UTF-8 bytes, `DEFAULT_MAX_ID_BYTES` unless configured) was crafted, and is
treated as absent or unknown, never as a crash (`memo.ingress.messages.bound_ids` says which).
Each one is logged as `INGRESS_ID_TOO_LONG`, with the field and its length, never the id itself.
"""

from __future__ import annotations

from memo.observability import logger

DEFAULT_MAX_ID_BYTES = 256
#: The range `MEMO_MAX_ID_BYTES` may be set in: room for Meta's ids, and for the longest key an id
#: goes into (its prefixes and a second id included) under DynamoDB's 1,024-byte sort key.
MIN_ID_BYTES = 64
MAX_ID_BYTES = 512

#: What a button or list reply's over-long id becomes: an id no button of Memo's carries (the tap is
#: answered as a tap on a button that no longer stands for anything).
UNKNOWN_REPLY_ID = "?"

ID_TOO_LONG = "INGRESS_ID_TOO_LONG"


def id_bytes(value: str) -> int:
    return len(value.encode("utf-8", "surrogatepass"))


def within(value: str | None, field: str, limit: int) -> str | None:
    """`value` when it is at most `limit` UTF-8 bytes; else None, logged."""
    if value is None or len(value) * 4 <= limit:  # no character takes more than 4 bytes
        return value
    size = id_bytes(value)
    if size <= limit:
        return value
    logger.warning(ID_TOO_LONG, extra={"field": field, "bytes": size, "limit": limit})
    return None
