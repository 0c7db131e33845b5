"""Pagination cursors: any sort key a store pages on comes back from its cursor unchanged; a cursor
the server never issued (tampered, truncated, not base64, not JSON, the wrong shape) is INVALID_CURSOR.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.errors import InvalidCursor
from caseplatform.stores.cursor import decode, decode_list, encode

_SCALARS = st.none() | st.booleans() | st.integers() | st.text()
_KEYS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
_URLSAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@given(_KEYS)
def test_a_cursor_decodes_to_the_key_it_was_made_from(key: Any) -> None:
    cursor = encode(key)
    assert set(cursor) <= _URLSAFE  # safe in a query string, no padding
    assert decode(cursor) == key


@given(st.lists(st.integers() | st.text(), min_size=1, max_size=4))
def test_a_keyset_cursor_decodes_to_its_list(key: list[Any]) -> None:
    assert decode_list(encode(key), len(key)) == key


def test_no_cursor_is_the_first_page() -> None:
    assert decode_list(None, 2) is None


@pytest.mark.parametrize(
    "cursor",
    [
        "%%%",  # not base64
        "not-a-cursor!",
        base64.urlsafe_b64encode(b"{not json").decode().rstrip("="),
        base64.urlsafe_b64encode(b"\xff\xfe").decode().rstrip("="),  # not UTF-8
        encode({"pk": "CASE#1"})[:-3],  # truncated
        "é",  # not ASCII
    ],
)
def test_a_cursor_it_never_issued_is_invalid(cursor: str) -> None:
    with pytest.raises(InvalidCursor) as refused:
        decode(cursor)
    assert refused.value.code == "INVALID_CURSOR"


@pytest.mark.parametrize("key", [{"a": 1}, [1], [1, 2, 3], "x", 5])
def test_a_keyset_cursor_of_another_shape_is_invalid(key: Any) -> None:
    with pytest.raises(InvalidCursor, match="does not fit"):
        decode_list(encode(key), 2)
