"""Opaque pagination cursors: the sort key of the last item returned, base64url-encoded JSON."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from caseplatform.errors import InvalidCursor


def encode(key: Any) -> str:
    raw = json.dumps(key, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(cursor: str) -> Any:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        return json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (binascii.Error, ValueError, UnicodeError) as exc:
        raise InvalidCursor(f"cursor is not one this server issued: {cursor[:40]}") from exc


def decode_list(cursor: str | None, length: int) -> list[Any] | None:
    """A cursor that must be a list of `length` scalars (the SQLite keyset form)."""
    if cursor is None:
        return None
    value = decode(cursor)
    if not isinstance(value, list) or len(value) != length:
        raise InvalidCursor("cursor does not fit this query")
    return value
